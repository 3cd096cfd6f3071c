'use strict';
// The headline must never contradict itself (issue 62): a check over the built headline,
// its rows as data (analysis/strategy-summary.js) and their rendered text
// (report/strategy-summary.js columns). `ctxbench report` refuses to write a headline it
// fails; scripts/check-headline.js runs it over the committed results in CI.
const { PROPAGATION } = require('../analysis/registry');
const { columns } = require('./strategy-summary');
const { timesText } = require('./headline-cells');

const WIDEST = (summary) => summary.widestPp ?? 4;
const plain = (text) => String(text ?? '').replace(/`/g, '');

// rendered(summary) -> [{ row, text: { [columnKey]: string|null } }]: what each cell says.
function rendered(summary) {
  const cols = columns(summary);
  return summary.rows.map((row) => ({
    row,
    text: Object.fromEntries(cols.map((c) => [c.key, c.cell(row).text ?? null])),
  }));
}

// The scenarios a Keeps the id? cell lists after ✗ ("+3 more" counted as one unnamed).
function crossed(idsText) {
  return String(idsText ?? '')
    .split(/[;·]/)
    .filter((seg) => seg.includes('✗'))
    .flatMap((seg) => {
      const list = seg.slice(seg.indexOf('✗') + 1);
      const more = /\(\+\d+ more\)/.test(list) ? ['(more)'] : [];
      return [
        ...list
          .replace(/\(\+\d+ more\)/g, '')
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
        ...more,
      ];
    });
}

// A cell that says its strategy costs more than the margin: a share of the baseline whose
// whole 95% interval lies below 100% − margin.
const costsBeyond = (cell, margin) =>
  cell?.kind === 'ratio' && Array.isArray(cell.interval) && cell.interval[1] < 1 - margin;

// Whether a cell's own interval says "cannot tell": its equivalence (or interval) reaches
// past an edge of the margin on both sides of it, or straddles 100%.
function ownCannotTell(cell, margin) {
  if (!cell) return false;
  if (cell.equivalence) return cell.equivalence.outcome === 'cannot tell';
  const i = cell.interval;
  const across = (edge) => Array.isArray(i) && i[0] < edge && i[1] > edge;
  return across(1 - margin) || across(1) || across(1 + margin);
}

// The rate a cell was measured at, so that two cells of one row at the same rate can be set
// side by side: baseline, hop and depth, with the share of the baseline's capacity or req/s.
function rateKeys(cell) {
  if (!cell?.settings) return [];
  const s = cell.settings;
  const load = cell.cannotServe?.load ?? s.load ?? null;
  const rate = cell.cannotServe?.rate ?? s.rate ?? null;
  const at = `${s.baseline ?? cell.cannotServe?.baseline}|${s.hop}|${s.depth}`;
  return [Number.isFinite(load) && `${at}|load ${load}`, Number.isFinite(rate) && `${at}|rate ${rate}`].filter(Boolean);
}
const cannotServe = (cell) =>
  Boolean(cell?.cannotServe) || (cell?.kind === 'ms' && cell.candidateHeld === false && cell.baselineHeld);
const hasFigure = (cell) => cell && cell.kind !== 'baseline' && Number.isFinite(cell.estimate);

// 1. The Reading's id verdict against the Keeps the id? cell.
function idContradictions(name, reading, text) {
  const out = [];
  const x = crossed(text.ids);
  if (/keeps the id/i.test(reading)) {
    const every = /\bevery\s+(?:\w+\s+)?patterns?\b/i.exec(reading);
    const everyday = x.filter((sc) => PROPAGATION.test(sc));
    if (every && x.length)
      out.push(`${name}: the Reading says "${every[0]}" while Keeps the id? lists ✗ ${x.join(', ')}`);
    else if (everyday.length)
      out.push(
        `${name}: the Reading says it keeps the id while Keeps the id? lists ✗ ${everyday.join(', ')}, ` +
          `everyday patterns`,
      );
  }
  return out;
}

// 2. "cannot tell" or "≥ 100%" beside a cost beyond the margin, unless its own interval says so.
function marginContradictions({ summary, margin, shown, titleOf }, name, reading, row, text) {
  const out = [];
  const beyond = shown.filter((c) => c.unit === '%' && costsBeyond(row[c.key], margin)).map((c) => c.key);
  if (beyond.length) {
    const costs =
      `${beyond.map((k) => titleOf.get(k)).join(', ')} say${beyond.length === 1 ? 's' : ''} it costs more`;
    for (const c of shown) {
      const t = plain(text[c.key]);
      const cell = row[c.key];
      const others = beyond.filter((k) => k !== c.key);
      if (!others.length) continue;
      const atLeast = /^≥\s*([\d.]+)%/.exec(t);
      if (/cannot tell/i.test(t) && !ownCannotTell(cell, margin))
        out.push(`${name}: ${titleOf.get(c.key)} says "cannot tell" while ${costs} than ±${margin * 100}%`);
      if (atLeast && Number(atLeast[1]) >= 100 && !(cell?.interval?.[0] >= 1))
        out.push(`${name}: ${titleOf.get(c.key)} says "${atLeast[0]}" while ${costs} than ±${margin * 100}%`);
    }
    // The Reading's "cannot tell" belongs to the depth it names.
    for (const clause of reading.split(/[;,]/).filter((cl) => /cannot tell/i.test(cl))) {
      const depth = Number(/depth (\d+)/.exec(clause)?.[1]);
      const key = ['shallow', 'deep'].find((k) => summary.depths?.[k] === depth);
      if (!(key && ownCannotTell(row[key], margin)))
        out.push(`${name}: the Reading says "${clause.trim()}" while ${costs} than ±${margin * 100}%`);
    }
  }
  return out;
}

// 3. "cannot serve" beside a figure for the same rate.
function rateContradictions({ shown, titleOf }, name, row, text) {
  const out = [];
  const cells = shown.map((c) => [c.key, row[c.key]]).filter(([, cell]) => cell);
  for (const [k1, a] of cells.filter(([, cell]) => cannotServe(cell))) {
    const keys = rateKeys(a);
    for (const [k2, b] of cells.filter(([k, cell]) => k !== k1 && hasFigure(cell))) {
      if (rateKeys(b).some((k) => keys.includes(k)))
        out.push(
          `${name}: ${titleOf.get(k1)} says "${plain(text[k1])}" while ${titleOf.get(k2)} has a figure at the ` +
            `same rate (${plain(text[k2])})`,
        );
    }
  }
  return out;
}

// 4. A % figure wider than the headline allows.
function widthContradictions({ summary, shown, titleOf }, name, row, text) {
  const out = [];
  for (const c of shown.filter((col) => col.unit === '%')) {
    const i = row[c.key]?.interval;
    const half = Array.isArray(i) && row[c.key].intervalKind !== 'window range' ? ((i[1] - i[0]) / 2) * 100 : 0;
    if (half > WIDEST(summary))
      out.push(
        `${name}: ${titleOf.get(c.key)} shows ${plain(text[c.key])}, ±${half.toFixed(1)} pp wide (the headline ` +
          `keeps a % figure within ±${WIDEST(summary)} pp)`,
      );
  }
  return out;
}

// 5. A column, or the table, whose timed figures come from more than one machine.
function machineContradictions({ summary, shown, titleOf }) {
  const out = [];
  const tables = new Map();
  for (const c of shown) for (const row of summary.rows) if (row[c.key]?.machine) tables.set(row[c.key].machine, c.key);
  if (tables.size > 1)
    out.push(
      `the table's timed columns come from ${tables.size} machines (` +
        `${[...tables].map(([m, key]) => `${titleOf.get(key)} on ${m}`).join('; ')})`,
    );
  for (const c of shown) {
    const by = new Map();
    for (const row of summary.rows) {
      const m = row[c.key]?.machine;
      if (!m) continue;
      if (!by.has(m)) by.set(m, []);
      by.get(m).push(row.strategy);
    }
    if (by.size > 1)
      out.push(
        `${titleOf.get(c.key)}: figures from ${by.size} machines (` +
          `${[...by].map(([m, st]) => `${st.join(', ')} on ${m}`).join('; ')})`,
      );
  }
  return out;
}

// The everyday patterns a text names after "✗" (a Keeps the id? cell that is ✗ alone) or in
// "everyday code (…)" (the Reading), and how many it counts with its "+N more" / "and N more".
// -> null (it lists none) | { names, total }
function everydayListed(text, { reading = false } = {}) {
  const t = plain(text);
  const list = reading ? /in everyday code \(([^)]*)\)/.exec(t)?.[1] : /^✗ ([^·]*)/.exec(t)?.[1];
  if (list === undefined) return null;
  const more = Number(/(?:\(\+| and )(\d+) more\)?\s*$/.exec(list.trim())?.[1] ?? 0);
  const names = list
    .trim()
    .replace(/\s*(\(\+\d+ more\)| and \d+ more)$/, '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  return { names, total: names.length + more };
}

// 6. Keeps the id?'s ✗ list and the Reading's: one list, one count (issue 76).
function countContradictions(name, text) {
  const cell = everydayListed(text.ids);
  const reading = everydayListed(text.reading, { reading: true });
  if (!cell && !reading) return [];
  const same = (a, b) => a && b && a.total === b.total && a.names.join() === b.names.join();
  if (same(cell, reading)) return [];
  const say = (x) => (x ? `${x.total} (${x.names.join(', ')})` : 'none');
  return [`${name}: Keeps the id? counts ${say(cell)} everyday patterns while the Reading counts ${say(reading)}`];
}

// 7. A depth figure's cost said in the Reading as the multiple of the baseline's CPU per
// request it is (100 ÷ the figure, issue 75.2), in the clause that names its depth.
function multiplierContradictions({ summary, shown }, name, reading, row) {
  if (row.findings?.kind !== 'measured') return [];
  const out = [];
  for (const key of ['shallow', 'deep'].filter((k) => shown.some((c) => c.key === k))) {
    const cell = row[key];
    const depth = summary.depths?.[key];
    if (cell?.kind !== 'ratio' || cell.reads !== 'level' || !cell.significant) continue;
    if (cell.equivalence?.outcome === 'equivalent') continue;
    const times = `${timesText(cell.estimate)}×`;
    const clause = reading.split(/[,;]/).find((cl) => new RegExp(`\\bdepth ${depth}\\b`).test(cl)) ?? '';
    if (!clause.includes(times))
      out.push(
        `${name}: the Reading says "${clause.trim()}" at depth ${depth}, not ${times} ` +
          `${plain(summary.baseline)}'s CPU per request (100 ÷ ${(cell.estimate * 100).toFixed(1)}%)`,
      );
  }
  return out;
}

// 8. A level wider than itself shown as a number; a difference whose interval holds 0 shown
// as a figure rather than the bound it gives (issue 76.2).
function resolutionContradictions({ shown, titleOf }, name, row, text) {
  const out = [];
  for (const c of shown) {
    const reads = row[c.key]?.reads;
    const t = plain(text[c.key]);
    if (reads === 'unresolved' && !t.startsWith('not resolved'))
      out.push(`${name}: ${titleOf.get(c.key)} shows "${t}", an interval wider than the figure itself`);
    if (reads === 'at-most' && !t.startsWith('at most'))
      out.push(`${name}: ${titleOf.get(c.key)} shows "${t}", a difference whose interval holds 0`);
  }
  return out;
}

// contradictions(summary, texts = rendered(summary)) -> [string]: one line per contradiction.
function contradictions(summary, texts = rendered(summary)) {
  const out = [];
  const margin = (summary.settings?.marginPct ?? 2) / 100;
  const shown = (summary.columns || []).filter((c) => c.shown);
  const titleOf = new Map(columns(summary).map((c) => [c.key, c.name ?? c.title]));
  const ctx = { summary, margin, shown, titleOf };
  for (const { row, text } of texts) {
    const name = row.strategy;
    const reading = plain(text.reading);
    out.push(
      ...idContradictions(name, reading, text),
      ...marginContradictions(ctx, name, reading, row, text),
      ...rateContradictions(ctx, name, row, text),
      ...widthContradictions(ctx, name, row, text),
      ...countContradictions(name, text),
      ...multiplierContradictions(ctx, name, reading, row),
      ...resolutionContradictions(ctx, name, row, text),
    );
  }
  out.push(...machineContradictions(ctx));
  return out;
}

module.exports = { contradictions, rendered, crossed, everydayListed };
