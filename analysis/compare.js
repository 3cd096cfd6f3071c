'use strict';
const { machineOf, sameMachine, machineDifferences } = require('./repro');
// `ctxbench compare a.json b.json [--max-regression PCT]`: a regression gate that fails
// closed. Is run b slower than run a by more than PCT percent (default 5)?
//
// Configs are matched by id. Two runs are not interleaved with each other, so nothing
// pairs across them: per config, each run is reduced to its units (schema 2: one mean
// log req/s per block = server process; schema 1: one log req/s per round, one warm
// process, so restarts are not in that interval) and b is compared with a by Welch's
// unequal-variance t-test on those units. estimate = exp(mean b - mean a).
// With L = 1 - PCT/100, each config gets two one-sided tests against log L:
//   regression: H0 ratio >= L; its p-values are Holm-corrected across configs, so many
//     configs of identical code do not fail by chance. Rejected -> "slower beyond the
//     threshold" (exit 1).
//   pass: H0 ratio <= L at level alpha per config (intersection-union: all must pass,
//     so no correction is needed for the family). Not rejected -> "inconclusive" (exit 2),
//     with the units each run would need to settle it.
// A config that has data in a but none in b is inconclusive too (fail closed); configs in
// only one file are listed and do not decide.
const { jStat } = require('jstat');
const stats = require('./stats');
const summary = require('./summary');
const { armOf } = require('./comparable');
const { migrate } = require('../lib/run-schema');

const ALPHA = 0.05;

const DEFAULT_MAX_REGRESSION = 5;

// The judgement of a row with too few units to judge.
const NO_JUDGEMENT = summary.judge(null);

function validRps(config) {
  return ((config && config.samples) || []).filter(
    (s) => s && typeof s.rps === 'number' && Number.isFinite(s.rps) && s.rps > 0,
  );
}

const methodOf = (run) => run?.settings?.method;
const isInstructionRun = (run) => methodOf(run) === 'instructions';

// A duet run's config as compare's units: per block (a pair of fresh processes), the mean
// log of its duet ratio to the baseline beside it (baseline CPU µs per request ÷ its own,
// per counted window: summary.duetRatios' ratio). Its solo bursts (0.5 s, req/s) are
// too short to gate on; the ratio is the figure the run measured precisely, and "b vs a"
// is then how much the configuration's cost relative to its baseline moved. The
// baseline's own config has no ratio: it decides nothing (status 'baseline').
function duetUnits(config) {
  const blocks = new Map();
  for (const w of config?.samples || []) {
    if (!w || w.kind !== 'window' || !w.counted || !(w.cpuUsPerRequest > 0) || !(w.partnerCpuUsPerRequest > 0))
      continue;
    if (!blocks.has(w.block)) blocks.set(w.block, []);
    blocks.get(w.block).push(Math.log(w.partnerCpuUsPerRequest) - Math.log(w.cpuUsPerRequest));
  }
  return [...blocks.entries()].map(([block, logs]) => ({
    block,
    rps: Math.exp(logs.reduce((x, y) => x + y, 0) / logs.length),
  }));
}

// An instruction-count run's config as compare's units: one per process, its instructions
// per request inverted (requests per instruction), so that "b vs a" below 100% means b
// does more work per request, as a lower throughput does.
function instructionUnits(config) {
  const settled = new Map((config?.processes || []).map((p) => [p.block, p.settled !== false]));
  return [...summary.instructionProcesses(config?.samples).entries()].map(([block, p]) => ({
    block,
    rps: 1 / p.perRequest,
    perRequest: p.perRequest,
    settled: settled.get(block) ?? true,
  }));
}

// Spread of a config's processes in one run, in percent of their median.
function processSpread(units) {
  const per = units.map((u) => u.perRequest);
  return per.length ? ((Math.max(...per) - Math.min(...per)) / stats.median(per)) * 100 : null;
}

// An instruction count repeats from process to process within a fraction of this
// (docs/investigations.md, "A bound instead of 24 windows"): a run of one process is
// trusted to this much.
const INSTRUCTION_REPEATABILITY = 0.15;
// ... once V8 has stopped compiling. Before that, a change to the code moves V8's compile
// batches, so a planted extra cost can even read as a saving in the windows after a short
// warm-up (docs/investigations.md, "Instruction counts: what keeps the count falling, and
// what makes it repeat"; the planted figure: "Figures that code comments carried"), so counts of a
// process that never settled get this margin instead.
const UNSTEADY_MARGIN = 1.5;

// units(samples) -> { logs: per-unit mean log rps, unit: 'block' | 'round' }
function units(samples) {
  const byBlock = Number.isInteger(samples[0] && samples[0].block);
  const groups = new Map();
  samples.forEach((s, i) => {
    const k = byBlock ? s.block : Number.isInteger(s.round) ? s.round : i;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(Math.log(s.rps));
  });
  return {
    logs: [...groups.values()].map((g) => g.reduce((x, y) => x + y, 0) / g.length),
    unit: byBlock ? 'block' : 'round',
  };
}

// holm(ps) -> Holm-adjusted p-values in the given order (null stays null).
function holm(ps) {
  const idx = ps
    .map((p, i) => [p, i])
    .filter(([p]) => p !== null)
    .sort((x, y) => x[0] - y[0]);
  const out = ps.map(() => null);
  let running = 0;
  idx.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (idx.length - rank) * p));
    out[i] = running;
  });
  return out;
}

// Units per run that would make the interval's distance to the threshold significant,
// assuming the spread stays as measured; null when the estimate sits on the threshold.
function unitsNeeded(w, logLimit, n) {
  const gap = Math.abs(w.diff - logLimit);
  if (!(gap > 0) || !(w.se > 0)) return null;
  const need = Math.ceil(n * ((stats.tCritical(Math.max(1, w.df)) * w.se) / gap) ** 2);
  return Number.isFinite(need) ? Math.max(need, n + 1) : null;
}

// Throws unless a and b are server runs of kinds that compare: both counted or both timed,
// both duets or neither. -> { counted, duet }
function comparableKinds(runA, runB) {
  if (!Array.isArray(runA.configs) || !Array.isArray(runB.configs)) {
    throw new Error(
      'compare gates server runs (ctxbench run); micro runs are compared with ctxbench repro --compare a.json b.json',
    );
  }
  const counted = isInstructionRun(runA);
  if (counted !== isInstructionRun(runB)) {
    throw new Error('cannot compare an instruction-count run with a timed run: give two runs of the same --method');
  }
  const duet = methodOf(runA) === 'duet';
  if (duet !== (methodOf(runB) === 'duet')) {
    throw new Error(
      `cannot compare a duet run with a ${duet ? methodOf(runB) : methodOf(runA)} run: one gates on each ` +
        `configuration's CPU per request relative to its baseline, the other on req/s; give two runs of the ` +
        `same --method`,
    );
  }
  return { counted, duet };
}

// A compared row before any test: its units' counts and medians, no outcome yet.
function newRow(id, sa, sb, counted) {
  return {
    id,
    status: 'compared',
    unit: null,
    a: { n: sa.length, units: 0, median: stats.median(sa.map((s) => (counted ? s.perRequest : s.rps))) },
    b: { n: sb.length, units: 0, median: stats.median(sb.map((s) => (counted ? s.perRequest : s.rps))) },
    estimate: null,
    changePct: null,
    ci95: null,
    pValue: null,
    pRegression: null,
    pPass: null,
    outcome: null,
    unitsNeeded: null,
    welch: null,
    judgement: NO_JUDGEMENT,
    regression: false,
  };
}

// An instruction-count row whose processes repeat closely enough to be read directly.
function judgeDirect(row, sa, sb, spreads, limit) {
  // Deterministic enough to read directly: the change in instructions per request
  // against the threshold, with each run's own repeatability as the margin.
  const growth = (row.a.median > 0 ? row.b.median / row.a.median - 1 : 0) * 100;
  const unsteady = [...sa, ...sb].some((u) => !u.settled);
  const margin = Math.max(unsteady ? UNSTEADY_MARGIN : INSTRUCTION_REPEATABILITY, ...spreads);
  row.ci95 = null;
  row.instructions = { growthPct: growth, marginPct: margin, spreads, unsteady };
  // A change beyond the margin is a difference in instructions (more = slower, as judgeInstructions has it).
  const differs = Math.abs(growth) > margin;
  row.judgement = {
    significant: differs,
    direction: differs ? (growth > 0 ? 'slower' : 'faster') : null,
    changePct: growth,
    reason: differs ? 'significant' : 'no difference',
  };
  row.outcome = growth > limit + margin ? 'regression' : growth < limit - margin ? 'ok' : 'inconclusive';
  row.regression = row.outcome === 'regression';
}

// A row's interval and its two one-sided p-values against log L (the regression's is
// Holm-corrected later, across configs).
function judgeWelch(row, w, ua, ub, logLimit, alpha) {
  if (w.se === null) {
    row.outcome = 'inconclusive';
    row.unitsNeeded = 2;
    return;
  }
  const half = w.se === 0 ? 0 : stats.tCritical(w.df) * w.se;
  row.ci95 = [Math.exp(w.diff - half), Math.exp(w.diff + half)];
  const n = Math.min(ua.logs.length, ub.logs.length);
  row.judgement = summary.judge({ estimate: row.estimate, pValue: w.pValue, n }, alpha);
  const tl = w.se === 0 ? (w.diff - logLimit) * Infinity : (w.diff - logLimit) / w.se;
  const cdf = (t) => (t === Infinity ? 1 : t === -Infinity ? 0 : jStat.studentt.cdf(t, w.df));
  row.pRegression = w.diff === logLimit ? 1 : cdf(tl);
  row.pPass = w.diff === logLimit ? 1 : 1 - cdf(tl);
}

// One config present in both runs -> its row. `kinds`: { runA, runB, counted, duet, limit,
// logLimit, alpha }.
function compareConfig(ca, cb, { runA, runB, counted, duet, limit, logLimit, alpha }) {
  if (duet && (armOf(ca) === runA.settings?.baseline || armOf(cb) === runB.settings?.baseline)) {
    return { id: ca.id, status: 'baseline', outcome: null };
  }
  const sa = counted ? instructionUnits(ca) : duet ? duetUnits(ca) : validRps(ca);
  const sb = counted ? instructionUnits(cb) : duet ? duetUnits(cb) : validRps(cb);
  const row = newRow(ca.id, sa, sb, counted);
  if (sa.length === 0 || sb.length === 0) {
    row.status = 'no-data';
    row.missing = sa.length === 0 && sb.length === 0 ? 'both' : sa.length === 0 ? 'a' : 'b';
    const failed = (sb.length === 0 && cb.error?.message) || (sa.length === 0 && ca.error?.message);
    row.error = failed || null;
    if (sa.length > 0) row.outcome = 'inconclusive';
    return row;
  }
  const ua = units(sa);
  const ub = units(sb);
  row.unit = ua.unit === ub.unit ? ua.unit : 'block/round';
  row.a.units = ua.logs.length;
  row.b.units = ub.logs.length;
  const w = stats.welch(ub.logs, ua.logs);
  row.estimate = Math.exp(w.diff);
  row.changePct = (row.estimate - 1) * 100;
  row.pValue = w.pValue;
  row.welch = { diff: w.diff, se: w.se, df: w.df };
  const spreads = counted ? [processSpread(sa), processSpread(sb)] : null;
  if (counted && Math.max(...spreads) <= summary.INSTRUCTION_SPREAD_OK) judgeDirect(row, sa, sb, spreads, limit);
  else judgeWelch(row, w, ua, ub, logLimit, alpha);
  return row;
}

// The tested rows' outcomes once their regression p-values are Holm-corrected together.
function decide(rows, alpha, logLimit) {
  const tested = rows.filter((r) => r.pRegression !== null && r.pRegression !== undefined);
  const adjusted = holm(tested.map((r) => r.pRegression));
  tested.forEach((r, i) => {
    r.pRegression = adjusted[i];
    if (adjusted[i] < alpha) {
      r.outcome = 'regression';
      r.regression = true;
    } else if (r.pPass < alpha) {
      r.outcome = 'ok';
    } else {
      r.outcome = 'inconclusive';
      r.unitsNeeded = unitsNeeded(r.welch, logLimit, Math.min(r.a.units, r.b.units));
    }
  });
}

// compare(a, b, { maxRegression = 5, alpha = 0.05 }) -> { rows, regressions, inconclusive,
//   failed, exitCode, ... }. a, b: run JSON objects (the command reads the files). Each row:
//   { id, status: 'compared' | 'only-in-a' | 'only-in-b' | 'no-data' | 'baseline', unit, a: { n, units, median },
//     b: {...}, estimate, changePct, ci95 (ratio b/a), pValue, pRegression (Holm), pPass,
//     outcome: 'ok' | 'regression' | 'inconclusive' | null, unitsNeeded, judgement (its words:
//     report/verdict-text.js verdictText), regression; no-data: missing 'a' | 'b' | 'both', error }.
//   Its text (the table, the outcome): report/compare-text.js.
function compare(a, b, { maxRegression = DEFAULT_MAX_REGRESSION, alpha = ALPHA } = {}) {
  // Runs as read (lib/run-schema.js migrate): an older file's plan names its method then.
  const [runA, runB] = [a, b].map(migrate);
  const { counted, duet } = comparableKinds(runA, runB);
  const limit = maxRegression === null || maxRegression === undefined ? DEFAULT_MAX_REGRESSION : Number(maxRegression);
  const logLimit = Math.log(1 - limit / 100);
  const configsA = (runA && runA.configs) || [];
  const configsB = (runB && runB.configs) || [];
  const byIdB = new Map(configsB.map((c) => [c.id, c]));
  const idsA = new Set(configsA.map((c) => c.id));
  const rows = [];
  const kinds = { runA, runB, counted, duet, limit, logLimit, alpha };
  for (const ca of configsA) {
    const cb = byIdB.get(ca.id);
    rows.push(cb ? compareConfig(ca, cb, kinds) : { id: ca.id, status: 'only-in-a', outcome: null });
  }
  for (const cb of configsB) {
    if (!idsA.has(cb.id)) rows.push({ id: cb.id, status: 'only-in-b', outcome: null });
  }
  decide(rows, alpha, logLimit);

  const regressions = rows.filter((r) => r.outcome === 'regression');
  const direct = rows.filter((r) => r.instructions);
  const inconclusive = rows.filter((r) => r.outcome === 'inconclusive');
  return {
    a: typeof a === 'string' ? a : (runA && runA.title) || 'a',
    b: typeof b === 'string' ? b : (runB && runB.title) || 'b',
    maxRegression: limit,
    alpha,
    // Two machines (CPU model, cores, kernel) make a comparison across machines: a gate
    // between them measures the machines as much as the change.
    machines: {
      a: machineOf(runA),
      b: machineOf(runB),
      same: sameMachine(runA, runB),
      differences: machineDifferences(runA, runB),
    },
    counted,
    duet,
    baseline: duet ? (runA.settings?.baseline ?? null) : null,
    direct: direct.length,
    rows,
    regressions,
    inconclusive,
    failed: regressions.length > 0,
    // Nothing compared at all (no configuration in both files) is not "no regression".
    exitCode: regressions.length ? 1 : inconclusive.length || !rows.some((r) => r.status === 'compared') ? 2 : 0,
  };
}

module.exports = {
  compare,
  holm,
  DEFAULT_MAX_REGRESSION,
  INSTRUCTION_SPREAD_OK: summary.INSTRUCTION_SPREAD_OK,
  INSTRUCTION_REPEATABILITY,
  UNSTEADY_MARGIN,
};
