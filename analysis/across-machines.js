'use strict';
// How far a headline figure moves between machines (issue 75): the default preset's duet runs
// (the headline's and the ones kept beside it, results/runs/), each machine's figure per
// strategy and depth with its interval, the spread between them (lowest to highest) and the
// widest half-width within one. A figure is the headline's depth cell (analysis/strategy-cells.js
// ratioCell: the duet's summary ratio, the baseline's CPU per request ÷ the strategy's).
const { ratioCell, findConfig } = require('./strategy-cells');
const { halfWidthPp } = require('./strategy-held');

// At most this many machine columns; with more runs, the headline's and the newest per CPU model.
const MAX_MACHINES = 4;

// The settings that make two runs one matrix (the rest, rounds or precision, are how long).
const MATRIX = ['strategies', 'depths', 'hops', 'frameworks', 'baseline', 'node', 'connections'];
const sorted = (x) => JSON.stringify(Array.isArray(x) ? [...x].map(String).sort() : (x ?? null));
const sameMatrix = (a = {}, b = {}) => MATRIX.every((k) => sorted(a[k]) === sorted(b[k]));

// Why a kept run is not counted (null: it is): 'kind' (not a run), 'preset' (another study: not
// the default preset, nor a run based on it with its matrix), 'matrix' (the default preset with
// other strategies, depths, hops…), 'method' (not measured in duet).
function leftOutWhy(run, head) {
  const s = run?.settings || {};
  if (run?.kind !== 'run') return 'kind';
  const matrix = sameMatrix(s, head.settings);
  if (s.preset !== 'default' && !(s.basedOn === 'default' && matrix)) return 'preset';
  if (!matrix) return 'matrix';
  if (s.method !== 'duet') return 'method';
  return null;
}

function machineOf(x, head) {
  const env = x.run.environment || {};
  const fp = env.fingerprint || {};
  return {
    name: x.name,
    file: x.file,
    headline: x === head,
    cpuModel: env.cpuModel ?? null,
    cores: env.cores ?? null,
    fingerprint: { cpuUsPerRequest: fp.cpuUsPerRequest ?? null, rps: fp.rps ?? null },
    commit: env.commit ?? null,
    date: env.date ?? null,
    groupSize: x.run.settings?.groupSize ?? null,
    sameModel: false,
  };
}

// The columns: every counted run up to MAX_MACHINES, else the headline's and the newest of each
// other CPU model (newest first). -> { shown, surplus }
function columnsOf(counted, head) {
  if (counted.length <= MAX_MACHINES) return { shown: counted, surplus: [] };
  const newest = [...counted].sort((a, b) => String(b.run.environment?.date).localeCompare(a.run.environment?.date));
  const shown = [head];
  for (const x of newest) {
    const model = x.run.environment?.cpuModel;
    if (shown.length >= MAX_MACHINES) break;
    if (!shown.some((y) => y.run.environment?.cpuModel === model)) shown.push(x);
  }
  return { shown, surplus: counted.filter((x) => !shown.includes(x)) };
}

// One strategy at one depth on every machine shown: the figures, their spread (pp, lowest to
// highest) and the widest half-width within one machine (pp); apart: the lowest's and the
// highest's intervals do not meet.
function rowAt(strategy, depth, shown) {
  const cells = shown.map((x) => {
    const c = findConfig(x.run, strategy, (k) => k.depth === depth);
    const cell = c ? ratioCell(x, c, x.run.configs) : null;
    if (!cell || !Number.isFinite(cell.estimate)) return null;
    return { estimate: cell.estimate, interval: cell.interval, halfWidthPp: halfWidthPp(cell), id: c.id };
  });
  const have = cells.filter(Boolean);
  const lo = have.reduce((a, c) => (!a || c.estimate < a.estimate ? c : a), null);
  const hi = have.reduce((a, c) => (!a || c.estimate > a.estimate ? c : a), null);
  const halves = have.map((c) => c.halfWidthPp).filter(Number.isFinite);
  const spreadPp = have.length > 1 ? (hi.estimate - lo.estimate) * 100 : null;
  // The same spread among the columns of one CPU model (the widest such): runs on one kind of
  // machine, beside which the spread over every column reads as the move between models.
  const byModel = new Map();
  cells.forEach((c, i) => {
    const model = shown[i].run.environment?.cpuModel ?? null;
    if (c) byModel.set(model, [...(byModel.get(model) ?? []), c]);
  });
  const within = [...byModel.values()]
    .filter((cs) => cs.length > 1)
    .map((cs) => (Math.max(...cs.map((c) => c.estimate)) - Math.min(...cs.map((c) => c.estimate))) * 100);
  const apart =
    spreadPp !== null && Number.isFinite(lo.halfWidthPp) && Number.isFinite(hi.halfWidthPp)
      ? spreadPp > lo.halfWidthPp + hi.halfWidthPp
      : null;
  return {
    strategy,
    depth,
    cells,
    spreadPp,
    withinModelPp: within.length ? Math.max(...within) : null,
    widestHalfPp: halves.length ? Math.max(...halves) : null,
    apart,
  };
}

// acrossMachines(head, kept) -> null (no default duet run) | { machines, left, rows, models }.
// head: the headline's default run, { name, file, run }; kept: the runs kept beside it (any
// results/runs/*.json), each { name, file, run }. left: [{ name, file, why }] with why a code
// of leftOutWhy or 'surplus' (beyond MAX_MACHINES). models: how many CPU models are shown.
function acrossMachines(head, kept = []) {
  if (!head?.run || leftOutWhy(head.run, head.run)) return null;
  const counted = [head];
  const left = [];
  for (const x of kept) {
    if (x.file === head.file) continue;
    const why = leftOutWhy(x.run, head.run);
    if (why === 'kind' || why === 'preset') continue;
    const cpuModel = x.run.environment?.cpuModel ?? null;
    if (why) left.push({ name: x.name, file: x.file, why, method: x.run.settings?.method ?? null, cpuModel });
    else counted.push(x);
  }
  const { shown, surplus } = columnsOf(counted, head);
  for (const x of surplus) {
    left.push({ name: x.name, file: x.file, why: 'surplus', method: 'duet', cpuModel: x.run.environment?.cpuModel });
  }
  const machines = shown.map((x) => machineOf(x, head));
  for (const m of machines) m.sameModel = machines.some((o) => o !== m && o.cpuModel === m.cpuModel);
  const configs = head.run.configs || [];
  const baseline = head.run.settings?.baseline ?? null;
  const strategies = [...new Set([...(head.run.settings?.strategies || []), ...configs.map((c) => c.strategy)])].filter(
    (st) => st !== baseline && configs.some((c) => c.strategy === st && c.arm !== 'aa'),
  );
  const depths = [...new Set(configs.map((c) => c.depth).filter(Number.isFinite))].sort((a, b) => a - b);
  const rows = strategies.flatMap((st) => depths.map((d) => rowAt(st, d, shown)));
  return {
    machines,
    left,
    baseline,
    depths,
    models: new Set(machines.map((m) => m.cpuModel)).size,
    rows,
  };
}

module.exports = { acrossMachines, leftOutWhy, sameMatrix, MAX_MACHINES };
