'use strict';
// Tier: quick (every command's bad-input lines: one line and a non-zero exit before anything starts)
// Every command that reads result files answers a missing, a truncated and an empty
// JSON file with one line naming the file and a non-zero exit, never a stack trace.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli } = require('./helpers/cli');
const { COMMANDS } = require('../bench/cli');
const { tempDir } = require('./helpers/tmp');

test(
  'report, compare and repro --compare: a missing, ' + 'a truncated and an empty JSON file are one line each',
  async () => {
    const dir = tempDir('ctxbench-bad-');
    const missing = path.join(dir, 'nope.json');
    const truncated = path.join(dir, 'truncated.json');
    const empty = path.join(dir, 'empty.json');
    fs.writeFileSync(truncated, '{"kind": "run", "configs": [');
    fs.writeFileSync(empty, '{}');
    const good = path.join(__dirname, 'fixtures', 'results', 'default.json');
    for (const file of [missing, truncated, empty]) {
      for (const args of [
        ['report', file, '--out', path.join(dir, 'r.md')],
        ['compare', good, file],
        ['repro', '--compare', good, file],
      ]) {
        const r = await runCli(args);
        const lines = r.stderr.trim().split('\n');
        assert.notStrictEqual(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
        assert.strictEqual(lines.length, 1, `${args.join(' ')}: one line, got ${r.stderr}`);
        assert.ok(
          lines[0].includes(path.basename(file)) && !/internal error|\n\s+at /.test(r.stderr),
          `${args.join(' ')}: ${r.stderr}`,
        );
      }
    }
  },
);

test(
  'every command: an unknown flag and a bad flag value ' + 'are one line and a non-zero exit, before anything starts',
  async () => {
    const commands = Object.keys(COMMANDS);
    assert.ok(commands.length >= 10 && commands.includes('app') && commands.includes('run'), commands.join());
    // A value no command accepts for the flag it has.
    const good = path.join(__dirname, 'fixtures', 'results', 'default.json');
    const badValue = {
      compare: [good, good, '--max-regression', 'lots'],
      report: ['--csv'],
      repro: ['--compare', 'only-one.json'],
      integrity: ['--concurrency', '0'],
      micro: ['--time', '-1'],
      app: ['--baseline', 'a', '--candidate', 'b', '--connections', '0'],
    };
    for (const command of commands) {
      for (const args of [['--no-such-flag'], badValue[command] ?? ['--connections', '0']]) {
        const r = await runCli([command, ...args], { timeoutMs: 300000 });
        const lines = r.stderr.trim().split('\n');
        assert.notStrictEqual(r.code, 0, `${command} ${args.join(' ')}: exit ${r.code}`);
        assert.strictEqual(lines.length, 1, `${command} ${args.join(' ')}: one line, got ${r.stderr}`);
        assert.match(lines[0], /^ctxbench: /, `${command} ${args.join(' ')}: ${r.stderr}`);
        // It names the flag at fault (not some later failure, such as a command that cannot start).
        const flag = args.filter((a) => a.startsWith('--')).at(-1);
        assert.ok(lines[0].includes(flag), `${command} ${args.join(' ')}: names ${flag}: ${lines[0]}`);
        assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
      }
    }
  },
);

test(
  'CTXBENCH_CPUS: two different CPUs of this machine, load generator first, ' +
    'or none; anything else is one line and exit 1, nothing written',
  async () => {
    const { readCpus } = require('../lib/cpus');
    assert.deepStrictEqual(readCpus('', 2), { loadgen: 0, server: 1 });
    assert.deepStrictEqual(readCpus('1,0', 2), { loadgen: 1, server: 0 });
    assert.strictEqual(readCpus('none', 2), null, 'none: nothing pinned');
    for (const bad of ['1,1', '0,2', '0', 'a,b', '0,1,2'])
      assert.throws(() => readCpus(bad, 2), /CTXBENCH_CPUS=.* is not valid/);
    const dir = tempDir('ctxbench-cpus-');
    const out = path.join(dir, 'x.json');
    const r = await runCli(
      ['run', '--strategies', 'none', '--depths', '8', '--method', 'sequential', '--out', out, '--report', 'none'],
      { env: { CTXBENCH_CPUS: '1,1' } },
    );
    assert.strictEqual(r.code, 1, r.stderr);
    assert.match(r.stderr, /^ctxbench: CTXBENCH_CPUS=1,1 is not valid[^\n]*\n$/);
    assert.ok(!fs.existsSync(out), 'nothing written');
  },
);

test('a command that refuses bad input has not loaded autocannon (most of a CLI start, required at a burst)', () => {
  const r = require('node:child_process').spawnSync(
    process.execPath,
    [
      '-e',
      "for (const c of ['run', 'app', 'deploy', 'repro']) require('./bench/cli/' + c);" +
        "process.stdout.write(String(Object.keys(require.cache).some((k) => k.includes('/node_modules/autocannon/'))))",
    ],
    { cwd: path.join(__dirname, '..'), encoding: 'utf8' },
  );
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.stdout, 'false', 'autocannon loaded at start-up');
});
