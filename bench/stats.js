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

const CONFIDENCE = 0.95;

function finite(xs) {
  return (xs || []).filter((x) => typeof x === 'number' && Number.isFinite(x));
}

function mean(xs) {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

// Sample variance (n - 1 denominator).
function variance(xs) {
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) * (x - m);
  return s / (xs.length - 1);
}

function median(xs) {
  const v = finite(xs).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

// Linear-interpolation quantile (R type 7), q in [0, 1].
function quantile(xs, q) {
  const v = finite(xs).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const h = (v.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return v[lo] + (h - lo) * (v[hi] - v[lo]);
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

function pct(x) {
  const a = Math.abs(x);
  return a > 0 && a < 0.05 ? a.toFixed(2) : a.toFixed(1);
}

// verdict(ratio, alpha = 0.05) -> plain-language verdict on a throughput ratio.
//   "7.0% slower, significant" | "3.1% faster, significant" | "no significant difference"
//   | "not enough samples"
function verdict(r, alpha = 0.05) {
  if (!r || r.estimate === null || r.estimate === undefined || !(r.n >= 2) || r.pValue === null || r.pValue === undefined) {
    return 'not enough samples';
  }
  if (!(r.pValue < alpha)) return 'no significant difference';
  const change = (r.estimate - 1) * 100;
  if (change === 0) return 'no significant difference';
  return `${pct(change)}% ${change < 0 ? 'slower' : 'faster'}, significant`;
}

function sum(samples, key) {
  let s = 0;
  for (const x of samples || []) if (x && typeof x[key] === 'number' && Number.isFinite(x[key])) s += x[key];
  return s;
}

// summarize(config, baselineConfig | null) -> the `summary` object of docs/run-json.md:
//   { n, rps: { median, mean, ci95 }, p99: { median }, cpuUsPerRequest: { median },
//     ratio: { baseline, estimate, ci95, halfWidthPct, pValue, paired, n, verdict } | null,
//     mismatches, lost, errors, non2xx }
// Samples of the config and its baseline are matched by their `round` field.
function summarize(config, baselineConfig = null) {
  const samples = (config && config.samples) || [];
  const valid = samples.filter((s) => s && typeof s.rps === 'number' && Number.isFinite(s.rps));
  const d = describe(valid.map((s) => s.rps));
  let r = null;
  if (baselineConfig && baselineConfig !== config && baselineConfig.id !== config.id) {
    const q = ratio(valid, baselineConfig.samples || [], { paired: true });
    r = { baseline: baselineConfig.id, ...q, verdict: verdict(q) };
  }
  return {
    n: d.n,
    rps: { median: d.median, mean: d.mean, ci95: d.ci95 },
    p99: { median: median(valid.map((s) => s.latency && s.latency.p99)) },
    cpuUsPerRequest: { median: median(valid.map((s) => s.cpuUsPerRequest)) },
    ratio: r,
    mismatches: sum(samples, 'mismatches'),
    lost: sum(samples, 'lost'),
    errors: sum(samples, 'errors'),
    non2xx: sum(samples, 'non2xx'),
  };
}

// baselineFor(config, configs, baselineStrategy) -> the config that differs from `config`
// only in strategy, with strategy === baselineStrategy; null when there is none. A config
// is never its own baseline (so the baseline config itself gets null).
function baselineFor(config, configs, baselineStrategy) {
  if (!config || !baselineStrategy || config.strategy === baselineStrategy) return null;
  const same = (x, y) => (x === undefined ? null : x) === (y === undefined ? null : y);
  return (configs || []).find((c) => c && c !== config && c.id !== config.id &&
    c.strategy === baselineStrategy &&
    same(c.framework, config.framework) && same(c.depth, config.depth) && same(c.hop, config.hop) &&
    same(c.node, config.node) && same(c.acf, config.acf)) || null;
}

module.exports = {
  describe,
  ratio,
  welch,
  oneSample,
  verdict,
  summarize,
  baselineFor,
  median,
  quantile,
  mean: (xs) => { const v = finite(xs); return v.length ? mean(v) : null; },
  tCritical,
  tPValue,
};
