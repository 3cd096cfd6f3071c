'use strict';
// The cells of "What each strategy costs" (report/strategy-summary.js): the id verdict, a
// ratio, the p99 added, the deployment figure and the one-line Reading, each as text.
const f = require('./format');
const { cannotServeText, latencyVerdictText, verdictText } = require('./verdict-text');

// At most this many scenarios are named in a cell; the rest are counted ("+3 more") and
// named on the integrity study's page the cell links to.
const NAMED = 3;
const named = (list, more = 0) => {
  const rest = Math.max(0, list.length - NAMED) + more;
  return `${list.slice(0, NAMED).join(', ')}${rest ? ` (+${rest} more)` : ''}`;
};

// A cell's length budget (issue 62: a headline read in a minute); longer detail is the
// study page's.
const CELL_CHARS = 100;

function idsText(ids) {
  if (ids.verdict === 'control') return '⚠ leaks (control)';
  if (ids.verdict === 'none') return 'n/a (no context)';
  if (ids.verdict === 'unmeasured') return 'not checked';
  // Per runtime already shows the column's own study's differences; the rest are said here.
  const more = (ids.nodeDependent || []).filter(
    (d) => ids.uniform || ids.runtimes.length === 1 || d.source.file !== ids.source?.file,
  );
  const byNode = more.length ? ` · depends on Node: ${named(more.map((d) => d.scenario))}` : '';
  const split = !ids.uniform && ids.runtimes.length > 1 ? ' · differs by runtime' : '';
  // ✗ alone: the everyday patterns it loses the id in, on any runtime; the one list its
  // Reading names and counts too (analysis/strategy-ids.js everyday; issue 76).
  const everyday = ids.everyday ?? [...new Set(ids.runtimes.flatMap((r) => r.propagation))];
  if (ids.verdict === 'broken') return `✗ ${named(everyday)}${split}${byNode}`;
  const one = (r) => (r.own.length ? `✓ · ✗ ${named(r.own)}` : '✓');
  if (!split) return one(ids.runtimes[0]) + byNode;
  const perRuntime = ids.runtimes.map((r) => `${r.label}: ${one(r)}`).join('; ') + byNode;
  if (perRuntime.length <= CELL_CHARS) return perRuntime;
  // Too long runtime by runtime: what fails on any of them, the split on the study's page.
  return `${one({ own: [...new Set(ids.runtimes.flatMap((r) => r.own))] })}${split}${byNode}`;
}

// The marks after a figure (analysis/strategy-held.js holdOf): † where it fell short of what
// the headline promises (its study's precision, its second run's bar), and, where the cell
// says it (reproduced: the depth columns leave it to the Reading), what its second run read.
function marks(cell, { reproduced = true, other = (x) => f.pctOf(x) } = {}) {
  const short = cell.short ? ' †' : '';
  const again =
    reproduced && cell.repro?.consistent === false && f.isNum(cell.repro.otherEstimate)
      ? ` (not reproduced: ${other(cell.repro.otherEstimate)})`
      : '';
  return `${short}${again}`;
}

// A share of the baseline: its figure with its interval, or, where the interval is wider
// than the figure (analysis/strategy-held.js readsOf), no number but how many blocks tried.
const levelText = (cell) =>
  cell.reads === 'unresolved'
    ? `not resolved (${cell.blocks ?? '?'} blocks)`
    : f.withCi(cell.estimate, cell.interval, f.pctOf);

function ratioText(cell, { reproduced = true } = {}) {
  if (!cell) return null;
  if (cell.kind === 'baseline') return 'baseline';
  if (cell.cannotServe) return cannotServeText(cell.cannotServe);
  if (!f.isNum(cell.estimate))
    return cell.judgement ? verdictText(cell.judgement, { quantity: cell.settings?.quantity }) : f.DASH;
  return `${levelText(cell)}${marks(cell, { reproduced })}`;
}

// A depth column's cell: its "not reproduced" is the Reading's.
const depthText = (cell) => ratioText(cell, { reproduced: false });

const signedMs = (x) => (x > 0 ? '+' : x < 0 ? '−' : '') + f.num(Math.abs(x));

function msText(cell) {
  if (!cell) return null;
  if (cell.kind === 'baseline') return 'baseline';
  if (!f.isNum(cell.estimate)) {
    if (cell.broken) return 'context broken';
    if (cell.candidateHeld === false && cell.baselineHeld)
      return (
        `cannot serve ` +
        (cell.settings.load !== null && cell.settings.load !== undefined
          ? `${Math.round(cell.settings.load * 100)}% of ${f.code(cell.settings.baseline)}'s capacity`
          : `${f.int(cell.settings.rate)} req/s`)
      );
    if (cell.generatorBound) return `generator-bound (${f.num(cell.latenessP99)} ms late at p99)`;
    if (cell.fewBlocks)
      return `too few blocks (${cell.fewBlocks.n} of ${cell.fewBlocks.of} with the generator on time)`;
    return cell.rateHeld === false ? 'rate not held' : (latencyVerdictText(cell.judgement) ?? 'no latency figure');
  }
  const other = (x) => `${signedMs(x)} ms`;
  // A difference whose interval holds 0 is the bound it gives: the most it adds.
  if (cell.reads === 'at-most') return `at most ${signedMs(cell.interval[1])} ms${marks(cell, { other })}`;
  const figure = cell.interval
    ? `${signedMs(cell.estimate)} ms [${signedMs(cell.interval[0])}…${signedMs(cell.interval[1])}]`
    : `${signedMs(cell.estimate)} ms`;
  return `${figure}${marks(cell, { other })}`;
}

// The strategy's CPU per request as a multiple of the baseline's: 100 ÷ the figure as the
// cell shows it (estimate: a share of the baseline), as a person says it: one decimal from 2×
// to 10×, whole above; two below 2×, where one would make 5% and 10% more CPU both "1.1×".
function timesText(estimate) {
  const shown = f.isNum(estimate) ? Number((estimate * 100).toFixed(1)) : NaN;
  if (!(shown > 0)) return null;
  const times = 100 / shown;
  if (times < 2) return times.toFixed(2);
  const one = Math.round(times * 10) / 10;
  return one < 10 ? one.toFixed(1) : String(Math.round(times));
}

// The id verdict the Reading gives, in the words of the ✓ definition (the everyday
// patterns: analysis/registry.js PROPAGATION), never "every pattern".
const KEEPS = 'keeps the id in everyday code';
// What a multiple in the Reading multiplies.
const CPU = (baseline) => `${f.code(baseline)}'s CPU per request`;

// The one-line Reading of a row: analysis/strategy-summary.js findingsOf decided what its
// figures say; this writes it, in a few words: the cost at each depth, then the id verdict.
// marginPct: the equivalence margin the findings were judged at; baseline: its name. A cost
// is said as the multiple of the baseline's CPU per request (issue 75.2), never as a share.
function readingText(fd, marginPct = null, baseline = 'none') {
  if (fd.kind === 'baseline')
    return `The baseline: every figure in this table is measured against it.${fd.carriesContext ? '' : ' No context.'}`;
  if (fd.kind === 'control')
    return (
      `Control: must leak` +
      `${fd.leaks ? ` (it did: ${fd.leaks.toLocaleString('en-US')} answers carried another request's id)` : ''}` +
      `; not an option.`
    );
  if (fd.kind === 'floor') return 'The floor: no context at all; every other row is measured against it.';
  if (fd.kind === 'broken')
    return (
      `Loses or leaks the id in everyday code` +
      `${fd.where.length ? ` (${named(fd.where).replace(/ \(\+(\d+) more\)$/, ' and $1 more')})` : ''}: not safe.`
    );
  const m = `±${fd.costs.find((c) => c.equivalence)?.equivalence.marginPct ?? marginPct}%`;
  const unreproduced = (c) => fd.unreproduced.find((u) => u.depth === c.depth);
  const part = (c) => {
    const outcome = c.equivalence?.outcome;
    const tell = outcome === 'cannot tell' ? ` (cannot tell within ${m})` : '';
    const u = unreproduced(c);
    const held = u ? ` (not reproduced: ${f.pctOf(u.otherEstimate)})` : '';
    if (c.unresolved) return { text: `not resolved at depth ${c.depth}${held}` };
    if (outcome === 'equivalent') return { within: true, text: `within ${m} at depth ${c.depth}${held}` };
    if (!c.significant) return { text: `no measurable cost at depth ${c.depth}${tell}${held}` };
    return { times: true, text: `${timesText(c.estimate)}× ${CPU(baseline)} at depth ${c.depth}${tell}${held}` };
  };
  const parts = fd.costs.map(part);
  let cost;
  if (parts.length && parts.every((x) => x.within)) {
    const held = fd.unreproduced.map((u) => ` (depth ${u.depth} not reproduced: ${f.pctOf(u.otherEstimate)})`);
    const depths = fd.costs.map((c) => c.depth);
    cost =
      `within ${m} of the baseline at depth${depths.length > 1 ? 's' : ''} ` +
      `${depths.slice(0, -1).join(', ')}${depths.length > 1 ? ' and ' : ''}${depths.at(-1)}${held.join('')}`;
  } else if (parts.length) {
    // "2.5× `none`'s CPU per request at depth 8, 7.8× at depth 256": what it multiplies, once.
    cost = parts.map((x, i) =>
      i > 0 && x.times && parts[i - 1].times ? x.text.replace(` ${CPU(baseline)}`, '') : x.text,
    );
    cost = `${cost.join(', ')}${fd.grows ? ', growing with depth' : ''}`;
  } else if (fd.elsewhere.length) {
    cost = 'cost measured on another machine (its study page)';
  }
  const clauses = [cost, fd.keepsId ? KEEPS : null].filter(Boolean);
  if (!clauses.length) return 'Not measured by the studies this summary reads.';
  const text = clauses.join('; ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

// Throughput per instance at the target (its tail is the study page's: deploymentNote); ⚠:
// its blocks followed the baseline's cost there.
function deployText(cell) {
  if (!cell) return null;
  if (cell.kind === 'baseline') return 'baseline';
  // An operating point's cell has a figure or none (analysis/strategy-cells.js operatingCell).
  if (!f.isNum(cell.estimate)) return f.DASH;
  return `${levelText(cell)}${cell.movesWithBase ? ' ⚠' : ''}${marks(cell)}`;
}

module.exports = { idsText, ratioText, depthText, msText, deployText, readingText, timesText };
