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
// it: resampling then sums small arrays instead of merging histograms.
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

// As HdrHistogram's getValueAtPercentile: the value at which the cumulative count first
// reaches round(q% of the total), at least 1.
function quantile(values, counts, total, q) {
  const want = Math.max(1, Math.floor((q / 100) * total + 0.5));
  let seen = 0;
  for (let i = 0; i < values.length; i++) {
    seen += counts[i];
    if (seen >= want) return values[i];
  }
  return values[values.length - 1];
}

// One side's figures from summed counts: quantiles (ms) and the share over the bound.
function figures(values, counts, boundUs) {
  let total = 0;
  let over = 0;
  for (let i = 0; i < values.length; i++) {
    total += counts[i];
    if (boundUs !== null && values[i] > boundUs) over += counts[i];
  }
  if (!total) return null;
  const out = { count: total };
  for (const [k, q] of Object.entries(QUANTILES)) out[k] = quantile(values, counts, total, q) / 1000;
  out.overShare = boundUs === null ? null : over / total;
  return out;
}

function sum(counts, picks, length) {
  const s = new Float64Array(length);
  for (const i of picks) {
    const c = counts[i];
    for (let j = 0; j < length; j++) s[j] += c[j];
  }
  return s;
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
  const L = grid.values.length;
  const side = (k) => paired.map((_, i) => grid.counts[2 * i + k]);
  const [base, cand] = [side(0), side(1)];
  const boundUs = boundMs === null ? null : boundMs * 1000;
  const all = [...Array(n).keys()];
  const point = {
    baseline: figures(grid.values, sum(base, all, L), boundUs),
    candidate: figures(grid.values, sum(cand, all, L), boundUs),
  };
  const keys = [...Object.keys(QUANTILES), 'overShare'];
  const lists = (names) => Object.fromEntries(names.map((k) => [k, []]));
  const draws = { baseline: lists(keys), candidate: lists(keys), added: lists(Object.keys(QUANTILES)) };
  const random = prng(seed);
  for (let r = 0; r < resamples; r++) {
    const picks = Array.from({ length: n }, () => Math.floor(random() * n));
    const b = figures(grid.values, sum(base, picks, L), boundUs);
    const c = figures(grid.values, sum(cand, picks, L), boundUs);
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
