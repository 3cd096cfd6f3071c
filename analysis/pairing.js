'use strict';
// Paired samples of an arm and its baseline, and the mean of a per-pair quantity with an
// interval that treats the server process as a level of variation. Used by the method
// commands (calibrate, aa), whose quantities are not throughput ratios. Which samples
// pair is analysis/summary.js's samplePairs, the one definition.
const stats = require('./stats');
const summary = require('./summary');

// t-interval on the mean of xs (n >= 2), 95%.
function tInterval(xs) {
  const { diff: m, se, df } = stats.oneSample(xs);
  const half = se === 0 ? 0 : stats.tCritical(df) * se;
  return { mean: m, ci95: [m - half, m + half] };
}

// pairs(config, baseline) -> [[sample, baselineSample]].
function pairs(config, baseline) {
  return summary
    .samplePairs(config && config.samples, baseline && baseline.samples)
    .map(({ sample, base }) => [sample, base]);
}

// pairedMean(items) -> { n, blocks, mean, ci95, method }; items: [{ value, block }].
// With pairs from two or more blocks (fresh processes), the interval is the t-interval
// over the per-block means (blocks - 1 df; Kalibera & Jones' two-level design: whatever
// a process got by luck is inside it). Otherwise (runs of the earlier design, or one
// block only) over the pairs, and `method` says so: 'per-block means', 'one-process pairs'
// or 'pairs'.
function pairedMean(items) {
  const ok = items.filter((i) => Number.isFinite(i.value));
  const byBlock = new Map();
  for (const i of ok) {
    if (!Number.isInteger(i.block)) continue;
    if (!byBlock.has(i.block)) byBlock.set(i.block, []);
    byBlock.get(i.block).push(i.value);
  }
  if (byBlock.size >= 2 && byBlock.size === new Set(ok.map((i) => i.block)).size) {
    const means = [...byBlock.values()].map((xs) => stats.mean(xs));
    return { n: ok.length, blocks: means.length, ...tInterval(means), method: 'per-block means' };
  }
  const values = ok.map((i) => i.value);
  const method = byBlock.size === 1 ? 'one-process pairs' : 'pairs';
  if (values.length < 2)
    return { n: values.length, blocks: byBlock.size, mean: values.length ? values[0] : null, ci95: null, method };
  return { n: values.length, blocks: byBlock.size, ...tInterval(values), method };
}

module.exports = { pairs, pairedMean };
