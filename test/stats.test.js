'use strict';
// Tier: quick (the statistics against R's and published references)
// analysis/stats.js on synthetic data with known answers; no live timing anywhere.
const test = require('node:test');
const { rng } = require('./helpers/random');
const assert = require('node:assert');
const stats = require('../analysis/stats');
const summaries = require('../analysis/summary');
const { verdictText } = require('../report/verdict-text');
const { baselineFor } = require('../analysis/comparable');

// Reference data: R's built-in `sleep` data set (Student, 1908), extra hours of sleep
// for ten patients under two drugs. The reference outputs below are R's own, from the
// examples of ?t.test (R 4.x, package stats):
//   t.test(extra ~ group, data = sleep)
//     Welch Two Sample t-test: t = -1.8608, df = 17.776, p-value = 0.07939
//     95 percent confidence interval: -3.3654832  0.2054832
//   with(sleep, t.test(extra[group == 1], extra[group == 2], paired = TRUE))
//     Paired t-test: t = -4.0621, df = 9, p-value = 0.002833
//   t.test(sleep$extra[1:10])   mean of x 0.75, 95 percent CI: -0.5297804  2.0297804
// A ratio's verdict in words: analysis judges it, the report words it.
const verdict = (r, alpha, options) => verdictText(summaries.judge(r, alpha, options));

const sleep1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
const sleep2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

function close(actual, expected, tol, what) {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} not within ${tol} of ${expected}`);
}

test('welch() matches R on the sleep data (t, Welch–Satterthwaite df, p)', () => {
  const w = stats.welch(sleep1, sleep2);
  close(w.t, -1.8608, 5e-5, 't');
  close(w.df, 17.776, 5e-4, 'df');
  close(w.pValue, 0.07939, 5e-6, 'p');
  // R's Welch CI: -3.3654832 0.2054832
  const half = stats.tCritical(w.df) * w.se;
  close(w.diff - half, -3.3654832, 1e-6, 'CI low');
  close(w.diff + half, 0.2054832, 1e-6, 'CI high');
});

test('oneSample() on paired differences matches R paired t-test on sleep', () => {
  const r = stats.oneSample(sleep1.map((x, i) => x - sleep2[i]));
  close(r.t, -4.0621, 5e-5, 't');
  assert.strictEqual(r.df, 9);
  close(r.pValue, 0.002833, 5e-7, 'p');
});

test('t quantiles match published values (R qt(0.975, df); any Student t table)', () => {
  const table = { 1: 12.7062047, 2: 4.3026527, 5: 2.5705818, 7: 2.3646243, 10: 2.2281389, 30: 2.0422725 };
  for (const [df, q] of Object.entries(table)) close(stats.tCritical(Number(df)), q, 1e-6, `qt(0.975, ${df})`);
});

test('describe() gives median, mean, sd and the t-interval (R: t.test(sleep$extra[1:10]))', () => {
  const d = stats.describe(sleep1);
  assert.strictEqual(d.n, 10);
  close(d.mean, 0.75, 1e-12, 'mean');
  close(d.median, 0.35, 1e-12, 'median');
  close(d.ci95[0], -0.5297804, 1e-6, 'CI low');
  close(d.ci95[1], 2.0297804, 1e-6, 'CI high');
  assert.deepStrictEqual(stats.describe([5]), { n: 1, median: 5, mean: 5, sd: null, ci95: null });
  assert.strictEqual(stats.describe([]).n, 0);
  assert.strictEqual(stats.describe([1, 2, 3, 4]).median, 2.5);
});

test('95% CI of describe() covers the true mean in 93–97% of 2000 trials (n = 8)', () => {
  const { normal } = rng(42);
  const mu = 10000;
  const sigma = 1500;
  let covered = 0;
  const trials = 2000;
  for (let i = 0; i < trials; i++) {
    const xs = Array.from({ length: 8 }, () => mu + sigma * normal());
    const [lo, hi] = stats.describe(xs).ci95;
    if (lo <= mu && mu <= hi) covered++;
  }
  const rate = covered / trials;
  assert.ok(rate >= 0.93 && rate <= 0.97, `coverage ${rate}`);
});

// Throughput samples of an interleaved run: every round shares a machine drift factor
// (the 20–40% swings of a noisy host), plus independent noise per config.
function interleaved(r, { rounds, base = 10000, factor = 1, drift = 0.15, noise = 0.03 }) {
  const a = [];
  const b = [];
  for (let round = 0; round < rounds; round++) {
    const d = Math.exp(drift * r.normal());
    b.push({ round, rps: base * d * Math.exp(noise * r.normal()) });
    a.push({ round, rps: base * factor * d * Math.exp(noise * r.normal()) });
  }
  return { a, b };
}

test('paired ratio recovers a planted 10% slowdown despite 15% round-to-round drift', () => {
  const { a, b } = interleaved(rng(7), { rounds: 8, factor: 0.9 });
  const r = summaries.ratio(a, b, { paired: true });
  assert.strictEqual(r.paired, true);
  assert.strictEqual(r.n, 8);
  close(r.estimate, 0.9, 0.03, 'estimate');
  assert.ok(r.ci95[0] < 0.9 && 0.9 < r.ci95[1], `CI ${r.ci95} covers 0.9`);
  assert.ok(r.pValue < 0.001, `p ${r.pValue}`);
  close(r.halfWidthPct, ((r.ci95[1] - r.ci95[0]) / 2) * 100, 1e-9, 'halfWidthPct');
  assert.match(verdict(r), /^\d+\.\d% slower, significant$/);
  // The same data unpaired: the drift swamps the effect, the interval is much wider.
  const w = summaries.ratio(a, b, { paired: false });
  assert.strictEqual(w.paired, false);
  assert.ok(w.halfWidthPct > 2 * r.halfWidthPct, `Welch ${w.halfWidthPct} vs paired ${r.halfWidthPct}`);
});

test('ratio: exact answers on tiny hand-made data', () => {
  // Constant 20% slowdown in every round: estimate exactly 0.8, zero-width CI, p = 0.
  const base = [1000, 1200, 900].map((rps, round) => ({ round, rps }));
  const cfg = base.map((s) => ({ round: s.round, rps: s.rps * 0.8 }));
  const r = summaries.ratio(cfg, base);
  close(r.estimate, 0.8, 1e-12, 'estimate');
  assert.strictEqual(r.pValue, 0);
  assert.strictEqual(verdict(r), '20.0% slower, significant');
  // Only rounds present in both are paired; a single shared round falls back to Welch.
  const partial = summaries.ratio(
    [
      { round: 0, rps: 1 },
      { round: 5, rps: 2 },
    ],
    [
      { round: 0, rps: 1 },
      { round: 1, rps: 2 },
    ],
  );
  assert.strictEqual(partial.paired, false);
  assert.strictEqual(partial.n, 2);
  // Bare numbers work too (round = index).
  assert.strictEqual(summaries.ratio([1, 2, 3], [1, 2, 3]).paired, true);
  // Failed samples (no rps) are ignored.
  assert.strictEqual(summaries.ratio([{ round: 0, rps: null }], [{ round: 0, rps: 5 }]).estimate, null);
});

test('verdict strings', () => {
  assert.strictEqual(verdict({ estimate: 0.93, pValue: 0.0004, n: 6 }), '7.0% slower, significant');
  assert.strictEqual(verdict({ estimate: 1.031, pValue: 0.01, n: 6 }), '3.1% faster, significant');
  assert.strictEqual(verdict({ estimate: 0.97, pValue: 0.2, n: 6 }), 'no significant difference');
  assert.strictEqual(verdict({ estimate: 0.97, pValue: 0.03, n: 6 }, 0.01), 'no significant difference');
  assert.strictEqual(verdict({ estimate: 0.5, pValue: null, n: 1 }), 'not enough samples');
  assert.strictEqual(
    verdict(summaries.ratio([{ round: 0, rps: 5 }], [{ round: 0, rps: 9 }])),
    'not enough samples',
  );
  assert.strictEqual(verdict(null), 'not enough samples');
});

test('A vs A is called significant in 3–7% of 2000 trials (paired and Welch)', () => {
  const r = rng(2024);
  const trials = 2000;
  let pairedHits = 0;
  let welchHits = 0;
  for (let i = 0; i < trials; i++) {
    const { a, b } = interleaved(r, { rounds: 6, factor: 1 });
    if (verdict(summaries.ratio(a, b, { paired: true })) !== 'no significant difference') pairedHits++;
    const x = Array.from({ length: 6 }, (_, round) => ({ round, rps: 10000 * Math.exp(0.2 * r.normal()) }));
    const y = Array.from({ length: 6 }, (_, round) => ({ round, rps: 10000 * Math.exp(0.2 * r.normal()) }));
    if (verdict(summaries.ratio(x, y, { paired: false })) !== 'no significant difference') welchHits++;
  }
  assert.ok(pairedHits / trials >= 0.03 && pairedHits / trials <= 0.07, `paired rate ${pairedHits / trials}`);
  assert.ok(welchHits / trials >= 0.03 && welchHits / trials <= 0.07, `Welch rate ${welchHits / trials}`);
});

function sample(round, rps, extra = {}) {
  return {
    round,
    rps,
    requests: rps * 3,
    errors: 0,
    non2xx: 0,
    mismatches: 0,
    lost: 0,
    latency: { p2_5: 1, p50: 9, p97_5: 20, p99: 20 + round, avg: 9.8, stdev: 3.1, max: 80 },
    cpuUsPerRequest: 90 + round,
    rssMB: 60,
    ...extra,
  };
}

test('summarize() builds the run-json summary, matching samples by round', () => {
  const base = {
    id: 'express/none/d8/await/node20',
    strategy: 'none',
    samples: [sample(0, 1000), sample(1, 1100), sample(2, 900)],
  };
  // Stored out of order: matching is by `round`, not by position.
  const cfg = {
    id: 'express/global/d8/await/node20',
    strategy: 'global',
    samples: [sample(2, 810, { mismatches: 5 }), sample(0, 900, { lost: 1 }), sample(1, 990, { mismatches: 7 })],
  };
  const s = summaries.summarize(cfg, base);
  assert.strictEqual(s.n, 3);
  assert.strictEqual(s.rps.median, 900);
  close(s.rps.estimate, Math.cbrt(810 * 900 * 990), 1e-9, 'geometric mean of rounds');
  assert.ok(s.rps.ci95[0] < s.rps.estimate && s.rps.estimate < s.rps.ci95[1], 'interval around its own estimate');
  assert.strictEqual(s.p99.median, 21);
  assert.strictEqual(s.cpuUsPerRequest.median, 91);
  assert.strictEqual(s.mismatches, 12);
  assert.strictEqual(s.lost, 1);
  assert.strictEqual(s.ratio.baseline, base.id);
  assert.strictEqual(s.ratio.paired, true);
  close(s.ratio.estimate, 0.9, 1e-12, 'paired estimate');
  assert.strictEqual(verdictText(s.ratio.judgement), '10.0% slower, significant');
  assert.ok(!('verdict' in s.ratio), 'a judgement, no sentence');
  for (const k of ['ci95', 'halfWidthPct', 'pValue']) assert.ok(k in s.ratio, k);
  assert.strictEqual(summaries.summarize(base, null).ratio, null);
  const none = summaries.summarize({ id: 'x', samples: [] }, null);
  assert.strictEqual(none.n, 0);
  assert.strictEqual(none.rps.median, null);
});

test('baselineFor() picks the same framework/depth/hop/node/acf with the baseline strategy', () => {
  const mk = (strategy, depth, extra = {}) => ({
    id: `express/${strategy}/d${depth}/await/node20${extra.acf ? '/acf' : ''}`,
    framework: 'express',
    strategy,
    depth,
    hop: 'await',
    node: 'v20.20.2',
    acf: false,
    ...extra,
  });
  const configs = [
    mk('none', 8),
    mk('none', 256),
    mk('als', 8),
    mk('als', 256),
    mk('none', 8, { acf: true }),
    mk('als', 8, { acf: true }),
  ];
  assert.strictEqual(baselineFor(configs[2], configs, 'none'), configs[0]);
  assert.strictEqual(baselineFor(configs[3], configs, 'none'), configs[1]);
  assert.strictEqual(baselineFor(configs[5], configs, 'none'), configs[4]);
  assert.strictEqual(baselineFor(configs[0], configs, 'none'), null, 'never its own baseline');
  assert.strictEqual(baselineFor(configs[2], configs, 'param'), null);
  assert.strictEqual(baselineFor(configs[2], configs, null), null);
  assert.strictEqual(baselineFor(mk('als', 8, { hop: 'immediate' }), configs, 'none'), null);
});
