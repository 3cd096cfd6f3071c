'use strict';
// Tier: quick (micro's one end-to-end run with a planted slow strategy and the control, its refusals, the statistics)
// `ctxbench micro` end to end, with --quick settings. No timing value is asserted: only
// structure, direction + significance of a planted cost, and verdicts that follow from it.
//
// No A/A end-to-end test (an exact copy of `none` must not come out "significant"): at
// α = 0.05 per scenario a calibrated test errs on about 1 cell in 20, so with 7 scenarios
// an A/A run shows at least one "significant" cell about a quarter of the time (observed
// on this machine: see docs/micro.md). Such a test would be flaky by construction; the
// synthetic tests at the end check the statistics instead.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli } = require('./helpers/cli');
const { render, targetCell } = require('../report/sections/micro');
const { judge, overhead, summarize, targets } = require('../analysis/micro');
const { verdictText, BROKEN } = require('../report/verdict-text');
// An overhead's verdict as the report words it (rounds are what too few of were counted).
const words = (ov) => verdictText(ov.judgement, { units: 'rounds' });
const { median } = require('../analysis/stats');
const scenarios = require('../micro/scenarios');
const { roundOrder } = require('../micro');
const { tempDir } = require('./helpers/tmp');
const { plantSlow } = require('./helpers/micro-planted');

const tmp = tempDir('ctxbench-micro-');
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const PLANTED = plantSlow(tmp);
const ROUNDS = 3;
const STRATEGIES = ['none', 'planted-slow', 'global'];

// The planted strategy exists only with its environment variable; { env: process.env } runs without it.
const ctxbench = (args, { env = PLANTED, ...options } = {}) => runCli(args, { env, ...options });

let planted;
const out = path.join(tmp, 'micro.json');
test('quick run with a planted slow strategy and the global control', async () => {
  // --quick's 3 rounds: 9 processes of about a second each. (No significance is asserted:
  // with 2 degrees of freedom a planted cost can fall short of it on a loaded machine.)
  // Run from a folder with its own results.md: a run written outside results/ leaves it alone.
  const sentinel = '# committed report\n';
  fs.writeFileSync(path.join(tmp, 'results.md'), sentinel);
  const r = await ctxbench(
    ['micro', '--strategies', 'planted-slow,global', '--quick', '--rounds', String(ROUNDS), '--out', out],
    { cwd: tmp },
  );
  assert.strictEqual(r.code, 0, r.stderr);
  assert.strictEqual(fs.readFileSync(path.join(tmp, 'results.md'), 'utf8'), sentinel, 'results.md not rewritten');
  planted = JSON.parse(fs.readFileSync(out, 'utf8'));
  // One progress line per process on stderr.
  const n = ROUNDS * STRATEGIES.length;
  assert.strictEqual(
    (r.stderr.match(new RegExp(`^(?:ctxbench micro: )?micro \\[\\d+/${n}\\] round \\d/${ROUNDS} `, 'gm')) || []).length,
    n,
    r.stderr,
  );
});

test('the run: one fresh process per strategy per round, figures derived from the rounds', () => {
  const run = planted;
  assert.ok(run, 'the quick run must have produced JSON');
  assert.strictEqual(run.status, 'complete');
  assert.deepStrictEqual(run.settings.strategies, STRATEGIES, 'none is added first');
  assert.deepStrictEqual(Object.keys(run.settings.extra), ['planted-slow'], 'test-only modules are recorded');
  const m = run.micro;
  assert.strictEqual(m.roundsDone, ROUNDS);
  assert.deepStrictEqual(
    m.results.map((e) => e.strategy),
    STRATEGIES,
  );
  const pids = new Set();
  for (const e of m.results) {
    assert.strictEqual(e.error, null, `${e.strategy}: ${JSON.stringify(e.error)}`);
    assert.strictEqual(e.carriesContext, e.strategy !== 'none');
    assert.deepStrictEqual(
      e.rounds.map((r) => r.round),
      [...Array(ROUNDS).keys()],
    );
    for (const r of e.rounds) {
      assert.ok(Number.isInteger(r.pid) && !pids.has(r.pid), `${e.strategy} round ${r.round}: a fresh process`);
      pids.add(r.pid);
      for (const [key, sc] of Object.entries(r.scenarios)) {
        // The timer's resolution is measured in each process, and what it timed per
        // sample is a whole batch for the per-call scenarios.
        assert.ok(sc.timerResolutionUs > 0, `${key}: timer resolution measured`);
        const meta = run.micro.scenarios.find((x) => x.key === key);
        const perCall = ['run', 'current'].includes(key);
        assert.ok(Math.abs(sc.timedUs - sc.meanUs * (perCall ? meta.ops : 1)) <= 1e-9 * sc.timedUs, key);
      }
    }
    for (const [key, sc] of Object.entries(e.scenarios)) {
      // Summaries are medians and sums over the rounds' values.
      assert.strictEqual(sc.meanUs, median(e.rounds.map((r) => r.scenarios[key].meanUs)), `${e.strategy}.${key} mean`);
      assert.strictEqual(
        sc.reads,
        e.rounds.reduce((a, r) => a + r.scenarios[key].reads, 0),
      );
      assert.strictEqual(
        sc.failures,
        e.rounds.reduce((a, r) => a + r.scenarios[key].failures, 0),
      );
      if (e.strategy === 'none') {
        assert.strictEqual(sc.overhead, null);
        continue;
      }
      const ov = sc.overhead;
      // Paired by round: n is the number of rounds, not of samples; the interval holds the estimate.
      assert.strictEqual(ov.n, ROUNDS);
      assert.strictEqual(ov.df, ROUNDS - 1);
      if (ov.broken || ov.unresolved) {
        assert.strictEqual(ov.significant, false, `${e.strategy}.${key}: no verdict without a comparable cost`);
        assert.strictEqual(ov.broken, sc.failures > 0);
      } else {
        assert.ok(ov.ci95[0] <= ov.pct && ov.pct <= ov.ci95[1], `${e.strategy}.${key}`);
        assert.strictEqual(ov.significant, ov.pValue < 0.05);
      }
    }
  }
});

// Whether the planted cost comes out "significant" depends on how busy the machine is: the
// timed suite reports it (ctxbench micro, results/micro.md), the instruction counts find it
// deterministically (test/all/micro-counts.test.js). Here: slow but correct, and each target
// has a status.
test('the planted 20 µs current() reads right in every scenario and passes the correctness target', () => {
  const e = planted.micro.results.find((x) => x.strategy === 'planted-slow');
  for (const sc of Object.values(e.scenarios)) assert.strictEqual(sc.failures, 0);
  assert.strictEqual(e.targets.correct.status, 'PASS', 'slow but correct');
  for (const [key, target] of Object.entries(e.targets)) {
    assert.ok(['PASS', 'FAIL', 'INCONCLUSIVE', 'n/a'].includes(target.status), `${key}: ${target.status}`);
  }
  for (const key of ['sync', 'async', 'nested2', 'nested5', 'realworld', 'current']) {
    const ov = e.scenarios[key].overhead;
    if (ov.unresolved) assert.match(words(ov), /below timer resolution/, key);
  }
});

test('the global control is caught leaking where contexts nest, not where they are sequential', () => {
  const e = planted.micro.results.find((x) => x.strategy === 'global');
  for (const key of ['nested2', 'nested5', 'realworld'])
    assert.ok(e.scenarios[key].failures > 0, `${key} must show wrong reads`);
  for (const key of ['sync', 'async', 'current']) assert.strictEqual(e.scenarios[key].failures, 0, key);
  assert.strictEqual(e.targets.correct.status, 'FAIL');
  // Where it read wrong, its cost gets no verdict.
  for (const key of ['nested2', 'nested5', 'realworld'])
    assert.strictEqual(words(e.scenarios[key].overhead), BROKEN, key);
  assert.strictEqual(e.targets.realWorldOverhead.status, 'BROKEN');
  assert.strictEqual(e.targets.nestedP99.status, 'BROKEN');
  assert.match(render(planted), /⛔ context broken, cost not comparable/);
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
  assert.match(md, new RegExp(`${ROUNDS} rounds, each strategy in a fresh process every round`));
  assert.match(md, /\| rounds \| vs none \[95% CI\] \| CI ± \|/);
  assert.match(md, /\*\*Achieved precision\*\*/);
  assert.match(md, /paired per-round log ratios/);
  assert.doesNotMatch(md, /Welch/);
  const ref = md.slice(md.indexOf('### Published reference (not our measurement)'));
  assert.ok(ref.length > 50, 'reference block present');
  for (const figure of [
    '1,715,792',
    '329,452',
    '5.21x',
    '| 718 |',
    '| 706 |',
    '1.7%',
    '48,257',
    '36,221',
    '0.0435',
    '17,566',
    '14,177',
    '19.3%',
    'v22.22.0',
    'macOS',
    'Vitest v4.0.18',
  ]) {
    assert.ok(ref.includes(figure), `reference quotes ${figure}`);
  }
});

test('bad --strategies: one line, exit 1', async () => {
  const r = await ctxbench(['micro', '--strategies', 'als,bogus', '--out', path.join(tmp, 'never.json')], {
    env: process.env,
  });
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
  for (const args of [
    ['--acf', 'maybe'],
    ['--time', 'soon'],
    ['--node', 'twenty'],
    ['--rounds', '1'],
    ['--rounds', 'many'],
    ['--bogus'],
  ]) {
    const r = await ctxbench(['micro', ...args], { env: process.env });
    assert.strictEqual(r.code, 1, args.join(' '));
    assert.strictEqual(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

// Synthetic per-round values (not measurements): the statistics the verdicts rest on.
const sc = (meanUs, extra = {}) => ({
  meanUs,
  p50Us: meanUs,
  p99Us: 2 * meanUs,
  minUs: meanUs / 2,
  maxUs: 3 * meanUs,
  rme: 1,
  samples: 100,
  reads: 10,
  failures: 0,
  checked: true,
  ...extra,
});
const roundsOf = (values, extra) =>
  values.map((v, round) => ({ round, error: null, scenarios: { sync: sc(v, extra && extra[round]) } }));

test('statistics: per-round values paired by round, n = rounds', () => {
  // The machine drifts by 3x between rounds; in each round the strategy is 10% slower.
  const drift = [1, 3, 1.5, 2.5, 1.2];
  const base = roundsOf(drift);
  const slower = roundsOf(drift.map((d, i) => d * (1.1 + 0.005 * (i % 2))));
  const ov = overhead(slower, base, 'sync');
  assert.strictEqual(ov.n, 5);
  assert.strictEqual(ov.paired, true);
  assert.strictEqual(ov.df, 4);
  assert.ok(ov.significant, 'pairing takes the shared drift out');
  assert.match(words(ov), /slower, significant/);
  assert.ok(ov.ci95[0] > 0 && ov.ci95[0] < ov.pct && ov.pct < ov.ci95[1]);
  assert.ok(Math.abs(ov.halfWidthPct - (ov.ci95[1] - ov.ci95[0]) / 2) < 1e-9);
  // The same values, with the rounds shuffled, are no longer paired with their drift.
  const shuffled = slower.map((r, i) => ({ ...r, round: (i + 2) % 5 }));
  assert.strictEqual(overhead(shuffled, base, 'sync').significant, false);
  // Noise in both directions: no significant difference, the interval holds 0.
  const aa = overhead(roundsOf([1.05, 0.9, 1.1, 0.97, 1.0]), roundsOf([1, 1, 1, 1, 1]), 'sync');
  assert.strictEqual(aa.significant, false);
  assert.strictEqual(words(aa), 'no significant difference');
  assert.ok(aa.ci95[0] < 0 && aa.ci95[1] > 0);
  // Rounds missing on one side are left out of the pairing.
  assert.strictEqual(overhead(slower.slice(0, 3), base, 'sync').n, 3);
  // One round: an estimate, no interval, no verdict; the targets cannot PASS or FAIL on it.
  const one = overhead(slower.slice(0, 1), base.slice(0, 1), 'sync');
  assert.strictEqual(one.ci95, null);
  assert.strictEqual(words(one), 'not enough rounds');
  const t = targets({
    strategy: 'x',
    scenarios: { async: { overhead: one }, realworld: { overhead: { ...one, pct: 1000 } } },
  });
  assert.strictEqual(t.asyncOverhead.status, 'INCONCLUSIVE');
  assert.strictEqual(t.realWorldOverhead.status, 'INCONCLUSIVE');
});

test('statistics: summaries over rounds, correctness summed, rotating order', () => {
  const s = summarize(roundsOf([1, 5, 2], [{ failures: 3 }, {}, { failures: 1 }]), 'sync');
  assert.strictEqual(s.rounds, 3);
  assert.strictEqual(s.meanUs, 2, 'median of the per-process means');
  assert.strictEqual(s.p99Us, 4);
  assert.strictEqual(s.reads, 30);
  assert.strictEqual(s.failures, 4);
  assert.strictEqual(s.samples, 300);
  assert.strictEqual(summarize([], 'sync'), null);
  assert.deepStrictEqual(summarize([{ round: 0, scenarios: { sync: { error: 'boom' } } }], 'sync').error, 'boom');
  // Round r rotates the order by r: over as many rounds as strategies, each takes each place.
  const names = ['none', 'a', 'b', 'c'];
  assert.deepStrictEqual(roundOrder(names, 0), names);
  assert.deepStrictEqual(roundOrder(names, 1), ['a', 'b', 'c', 'none']);
  for (const n of names) {
    assert.deepStrictEqual([0, 1, 2, 3].map((r) => roundOrder(names, r).indexOf(n)).sort(), [0, 1, 2, 3], n);
  }
  assert.strictEqual(judge(3, [1, 4], 5), 'PASS');
  assert.strictEqual(judge(8, [6, 10], 5), 'FAIL');
  assert.strictEqual(judge(4, [2, 6], 5), 'INCONCLUSIVE');
  assert.strictEqual(judge(120, null, 100), 'FAIL');
});

test(
  'statistics: the unpaired (Welch) fallback reports the ' +
    'Welch–Satterthwaite df of the log values its interval uses',
  () => {
    // No round in common: ratio() falls back to Welch's test on log(1e6 / meanUs).
    const cfg = [
      { round: 0, error: null, scenarios: { sync: sc(2) } },
      { round: 1, error: null, scenarios: { sync: sc(4) } },
    ];
    const base = [5, 6, 7].map((round, i) => ({ round, error: null, scenarios: { sync: sc([1, 1.5, 3][i]) } }));
    const ov = overhead(cfg, base, 'sync');
    assert.strictEqual(ov.paired, false);
    // By hand: x = ln 2, ln 4; y = ln 1, ln 1.5, ln 3 (the sign of the log does not change a variance).
    const v = (xs) => {
      const m = xs.reduce((a, b) => a + b) / xs.length;
      return xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1);
    };
    const a = v([Math.log(2), Math.log(4)]) / 2;
    const b = v([0, Math.log(1.5), Math.log(3)]) / 3;
    const df = (a + b) ** 2 / (a ** 2 / 1 + b ** 2 / 2);
    assert.ok(Math.abs(df - 2.5217) < 1e-3, `hand-computed df ${df}`);
    assert.ok(Math.abs(ov.df - df) < 1e-9, `reported df ${ov.df}, Welch–Satterthwaite on the logs ${df}`);
  },
);

test('targets: a scenario with wrong reads gets "context broken", not PASS/FAIL/INCONCLUSIVE', () => {
  const drift = [1, 3, 1.5, 2.5, 1.2];
  const base = drift.map((d, round) => ({
    round,
    error: null,
    scenarios: { async: sc(d), realworld: sc(d), sync: sc(d), nested5: sc(d) },
  }));
  // Cheap (1% slower) but with one wrong read in realworld and in sync: without the rule
  // realworld would PASS its < 50% target.
  const leaky = drift.map((d, round) => ({
    round,
    error: null,
    scenarios: {
      async: sc(d * 1.01),
      realworld: sc(d * 1.01, { failures: round === 2 ? 1 : 0 }),
      sync: sc(d * 1.01, { failures: round === 0 ? 1 : 0 }),
      nested5: sc(d, { failures: 1 }),
    },
  }));
  const entry = { strategy: 'leaky', scenarios: {} };
  for (const key of ['async', 'realworld', 'sync', 'nested5']) {
    entry.scenarios[key] = summarize(leaky, key);
    entry.scenarios[key].overhead = overhead(leaky, base, key);
  }
  entry.scenarios.sync.perOpOverheadUs = { us: 0.001, ci95: [0, 0.002] };
  entry.scenarios.async.perOpOverheadUs = { us: 0.001, ci95: [0, 0.002] };
  assert.strictEqual(words(entry.scenarios.realworld.overhead), BROKEN);
  assert.strictEqual(entry.scenarios.realworld.overhead.significant, false);
  const t = targets(entry);
  assert.strictEqual(t.realWorldOverhead.status, 'BROKEN');
  assert.strictEqual(targetCell(t.realWorldOverhead), `⛔ ${BROKEN}`);
  assert.strictEqual(t.nestedP99.status, 'BROKEN');
  assert.strictEqual(t.perOpOverhead.status, 'BROKEN', 'sync had a wrong read');
  assert.strictEqual(t.asyncOverhead.status, 'PASS', 'async read right and is 1% slower');
  assert.strictEqual(t.correct.status, 'FAIL');
});

test('statistics: a sample shorter than a few timer resolutions gets no ratio and no verdict', () => {
  const timer = (timedUs) => ({ timedUs, timerResolutionUs: 0.1 });
  const base = [0.2, 0.25, 0.22].map((us, round) => ({ round, error: null, scenarios: { sync: sc(us, timer(us)) } }));
  const cfg = [0.6, 0.7, 0.65].map((us, round) => ({ round, error: null, scenarios: { sync: sc(us, timer(us)) } }));
  const ov = overhead(cfg, base, 'sync');
  assert.strictEqual(ov.unresolved, true, 'none took ~2 timer resolutions');
  assert.strictEqual(ov.significant, false);
  assert.match(words(ov), /below timer resolution/);
  const entry = { strategy: 'x', scenarios: { async: { overhead: ov } } };
  assert.strictEqual(targets(entry).asyncOverhead.status, 'n/a');
  // Ten resolutions is timeable.
  const slow = (k) =>
    [1, 1.2, 1.1].map((us, round) => ({ round, error: null, scenarios: { sync: sc(us * k, timer(us * k)) } }));
  assert.strictEqual(overhead(slow(2), slow(1), 'sync').unresolved, false);
});

test('run() alone keeps every result alive in the exported sink, so the loop cannot be optimised away', () => {
  let n = 0;
  const strategy = { run: (id, fn) => fn(), current: () => 'x', carriesContext: false };
  const { tasks, counters } = scenarios.build(strategy, () => n++);
  scenarios.sink.fill(undefined);
  tasks.run();
  assert.strictEqual(counters.run.failures, 0);
  // none's run() returns fn's result: noop's running count, one slot per call.
  assert.deepStrictEqual(scenarios.sink.slice(0, 3), [0, 1, 2]);
  assert.strictEqual(scenarios.sink[scenarios.ALONE_OPS - 1], scenarios.ALONE_OPS - 1);
});
