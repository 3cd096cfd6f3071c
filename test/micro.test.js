'use strict';
// `ctxbench micro` end to end, with --quick settings. No timing value is asserted: only
// structure, direction + significance of a planted cost, and verdicts that follow from it.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { render } = require('../report/sections/micro');
const { fieller, judge } = require('../micro/analyze');

const ROOT = path.resolve(__dirname, '..');
const CLI = path.join(ROOT, 'bin', 'ctxbench.js');
const SCENARIOS = ['sync', 'async', 'nested2', 'nested5', 'realworld', 'run', 'current'];
const TARGETS = ['asyncOverhead', 'nestedP99', 'realWorldOverhead', 'perOpOverhead', 'correct'];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-micro-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

// A planted strategy with a known cost: every current() busy-waits 20 µs, and it is
// otherwise correct (the id travels on the request, as with `param`). Loaded through the
// test-only CTXBENCH_MICRO_EXTRA hook (micro/strategies.js).
const PLANTED = path.join(tmp, 'planted-slow.js');
fs.writeFileSync(PLANTED, `'use strict';
const BURN_NS = 20000n;
module.exports = {
  run: (id, fn) => fn(),
  current(req) {
    const end = process.hrtime.bigint() + BURN_NS;
    while (process.hrtime.bigint() < end);
    return req.traceId;
  },
};
`);
const ENV = { ...process.env, CTXBENCH_MICRO_EXTRA: PLANTED };

function ctxbench(args, { env = ENV, onSpawn } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    if (onSpawn) onSpawn(child);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

let planted;
const out = path.join(tmp, 'micro.json');
test('quick run with a planted slow strategy and the global control', async () => {
  // 300 ms per scenario rather than --quick's 100: the planted strategy's samples are
  // long (2 ms per sync batch), and on a loaded machine a few preempted samples must not
  // be able to swamp a handful of samples.
  const r = await ctxbench(['micro', '--strategies', 'planted-slow,global', '--quick', '--time', '300', '--out', out]);
  assert.strictEqual(r.code, 0, r.stderr);
  planted = JSON.parse(fs.readFileSync(out, 'utf8'));
  // One progress line per strategy on stderr.
  assert.strictEqual((r.stderr.match(/^micro \[\d+\/3\] /gm) || []).length, 3, r.stderr);
});

test('the run JSON has every field', () => {
  const run = planted;
  assert.ok(run, 'the quick run must have produced JSON');
  assert.strictEqual(run.schema, 1);
  assert.strictEqual(run.kind, 'micro');
  assert.strictEqual(typeof run.title, 'string');
  assert.match(run.command, /^ctxbench micro --strategies planted-slow,global --quick/);
  assert.strictEqual(run.status, 'complete');
  for (const k of ['node', 'os', 'platform', 'kernel', 'cpuModel', 'cores', 'memoryBytes', 'date', 'commit', 'dirty', 'noise']) {
    assert.ok(k in run.environment, `environment.${k}`);
  }
  const s = run.settings;
  assert.deepStrictEqual(s.strategies, ['none', 'planted-slow', 'global'], 'none is added first');
  assert.strictEqual(s.baseline, 'none');
  assert.strictEqual(s.quick, true);
  for (const k of ['time', 'warmupTime', 'iterations', 'warmupIterations', 'node', 'acf', 'library', 'scenarios']) assert.ok(k in s, `settings.${k}`);
  assert.deepStrictEqual(Object.keys(s.extra), ['planted-slow'], 'test-only modules are recorded');

  const m = run.micro;
  assert.strictEqual(m.baseline, 'none');
  assert.deepStrictEqual(m.scenarios.map((x) => x.key), SCENARIOS);
  assert.deepStrictEqual(m.criteria.map((x) => x.key), TARGETS);
  assert.strictEqual(m.targets.length, 1);
  assert.deepStrictEqual(m.results.map((e) => e.strategy), ['none', 'planted-slow', 'global']);
  for (const e of m.results) {
    assert.strictEqual(e.error, null, `${e.strategy}: ${JSON.stringify(e.error)}`);
    for (const k of ['target', 'describe', 'carriesContext', 'control', 'node', 'acf', 'pid', 'durationMs']) assert.ok(k in e, `${e.strategy}.${k}`);
    assert.strictEqual(typeof e.acf, 'boolean');
    assert.deepStrictEqual(Object.keys(e.scenarios), SCENARIOS);
    for (const [key, sc] of Object.entries(e.scenarios)) {
      for (const k of ['opsPerSec', 'meanUs', 'p50Us', 'p99Us', 'rme', 'samples', 'semUs']) {
        assert.ok(Number.isFinite(sc[k]), `${e.strategy}.${key}.${k} = ${sc[k]}`);
      }
      assert.ok(sc.samples >= 2);
      assert.ok(sc.reads > 0, `${e.strategy}.${key} read something`);
      assert.ok(Number.isInteger(sc.failures));
      assert.strictEqual(sc.checked, e.strategy !== 'none');
      if (e.strategy === 'none') assert.strictEqual(sc.overhead, null);
      else for (const k of ['ratio', 'pct', 'ci95', 'pValue', 't', 'df', 'significant', 'verdict']) assert.ok(k in sc.overhead, `${key}.overhead.${k}`);
      if (key === 'sync' || key === 'async') assert.ok('perOpOverheadUs' in sc);
    }
    assert.deepStrictEqual(Object.keys(e.targets).sort(), [...TARGETS].sort());
  }
});

test('the planted 20 µs current() is reported slower than none, significantly, and fails the targets', () => {
  const e = planted.micro.results.find((x) => x.strategy === 'planted-slow');
  // Slower in every scenario that reads (nested2 reads least: 4 x 20 µs per request)...
  for (const key of ['sync', 'async', 'nested2', 'nested5', 'realworld', 'current']) assert.ok(e.scenarios[key].overhead.pct > 0, key);
  // ...and significantly so where the planted cost dwarfs the baseline.
  for (const key of ['sync', 'async', 'nested5', 'realworld', 'current']) {
    const ov = e.scenarios[key].overhead;
    assert.ok(ov.pct > 0 && ov.significant, `${key}: ${ov.verdict}`);
    assert.ok(ov.pValue < 0.05);
    assert.match(ov.verdict, /slower, significant/);
  }
  assert.strictEqual(e.targets.asyncOverhead.status, 'FAIL');
  assert.strictEqual(e.targets.realWorldOverhead.status, 'FAIL');
  assert.strictEqual(e.targets.perOpOverhead.status, 'FAIL');
  assert.strictEqual(e.targets.nestedP99.status, 'FAIL'); // 13 reads x 20 µs at depth 5
  assert.strictEqual(e.targets.correct.status, 'PASS', 'slow but correct');
  for (const sc of Object.values(e.scenarios)) assert.strictEqual(sc.failures, 0);
});

test('the global control is caught leaking where contexts nest, not where they are sequential', () => {
  const e = planted.micro.results.find((x) => x.strategy === 'global');
  for (const key of ['nested2', 'nested5', 'realworld']) assert.ok(e.scenarios[key].failures > 0, `${key} must show wrong reads`);
  for (const key of ['sync', 'async', 'current']) assert.strictEqual(e.scenarios[key].failures, 0, key);
  assert.strictEqual(e.targets.correct.status, 'FAIL');
  const none = planted.micro.results.find((x) => x.strategy === 'none');
  assert.strictEqual(none.targets.correct.status, 'n/a');
});

test('the report renders every scenario, the targets and the labelled published reference', () => {
  const md = render(planted, { file: 'results/micro.json' });
  for (const title of planted.micro.scenarios.map((s) => s.title)) assert.ok(md.includes(`#### ${title}`), title);
  assert.match(md, /\| `planted-slow` \|/);
  assert.match(md, /Targets of the study, per strategy/);
  assert.match(md, /❌ FAIL/);
  assert.match(md, /Quick run/);
  assert.match(md, /Test-only strategies loaded/);
  const ref = md.slice(md.indexOf('### Published reference (not our measurement)'));
  assert.ok(ref.length > 50, 'reference block present');
  for (const figure of ['1,715,792', '329,452', '5.21x', '| 718 |', '| 706 |', '1.7%', '48,257', '36,221', '0.0435', '17,566', '14,177', '19.3%', 'v22.22.0', 'macOS', 'Vitest v4.0.18']) {
    assert.ok(ref.includes(figure), `reference quotes ${figure}`);
  }
});

test('bad --strategies: one line, exit 1', async () => {
  const r = await ctxbench(['micro', '--strategies', 'als,bogus', '--out', path.join(tmp, 'never.json')], { env: process.env });
  assert.strictEqual(r.code, 1);
  assert.strictEqual(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /--strategies: unknown bogus/);
  assert.ok(!fs.existsSync(path.join(tmp, 'never.json')));
  // The test-only strategy does not exist without its environment variable.
  const p = await ctxbench(['micro', '--strategies', 'planted-slow', '--quick'], { env: process.env });
  assert.strictEqual(p.code, 1);
  assert.match(p.stderr, /unknown planted-slow/);
});

test('other bad flags: one line, exit 1', async () => {
  for (const args of [['--acf', 'maybe'], ['--time', 'soon'], ['--node', 'twenty'], ['--bogus']]) {
    const r = await ctxbench(['micro', ...args], { env: process.env });
    assert.strictEqual(r.code, 1, args.join(' '));
    assert.strictEqual(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

test('SIGINT keeps the strategies already measured (status interrupted)', async () => {
  const file = path.join(tmp, 'interrupted.json');
  let sent = false;
  const r = await ctxbench(['micro', '--strategies', 'planted-slow,als,global', '--quick', '--out', file], {
    onSpawn(child) {
      const timer = setInterval(() => {
        let n;
        try {
          n = JSON.parse(fs.readFileSync(file, 'utf8')).micro.results.length;
        } catch {
          return; // not written yet
        }
        if (n >= 1 && !sent) {
          sent = true;
          clearInterval(timer);
          child.kill('SIGINT');
        }
      }, 25);
      child.on('close', () => clearInterval(timer));
    },
  });
  assert.ok(sent, 'the first strategy finished');
  assert.strictEqual(r.code, 130, r.stderr);
  const run = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.strictEqual(run.status, 'interrupted');
  assert.ok(run.micro.results.length >= 1 && run.micro.results.length < 4);
  assert.strictEqual(run.micro.results[0].strategy, 'none');
  assert.strictEqual(run.micro.results[0].error, null);
});

test('statistics helpers: Fieller interval and target verdicts', () => {
  // Equal means with small errors: the interval holds 1 and is roughly symmetric.
  const [lo, hi] = fieller(10, 0.1, 10, 0.1, 1.96);
  assert.ok(lo < 1 && hi > 1);
  // A baseline mean indistinguishable from 0 cannot be divided by: unbounded.
  assert.strictEqual(fieller(10, 0.1, 0.1, 1, 1.96), null);
  assert.strictEqual(judge(3, [1, 4], 5), 'PASS');
  assert.strictEqual(judge(8, [6, 10], 5), 'FAIL');
  assert.strictEqual(judge(4, [2, 6], 5), 'INCONCLUSIVE');
  assert.strictEqual(judge(120, null, 100), 'FAIL');
});
