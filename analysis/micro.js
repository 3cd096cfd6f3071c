'use strict';
// From per-round measurements to what the report says: each scenario of a strategy
// summarised over its rounds, its overhead vs `none` (paired by round), the study's
// per-operation overhead, and the study's four targets, each judged PASS / FAIL /
// INCONCLUSIVE.
//
// The unit of measurement is one process: every round, each strategy runs in a fresh
// process and each scenario gives ONE value, that process's mean time per sample
// (tinybench's mean). The hundreds of thousands of samples inside a process are not the
// unit: they are near-identical timings that share one JIT, one memory layout and one
// moment of the machine, so a test on them sees only within-process noise and calls
// process-to-process differences "significant" (`param` and `global`, which do almost
// the same work as `none`, came out slower and significant that way: docs/micro.md). With one
// value per process, the noise the test sees includes the differences between processes.
//
const { median, oneSample, welch, tCritical, isNum } = require('./stats');
const { ratio } = require('./summary');
const { judge: judgeRatio } = require('./verdict');

const ALPHA = 0.05;

// The study's targets (seeds/002, "Performance Targets & Validation"), plus ours (`correct`):
// every read must be correct. `per operation` is defined as the study did: the extra time of
// one 100-operation batch divided by 100, for the sync and the async scenarios. The key is
// the target's code (the report's columns name them: report/sections/micro-tables.js).
const TARGETS = [
  { key: 'asyncOverhead', threshold: 5, unit: '%', scenario: 'async' },
  { key: 'nestedP99', threshold: 100, unit: 'µs', scenario: 'nested5' },
  { key: 'realWorldOverhead', threshold: 50, unit: '%', scenario: 'realworld' },
  { key: 'perOpOverhead', threshold: 10, unit: 'µs', scenario: ['sync', 'async'] },
  { key: 'correct', threshold: 0, unit: 'failed reads' },
];

// The rounds that measured one scenario: [{ round, meanUs }]. A process that failed later
// still counts for the scenarios it finished (as in summarize()).
function perRound(rounds, key) {
  const out = [];
  for (const r of rounds || []) {
    const s = r && r.scenarios && r.scenarios[key];
    if (s && !s.error && isNum(s.meanUs) && s.meanUs > 0) out.push({ round: r.round, meanUs: s.meanUs });
  }
  return out;
}

// summarize(rounds, key) -> one scenario of a strategy over its rounds, or null when no
// round measured it ({ error } when every round that reached it failed there).
//   meanUs, p50Us, p99Us, rme: medians over the rounds of each process's tinybench figure
//   (opsPerSec = 1e6 / meanUs); minUs / maxUs: over all rounds; samples: all rounds'
//   samples; reads / failures: summed over all rounds (a wrong read in any process counts).
function summarize(rounds, key) {
  const ok = [];
  const errors = [];
  for (const r of rounds || []) {
    const s = r && r.scenarios && r.scenarios[key];
    if (!s) continue;
    if (s.error) errors.push(s.error);
    else ok.push(s);
  }
  if (ok.length === 0) return errors.length ? { error: errors[0], errorRounds: errors.length } : null;
  const med = (k) => median(ok.map((s) => s[k]));
  const meanUs = med('meanUs');
  const out = {
    rounds: ok.length,
    opsPerSec: meanUs > 0 ? 1e6 / meanUs : null,
    meanUs,
    p50Us: med('p50Us'),
    p99Us: med('p99Us'),
    minUs: Math.min(...ok.map((s) => s.minUs).filter(isNum)),
    maxUs: Math.max(...ok.map((s) => s.maxUs).filter(isNum)),
    rme: med('rme'),
    samples: ok.reduce((a, s) => a + (s.samples || 0), 0),
    reads: ok.reduce((a, s) => a + (s.reads || 0), 0),
    failures: ok.reduce((a, s) => a + (s.failures || 0), 0),
    checked: ok.some((s) => s.checked),
    // Medians over the rounds of what the timer timed per sample and what it can resolve
    // (null for runs recorded before they were).
    timedUs: med('timedUs'),
    timerResolutionUs: med('timerResolutionUs'),
  };
  if (!isNum(out.minUs)) out.minUs = null;
  if (!isNum(out.maxUs)) out.maxUs = null;
  if (errors.length) out.errorRounds = errors.length; // measured in other rounds
  return out;
}

// overhead(strategy rounds, baseline rounds, scenario key)
//   -> { ratio, pct, ci95: [loPct, hiPct] | null, halfWidthPct, n, paired, df, pValue,
//        significant, judgement, diffUs, diffCi95Us: [lo, hi] | null }
//   or null when either side has no finished round of the scenario.
// ratio: strategy time / none's time (1.25 = 25% slower), the geometric mean of the
// per-round ratios; pct = (ratio - 1) x 100. n = the number of rounds in which both ran.
//
// The interval is the paired log-ratio interval of analysis/summary.js ratio(), not Fieller's
// (which the single-process version used): Fieller treats the two means as independent,
// but round r of `none` and round r of the strategy ran minutes apart at most, on the
// same machine in the same state, and pairing them takes that shared drift out of the
// error. ratio() does exactly that: one log ratio per round, a one-sample t-test of
// those against 0 with n - 1 degrees of freedom, exp() of its interval. The log scale
// suits a ratio of times (a 2x and a 0.5x are the same distance from 1), and it is the
// method `ctxbench run` uses for throughput, so both kinds of result read alike.
// ratio() works on throughputs; time ratios are their inverses, so its estimate and
// interval are inverted here (the p-value is the same).
// diffUs is the mean of the per-round differences in µs (the study's "extra time"), with
// its paired t interval: it feeds the per-operation target.
// With fewer than two rounds in common ratio() cannot pair; it then falls back to Welch's
// test on the per-process values (paired: false), still one value per process.
function pairedOverhead(rounds, baseRounds, key) {
  const cfg = perRound(rounds, key);
  const base = perRound(baseRounds, key);
  if (cfg.length === 0 || base.length === 0) return null;
  const q = ratio(
    cfg.map((r) => ({ round: r.round, rps: 1e6 / r.meanUs })),
    base.map((r) => ({ round: r.round, rps: 1e6 / r.meanUs })),
    { paired: true },
  );
  const timeRatio = 1 / q.estimate;
  const pct = (timeRatio - 1) * 100;
  const ci = q.ci95 ? [1 / q.ci95[1], 1 / q.ci95[0]] : null;

  // Differences in µs, paired the same way as the ratio.
  let d;
  if (q.paired) {
    const byRound = new Map(base.map((r) => [r.round, r.meanUs]));
    d = oneSample(cfg.filter((r) => byRound.has(r.round)).map((r) => r.meanUs - byRound.get(r.round)));
  } else {
    d = welch(
      cfg.map((r) => r.meanUs),
      base.map((r) => r.meanUs),
    );
  }
  const dHalf = d.se === null ? null : d.se === 0 ? 0 : tCritical(d.df) * d.se;

  const out = {
    ratio: timeRatio,
    pct,
    ci95: ci ? [(ci[0] - 1) * 100, (ci[1] - 1) * 100] : null,
    halfWidthPct: ci ? ((ci[1] - ci[0]) / 2) * 100 : null,
    n: q.n,
    paired: q.paired,
    // The interval is ratio()'s: paired, n - 1; unpaired, Welch's test on the LOG
    // values, whose Welch–Satterthwaite df is not the one of the µs values (d.df).
    df: q.ci95
      ? q.paired
        ? q.n - 1
        : welch(
            cfg.map((r) => Math.log(r.meanUs)),
            base.map((r) => Math.log(r.meanUs)),
          ).df
      : null,
    pValue: q.pValue,
    significant: false,
    // Its verdict as data (report/verdict-text.js words it, counting rounds).
    judgement: judgeRatio(null),
    diffUs: d.diff,
    diffCi95Us: dHalf === null ? null : [d.diff - dHalf, d.diff + dHalf],
  };
  if (out.pValue === null || out.pValue === undefined) return out;
  out.significant = out.pValue < ALPHA && pct !== 0;
  out.judgement = judgeRatio({ estimate: q.estimate, pValue: out.pValue, n: q.n }, ALPHA, { costPct: pct });
  return out;
}

// A sample shorter than this many timer resolutions is mostly the timer's own reads: its
// time, and any ratio to it, says more about the clock than about the code.
const RESOLUTION_FACTOR = 3;

// unresolved(summary) -> true when the scenario's median sample was too short to time.
function unresolved(s) {
  return (
    Boolean(s) && isNum(s.timedUs) && isNum(s.timerResolutionUs) && s.timedUs < RESOLUTION_FACTOR * s.timerResolutionUs
  );
}

// Wrong or missing reads of one scenario over all rounds of a strategy.
function wrongReads(rounds, key) {
  let n = 0;
  for (const r of rounds || []) {
    const s = r && r.scenarios && r.scenarios[key];
    if (s && !s.error && s.checked) n += s.failures || 0;
  }
  return n;
}

// overhead(...) as pairedOverhead, with no verdict where none can stand: a strategy that
// read a wrong or missing context in the scenario did not do the work being timed
// (broken), and a sample of either side too short for the timer has no meaningful ratio
// (unresolved). The figures stay in the JSON; the judgement says why there is no verdict.
function overhead(rounds, baseRounds, key) {
  const out = pairedOverhead(rounds, baseRounds, key);
  if (!out) return out;
  out.broken = wrongReads(rounds, key) > 0;
  out.unresolved = unresolved(summarize(rounds, key)) || unresolved(summarize(baseRounds, key));
  if (out.broken || out.unresolved) {
    out.significant = false;
    const reason = out.broken ? 'broken' : 'unresolved';
    out.judgement = { significant: false, direction: null, changePct: null, reason };
  }
  return out;
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

// targets(entry) -> { [key]: { status, value, ci95, threshold, unit } }, with `reason` where
// the status is 'n/a', perOpOverhead's `perOp: { sync, async }` (µs) and correct's `reads`.
// entry: one strategy's result (scenarios with overhead already filled in). Said by
// report/sections/micro.js.
function targets(entry, { baseline = 'none' } = {}) {
  const sc = entry.scenarios || {};
  const isBaseline = entry.strategy === baseline;
  const out = {};
  const na = (key, reason) => {
    const t = TARGETS.find((x) => x.key === key);
    out[key] = { status: 'n/a', value: null, ci95: null, threshold: t.threshold, unit: t.unit, reason };
  };
  // A scenario with wrong reads gets no cost verdict at all: its timing is not the cost
  // of propagating a context it did not propagate.
  const broken = (key) => {
    const t = TARGETS.find((x) => x.key === key);
    out[key] = { status: 'BROKEN', value: null, ci95: null, threshold: t.threshold, unit: t.unit };
  };
  const fromOverhead = (key, scenario) => {
    const t = TARGETS.find((x) => x.key === key);
    const s = sc[scenario];
    if (isBaseline) return na(key, 'baseline');
    if (!s || s.error) return na(key, 'not measured');
    if (!s.overhead) return na(key, 'no baseline');
    const ov = s.overhead;
    if (s.failures > 0 || ov.broken) return broken(key);
    if (ov.unresolved) return na(key, 'below timer resolution');
    // No interval (fewer than two rounds): nothing can be concluded from one process.
    const status = ov.ci95 ? judge(ov.pct, ov.ci95, t.threshold) : 'INCONCLUSIVE';
    out[key] = { status, value: ov.pct, ci95: ov.ci95, threshold: t.threshold, unit: t.unit };
  };

  fromOverhead('asyncOverhead', 'async');
  fromOverhead('realWorldOverhead', 'realworld');

  const n5 = sc.nested5;
  if (!n5 || n5.error || n5.p99Us === null || n5.p99Us === undefined) na('nestedP99', 'not measured');
  else if (n5.failures > 0) broken('nestedP99');
  else out.nestedP99 = { status: judge(n5.p99Us, null, 100), value: n5.p99Us, ci95: null, threshold: 100, unit: 'µs' };

  if (isBaseline) na('perOpOverhead', 'baseline');
  else {
    const parts = ['sync', 'async'].map((k) => sc[k] && sc[k].perOpOverheadUs).filter(Boolean);
    const ovs = ['sync', 'async'].map((k) => sc[k] && sc[k].overhead).filter(Boolean);
    if (['sync', 'async'].some((k) => sc[k] && sc[k].failures > 0) || ovs.some((ov) => ov.broken))
      broken('perOpOverhead');
    else if (parts.length < 2) na('perOpOverhead', 'not measured');
    else if (ovs.some((ov) => ov.unresolved)) na('perOpOverhead', 'below timer resolution');
    else {
      const statuses = parts.map((p) => (p.ci95 ? judge(p.us, p.ci95, 10) : 'INCONCLUSIVE'));
      const status = statuses.includes('FAIL') ? 'FAIL' : statuses.includes('INCONCLUSIVE') ? 'INCONCLUSIVE' : 'PASS';
      const worst = parts.reduce((a, b) => (b.us > a.us ? b : a));
      out.perOpOverhead = {
        status,
        value: worst.us,
        ci95: worst.ci95,
        threshold: 10,
        unit: 'µs',
        perOp: { sync: parts[0].us, async: parts[1].us },
      };
    }
  }

  const checked = Object.values(sc).filter((s) => s && !s.error && s.checked);
  if (checked.length === 0)
    na('correct', isBaseline || entry.carriesContext === false ? 'reads nothing' : 'not measured');
  else {
    const failures = checked.reduce((a, s) => a + (s.failures || 0), 0);
    const reads = checked.reduce((a, s) => a + (s.reads || 0), 0);
    const status = failures === 0 ? 'PASS' : 'FAIL';
    out.correct = { status, value: failures, ci95: null, threshold: 0, unit: 'failed reads', reads };
  }
  return out;
}

// Instruction counts (ctxbench micro --method instructions): per scenario, the
// instructions per operation a strategy adds to the baseline's process (and the ratio),
// with the larger of the two processes' spreads (half the range of their window pairs).
function compareCounts(entry, base) {
  const out = {};
  if (!base || entry === base) return out;
  for (const [key, s] of Object.entries(entry.scenarios || {})) {
    const b = base.scenarios?.[key];
    if (!s || typeof s.perOp !== 'number' || !b || !(b.perOp > 0)) continue;
    out[key] = {
      addedPerOp: s.perOp - b.perOp,
      ratio: s.perOp / b.perOp,
      spreadPct: Math.max(s.spreadPct ?? 0, b.spreadPct ?? 0),
    };
  }
  return out;
}

// aggregate(entry, base, scenarios, baseline) -> entry with its figures computed from its
// rounds: per scenario the summary and, beside the baseline's entry `base`, the overhead
// (and per operation where the scenario is a batch of `ops`); the study's targets; the
// failed rounds. `scenarios`: [{ key, ops, unit }] as micro/scenarios.js defines them and
// a run records them (a per-call scenario, unit 'call', times each operation itself).
function aggregate(entry, base, scenarios, baseline = 'none') {
  const out = {};
  for (const s of scenarios) {
    const r = summarize(entry.rounds, s.key);
    if (!r) continue;
    out[s.key] = r;
    if (r.error) continue;
    r.overhead = entry.strategy === baseline || !base ? null : overhead(entry.rounds, base.rounds, s.key);
    if (s.ops && s.unit !== 'call') r.perOpOverheadUs = perOp(r.overhead, s.ops);
  }
  entry.scenarios = out;
  entry.targets = targets(entry, { baseline });
  const failed = entry.rounds.filter((r) => r.error);
  entry.error = failed.length
    ? {
        message: `${failed.length} of ${entry.rounds.length} round(s) failed: ${failed[0].error.message}`,
        rounds: failed.map((r) => r.round),
        stderrTail: failed[0].error.stderrTail,
      }
    : null;
  return entry;
}

// The scenarios a run measured, as it recorded them; for a run that recorded none, the
// keys its rounds hold.
function scenariosOf(run) {
  const recorded = run?.micro?.scenarios;
  if (Array.isArray(recorded) && recorded.length) return recorded;
  const keys = new Set();
  for (const e of run?.micro?.results || [])
    for (const r of e.rounds || []) for (const k of Object.keys(r?.scenarios || {})) keys.add(k);
  return [...keys].map((key) => ({ key, title: key, unit: null, ops: null }));
}

// Per scenario, the median achieved 95% CI half-width of "vs none" over the strategies
// compared: [{ key, halfWidthPct }] (scenarios without one left out).
function achievedPrecision(entries, scenarios, baseline) {
  return scenarios
    .map((sc) => {
      const hw = entries
        .filter((e) => e.strategy !== baseline)
        .map((e) => e.scenarios && e.scenarios[sc.key] && e.scenarios[sc.key].overhead)
        .filter((ov) => ov && Number.isFinite(ov.halfWidthPct))
        .map((ov) => ov.halfWidthPct);
      return hw.length ? { key: sc.key, halfWidthPct: median(hw) } : null;
    })
    .filter(Boolean);
}

module.exports = {
  achievedPrecision,
  aggregate,
  scenariosOf,
  compareCounts,
  TARGETS,
  ALPHA,
  RESOLUTION_FACTOR,
  perRound,
  summarize,
  overhead,
  perOp,
  judge,
  targets,
  unresolved,
};
