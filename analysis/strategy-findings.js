'use strict';
// What a headline row's figures say (analysis/strategy-summary.js): its findings, the data
// report/strategy-summary.js writes the Reading from, and the cells of one strategy that
// seem to disagree.
const stats = require('./stats');

// The settings of two cells compared where they seem to disagree, in the order they are
// named (report/strategy-summary.js says them: "hop immediate → pg").
const SETTINGS = ['hop', 'method', 'quantity', 'baseline', 'stores', 'node', 'acf', 'connections'];

// What a row's figures say, by rules over them (never hand-written per strategy), as data;
// report/strategy-summary.js writes the Reading sentence from it.
//   { kind: 'baseline', carriesContext } | { kind: 'control', leaks } | { kind: 'floor' }
//   | { kind: 'broken', where: [scenario] }
//   | { kind: 'measured', costs: [{ depth, significant, estimate, unresolved, equivalence }], grows,
//       unreproduced: [{ depth, otherEstimate }], sameInstructionsAt, io, latency, stores, keepsId }
function findingsOf(row, shallowDepth, deepDepth) {
  if (row.baseline) return { kind: 'baseline', carriesContext: row.carriesContext };
  if (row.control) return { kind: 'control', leaks: (row.shallow?.mismatches || 0) + (row.deep?.mismatches || 0) };
  if (row.carriesContext === false) return { kind: 'floor' };
  if (row.ids.verdict === 'broken' || row.shallow?.broken || row.deep?.broken) {
    // The everyday patterns its Keeps the id? cell names and counts: one list (ids.everyday).
    return { kind: 'broken', where: row.ids.everyday ?? [] };
  }
  const atDepths = [
    [row.shallow, shallowDepth],
    [row.deep, deepDepth],
  ].filter(([cell]) => cell);
  // unresolved: the interval is wider than the figure, which is then no number
  // (analysis/strategy-held.js readsOf).
  const costs = atDepths.map(([cell, depth]) => ({
    depth,
    significant: Boolean(cell.significant),
    estimate: cell.estimate,
    unresolved: cell.reads === 'unresolved' ? { blocks: cell.blocks ?? null } : null,
    equivalence: cell.equivalence ?? null,
  }));
  const counted = row.instructions;
  return {
    kind: 'measured',
    // Each cost is said as the multiple of the baseline's CPU per request it is (the report's
    // Reading), which says how dear it is without a word for it.
    costs,
    grows: Boolean(
      row.shallow?.reads !== 'unresolved' &&
      row.deep?.reads !== 'unresolved' &&
      row.shallow?.interval &&
      row.deep?.interval &&
      row.deep.interval[1] < row.shallow.interval[0] &&
      row.deep.significant,
    ),
    // A figure the next run did not reproduce is said to be so, beside it.
    unreproduced: atDepths
      .filter(([cell]) => cell.repro?.consistent === false)
      .map(([cell, depth]) => ({ depth, otherEstimate: cell.repro.otherEstimate })),
    sameInstructionsAt:
      counted &&
      row.shallow?.significant &&
      counted.interval &&
      counted.interval[0] <= 1.005 &&
      counted.interval[1] >= 0.995
        ? counted.settings.depth
        : null,
    io:
      row.io?.kind === 'ratio' && Number.isFinite(row.io.estimate)
        ? { significant: Boolean(row.io.significant), estimate: row.io.estimate, hop: row.io.settings.hop }
        : null,
    latency:
      row.latency?.significant && row.latency.estimate > 0
        ? { estimate: row.latency.estimate, load: row.latency.settings.load }
        : null,
    stores: row.stores?.significant ? { estimate: row.stores.estimate, stores: row.stores.settings.stores } : null,
    keepsId: row.ids.verdict === 'kept',
    // Depth figures measured on another machine than their column's: on their study's page.
    elsewhere: ['shallow', 'deep'].filter((k) => row.offMachine?.[k]),
  };
}

// Two cells of one strategy that seem to disagree (intervals apart): which settings differ.
function disagreements(row) {
  const out = [];
  const pairs = [
    ['default run', row.shallow, 'io', row.io],
    ['default run', row.shallow, 'stores', row.stores],
    ['default run', row.shallow, 'instruction counts', row.instructions],
    ['default run', row.deep, 'instruction counts', row.deepInstructions],
    ['default run', row.shallow, 'depth sweep', row.sweepShallow],
    ['default run', row.deep, 'depth sweep', row.sweepDeep],
  ];
  for (const [na, a, nb, b] of pairs) {
    if (!a || !b || !a.interval || !b.interval || stats.overlap(a.interval, b.interval)) continue;
    const both = (k) => a.settings[k] !== undefined && b.settings[k] !== undefined;
    const diff = SETTINGS.filter((k) => both(k) && String(a.settings[k]) !== String(b.settings[k])).map((setting) => ({
      setting,
      a: a.settings[setting],
      b: b.settings[setting],
    }));
    out.push({
      a: na,
      b: nb,
      bSource: b.source?.name ?? null,
      aEstimate: a.estimate,
      bEstimate: b.estimate,
      depth: a.settings.depth,
      differs: diff,
    });
  }
  return out;
}

module.exports = { SETTINGS, findingsOf, disagreements };
