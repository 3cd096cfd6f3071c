'use strict';
// "What each strategy costs": the table that leads results.md, one row per strategy of the
// default run, each cell a figure of one study (its ratio and interval, its judgement, its
// source), and the findings its Reading is written from (report/strategy-summary.js).
// Which runs feed which column is analysis/strategy-sources.js; the cells and a row of them
// analysis/strategy-cells.js (the "Keeps the id?" column analysis/strategy-ids.js); the
// findings analysis/strategy-findings.js. Here: the columns, and the steps that join them.
const path = require('node:path');
const { pickSources, headlinePlan, settingsOf, machinesOf, describedSources } = require('./strategy-sources');
const { rowOf } = require('./strategy-cells');
const { gatherNodeDependent, commonFailures } = require('./strategy-ids');
const { findingsOf, disagreements } = require('./strategy-findings');
const { halfWidthPp } = require('./strategy-held');

// The headline's figure columns after Strategy and Keeps the id?, in order: the one place a
// column is declared (its cell is computed per row in strategySummary, under the same key;
// its title and note are report/strategy-summary.js COLUMN_TEXT's). unit '%': a share of the
// baseline with an interval, which leaves the headline when wider than WIDEST_PP; page: a
// column that always lives on its study's page, never in the headline.
const FIGURE_COLUMNS = [
  { key: 'shallow', unit: '%' },
  { key: 'deep', unit: '%' },
  { key: 'io', unit: '%' },
  { key: 'latency', unit: 'ms' },
  { key: 'deploy', unit: '%' },
  { key: 'stores', unit: '%', page: true },
];
// A % figure whose 95% interval is wider than this (half its width, in points) says too
// little for a table read in a minute: its column leaves for its study's page.
const WIDEST_PP = 4;

// Each figure column of the headline, judged over the rows' cells: its machine (the one most
// of its cells were measured on; a cell measured on another moves to row.offMachine and reads
// "—"), its widest interval, and whether it stays (shown) or leaves for its study's page.
// machineOf(sourceName) -> "CPU model × cores" | null. Mutates rows (the cells that move).
// One machine per table (issue 75): a column measured on another machine than the first
// column's (the default run's depth figures) leaves for its page too ('machine').
// -> [{ key, unit, machine, halfWidthPp, shown, leaves: null | { why: 'wide' | 'page' | 'machine', page } }]
function headlineColumns(rows, machineOf, columns = FIGURE_COLUMNS) {
  let table = null;
  return columns.map(({ key, unit, page }) => {
    const cells = rows.map((r) => r[key]).filter((c) => c?.source?.name);
    const count = new Map();
    for (const c of cells) {
      c.machine = machineOf(c.source.name);
      if (c.machine) count.set(c.machine, (count.get(c.machine) ?? 0) + 1);
    }
    // The machine most cells were measured on; a tie goes to the earlier row's.
    const machine = [...count].reduce((best, x) => (!best || x[1] > best[1] ? x : best), null)?.[0] ?? null;
    for (const r of rows) {
      const c = r[key];
      if (!c?.machine || !machine || c.machine === machine) continue;
      r.offMachine = { ...r.offMachine, [key]: { machine: c.machine, source: c.source } };
      r[key] = null;
    }
    const widths = rows.map((r) => (unit === '%' ? halfWidthPp(r[key]) : null)).filter(Number.isFinite);
    const widest = widths.length ? Math.max(...widths) : null;
    const pageOf = rows.map((r) => r[key]?.source?.name).find(Boolean) ?? null;
    table ??= machine;
    const leaves = page
      ? { why: 'page', page: pageOf }
      : machine && table && machine !== table
        ? { why: 'machine', page: pageOf }
        : widest > WIDEST_PP
          ? { why: 'wide', page: pageOf }
          : null;
    const present = rows.some((r) => r[key]) || rows.some((r) => r.offMachine?.[key]);
    return { key, unit, machine, halfWidthPp: widest, shown: present && !leaves, present, leaves };
  });
}

// The machine a run was measured on, as the headline names it.
const machineText = (env) => (env?.cpuModel ? `${env.cpuModel} × ${env.cores ?? '?'}` : null);

// strategySummary(results) -> { sources, depths, settings, rows, notes } — the table that
// leads results.md ("What each strategy costs"), one row per strategy of the default run.
// results: [{ file, run, name? }].
function strategySummary(results, { ioHop = 'pg', load = 0.5, stores = 10 } = {}) {
  const sources = pickSources(results);
  if (!sources.default) return null;
  const plan = headlinePlan(sources, { ioHop, load, stores });
  const rows = plan.strategies.map((strategy) => rowOf(strategy, plan));
  // Each column's figures from one machine, and only columns narrow enough for a headline;
  // the Reading is written from what stays.
  const machineByName = new Map(
    results.map((x) => [x.name ?? path.basename(x.file, '.json'), machineText(x.run.environment)]),
  );
  const columns = headlineColumns(rows, (name) => machineByName.get(name) ?? null);
  for (const row of rows) {
    row.findings = findingsOf(row, plan.shallowDepth, plan.deepDepth);
    row.disagreements = row.baseline ? [] : disagreements(row);
  }
  const common = commonFailures(rows, sources.integrity);
  return {
    sources: describedSources(sources),
    columns,
    widestPp: WIDEST_PP,
    // The precision the headline promises a % figure (±pp); a figure short of it is marked.
    promisedPp: plan.promisedPp,
    // The machines the Keeps the id? column's integrity studies ran on.
    idsMachines: [...new Set(rows.map((r) => r.ids.source && machineByName.get(r.ids.source.name)).filter(Boolean))],
    // On which machine each study of a headline column was measured (CPU model, cores).
    machines: machinesOf(sources),
    baseline: plan.baseline,
    depths: { shallow: plan.shallowDepth, deep: plan.deepDepth },
    settings: settingsOf(plan),
    commonFailures: common,
    // Answers that depend on the Node version, by scenario and where they fail: [{ scenario,
    // fails, strategies, source }] (the rows' ids.nodeDependent, gathered for the notes).
    nodeDependent: gatherNodeDependent(rows),
    // The rows whose depth figures come from the popular study, not the default run.
    popularRows: plan.fromPopular,
    rows,
  };
}

module.exports = { strategySummary, headlineColumns, FIGURE_COLUMNS, WIDEST_PP };
