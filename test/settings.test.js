'use strict';
// Tier: quick (declarations and CLI refusals; nothing measured)
// Each setting is declared once (lib/settings.js): its bounds give every command's check and
// error line, its defaults the plan's and the commands', and DEPTH's bounds are the server's.
const test = require('node:test');
const assert = require('node:assert');
const { SETTINGS, MAX_DEPTH, setting, defaultOf } = require('../lib/settings');
const { DEFAULTS } = require('../lib/plan');
const config = require('../servers/config');
const { runCli } = require('./helpers/cli');

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
