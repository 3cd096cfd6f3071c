'use strict';
// From measured samples to what the report says: overhead of a strategy vs `none` (ratio
// of means, Welch's t-test on the two sample sets), the study's per-operation overhead,
// and the study's four targets, each judged PASS / FAIL / INCONCLUSIVE.
//
// bench/stats.js is required lazily: the statistics module is shared with the runner.

const ALPHA = 0.05;

function stats() {
  return require('../bench/stats');
}

// The study's targets (seeds/002, "Performance Targets & Validation"), plus ours: every
// read must be correct. `per operation` is defined as the study did: the extra time of
// one 100-operation batch divided by 100, for the sync and the async scenarios.
const TARGETS = [
  { key: 'asyncOverhead', title: 'Async operation overhead', threshold: 5, unit: '%', scenario: 'async' },
  { key: 'nestedP99', title: 'Nested context (depth=5) P99', threshold: 100, unit: 'µs', scenario: 'nested5' },
  { key: 'realWorldOverhead', title: 'Real-world HTTP request overhead', threshold: 50, unit: '%', scenario: 'realworld' },
  { key: 'perOpOverhead', title: 'Absolute overhead per operation (sync, async)', threshold: 10, unit: 'µs', scenario: ['sync', 'async'] },
  { key: 'correct', title: 'Every context read correct (ours, not the study\'s)', threshold: 0, unit: 'failed reads' },
];

function fmtPct(x) {
  const a = Math.abs(x);
  return a > 0 && a < 0.05 ? a.toFixed(2) : a.toFixed(1);
}

// overhead(strategy scenario result + samples, baseline result + samples)
//   -> { ratio, pct, ci95: [loPct, hiPct] | null, diffUs, diffCi95Us: [lo, hi], t, df,
//        pValue, significant, verdict }   or null without a usable baseline.
// ratio is the ratio of mean times (strategy / none): 1.25 = 25% slower. Its interval is
// Fieller's, from the two standard errors with Welch's degrees of freedom, so that it
// excludes "no difference" exactly when Welch's test calls the difference significant.
// It is null (unbounded) when the baseline's own mean is too uncertain to divide by.
function overhead(result, samples, base, baseSamples) {
  if (!result || !base || !(base.meanUs > 0) || !(result.meanUs > 0)) return null;
  const { welch, tCritical } = stats();
  const w = welch(Array.from(samples || []), Array.from(baseSamples || []));
  const ratio = result.meanUs / base.meanUs;
  const pct = (ratio - 1) * 100;
  const out = { ratio, pct, ci95: null, diffUs: result.meanUs - base.meanUs, diffCi95Us: null, t: w.t, df: w.df, pValue: w.pValue, significant: false, verdict: 'not enough samples' };
  if (w.pValue === null || w.pValue === undefined || !(w.df > 0)) return out;
  const crit = tCritical(w.df);
  const fi = fieller(result.meanUs, result.semUs || 0, base.meanUs, base.semUs || 0, crit);
  out.ci95 = fi ? [(fi[0] - 1) * 100, (fi[1] - 1) * 100] : null;
  out.diffCi95Us = [w.diff - crit * w.se, w.diff + crit * w.se];
  out.significant = w.pValue < ALPHA && pct !== 0;
  out.verdict = out.significant ? `${fmtPct(pct)}% ${pct > 0 ? 'slower' : 'faster'}, significant` : 'no significant difference';
  return out;
}

// Fieller's interval for mA / mB from independent means with standard errors sA, sB:
// every r with (mA - r mB)^2 <= t^2 (sA^2 + r^2 sB^2). null when unbounded.
function fieller(mA, sA, mB, sB, t) {
  const a = mB * mB - t * t * sB * sB;
  const b = -2 * mA * mB;
  const c = mA * mA - t * t * sA * sA;
  const disc = b * b - 4 * a * c;
  if (!(a > 0) || disc < 0) return null;
  const root = Math.sqrt(disc);
  return [(-b - root) / (2 * a), (-b + root) / (2 * a)];
}

// Per-operation overhead of a batch scenario (sync, async): extra µs per batch / ops.
function perOp(ov, ops) {
  if (!ov) return null;
  return {
    us: ov.diffUs / ops,
    ci95: ov.diffCi95Us ? [ov.diffCi95Us[0] / ops, ov.diffCi95Us[1] / ops] : null,
  };
}

// Judge an estimate with a 95% interval against "must be below threshold".
function judge(value, ci, threshold) {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  if (!ci) return value < threshold ? 'PASS' : 'FAIL';
  if (ci[1] < threshold) return 'PASS';
  if (ci[0] >= threshold) return 'FAIL';
  return 'INCONCLUSIVE';
}

// targets(entry) -> { [key]: { status, value, ci95, threshold, unit, text } }
// entry: one strategy's result (scenarios with overhead already filled in).
function targets(entry, { baseline = 'none' } = {}) {
  const sc = entry.scenarios || {};
  const isBaseline = entry.strategy === baseline;
  const out = {};
  const na = (key, text) => {
    const t = TARGETS.find((x) => x.key === key);
    out[key] = { status: 'n/a', value: null, ci95: null, threshold: t.threshold, unit: t.unit, text };
  };
  const fromOverhead = (key, scenario) => {
    const t = TARGETS.find((x) => x.key === key);
    const s = sc[scenario];
    if (isBaseline) return na(key, 'baseline');
    if (!s || s.error) return na(key, 'not measured');
    if (!s.overhead) return na(key, 'no baseline');
    const ov = s.overhead;
    out[key] = { status: judge(ov.pct, ov.ci95, t.threshold), value: ov.pct, ci95: ov.ci95, threshold: t.threshold, unit: t.unit, text: `${ov.pct.toFixed(1)}%` };
  };

  fromOverhead('asyncOverhead', 'async');
  fromOverhead('realWorldOverhead', 'realworld');

  const n5 = sc.nested5;
  if (!n5 || n5.error || n5.p99Us === null || n5.p99Us === undefined) na('nestedP99', 'not measured');
  else out.nestedP99 = { status: judge(n5.p99Us, null, 100), value: n5.p99Us, ci95: null, threshold: 100, unit: 'µs', text: `${n5.p99Us.toFixed(1)} µs` };

  if (isBaseline) na('perOpOverhead', 'baseline');
  else {
    const parts = ['sync', 'async'].map((k) => sc[k] && sc[k].perOpOverheadUs).filter(Boolean);
    if (parts.length < 2) na('perOpOverhead', 'not measured');
    else {
      const statuses = parts.map((p) => judge(p.us, p.ci95, 10));
      const status = statuses.includes('FAIL') ? 'FAIL' : statuses.includes('INCONCLUSIVE') ? 'INCONCLUSIVE' : 'PASS';
      const worst = parts.reduce((a, b) => (b.us > a.us ? b : a));
      out.perOpOverhead = {
        status,
        value: worst.us,
        ci95: worst.ci95,
        threshold: 10,
        unit: 'µs',
        text: `sync ${fmtUs(parts[0].us)}, async ${fmtUs(parts[1].us)}`,
      };
    }
  }

  const checked = Object.values(sc).filter((s) => s && !s.error && s.checked);
  if (checked.length === 0) na('correct', isBaseline || entry.carriesContext === false ? 'reads nothing by design' : 'not measured');
  else {
    const failures = checked.reduce((a, s) => a + (s.failures || 0), 0);
    const reads = checked.reduce((a, s) => a + (s.reads || 0), 0);
    out.correct = { status: failures === 0 ? 'PASS' : 'FAIL', value: failures, ci95: null, threshold: 0, unit: 'failed reads', text: `${failures.toLocaleString('en-US')} of ${reads.toLocaleString('en-US')} reads wrong` };
  }
  return out;
}

function fmtUs(us) {
  const a = Math.abs(us);
  const digits = a >= 100 ? 0 : a >= 1 ? 2 : 4;
  return `${us.toFixed(digits)} µs`;
}

module.exports = { TARGETS, ALPHA, overhead, fieller, perOp, judge, targets, fmtUs };
