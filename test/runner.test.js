'use strict';
// Tier: quick (the run command's cheapest complete sequential run, the targets'
// failures and refusals, bad input, Ctrl-C while rate mode measures the capacity)
// The runner end to end, on real servers: a sequential run stops at its precision
// target's time cap with what it measured, failures stay local to their config, bad input
// is one line, and Ctrl-C while rate mode measures the capacity quits. The tiny run of
// three strategies and its report, a killed server, Ctrl-C keeping samples and the curl
// driver: test/all/runner.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { startServer } = require('./helpers/server');
const { runCli, runCliJson } = require('./helpers/cli');
const { tempDir } = require('./helpers/tmp');

const tmpdir = () => tempDir('ctxbench-runner-');

test(
  '--precision: the run stops at the time cap after the minimum ' +
    'blocks and lists the ratio that missed, with the blocks it needs',
  async () => {
    const out = path.join(tmpdir(), 'precise.json');
    const { stderr, run } = await runCliJson(
      [
        'run',
        '--method',
        'sequential',
        '--strategies',
        'none,als',
        '--depths',
        '8',
        '--hops',
        'immediate',
        '--duration',
        '0.5',
        '--warmup',
        '0',
        '--blocks',
        '3',
        '--rounds',
        '1',
        '--connections',
        '10',
        '--precision',
        '0.1',
        '--max-time',
        '1',
      ],
      out,
    );
    const p = run.precision;
    assert.deepStrictEqual([p.target, p.reached, p.maxTimeS, p.blocks], [0.1, false, 1, 3], JSON.stringify(p));
    assert.ok(
      run.configs.every((c) => c.processes.length === 3),
      'the minimum blocks are measured whatever the cap',
    );
    assert.strictEqual(p.missing.length, 1);
    assert.strictEqual(p.missing[0].id, run.configs.find((c) => c.strategy === 'als').id);
    assert.ok(p.missing[0].blocksNeeded > 3, 'a 0.1 pp target needs more blocks than were measured');
    assert.match(stderr, /stopping \(time cap/);
  },
);

test('a dead --target fails alone; the healthy target is measured', async (t) => {
  const server = await startServer({ STRATEGY: 'als', HOP: 'immediate' });
  t.after(() => server.stop());
  const dir = tmpdir();
  const out = path.join(dir, 'remote.json');
  const { code, stderr } = await runCli([
    'run',
    '--target',
    `als=${server.url}`,
    '--target',
    'dead=http://127.0.0.1:9',
    '--duration',
    '0.5',
    '--warmup',
    '0',
    '--rounds',
    '1',
    '--connections',
    '10',
    '--pipelining',
    '1',
    '--out',
    out,
    '--report',
    'none',
  ]);
  assert.strictEqual(code, 1, `a failed configuration fails the run: ${stderr}`);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.strictEqual(run.status, 'failed');
  const live = run.configs.find((c) => c.id === 'target/als');
  const dead = run.configs.find((c) => c.id === 'target/dead');
  assert.deepStrictEqual([live.status, live.error], ['ok', null]);
  assert.strictEqual(live.samples.length, 3, 'one sample per block');
  assert.strictEqual(dead.status, 'failed');
  assert.strictEqual(live.strategy, 'als', 'strategy confirmed by /__stats');
  assert.strictEqual(live.summary.mismatches, 0);
  assert.ok(dead.error && dead.error.message.length > 0);
  assert.strictEqual(dead.samples.length, 0);
  assert.match(stderr, /FAILED target\/dead/);
  assert.strictEqual(run.environment.fingerprint, null, 'no fingerprint of a remote run');
});

test('a target that reports another strategy than its name is refused', async (t) => {
  const server = await startServer({ STRATEGY: 'param' });
  t.after(() => server.stop());
  const out = path.join(tmpdir(), 'wrong.json');
  const { code } = await runCli([
    'run',
    '--target',
    `als=${server.url}`,
    '--duration',
    '0.5',
    '--warmup',
    '0',
    '--rounds',
    '1',
    '--out',
    out,
    '--report',
    'none',
  ]);
  assert.strictEqual(code, 1, 'nothing could be measured');
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.match(run.configs[0].error.message, /reports strategy param/);
});

test('bad input: one line, exit 1, nothing started', async () => {
  const cases = [
    [['run', '--method', 'sequential', '--strategies', 'als,bogus'], /--strategies: unknown bogus/],
    [['run', '--depths', '0'], /--depths=0 is not valid/],
    [['run', '--preset', 'nope'], /--preset nope is unknown/],
    [['run', '--duration', 'x'], /--duration=x is not valid/],
    [['run', '--target', 'noequals'], /--target noequals is not valid/],
    [['run', '--acf', 'maybe'], /--acf maybe is not valid/],
    [['run', '--blocks', '2'], /--blocks=2 is not valid/],
    [['run', '--min-per-connection', '0'], /--min-per-connection=0 is not valid/],
    [['run', '--bogus'], /unknown option --bogus/],
    [
      ['run', '--node', '3', '--out', path.join(tmpdir(), 'n.json')],
      /no Node version could be resolved \(.*Node 3.*\); nothing to measure/,
    ],
    [['nope'], /unknown command 'nope'/],
  ];
  for (const [args, pattern] of cases) {
    const { code, stderr } = await runCli(args);
    assert.strictEqual(code, 1, args.join(' '));
    const lines = stderr.trim().split('\n');
    assert.strictEqual(lines.length, 1, `${args.join(' ')}: ${stderr}`);
    assert.match(lines[0], pattern);
    assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
  }
});

// Rate mode measures the baseline's capacity before anything is kept: Ctrl-C there quits
// through the one interrupt handler (bench/run/progress.js onInterrupt), says so, exits 130
// and stops the server it started.
test('Ctrl-C while rate mode measures the baseline capacity: exit 130, one line, no server left', async () => {
  const out = path.join(tmpdir(), 'capacity-interrupted.json');
  const mark = `CTXBENCH_TEST_MARK=${process.pid}-${Date.now()}`;
  let sent = false;
  const { code, stderr } = await runCli(
    [
      'run',
      '--strategies',
      'none,als',
      '--depths',
      '8',
      '--load',
      '50%',
      '--duration',
      '2',
      '--warmup',
      '2',
      '--connections',
      '10',
      '--out',
      out,
      '--report',
      'none',
    ],
    {
      env: { CTXBENCH_TEST_MARK: mark.split('=')[1] },
      onStderr: (text, child) => {
        if (!sent && /measuring the capacity of/.test(text)) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    },
  );
  assert.ok(sent, stderr);
  assert.strictEqual(code, 130, stderr);
  assert.match(stderr, /interrupted while measuring the baseline capacity: nothing was measured/);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
  // The servers it started inherit its environment: none may still carry the mark.
  const left = () =>
    fs
      .readdirSync('/proc')
      .filter((pid) => /^\d+$/.test(pid))
      .filter((pid) => {
        try {
          return fs.readFileSync(`/proc/${pid}/environ`, 'latin1').includes(mark);
        } catch {
          return false;
        }
      });
  for (let i = 0; i < 400 && left().length; i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepStrictEqual(left(), [], 'no server left running');
});
