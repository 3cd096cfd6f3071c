'use strict';
// The statistics of ctxbench, and nothing else: quantiles, t-intervals, Welch's test,
// one-way ANOVA, the two-level (blocks of processes) interval, a level-shift test.
// Distributions come from jstat (Student's t cdf and quantile); nothing here hand-rolls a
// distribution. What a sample, a pair or a verdict is lives in analysis/summary.js;
// how a figure is printed, in lib/format.js.

const { jStat } = require('jstat');
const ss = require('simple-statistics');

const CONFIDENCE = 0.95;

const { isNum } = require('../lib/format');

function finite(xs) {
  return (xs || []).filter(isNum);
}

const mean = (xs) => ss.mean(xs);

// Sample variance (n - 1 denominator).
const variance = (xs) => ss.sampleVariance(xs);

function median(xs) {
  const v = finite(xs);
  return v.length ? ss.median(v) : null;
}

// Linear-interpolation quantile (R type 7), q in [0, 1]. simple-statistics' quantile is
// a different type, so the interpolation is written out on its sorted copy.
function quantile(xs, q) {
  const v = finite(xs).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const h = (v.length - 1) * q;
  const lo = Math.floor(h);
  return v[lo] + (h - lo) * (v[Math.ceil(h)] - v[lo]);
}

// Two-sided critical value of Student's t for the given confidence.
function tCritical(df, confidence = CONFIDENCE) {
  return jStat.studentt.inv(1 - (1 - confidence) / 2, df);
}

// Two-sided p-value of a t statistic. Uses the lower tail of -|t| so that tiny p-values
// keep their precision (1 - cdf would round them to 0).
function tPValue(t, df) {
  if (Number.isNaN(t)) return null;
  if (!Number.isFinite(t)) return 0;
  return Math.min(1, 2 * jStat.studentt.cdf(-Math.abs(t), df));
}

// describe(xs) -> { n, median, mean, sd, ci95: [lo, hi] | null }
// ci95 is the t-interval on the mean; it needs at least two values.
function describe(xs) {
  const v = finite(xs);
  const n = v.length;
  if (n === 0) return { n: 0, median: null, mean: null, sd: null, ci95: null };
  const m = mean(v);
  if (n < 2) return { n, median: median(v), mean: m, sd: null, ci95: null };
  const sd = Math.sqrt(variance(v));
  const half = (tCritical(n - 1) * sd) / Math.sqrt(n);
  return { n, median: median(v), mean: m, sd, ci95: [m - half, m + half] };
}

// Welch's unequal-variance t-test of mean(a) - mean(b), with the Welch–Satterthwaite df.
// welch(a, b) -> { t, df, pValue, diff, se }  (null fields when either side has n < 2)
function welch(a, b) {
  const x = finite(a);
  const y = finite(b);
  if (x.length < 2 || y.length < 2) {
    return { t: null, df: null, pValue: null, diff: x.length && y.length ? mean(x) - mean(y) : null, se: null };
  }
  const va = variance(x) / x.length;
  const vb = variance(y) / y.length;
  const diff = mean(x) - mean(y);
  const se = Math.sqrt(va + vb);
  if (se === 0) {
    // Both samples constant: any difference is exact, no difference is exactly none.
    return {
      t: diff === 0 ? 0 : Math.sign(diff) * Infinity,
      df: x.length + y.length - 2,
      pValue: diff === 0 ? 1 : 0,
      diff,
      se,
    };
  }
  const df = (va + vb) ** 2 / (va ** 2 / (x.length - 1) + vb ** 2 / (y.length - 1));
  const t = diff / se;
  return { t, df, pValue: tPValue(t, df), diff, se };
}

// One-sample t-test of mean(d) against 0 (the paired test when d are differences).
function oneSample(d) {
  const v = finite(d);
  const n = v.length;
  const m = n ? mean(v) : null;
  if (n < 2) return { t: null, df: null, pValue: null, diff: m, se: null };
  const se = Math.sqrt(variance(v) / n);
  if (se === 0) return { t: m === 0 ? 0 : Math.sign(m) * Infinity, df: n - 1, pValue: m === 0 ? 1 : 0, diff: m, se };
  const t = m / se;
  return { t, df: n - 1, pValue: tPValue(t, n - 1), diff: m, se };
}

// anova(groups) -> one-way ANOVA of values grouped by block, with the variance
// components of the random-effects model: withinBlocks = MSW, betweenBlocks =
// max(0, (MSB - MSW) / n0), n0 = (N - Σ n_j² / N) / (k - 1) (the balanced-design n when
// every block has the same number of pairs). Null when there is nothing to separate.
function anova(groups) {
  const gs = groups.filter((g) => g.length > 0);
  const k = gs.length;
  const N = gs.reduce((a, g) => a + g.length, 0);
  if (k < 2 || N - k < 1) return null;
  const grand = mean(gs.flat());
  let ssb = 0;
  let ssw = 0;
  for (const g of gs) {
    const m = mean(g);
    ssb += g.length * (m - grand) ** 2;
    for (const x of g) ssw += (x - m) ** 2;
  }
  const dfB = k - 1;
  const dfW = N - k;
  const msb = ssb / dfB;
  const msw = ssw / dfW;
  const n0 = (N - gs.reduce((a, g) => a + g.length ** 2, 0) / N) / (k - 1);
  const F = msw === 0 ? (msb === 0 ? null : Infinity) : msb / msw;
  const p = F === null ? null : F === Infinity ? 0 : 1 - jStat.centralF.cdf(F, dfB, dfW);
  return { betweenBlocks: Math.max(0, (msb - msw) / n0), withinBlocks: msw, F, p, dfBetween: dfB, dfWithin: dfW };
}

// twoLevel(pairs) -> the ratio with the block (server process) as the unit: log ratios
// are averaged per block, and the 95% CI is the t-interval over the k block means with
// k - 1 df (Kalibera & Jones 2013; Georges et al. 2007). estimate = exp(mean of block
// means), so the figure and its interval are of the same statistic.
function twoLevel(ps, confidence = CONFIDENCE) {
  const byBlock = new Map();
  for (const p of ps) {
    if (!byBlock.has(p.block)) byBlock.set(p.block, []);
    byBlock.get(p.block).push(p.d);
  }
  const groups = [...byBlock.values()];
  const means = groups.map(mean);
  const k = means.length;
  if (k === 0)
    return { estimate: null, ci95: null, halfWidthPct: null, pValue: null, n: 0, blocks: 0, components: null };
  const test = oneSample(means);
  const estimate = Math.exp(test.diff);
  const base = { estimate, n: ps.length, blocks: k, df: k - 1, components: anova(groups) };
  if (test.se === null) return { ...base, ci95: null, halfWidthPct: null, pValue: null };
  const half = test.se === 0 ? 0 : tCritical(k - 1, confidence) * test.se;
  const ci95 = [Math.exp(test.diff - half), Math.exp(test.diff + half)];
  return { ...base, ci95, halfWidthPct: ((ci95[1] - ci95[0]) / 2) * 100, pValue: test.pValue };
}

const overlap = (a, b) => Boolean(a && b) && a[0] <= b[1] && b[0] <= a[1];

const positive = (x) => typeof x === 'number' && Number.isFinite(x) && x > 0;

// levelShift(values, { alpha = 0.05, minShiftPct = 10, minSegment = 3 }) -> a level shift in
// a time-ordered series (e.g. a baseline's req/s round by round), or null.
// The test: for every split point k (each side >= minSegment values), Welch's t-test of
// log values before against after; the split with the largest |t| is the candidate, and
// its p-value is Bonferroni-corrected for the number of splits tried (conservative, so a
// flagged shift is real). Flagged when the corrected p < alpha and the levels differ by at
// least minShiftPct percent (smaller shifts are within ordinary noise on a busy machine).
//   { at, before, after, shiftPct, pAdjusted, splits }: `at` = index of the first value
//   of the second regime; before/after = geometric means of the two regimes.
function levelShift(values, { alpha = 0.05, minShiftPct = 10, minSegment = 3 } = {}) {
  const v = (values || []).map((x) => (positive(x) ? Math.log(x) : null));
  if (v.some((x) => x === null)) return null;
  const splits = v.length - 2 * minSegment + 1;
  if (splits < 1) return null;
  let best = null;
  for (let k = minSegment; k <= v.length - minSegment; k++) {
    const w = welch(v.slice(k), v.slice(0, k));
    if (w.t === null || Number.isNaN(w.t)) continue;
    if (!best || Math.abs(w.t) > Math.abs(best.w.t)) best = { k, w };
  }
  if (!best || best.w.pValue === null) return null;
  const pAdjusted = Math.min(1, best.w.pValue * splits);
  const before = Math.exp(mean(v.slice(0, best.k)));
  const after = Math.exp(mean(v.slice(best.k)));
  const shiftPct = (after / before - 1) * 100;
  if (!(pAdjusted < alpha) || Math.abs(shiftPct) < minShiftPct) return null;
  return { at: best.k, before, after, shiftPct, pAdjusted, splits };
}

module.exports = {
  CONFIDENCE,
  describe,
  anova,
  twoLevel,
  overlap,
  levelShift,
  welch,
  oneSample,
  median,
  quantile,
  mean: (xs) => {
    const v = finite(xs);
    return v.length ? mean(v) : null;
  },
  positive,
  finite,
  isNum,
  variance,
  tCritical,
  tPValue,
};
