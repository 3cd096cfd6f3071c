'use strict';
// A tail read the way Treadmill (ISCA 2016) reads one: every request of every block pooled
// into one distribution per side (never a mean of per-block percentiles), the interval by
// resampling whole blocks (the process is the unit), and a candidate's added latency paired
// by block inside each resample (both sides of a pair share a block's machine state).
// Input: per block, each side's latency histogram (HDR, µs; lib/histogram.js). Output:
// figures as data; the report writes the sentences.

// Deterministic draws: the same run gives the same interval on every read.
const { mulberry32: prng } = require('../lib/random');

// The quantiles reported, in the run JSON's names.
const QUANTILES = { p50: 50, p99: 99, p99_9: 99.9 };
const RESAMPLES = 2000;

// Histograms -> one grid of the values any of them recorded and, per histogram, its counts on
// it: resampling then reads small arrays instead of merging histograms.
function onGrid(histograms) {
  const perHistogram = histograms.map((h) => {
    const m = new Map();
    if (!h) return m;
    const it = h.recordedValuesIterator;
    it.reset();
    while (it.hasNext()) {
      const v = it.next();
      m.set(v.valueIteratedTo, (m.get(v.valueIteratedTo) || 0) + v.countAddedInThisIterationStep);
    }
    return m;
  });
  const values = [...new Set(perHistogram.flatMap((m) => [...m.keys()]))].sort((x, y) => x - y);
  const index = new Map(values.map((v, i) => [v, i]));
  const counts = perHistogram.map((m) => {
    const c = new Float64Array(values.length);
    for (const [v, n] of m) c[index.get(v)] = n;
    return c;
  });
  return { values, counts };
}

// A resample is a weight per block (how many times it was drawn); its pooled distribution is
// read through each block's cumulative counts on the grid: cumulative(j) = Σ w_i · cum_i[j].
// Counts are integers, so the sums are exact in any order and a quantile is found by
// bisection, O(blocks · log grid) where summing the counts was O(blocks · grid).
function cumulative(counts) {
  const c = new Float64Array(counts.length);
  let run = 0;
  for (let j = 0; j < counts.length; j++) c[j] = run += counts[j];
  return c;
}
function at(cums, weights, j) {
  let s = 0;
  for (let i = 0; i < cums.length; i++) if (weights[i]) s += weights[i] * cums[i][j];
  return s;
}

// As HdrHistogram's getValueAtPercentile: the value at which the cumulative count first
// reaches round(q% of the total), at least 1.
function quantile(values, cums, weights, total, q) {
  const want = Math.max(1, Math.floor((q / 100) * total + 0.5));
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at(cums, weights, mid) >= want) hi = mid;
    else lo = mid + 1;
  }
  return values[lo];
}

// One side's figures for a resample: quantiles (ms) and the share over the bound. below: the
// grid index of the last value within the bound (-1 when none is), null without a bound.
function figures(values, cums, weights, below) {
  const total = at(cums, weights, values.length - 1);
  if (!total) return null;
  const out = { count: total };
  for (const [k, q] of Object.entries(QUANTILES)) out[k] = quantile(values, cums, weights, total, q) / 1000;
  out.overShare = below === null ? null : (total - (below < 0 ? 0 : at(cums, weights, below))) / total;
  return out;
}

// 2.5th and 97.5th percentiles of the resampled figures (the percentile bootstrap).
function interval(xs) {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length < 2) return null;
  const at = (p) => v[Math.min(v.length - 1, Math.max(0, Math.round(p * (v.length - 1))))];
  return [at(0.025), at(0.975)];
}

// blocks: [{ block, baseline: Histogram|null, candidate: Histogram|null }], blocks where
// both sides have requests; boundMs: the SLO bound for the share over it (or null).
// -> { blocks, resamples, baseline, candidate, added } with per side { count, p50, p99,
//    p99_9, overShare, ci95: { p50, p99, p99_9, overShare } } and added[k] = { estimate,
//    ci95 } (candidate − baseline, ms), or null with fewer than 2 blocks.
function pooledTails(blocks, { boundMs = null, resamples = RESAMPLES, seed = 1 } = {}) {
  const paired = blocks.filter((b) => b.baseline?.totalCount > 0 && b.candidate?.totalCount > 0);
  if (paired.length < 2) return null;
  const n = paired.length;
  const grid = onGrid(paired.flatMap((b) => [b.baseline, b.candidate]));
  const side = (k) => paired.map((_, i) => cumulative(grid.counts[2 * i + k]));
  const [base, cand] = [side(0), side(1)];
  const boundUs = boundMs === null ? null : boundMs * 1000;
  let below = boundUs === null ? null : -1;
  if (boundUs !== null) while (below + 1 < grid.values.length && grid.values[below + 1] <= boundUs) below++;
  const all = new Float64Array(n).fill(1);
  const point = {
    baseline: figures(grid.values, base, all, below),
    candidate: figures(grid.values, cand, all, below),
  };
  const keys = [...Object.keys(QUANTILES), 'overShare'];
  const lists = (names) => Object.fromEntries(names.map((k) => [k, []]));
  const draws = { baseline: lists(keys), candidate: lists(keys), added: lists(Object.keys(QUANTILES)) };
  const random = prng(seed);
  for (let r = 0; r < resamples; r++) {
    const weights = new Float64Array(n);
    for (let i = 0; i < n; i++) weights[Math.floor(random() * n)]++;
    const b = figures(grid.values, base, weights, below);
    const c = figures(grid.values, cand, weights, below);
    for (const k of keys) {
      draws.baseline[k].push(b[k]);
      draws.candidate[k].push(c[k]);
    }
    for (const k of Object.keys(QUANTILES)) draws.added[k].push(c[k] - b[k]);
  }
  const withCi = (name) => ({
    ...point[name],
    ci95: Object.fromEntries(keys.map((k) => [k, interval(draws[name][k])])),
  });
  const added = (k) => ({ estimate: point.candidate[k] - point.baseline[k], ci95: interval(draws.added[k]) });
  return {
    blocks: n,
    resamples,
    baseline: withCi('baseline'),
    candidate: withCi('candidate'),
    added: Object.fromEntries(Object.keys(QUANTILES).map((k) => [k, added(k)])),
  };
}

module.exports = { pooledTails, QUANTILES, RESAMPLES };
