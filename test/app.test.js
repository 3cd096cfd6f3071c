'use strict';
// `ctxbench app`: two start commands of "the user's" service (test/fixtures/work-app.js),
// measured in duet from /proc. A planted CPU cost per request is found where it was put;
// every answer's id is checked; a command that dies, a health path that never gets
// ready and missing flags each end in one line and exit 1.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runCli } = require('./helpers/cli');
require('./helpers/servers-on-cpu-0');

const APP = path.join(__dirname, 'fixtures', 'work-app.js');
const node = (env) => `${env} ${JSON.stringify(process.execPath)} ${JSON.stringify(APP)}`;
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-app-'));
const SHORT = ['--health', '/healthz', '--blocks', '3', '--windows', '2', '--window', '0.5', '--warmup', '0.5', '--report', 'none'];

test('a planted CPU cost per request is found where it was put, every id is checked, and the report shows it', { timeout: 120000 }, async () => {
  const dir = tmp();
  const out = path.join(dir, 'app.json');
  // The burn is CPU time and the baseline's work is hashing, which a slow machine
  // stretches: a burn near the baseline's whole cost stays plain to see when the machine
  // runs 5× slower than usual (40 µs over WORK=150 read as a 4% effect, not significant
  // from three blocks, on a day the machine ran at 220 µs per fingerprint request).
  const BURN = 200;
  // A window counts only when the two servers saturated their CPU (bench/duet.js). npm
  // test runs two files at once, and beside this one appengine.test.js starts unpinned
  // servers and npm: in CI once the pair got 84-89% of its CPU for the whole run, 1 window
  // of 18 counted and no interval could be formed. The run must then say so (windows
  // dropped, each with its reason, no interval); one more run follows, away from that
  // neighbour. Every assertion below is on a run that did form its interval.
  const measure = () => runCli(['app', '--baseline', node('WORK=20'), '--candidate', node(`WORK=20 BURN_US=${BURN}`), '--names', 'plain,traced',
    '--id-header', 'X-Request-Id', ...SHORT, '--out', out]);
  let r = await measure();
  assert.strictEqual(r.code, 0, r.stderr);
  let run = JSON.parse(fs.readFileSync(out, 'utf8'));
  if (run.app.ratio.ci95 === null) {
    const windows = run.configs.flatMap((c) => (c.samples || []).filter((x) => x.kind === 'window'));
    assert.ok(run.app.ratio.windows.dropped > 0 && windows.filter((w) => !w.counted).every((w) => /served no request|load generator|not saturated|not busy/.test(w.dropped)), JSON.stringify(run.app.ratio));
    r = await measure();
    assert.strictEqual(r.code, 0, r.stderr);
    run = JSON.parse(fs.readFileSync(out, 'utf8'));
  }
  assert.strictEqual(run.kind, 'app');
  assert.strictEqual(run.status, 'complete');
  const [base, cand] = run.configs;
  assert.deepStrictEqual([base.name, cand.name, base.arm, cand.arm], ['plain', 'traced', 'baseline', 'candidate']);
  // A fresh process of each per block.
  for (const c of run.configs) assert.strictEqual(new Set(c.processes.map((p) => p.pid)).size, 3, `${c.name}: 3 processes`);
  // The candidate costs BURN µs more CPU per request than the baseline: the expected ratio
  // follows from the baseline's own CPU per request.
  const a = run.app;
  // How close it lands is the calibration benchmark's question (ctxbench calibrate), not a
  // unit test's. Here: on the right side and at least half what was planted. No upper
  // bound: the fixture spins until its CPU clock has advanced BURN µs, so it plants at
  // least that (on a machine 4× slower than usual, with the other test files on both
  // CPUs, 40 µs read as 84: each clock read is a system call that itself costs CPU).
  const expectedWith = (burn) => a.cpuUsPerRequest.baseline / (a.cpuUsPerRequest.baseline + burn);
  assert.ok(a.ratio.ci95[1] < 1, `the cost is significant: ${JSON.stringify(a.ratio.ci95)}`);
  assert.ok(a.ratio.estimate < expectedWith(BURN / 2), `found ${a.ratio.estimate.toFixed(3)}, planted ${expectedWith(BURN).toFixed(3)}`);
  assert.ok(a.cpuUsPerRequest.candidate - a.cpuUsPerRequest.baseline > BURN / 2, 'CPU per request read from /proc grows by the burn');
  for (const arm of ['baseline', 'candidate']) {
    const ids = a.ids[arm];
    assert.ok(ids.checked && ids.kept > 100 && ids.mismatches === 0 && ids.lost === 0, `${arm}: ${JSON.stringify(ids)}`);
  }
  assert.match(r.stdout, /traced at \d+\.\d% \[\d+\.\d%–\d+\.\d%\] of plain's throughput on one CPU \(CPU per request in duet\): \d+\.\d% slower, significant/);

  const report = path.join(dir, 'results.md');
  const rep = await runCli(['report', out, '--out', report, '--no-html']);
  assert.strictEqual(rep.code, 0, rep.stderr);
  const md = fs.readFileSync(report, 'utf8');
  assert.match(md, /## Your service: traced against plain/);
  assert.match(md, /\| `traced` \| `WORK=20 BURN_US=200 [^|]*` \| \d+\.\d% \[\d+\.\d%–\d+\.\d%\] \| \d+\.\d% slower, significant \|/);
  assert.match(md, /\| ✅ [\d,]+ kept, 0 mismatched, 0 lost \|/);
});

test('answers that carry another id, or none, are counted and flagged', { timeout: 60000 }, async () => {
  const dir = tmp();
  const out = path.join(dir, 'app.json');
  const r = await runCli(['app', '--baseline', node('WORK=150 ECHO=0'), '--candidate', node('WORK=150 ECHO=wrong'), '--id-header', 'x-request-id',
    '--health', '/healthz', '--blocks', '3', '--windows', '1', '--window', '0.2', '--warmup', '0', '--connections', '4', '--report', 'none', '--out', out]);
  assert.strictEqual(r.code, 0, r.stderr);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.ok(run.app.ids.baseline.lost > 0 && run.app.ids.baseline.kept === 0, 'no echo: lost');
  assert.ok(run.app.ids.candidate.mismatches > 0, 'another request\'s id: mismatched');
  assert.strictEqual(run.app.broken, true);
  assert.strictEqual(run.app.ratio.verdict, 'context broken, cost not comparable');
});

test('bad input: a command that dies, a health path never ready, missing or bad flags: one line, exit 1', { timeout: 60000 }, async () => {
  const dir = tmp();
  const cases = [
    [['--baseline', 'echo "cannot find module ./server" >&2; exit 3', '--candidate', node('')], /^ctxbench: baseline: `echo .*` exited \(exit code 3\) before \/healthz answered: cannot find module \.\/server \(run JSON with what was measured: /],
    [['--baseline', node(''), '--candidate', node(''), '--health', '/unready', '--startup-timeout', '1'], /^ctxbench: (baseline|candidate): \/unready on port \d+ never answered 2xx within 1 s \(last: HTTP 503\)/],
    [['--baseline', node('')], /^ctxbench: --candidate CMD is required/],
    [['--baseline', 'a', '--candidate', 'b', '--blocks', '2'], /^ctxbench: --blocks/],
    [['--baseline', 'a', '--candidate', 'b', '--names', 'x,x'], /^ctxbench: --names x,x: two different names/],
    [['--baseline', 'a', '--candidate', 'b', '--id-header', 'bad header'], /^ctxbench: --id-header bad header is not an HTTP header name/],
  ];
  for (const [args, message] of cases) {
    const r = await runCli(['app', ...args, ...(args.includes('--health') ? [] : ['--health', '/healthz']), '--out', path.join(dir, 'x.json'), '--report', 'none']);
    assert.strictEqual(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.strictEqual(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
  }
  // A service that falls over under load: the side and its last stderr line, one line.
  const crash = await runCli(['app', '--baseline', node('WORK=10'), '--candidate', node('WORK=10 DIE_AFTER=300'), '--health', '/healthz', '--blocks', '3',
    '--warmup', '1', '--window', '0.3', '--out', path.join(dir, 'crash.json'), '--report', 'none']);
  assert.strictEqual(crash.code, 1, crash.stderr);
  assert.match(crash.stderr, /^ctxbench: candidate: `.*DIE_AFTER=300.*` exited \(exit code 1\) under load in block 1: crashed after 300 requests \(run JSON with what was measured: /);
  assert.strictEqual(crash.stderr.trim().split('\n').filter((l) => !l.startsWith('ctxbench app:')).length, 1, crash.stderr);
  // The failed start left a run JSON saying so, with the failing side named.
  const failed = JSON.parse(fs.readFileSync(path.join(dir, 'x.json'), 'utf8'));
  assert.strictEqual(failed.status, 'failed');
});
