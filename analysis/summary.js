'use strict';
// From samples to what a configuration costs: the per-config `summary` object of
// docs/run-json.md, its ratio to the baseline with its interval and judgement
// (analysis/verdict.js). Which sample pairs with which and the throughput ratios are
// analysis/summary-ratios.js; the ratios of duet, pair and instruction windows
// analysis/summary-windows.js; the maths analysis/stats.js. The one definition of a
// comparison is still required from here: every name the others export is re-exported.

const { median, overlap, positive } = require('./stats');
const { baselineFor } = require('./comparable');
const { operatingRatio, isPhased } = require('./operating-point');
const { isControl, carriesContext } = require('./registry');
const { judge, judgeInstructions, judgementOf } = require('./verdict');
const ratios = require('./summary-ratios');
const windowRatios = require('./summary-windows');
const { pairedRatio, rpsLevel } = ratios;
const { duetRatios, instructionLevel, instructionRatio, warmupSchedule } = windowRatios;

const CLIENT_BOUND_CPU = 0.85;

function sum(samples, key) {
  let s = 0;
  for (const x of samples || []) if (x && typeof x[key] === 'number' && Number.isFinite(x[key])) s += x[key];
  return s;
}

// isBroken(config, lost, mismatches): a strategy that should carry context but lost or
// mixed ids. `global` is the control (it leaks by design) and `none` carries nothing.
function isBroken(config, counts) {
  if (!(counts.lost > 0 || counts.mismatches > 0)) return false;
  if (config.strategy === 'none' || config.strategy === 'global') return false;
  // An unknown strategy that lost ids is broken all the same.
  return !isControl(config.strategy) && carriesContext(config.strategy);
}

// Duet windows (bench/measure/duet-windows.js) are samples of kind 'window'; each group's load counts are
// of kind 'duet'. Neither is a solo burst: only solo samples (no kind, or 'solo') give a
// configuration its own req/s, p99 and CPU level.
const isSolo = (s) => Boolean(s) && (s.kind === undefined || s.kind === 'solo');

// A ratio turned the other way round: its estimate and interval inverted (1/upper, 1/lower).
const invert = (r) =>
  r.estimate === null ? r : { ...r, estimate: 1 / r.estimate, ci95: r.ci95 && [1 / r.ci95[1], 1 / r.ci95[0]] };

// The ratio of an instruction-count config to its baseline: counted, not timed.
function instructionSummary(config, baselineConfig, all, { broken }) {
  const r = instructionRatio(all, baselineConfig.samples, {
    cfgSchedule: warmupSchedule(config),
    baseSchedule: warmupSchedule(baselineConfig),
  });
  const judgement = judgeInstructions(r, { broken });
  const ratio = {
    baseline: baselineConfig.id,
    ...r,
    paired: r.n > 0,
    quantity: 'instructions',
    method: 'instructions',
    judgement,
  };
  return { ratio, cpuRatio: null, sharedRatio: null, disagree: false };
}

// The ratios of a config measured in windows beside its baseline (duet, pair, operating point).
function windowSummary(config, baselineConfig, windows, { broken, marginPct }) {
  const d = duetRatios(windows);
  const windowCounts = { counted: d.counted, dropped: d.dropped };
  // A pair's windows are at a fixed rate: both served the same requests, so the ratio of
  // requests served (the duet's shared throughput) says nothing there.
  const atRate = windows.some((w) => w.method === 'pair');
  // At the autoscaler's operating point each side is read at its own rate
  // (analysis/operating-point.js): the ratio is the per-instance throughput at the target.
  const operating = windows.some(isPhased);
  if (operating) d.ratio = operatingRatio(config);
  // The method's code (docs/run-json.md says what each measures).
  const method = operating ? 'operating-point' : atRate ? 'pair' : 'duet';
  // The windows already leave out client-bound seconds: the verdict stands.
  const judgement = judge(d.ratio, 0.05, { broken, marginPct });
  const ratio = {
    baseline: baselineConfig.id,
    ...d.ratio,
    paired: d.ratio.n > 0,
    quantity: 'cpu',
    method,
    ...(atRate && !operating && { rate: windows.find((w) => w.rate)?.rate ?? null }),
    windows: windowCounts,
    judgement,
  };
  const cpuRatio = {
    baseline: baselineConfig.id,
    ...invert(d.ratio),
    paired: d.ratio.n > 0,
    method,
    judgement,
  };
  if (atRate) return { ratio, cpuRatio, sharedRatio: null, disagree: false };
  const shared = judge(d.shared, 0.05, { broken, marginPct });
  const sharedRatio = {
    baseline: baselineConfig.id,
    ...d.shared,
    quantity: 'shared throughput',
    judgement: shared,
  };
  const disagree = Boolean(ratio.ci95 && sharedRatio.ci95 && !overlap(ratio.ci95, sharedRatio.ci95));
  return { ratio, cpuRatio, sharedRatio, disagree };
}

// The ratios of a config measured in solo bursts beside its baseline's (sequential).
function soloSummary(baselineConfig, valid, samples, { broken, clientBound, marginPct }) {
  const base = (baselineConfig.samples || []).filter(isSolo);
  const q = pairedRatio(valid, base, 'rps');
  const judgement = judge(q, 0.05, { broken, clientBound, marginPct });
  const ratio = { baseline: baselineConfig.id, ...q, judgement };
  const c = pairedRatio(samples, base, 'cpuUsPerRequest');
  // CPU per request rises when a strategy costs more: its ratio reads the other way
  // round from throughput, so the verdict is on base/cfg to keep "slower" meaning cost.
  const cpuJudgement = judge(invert(c), 0.05, { broken, clientBound, marginPct });
  const cpuRatio = c.n ? { baseline: baselineConfig.id, ...c, judgement: cpuJudgement } : null;
  // Throughput ratio r and CPU ratio c tell the same story when r ≈ 1/c: disagree when
  // the throughput interval and the inverted CPU interval do not overlap.
  const disagree = Boolean(
    ratio &&
    cpuRatio &&
    ratio.ci95 &&
    cpuRatio.ci95 &&
    !overlap(ratio.ci95, [1 / cpuRatio.ci95[1], 1 / cpuRatio.ci95[0]]),
  );
  return { ratio, cpuRatio, sharedRatio: null, disagree };
}

// summarize(config, baselineConfig | null) -> the `summary` object of docs/run-json.md
// (schema 2). Schema 1 configs get the same shape, paired by round.
// marginPct: the equivalence margin of the ratio's judgement (the run's --margin).
function summarize(config, baselineConfig = null, { marginPct } = {}) {
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
  // The curl driver's client is the curl processes: their load CPU's busy share (loadCpu).
  const loadgen = median(valid.map((s) => s.loadgenCpu ?? s.loadCpu ?? null));
  const clientBound = loadgen !== null && loadgen >= CLIENT_BOUND_CPU;
  const blocks = new Set(
    valid.map((s, i) => (Number.isInteger(s.block) ? s.block : `r${Number.isInteger(s.round) ? s.round : i}`)),
  ).size;
  const instructions = instructionLevel(all);
  const against = baselineConfig && baselineConfig !== config && baselineConfig.id !== config.id;
  const { ratio, cpuRatio, sharedRatio, disagree } = !against
    ? { ratio: null, cpuRatio: null, sharedRatio: null, disagree: false }
    : instructions
      ? instructionSummary(config, baselineConfig, all, { broken })
      : windows.length
        ? windowSummary(config, baselineConfig, windows, { broken, marginPct })
        : soloSummary(baselineConfig, valid, samples, { broken, clientBound, marginPct });
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

// Summary recomputed from the samples (so every section uses the same statistics), or
// the stored one when a config carries no samples.
function summaryOf(config, configs, baseline) {
  if ((config.samples || []).length) return summarize(config, baselineFor(config, configs, baseline));
  return config.summary || summarize(config, null);
}

// The one definition of a comparison, wherever its parts now live: callers keep this path.
module.exports = {
  ...ratios,
  ...windowRatios,
  summaryOf,
  CLIENT_BOUND_CPU,
  judge,
  judgeInstructions,
  judgementOf,
  summarize,
  isSolo,
  invertRatio: invert,
};
