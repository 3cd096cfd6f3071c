'use strict';
// Statistics for ctxbench: descriptive summaries, the throughput ratio of a config to its
// baseline with a 95% confidence interval and p-value, Welch's t-test, verdicts, and the
// per-config `summary` object of docs/run-json.md.
//
// Distributions come from jstat (Student's t cdf and quantile); nothing here hand-rolls a
// distribution. Throughput is compared on the log scale: a ratio of throughputs is what a
// reader wants ("93% of baseline"), and log rps turns that ratio into a difference whose
// sampling error is roughly symmetric.

const { jStat } = require('jstat');
const ss = require('simple-statistics');
const comparable = require('./comparable');

const CONFIDENCE = 0.95;

function finite(xs) {
  return (xs || []).filter((x) => typeof x === 'number' && Number.isFinite(x));
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
  const half = tCritical(n - 1) * sd / Math.sqrt(n);
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
    return { t: diff === 0 ? 0 : Math.sign(diff) * Infinity, df: x.length + y.length - 2, pValue: diff === 0 ? 1 : 0, diff, se };
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
    test = welch(a.map((s) => Math.log(s.rps)), b.map((s) => Math.log(s.rps)));
  }

  const estimate = Math.exp(test.diff);
  if (test.se === null) return { estimate, ci95: null, halfWidthPct: null, pValue: null, paired: isPaired, n };
  const half = test.se === 0 ? 0 : tCritical(test.df, confidence) * test.se;
  const ci95 = [Math.exp(test.diff - half), Math.exp(test.diff + half)];
  return {
    estimate,
    ci95,
    halfWidthPct: ((ci95[1] - ci95[0]) / 2) * 100,
    pValue: test.pValue,
    paired: isPaired,
    n,
  };
}

// The one percent formatter of the tree: a magnitude in percent, two decimals below 0.05
// so that a tiny non-zero change never prints as "0.0". Signed with { sign: true }.
// { minus: '−' } for typeset output (the report).
function formatPct(x, { sign = false, minus = '-' } = {}) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  const a = Math.abs(x);
  const body = a > 0 && a < 0.05 ? a.toFixed(2) : a.toFixed(1);
  if (!sign) return body;
  return (x < 0 && Number(body) !== 0 ? minus : x > 0 && Number(body) !== 0 ? '+' : '') + body;
}

// A ratio as a percentage of its baseline: 0.93 -> "93.0%" (digits after the point), or
// `missing` where r is no number. The one ratio-to-percent formatter (report/format.js
// pctOf is it with the report's dash).
function ratioPct(r, digits = 1, missing = '—') {
  return typeof r === 'number' && Number.isFinite(r) ? `${(r * 100).toFixed(digits)}%` : missing;
}

// formatPct signed, with its % sign; `missing` where x is no number.
function signedPctText(x, missing = '—') {
  return typeof x === 'number' && Number.isFinite(x) ? `${formatPct(x, { sign: true })}%` : missing;
}

const BROKEN = 'context broken, cost not comparable';
const CLIENT_BOUND = 'load generator client-bound (≥ 85% of a core), no verdict';
const CLIENT_BOUND_CPU = 0.85;

// verdict(ratio, alpha = 0.05, { broken, clientBound }) -> the one verdict string of the tree.
//   "7.0% slower, significant" | "3.1% faster, significant" | "no significant difference"
//   | "not enough samples" | "context broken, cost not comparable" | client-bound warning
// A broken strategy's cost is not a cost of carrying context (it carried none), and a
// client-bound config measured the load generator, so neither gets a cost verdict.
// costPct (optional): the change as a cost in percent (positive = slower), for ratios of
// times rather than throughputs (micro); by default the change is (estimate - 1) x 100 of a
// throughput ratio.
function verdict(r, alpha = 0.05, { broken = false, clientBound = false, costPct } = {}) {
  if (broken) return BROKEN;
  if (clientBound) return CLIENT_BOUND;
  if (!r || r.estimate === null || r.estimate === undefined || !(r.n >= 2) || r.pValue === null || r.pValue === undefined) {
    return 'not enough samples';
  }
  if (!(r.pValue < alpha)) return 'no significant difference';
  const change = costPct === undefined ? (r.estimate - 1) * 100 : -costPct;
  if (change === 0) return 'no significant difference';
  return `${formatPct(change)}% ${change < 0 ? 'slower' : 'faster'}, significant`;
}

function sum(samples, key) {
  let s = 0;
  for (const x of samples || []) if (x && typeof x[key] === 'number' && Number.isFinite(x[key])) s += x[key];
  return s;
}

const positive = (x) => typeof x === 'number' && Number.isFinite(x) && x > 0;

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
  (baseSamples || []).forEach((b, i) => { if (b) byRound.set(Number.isInteger(b.round) ? b.round : i, b); });
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
  return samplePairs(cfgSamples, baseSamples, (s, b) => positive(s[key]) && positive(b[key]))
    .map(({ sample, base, unit }) => ({ block: unit, d: Math.log(sample[key]) - Math.log(base[key]) }));
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
  if (k === 0) return { estimate: null, ci95: null, halfWidthPct: null, pValue: null, n: 0, blocks: 0, components: null };
  const test = oneSample(means);
  const estimate = Math.exp(test.diff);
  const base = { estimate, n: ps.length, blocks: k, components: anova(groups) };
  if (test.se === null) return { ...base, ci95: null, halfWidthPct: null, pValue: null };
  const half = test.se === 0 ? 0 : tCritical(k - 1, confidence) * test.se;
  const ci95 = [Math.exp(test.diff - half), Math.exp(test.diff + half)];
  return { ...base, ci95, halfWidthPct: ((ci95[1] - ci95[0]) / 2) * 100, pValue: test.pValue };
}

// pairedRatio(cfgSamples, baseSamples, key) -> twoLevel on the recorded pairs, plus the
// method in words.
function pairedRatio(cfgSamples, baseSamples, key = 'rps') {
  const two = isSchema2(cfgSamples);
  const r = twoLevel(pairs(cfgSamples, baseSamples, key));
  return {
    ...r,
    paired: r.n > 0,
    method: two
      ? 'adjacent pairs, log ratio averaged per block, t-interval over blocks (df = blocks - 1)'
      : 'pairs by round in one warm process per config (schema 1): each round is a unit; restarts are not in the interval',
  };
}

const overlap = (a, b) => Boolean(a && b) && a[0] <= b[1] && b[0] <= a[1];

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
  if (!diffs.length) return { estimate: null, ci95: null, halfWidthPct: null, pValue: null, paired: true, n: 0, unit: 'block' };
  const t = oneSample(diffs);
  const estimate = Math.exp(mean(diffs));
  if (t.se === null || diffs.length < 2) return { estimate, ci95: null, halfWidthPct: null, pValue: null, paired: true, n: diffs.length, unit: 'block' };
  const half = t.se === 0 ? 0 : tCritical(diffs.length - 1) * t.se;
  const ci95 = [Math.exp(mean(diffs) - half), Math.exp(mean(diffs) + half)];
  return { estimate, ci95, halfWidthPct: ((ci95[1] - ci95[0]) / 2) * 100, pValue: t.pValue, paired: true, n: diffs.length, unit: 'block' };
}

// The level of a run's throughput: per block, the geometric mean of its samples; the
// estimate is the geometric mean over blocks and its interval the t-interval over the
// block log-means, so the figure and its interval are of the same statistic. Schema 1:
// each round is its own block.
function rpsLevel(samples) {
  const means = [...blockLogMeans(samples, 'rps').values()];
  if (!means.length) return { estimate: null, ci95: null, statistic: null };
  const statistic = isSchema2(samples) ? 'geometric mean over blocks of per-block geometric means' : 'geometric mean of rounds';
  const m = mean(means);
  if (means.length < 2) return { estimate: Math.exp(m), ci95: null, statistic };
  const half = tCritical(means.length - 1) * Math.sqrt(variance(means) / means.length);
  return { estimate: Math.exp(m), ci95: [Math.exp(m - half), Math.exp(m + half)], statistic };
}

// isBroken(config, lost, mismatches): a strategy that should carry context but lost or
// mixed ids. `global` is the control (it leaks by design) and `none` carries nothing.
function isBroken(config, counts) {
  if (!(counts.lost > 0 || counts.mismatches > 0)) return false;
  if (config.strategy === 'none' || config.strategy === 'global') return false;
  let info;
  try {
    info = require('../context').info(config.strategy);
  } catch {
    return true; // an unknown strategy that lost ids is broken all the same
  }
  if (info && (info.control || info.carriesContext === false)) return false;
  return true;
}

// Duet windows (bench/duet.js) are samples of kind 'window'; each group's load counts are
// of kind 'duet'. Neither is a solo burst: only solo samples (no kind, or 'solo') give a
// configuration its own req/s, p99 and CPU level.
const isSolo = (s) => Boolean(s) && (s.kind === undefined || s.kind === 'solo');

// duetRatios(windows) -> the ratios of a duet-measured config to its partner, from the
// windows that counted, with the group (one pair of fresh processes per block) as the
// unit: log ratios averaged per block, t-interval over blocks (twoLevel).
//   capacity: partner's CPU µs per request ÷ this one's, read like throughput (93% = costs
//             7% more CPU per request): the figure the verdict is on;
//   shared:   this one's requests ÷ the partner's in the same windows (throughput on the
//             shared CPU; equal to capacity only when both got the same CPU share).
function duetRatios(windows) {
  const counted = (windows || []).filter((w) => w && w.counted && positive(w.cpuUsPerRequest) && positive(w.partnerCpuUsPerRequest));
  const capacity = twoLevel(counted.map((w) => ({ block: w.block, d: Math.log(w.partnerCpuUsPerRequest) - Math.log(w.cpuUsPerRequest) })));
  const shared = twoLevel(counted.filter((w) => positive(w.requests) && positive(w.partnerRequests))
    .map((w) => ({ block: w.block, d: Math.log(w.requests) - Math.log(w.partnerRequests) })));
  return { capacity, shared, counted: counted.length, dropped: (windows || []).filter((w) => w && !w.counted).length };
}

// Instruction-count windows (bench/instructions.js) are samples of kind 'instructions':
// per window, the requests served and the instructions executed (callgrind, Ir).
const isInstructionWindow = (s) => Boolean(s) && s.kind === 'instructions' && positive(s.perRequest);

// Instructions per request of each process (block) of a config: its windows' instructions
// over their requests. -> Map(block -> { perRequest, windows: Map(index -> perRequest) }).
function instructionProcesses(samples) {
  const byBlock = new Map();
  for (const s of (samples || []).filter(isInstructionWindow)) {
    if (!byBlock.has(s.block)) byBlock.set(s.block, { instructions: 0, requests: 0, windows: new Map() });
    const b = byBlock.get(s.block);
    b.instructions += s.instructions;
    b.requests += s.requests;
    b.windows.set(s.window, s.perRequest);
  }
  return new Map([...byBlock].map(([k, b]) => [k, { perRequest: b.instructions / b.requests, windows: b.windows }]));
}

// The instruction level of a config: the median over processes of each one's instructions
// per request, with the spread between processes ((max - min) / median, in percent).
function instructionLevel(samples) {
  const per = [...instructionProcesses(samples).values()].map((p) => p.perRequest);
  if (!per.length) return null;
  const mid = median(per);
  return { median: mid, processes: per.length, spreadPct: ((Math.max(...per) - Math.min(...per)) / mid) * 100 };
}

// A spread below this (in percent of the ratio) is the instruction count's own
// repeatability (0.04-0.15% measured from process to process): a ratio whose windows all
// fall within it needs no interval to be read.
const INSTRUCTION_SPREAD_OK = 0.5;

const INSTRUCTION_METHOD = 'instruction count (callgrind, node --single-threaded --predictable-gc-schedule): per window of N requests at the same request index, the baseline process\'s instructions per request ÷ this one\'s; log ratios averaged per block (pair of processes), t-interval over blocks; range = lowest and highest window ratio';

// A config's warm-up length per block (its process records): windows of the same index
// are at the same request index only in processes with the same warm-up.
function warmupSchedule(config) {
  return new Map((config?.processes || []).filter((p) => Array.isArray(p.warmup)).map((p) => [p.block, p.warmup.length]));
}

// instructionRatio(cfgSamples, baseSamples, { cfgSchedule, baseSchedule }) -> the ratio
// read like throughput (baseline instructions per request ÷ this config's: 95% = executes
// 5.3% more instructions). In a block whose two processes warmed up for the same number
// of windows, window i is compared with window i (the same request index: comparable even
// where the count had not settled); where one process settled earlier, the two processes'
// means are compared and the range spans every pair of their windows (sameSchedule false).
// range = [lowest, highest] window ratio, spreadPct = half the range in percent of the estimate.
function instructionRatio(cfgSamples, baseSamples, { cfgSchedule = new Map(), baseSchedule = new Map() } = {}) {
  const cfg = instructionProcesses(cfgSamples);
  const base = instructionProcesses(baseSamples);
  const ps = [];
  const ratios = [];
  let sameSchedule = true;
  for (const [block, p] of cfg) {
    const b = base.get(block);
    if (!b) continue;
    if (cfgSchedule.get(block) === baseSchedule.get(block)) {
      for (const [index, perRequest] of p.windows) {
        if (!b.windows.has(index)) continue;
        ps.push({ block, d: Math.log(b.windows.get(index)) - Math.log(perRequest) });
        ratios.push(b.windows.get(index) / perRequest);
      }
    } else {
      sameSchedule = false;
      ps.push({ block, d: Math.log(b.perRequest) - Math.log(p.perRequest) });
      for (const x of b.windows.values()) for (const y of p.windows.values()) ratios.push(x / y);
    }
  }
  const r = twoLevel(ps);
  if (r.estimate === null) return { ...r, range: null, spreadPct: null, sameSchedule };
  const range = [Math.min(...ratios), Math.max(...ratios)];
  return { ...r, range, spreadPct: ((range[1] - range[0]) / 2 / r.estimate) * 100, sameSchedule };
}

// The verdict of an instruction ratio: a direction only when every window ratio lies on
// the same side of 100%.
function instructionVerdict(r, { broken = false } = {}) {
  if (broken) return BROKEN;
  if (!r || !r.range) return 'not enough samples';
  if (r.range[0] <= 1 && r.range[1] >= 1) return 'no difference in instructions';
  const change = (1 / r.estimate - 1) * 100;
  return `${formatPct(Math.abs(change))}% ${change > 0 ? 'more' : 'fewer'} instructions`;
}

const DUET_METHOD = 'duet: both servers under load at once on one CPU; per window the ratio of server CPU µs per request, log ratios averaged per block (pair of fresh processes), t-interval over blocks (df = blocks - 1)';

const invert = (r) => (r.estimate === null ? r : { ...r, estimate: 1 / r.estimate, ci95: r.ci95 && [1 / r.ci95[1], 1 / r.ci95[0]] });

// summarize(config, baselineConfig | null) -> the `summary` object of docs/run-json.md
// (schema 2). Schema 1 configs get the same shape, paired by round.
function summarize(config, baselineConfig = null) {
  const all = (config && config.samples) || [];
  const samples = all.filter(isSolo);
  const windows = all.filter((s) => s && s.kind === 'window');
  const valid = samples.filter((s) => s && positive(s.rps));
  const counts = {
    mismatches: sum(all, 'mismatches'),
    lost: sum(all, 'lost'),
    errors: sum(all, 'errors'),
    non2xx: sum(all, 'non2xx'),
  };
  const broken = isBroken(config || {}, counts);
  const loadgen = median(valid.map((s) => s.loadgenCpu));
  const clientBound = loadgen !== null && loadgen >= CLIENT_BOUND_CPU;
  const blocks = new Set(valid.map((s, i) => (Number.isInteger(s.block) ? s.block : `r${Number.isInteger(s.round) ? s.round : i}`))).size;
  let ratio = null;
  let cpuRatio = null;
  let sharedRatio = null;
  let disagree = false;
  const instructions = instructionLevel(all);
  if (instructions && baselineConfig && baselineConfig !== config && baselineConfig.id !== config.id) {
    const r = instructionRatio(all, baselineConfig.samples, { cfgSchedule: warmupSchedule(config), baseSchedule: warmupSchedule(baselineConfig) });
    ratio = { baseline: baselineConfig.id, ...r, paired: r.n > 0, quantity: 'instructions', method: INSTRUCTION_METHOD, verdict: instructionVerdict(r, { broken }) };
  } else if (baselineConfig && baselineConfig !== config && baselineConfig.id !== config.id && windows.length) {
    const d = duetRatios(windows);
    const windowCounts = { counted: d.counted, dropped: d.dropped };
    // The duet windows already leave out client-bound seconds: the verdict stands.
    ratio = { baseline: baselineConfig.id, ...d.capacity, paired: d.capacity.n > 0, quantity: 'cpu', method: DUET_METHOD, windows: windowCounts, verdict: verdict(d.capacity, 0.05, { broken }) };
    cpuRatio = { baseline: baselineConfig.id, ...invert(d.capacity), paired: d.capacity.n > 0, method: DUET_METHOD, verdict: ratio.verdict };
    sharedRatio = { baseline: baselineConfig.id, ...d.shared, quantity: 'shared throughput', verdict: verdict(d.shared, 0.05, { broken }) };
    disagree = Boolean(ratio.ci95 && sharedRatio.ci95 && !overlap(ratio.ci95, sharedRatio.ci95));
  } else if (baselineConfig && baselineConfig !== config && baselineConfig.id !== config.id) {
    const base = (baselineConfig.samples || []).filter(isSolo);
    const q = pairedRatio(valid, base, 'rps');
    ratio = { baseline: baselineConfig.id, ...q, verdict: verdict(q, 0.05, { broken, clientBound }) };
    const c = pairedRatio(samples, base, 'cpuUsPerRequest');
    // CPU per request rises when a strategy costs more: its ratio reads the other way
    // round from throughput, so the verdict is on base/cfg to keep "slower" meaning cost.
    cpuRatio = c.n ? { baseline: baselineConfig.id, ...c, verdict: verdict(invert(c), 0.05, { broken, clientBound }) } : null;
    // Throughput ratio r and CPU ratio c tell the same story when r ≈ 1/c: disagree when
    // the throughput interval and the inverted CPU interval do not overlap.
    disagree = Boolean(ratio && cpuRatio && ratio.ci95 && cpuRatio.ci95 &&
      !overlap(ratio.ci95, [1 / cpuRatio.ci95[1], 1 / cpuRatio.ci95[0]]));
  }
  const level = rpsLevel(valid);
  return {
    n: valid.length,
    blocks: blocks || instructions?.processes || 0,
    rps: { ...level, median: median(valid.map((s) => s.rps)) },
    p99: { median: median(valid.map((s) => s.latency && s.latency.p99)) },
    cpuUsPerRequest: { median: median(valid.map((s) => s.cpuUsPerRequest)) },
    // Event-loop utilization under the load the ratio was measured at: the duet windows
    // where there are any, else the solo bursts; null where the run did not record it.
    elu: { median: median((windows.length ? windows : valid).map((s) => s.elu).filter((x) => Number.isFinite(x))) },
    ...(instructions && { instructions }),
    loadgenCpu: loadgen,
    ratio,
    cpuRatio,
    ...(sharedRatio && { sharedRatio }),
    disagree,
    broken,
    clientBound,
    ...counts,
  };
}

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

// baselineFor(config, configs, baselineArm): the one definition lives in comparable.js.
const baselineFor = comparable.baselineFor;

module.exports = {
  describe,
  ratio,
  pairs,
  samplePairs,
  anova,
  twoLevel,
  pairedRatio,
  blockLogMeans,
  blockRatio,
  overlap,
  rpsLevel,
  formatPct, ratioPct,
  signedPctText,
  levelShift,
  BROKEN,
  CLIENT_BOUND,
  CLIENT_BOUND_CPU,
  welch,
  oneSample,
  verdict,
  summarize,
  duetRatios,
  isSolo,
  instructionProcesses,
  instructionLevel,
  instructionRatio,
  instructionVerdict,
  warmupSchedule,
  INSTRUCTION_SPREAD_OK,
  baselineFor,
  median,
  quantile,
  mean: (xs) => { const v = finite(xs); return v.length ? mean(v) : null; },
  tCritical,
  tPValue,
};
