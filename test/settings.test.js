'use strict';
// Tier: quick (declarations and CLI refusals; nothing measured)
// Each setting is declared once (lib/settings.js): its bounds give every command's check and
// error line, its defaults the plan's and the commands', its commands their flag lists and
// --help lines, its help the plan field's doc, and DEPTH's bounds are the server's.
const test = require('node:test');
const assert = require('node:assert');
const { SETTINGS, MAX_DEPTH, setting, defaultOf } = require('../lib/settings');
const { settingsOf, helpLines, WIDTH } = require('../lib/settings-help');
const { DEFAULTS, FIELDS } = require('../lib/plan');
const { COMMANDS, helpOf } = require('../bench/cli');
const config = require('../servers/config');
const { runCli } = require('./helpers/cli');

// `repro` takes `run`'s flags (its --help says so, and sends the reader to run's).
const FLAGS_OF = { repro: 'run' };

test('settings: one declaration gives the check, the error line and each command default', () => {
  assert.strictEqual(setting('windows', '2', { method: 'duet' }), 2);
  assert.throws(() => setting('windows', '1', { method: 'duet' }), {
    message: '--windows=1 is not valid; expected an integer from 2 to 1000',
  });
  assert.strictEqual(setting('windows', '1', { method: 'instructions' }), 1);
  assert.strictEqual(setting('blocks', undefined, { command: 'app' }), 5);
  assert.strictEqual(setting('blocks', undefined, { command: 'aa' }), 3, "a command without its own: the plan's");
  assert.strictEqual(setting('blocks', undefined), undefined, 'no command: the caller (a preset) decides');
  // The plan's fallbacks are the declarations' (lib/plan.js keeps no number of its own).
  for (const s of Object.values(SETTINGS).filter((x) => x.plan && x.default && 'plan' in x.default))
    assert.strictEqual(DEFAULTS[s.plan], s.default.plan, s.plan);
  assert.strictEqual(defaultOf('connections', 'autocannon'), 100);
});

test("settings: DEPTH's bounds are the server's and every depth flag's", async () => {
  assert.strictEqual(config.MAX_DEPTH, MAX_DEPTH);
  assert.throws(() => config.serverSettings({ DEPTH: String(MAX_DEPTH + 1) }), /DEPTH=.* from 1 to 1024/);
  for (const args of [
    ['run', '--depths', String(MAX_DEPTH + 1)],
    ['aa', '--depth', String(MAX_DEPTH + 1)],
    ['calibrate', '--depth', '0'],
  ]) {
    const r = await runCli(args);
    assert.strictEqual(r.code, 1, args.join(' '));
    assert.match(r.stderr.trim(), /^ctxbench: --depths?=\d+ is not valid; expected an integer from 1 to 1024$/);
  }
});

test('settings: every command takes each flag declared for it, and its --help says what lib/settings.js does', () => {
  for (const name of Object.keys(COMMANDS)) {
    const { OPTIONS } = COMMANDS[name].load();
    const command = FLAGS_OF[name] ?? name;
    const declared = settingsOf(command);
    // Read as one line: a text wraps at any space.
    const help = helpOf(command).replace(/\s+/g, ' ');
    for (const flag of declared) {
      const s = SETTINGS[flag];
      assert.ok(Object.hasOwn(OPTIONS, flag), `${name}: --${flag} is declared for ${command} but not in its OPTIONS`);
      const text = (s.helpFor?.[command] ?? s.help).split(' ').slice(0, 4).join(' ');
      assert.ok(help.includes(` --${flag} ${s.arg} ${text}`), `${command} --help: no --${flag} ${s.arg} ${text} …`);
    }
    for (const flag of Object.keys(OPTIONS).filter((f) => Object.hasOwn(SETTINGS, f)))
      assert.ok(declared.includes(flag), `${name}: --${flag} is in its OPTIONS, not declared for ${command}`);
  }
});

test('settings: the help lines are the declared texts, in a column, wrapped at the width, with the default', () => {
  for (const command of Object.keys(COMMANDS)) {
    for (const line of helpLines(command, { column: 21 }).split('\n').filter(Boolean)) {
      assert.ok(line.length <= WIDTH || !line.trim().includes(' '), `${command}: ${line.length} characters: ${line}`);
      assert.match(line, /^( {2}--[a-z-]+ \S+( +\S.*)?| {21}\S.*)$/, `${command}: ${line}`);
    }
  }
  assert.strictEqual(
    helpLines('overhead', { column: 20, only: ['connections'] }),
    `  --connections N   ${SETTINGS.connections.help} (default ${defaultOf('connections', 'overhead')})\n`,
  );
  assert.match(helpLines('app', { column: 24, only: ['connections'] }), /per side \(default 10\)/, 'helpFor');
  // A flag too wide for the column: its text on the next line.
  const wide = helpLines('micro', { column: 21, only: ['max-warmup-windows'] });
  assert.match(wide, /^ {2}--max-warmup-windows N\n {21}\S/);
  assert.doesNotMatch(helpLines('run', { defaults: { blocks: null }, only: ['blocks'] }), /default/);
});

test('settings: a setting that fills a plan field gives FIELDS its type and doc (lib/plan.js writes neither)', () => {
  const planned = Object.values(SETTINGS).filter((s) => s.plan);
  assert.ok(planned.length >= 30, String(planned.length));
  for (const s of planned) {
    const field = FIELDS[s.plan];
    const value = s.min === undefined ? 'string' : s.integer ? 'integer' : 'number';
    const type = s.list ? 'array' : s.object ? 'object' : value;
    assert.deepStrictEqual(field.type, s.nullable ? [type, 'null'] : type, s.plan);
    assert.strictEqual(field.doc, s.nullable ? `${s.help} (null: ${s.nullable})` : s.help, s.plan);
  }
  assert.deepStrictEqual(FIELDS.connections, { type: 'integer', doc: 'concurrent connections per server' });
  assert.deepStrictEqual(FIELDS.precision.type, ['number', 'null']);
  assert.deepStrictEqual([FIELDS.depths.type, FIELDS.slo.type], ['array', ['object', 'null']]);
});
