'use strict';
// Whether a headline figure holds what the headline promises (analysis/strategy-cells.js
// rowOf), as codes the report marks beside it: its second run's reading of it (reproOf), that
// second run against the bar every repro is held to, its study's precision record against the
// headline's promise, and its interval against its own size (readsOf).
const path = require('node:path');

// The bar a second reading of a study is held to: at least 9 in 10 of the ratios it compares
// consistent (analysis/repro.js, which the repro pages' verdict line decides by too).
const { BAR: REPRO_BAR } = require('./repro');

// A repro comparison's rows: a study's ratios, or (a latency column) the p99 each adds.
const RATIO_ROWS = (repro) => repro.rows;
const ADDED_P99_ROWS = (repro) => repro.addedP99 || [];

// Whether a figure of a study (the default run's, the deployment study's…) held in a second run
// on the same machine: the repro comparisons that name the study's file, their row for this
// configuration, and whether the rows the column reads (rowsOf) reached the repro bar.
// -> null | { consistent, otherEstimate, otherFile, source, bar: null | { code, consistent, judged, bar } }
function reproOf(repros, study, id, rowsOf = RATIO_ROWS) {
  const mine = path.resolve(study.file);
  for (const r of repros) {
    const at = r.run.files.findIndex((f) => path.resolve(f) === mine);
    const rows = at >= 0 ? rowsOf(r.run.repro) : [];
    const row = rows.find((x) => x.id === id);
    if (!row || typeof row.consistent !== 'boolean') continue;
    // Another machine's run is a comparison across machines, never a second reading.
    if (r.run.repro.machines?.same === false) continue;
    const other = at === 0 ? row.b : row.a;
    return {
      consistent: row.consistent,
      otherEstimate: other?.estimate ?? null,
      otherFile: r.run.files[at === 0 ? 1 : 0],
      source: { name: r.name, file: r.file },
      bar: barOf(r.run.repro, rows),
    };
  }
  return null;
}

// A second run against the bar, over the rows it judged: null where no bar applies (a run
// at other settings is a comparison, not a second reading). -> { code: 'meets' | 'below',
// consistent, judged, bar }
function barOf(repro, rows) {
  if (repro.settings?.length > 0) return null;
  const judged = rows.filter((x) => typeof x.consistent === 'boolean');
  if (!judged.length) return null;
  const consistent = judged.filter((x) => x.consistent).length;
  const code = consistent / judged.length >= REPRO_BAR ? 'meets' : 'below';
  return { code, consistent, judged: judged.length, bar: REPRO_BAR };
}

const halfWidthPp = (cell) =>
  Array.isArray(cell?.interval) && cell.intervalKind === '95% CI'
    ? ((cell.interval[1] - cell.interval[0]) / 2) * 100
    : null;

// Whether a % figure's study fell short of the precision the headline promises (promisedPp,
// the half-width of its 95% interval in points): its own precision record (run.precision) lists
// the configuration beyond it, or, where the study aimed wider than the promise, the figure's
// own interval is. -> null | { halfWidthPct, promisedPp }
function precisionShortOf(study, cell, promisedPp) {
  const record = study?.run?.precision;
  if (!record || !Number.isFinite(promisedPp) || !Number.isFinite(cell?.estimate)) return null;
  const missed = (record.missing || []).find((m) => m.id === cell.source?.id);
  const own = halfWidthPp(cell);
  const half = missed ? (missed.halfWidthPct ?? null) : record.target > promisedPp ? own : null;
  if (missed && half === null) return { halfWidthPct: null, promisedPp };
  return Number.isFinite(half) && half > promisedPp ? { halfWidthPct: half, promisedPp } : null;
}

// How a figure reads (issue 76.2): 'level' a share of the baseline, 'difference' (ms added)
// or, when its 95% interval says too little to be a number, 'unresolved' (a level whose
// interval is wider, upper − lower, than the level itself) or 'at-most' (a difference whose
// interval holds 0: its upper end is what it says). null: no figure with a 95% interval.
function readsOf(cell) {
  if (!cell || !Number.isFinite(cell.estimate) || !Array.isArray(cell.interval)) return null;
  if (cell.intervalKind && cell.intervalKind !== '95% CI') return null;
  const [lo, hi] = cell.interval;
  if (cell.kind === 'ms') return lo <= 0 && hi >= 0 ? 'at-most' : 'difference';
  return hi - lo > cell.estimate ? 'unresolved' : 'level';
}

// A figure cell's marks, set on it: repro (reproOf), short (what fell short of the promise:
// { precision, repro } or null) and reads (readsOf). study: the run the cell comes from;
// promisedPp: the precision promise for a % figure (null for a column in other units).
function holdOf(cell, { study, repros, promisedPp = null, rowsOf = RATIO_ROWS }) {
  if (!cell || cell.kind === 'baseline') return cell;
  cell.reads = readsOf(cell);
  cell.repro = study && cell.source?.id ? reproOf(repros || [], study, cell.source.id, rowsOf) : null;
  if (!Number.isFinite(cell.estimate)) {
    cell.short = null;
    return cell;
  }
  const precision = promisedPp === null ? null : precisionShortOf(study, cell, promisedPp);
  const repro = cell.repro?.bar?.code === 'below' ? cell.repro.bar : null;
  cell.short = precision || repro ? { precision, repro } : null;
  return cell;
}

module.exports = { reproOf, precisionShortOf, readsOf, holdOf, halfWidthPp, REPRO_BAR, RATIO_ROWS, ADDED_P99_ROWS };
