'use strict';
// Which baseline sample a sample is compared with (pairing by burst, by block, by round) and
// the throughput ratios built on it, for analysis/summary.js. The maths is analysis/stats.js.
//
// Throughput is compared on the log scale: a ratio of throughputs is what a reader wants
// ("93% of baseline"), and log rps turns that ratio into a difference whose sampling error
// is roughly symmetric.

const { CONFIDENCE, mean, variance, tCritical, welch, oneSample, twoLevel, positive } = require('./stats');

// Accepts sample objects ({ round, rps }) or bare numbers (round = index). Keeps only
// samples with a positive finite throughput.
function normaliseSamples(samples) {
  const out = [];
  (samples || []).forEach((s, i) => {
    const rps = typeof s === 'number' ? s : s && s.rps;
    const round = typeof s === 'number' ? i : s && Number.isInteger(s.round) ? s.round : i;
    if (typeof rps === 'number' && Number.isFinite(rps) && rps > 0) out.push({ round, rps });
  });
  return out;
}

// A ratio with its interval and that interval's half-width in points of the baseline;
// `how`: how it was paired (paired, n, and df or unit).
const withInterval = (estimate, ci95, pValue, how) => ({
  estimate,
  ci95,
  halfWidthPct: ((ci95[1] - ci95[0]) / 2) * 100,
  pValue,
  ...how,
});

// ratio(cfgSamples, baseSamples, { paired = true }) -> throughput of cfg relative to base.
//   { estimate, ci95: [lo, hi] | null, halfWidthPct, pValue, paired, n }
// paired (the default when possible): rounds are interleaved (A B C A B C …), so round i of
// each config ran close together in time and shares the machine's drift. Samples are
// matched by `round`; the per-round log ratios are tested against 0 (one-sample t) and
// estimate = exp(mean log ratio). Pairing needs at least two matched rounds; otherwise,
// or with { paired: false }, Welch's test on log rps is used and estimate is the ratio of
// geometric means. n is the number of pairs (paired) or the smaller sample size (Welch).
// halfWidthPct: half the CI width, in percentage points of the baseline.
function ratio(cfgSamples, baseSamples, { paired = true, confidence = CONFIDENCE } = {}) {
  const a = normaliseSamples(cfgSamples);
  const b = normaliseSamples(baseSamples);
  const empty = { estimate: null, ci95: null, halfWidthPct: null, pValue: null, paired: false, n: 0 };
  if (a.length === 0 || b.length === 0) return empty;

  let test;
  let isPaired = false;
  let n;
  if (paired) {
    const byRound = new Map(b.map((s) => [s.round, s.rps]));
    const seen = new Set();
    const logRatios = [];
    for (const s of a) {
      if (byRound.has(s.round) && !seen.has(s.round)) {
        seen.add(s.round);
        logRatios.push(Math.log(s.rps) - Math.log(byRound.get(s.round)));
      }
    }
    if (logRatios.length >= 2) {
      isPaired = true;
      n = logRatios.length;
      test = oneSample(logRatios);
    }
  }
  if (!isPaired) {
    n = Math.min(a.length, b.length);
    test = welch(
      a.map((s) => Math.log(s.rps)),
      b.map((s) => Math.log(s.rps)),
    );
  }

  const estimate = Math.exp(test.diff);
  if (test.se === null) return { estimate, ci95: null, halfWidthPct: null, pValue: null, paired: isPaired, n };
  const half = test.se === 0 ? 0 : tCritical(test.df, confidence) * test.se;
  const ci95 = [Math.exp(test.diff - half), Math.exp(test.diff + half)];
  return withInterval(estimate, ci95, test.pValue, { paired: isPaired, n, df: test.df });
}

// Schema 2 records which baseline burst each sample sits next to (sample.pairSeq) and
// which server process it came from (sample.block). Schema 1 has neither: there the
// samples are paired by `round` and each round is its own unit (one warm process).
function isSchema2(samples) {
  return (samples || []).some((s) => s && Number.isInteger(s.block) && s.pairSeq !== undefined);
}

// samplePairs(cfgSamples, baseSamples, usable) -> [{ sample, base, unit }]: the one
// definition of which baseline sample a sample is compared with. Schema 2: the baseline
// burst whose seq is the sample's pairSeq (the adjacent burst the runner recorded), unit
// = the sample's block (its server process). Schema 1: the baseline sample of the same
// round, the first usable one per round, unit = the round. usable(sample, base) filters.
function samplePairs(cfgSamples, baseSamples, usable = () => true) {
  const out = [];
  if (isSchema2(cfgSamples)) {
    const bySeq = new Map((baseSamples || []).filter((b) => b && Number.isInteger(b.seq)).map((b) => [b.seq, b]));
    for (const s of cfgSamples || []) {
      const b = s && s.pairSeq !== null && s.pairSeq !== undefined ? bySeq.get(s.pairSeq) : null;
      if (b && usable(s, b)) out.push({ sample: s, base: b, unit: s.block });
    }
    return out;
  }
  const byRound = new Map();
  (baseSamples || []).forEach((b, i) => {
    if (b) byRound.set(Number.isInteger(b.round) ? b.round : i, b);
  });
  const seen = new Set();
  (cfgSamples || []).forEach((s, i) => {
    const round = s && Number.isInteger(s.round) ? s.round : i;
    const b = byRound.get(round);
    if (s && b && !seen.has(round) && usable(s, b)) {
      seen.add(round);
      out.push({ sample: s, base: b, unit: round });
    }
  });
  return out;
}

// pairs(cfgSamples, baseSamples, key) -> [{ block, d }]: the log ratio of each pair's
// `key` (rps, cpuUsPerRequest), by unit.
function pairs(cfgSamples, baseSamples, key = 'rps') {
  return samplePairs(cfgSamples, baseSamples, (s, b) => positive(s[key]) && positive(b[key])).map(
    ({ sample, base, unit }) => ({ block: unit, d: Math.log(sample[key]) - Math.log(base[key]) }),
  );
}

// pairedRatio(cfgSamples, baseSamples, key) -> twoLevel on the recorded pairs, plus the
// method's code (docs/run-json.md): 'adjacent-pairs' (log ratio averaged per block,
// t-interval over blocks) or, schema 1, 'rounds' (pairs by round in one warm process per
// config: each round a unit, restarts not in the interval).
function pairedRatio(cfgSamples, baseSamples, key = 'rps') {
  const r = twoLevel(pairs(cfgSamples, baseSamples, key));
  return { ...r, paired: r.n > 0, method: isSchema2(cfgSamples) ? 'adjacent-pairs' : 'rounds' };
}

// blockLogMeans(samples, key) -> Map(block -> mean of log sample[key]): the per-process
// (block) means that levels and block-unit ratios are built from. Schema 1: each round is
// its own block. Samples without a positive `key` are skipped.
function blockLogMeans(samples, key = 'rps') {
  const byBlock = new Map();
  (samples || []).forEach((s, i) => {
    if (!s || !positive(s[key])) return;
    const b = Number.isInteger(s.block) ? s.block : Number.isInteger(s.round) ? s.round : i;
    if (!byBlock.has(b)) byBlock.set(b, []);
    byBlock.get(b).push(Math.log(s[key]));
  });
  return new Map([...byBlock].map(([b, xs]) => [b, mean(xs)]));
}

// blockRatio(cfgSamples, baseSamples, key) -> the ratio of two configurations measured in
// the same blocks but not side by side (other frameworks, say): per block, the difference of
// their mean log `key`; the estimate is its mean over blocks and the interval a t-interval
// over blocks. Wider than an adjacent pair's (the machine drifts within a block) but of the
// same statistic as its figure. { estimate, ci95, halfWidthPct, pValue, paired, n, unit }.
function blockRatio(cfgSamples, baseSamples, key = 'rps') {
  const a = blockLogMeans(cfgSamples, key);
  const b = blockLogMeans(baseSamples, key);
  const diffs = [...a].filter(([block]) => b.has(block)).map(([block, x]) => x - b.get(block));
  if (!diffs.length)
    return { estimate: null, ci95: null, halfWidthPct: null, pValue: null, paired: true, n: 0, unit: 'block' };
  const t = oneSample(diffs);
  const estimate = Math.exp(mean(diffs));
  if (t.se === null || diffs.length < 2)
    return { estimate, ci95: null, halfWidthPct: null, pValue: null, paired: true, n: diffs.length, unit: 'block' };
  const half = t.se === 0 ? 0 : tCritical(diffs.length - 1) * t.se;
  const ci95 = [Math.exp(mean(diffs) - half), Math.exp(mean(diffs) + half)];
  return withInterval(estimate, ci95, t.pValue, { paired: true, n: diffs.length, unit: 'block' });
}

// sameRunRatio(cfgSamples, baseSamples) -> the req/s ratio of two configurations of one run
// that are not a config and its adjacent baseline (another Node version, the other ACF
// mode): schema 2 pairs them by block (both measured in each block of fresh processes;
// the process is the unit), schema 1 by round.
function sameRunRatio(cfgSamples, baseSamples) {
  return isSchema2(cfgSamples) ? blockRatio(cfgSamples, baseSamples) : ratio(cfgSamples, baseSamples, { paired: true });
}

// The level of a run's throughput: per block, the geometric mean of its samples; the
// estimate is the geometric mean over blocks and its interval the t-interval over the
// block log-means, so the figure and its interval are of the same statistic, whose code
// is `statistic`: 'block-geomeans' (the geometric mean over blocks of per-block geometric
// means) or, schema 1, where each round is its own block, 'round-geomean'.
function rpsLevel(samples) {
  const means = [...blockLogMeans(samples, 'rps').values()];
  if (!means.length) return { estimate: null, ci95: null, statistic: null };
  const statistic = isSchema2(samples) ? 'block-geomeans' : 'round-geomean';
  const m = mean(means);
  if (means.length < 2) return { estimate: Math.exp(m), ci95: null, statistic };
  const half = tCritical(means.length - 1) * Math.sqrt(variance(means) / means.length);
  return { estimate: Math.exp(m), ci95: [Math.exp(m - half), Math.exp(m + half)], statistic };
}

module.exports = {
  ratio,
  isSchema2,
  samplePairs,
  pairs,
  pairedRatio,
  blockLogMeans,
  blockRatio,
  sameRunRatio,
  rpsLevel,
};
