'use strict';
// What an instruction-count run's page shows: each configuration's summary, the CPU-time
// ratio of its timed twin (the default run, duet) and whether the two agree, and the
// warm-up each process needed.
const { median, overlap, isNum } = require('./stats');
const { summaryOf } = require('./summary');

// -> null, or { windows: { min, max, median }, requestsPerWindow (median), unsettled: [{ config, block }],
//   heldToBound: [{ config, block, windows, stepPct }] (arms measured until one window's swing was
//   within settings.unsettledBound of their mean; bench/measure/instruction-windows.js) }
function instructionWarmup(run) {
  const procs = (run.configs || []).flatMap((c) =>
    (c.processes || []).filter((p) => Array.isArray(p.warmup)).map((p) => ({ config: c, p })),
  );
  if (!procs.length) return null;
  const counts = procs.map(({ p }) => p.warmup.length);
  return {
    windows: { min: Math.min(...counts), max: Math.max(...counts), median: median(counts) },
    requestsPerWindow: median(procs.map(({ p }) => p.windowRequests).filter(isNum)),
    unsettled: procs.filter(({ p }) => p.settled === false).map(({ config, p }) => ({ config, block: p.block })),
    heldToBound: procs
      .filter(({ p }) => isNum(p.windowStepPct))
      .map(({ config, p }) => ({
        config,
        block: p.block,
        windows: (config.samples || []).filter((s) => s.kind === 'instructions' && s.block === p.block).length,
        stepPct: p.windowStepPct,
      })),
  };
}

// rows: [{ config, summary }] of the count run; timedRun: the default run (or null).
// -> per row { timed: the timed twin's ratio or null, agree: true | false | null }, and the
// rows where the window range and the CPU-time interval do not overlap (ids kept).
function againstTime(rows, timedRun) {
  const timed = timedRun
    ? new Map((timedRun.configs || []).map((c) => [c.id, summaryOf(c, timedRun.configs, timedRun.settings?.baseline)]))
    : new Map();
  const compared = rows.map(({ config, summary }) => {
    const t = timed.get(config.id)?.ratio ?? null;
    const r = summary.ratio;
    const comparable = t && isNum(t.estimate) && r?.range;
    return { config, timed: t, agree: comparable ? overlap(r.range, t.ci95) : null };
  });
  return { compared, disagreements: compared.filter((x, i) => x.agree === false && !rows[i].summary.broken) };
}

module.exports = { instructionWarmup, againstTime };
