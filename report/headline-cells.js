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
  const broken = ids.verdict === 'broken';
  const others = (r) => r.failing.filter((sc) => !r.propagation.includes(sc) && !ids.common.includes(sc));
  const one = (r) =>
    broken ? `✗ ${named(r.propagation, others(r).length)}` : r.own.length ? `✓ · ✗ ${named(r.own)}` : '✓';
  // Per runtime already shows the column's own study's differences; the rest are said here.
  const more = (ids.nodeDependent || []).filter(
    (d) => ids.uniform || ids.runtimes.length === 1 || d.source.file !== ids.source?.file,
  );
  const byNode = more.length ? ` · depends on Node: ${named(more.map((d) => d.scenario))}` : '';
  if (ids.uniform || ids.runtimes.length === 1) return one(ids.runtimes[0]) + byNode;
  const perRuntime = ids.runtimes.map((r) => `${r.label}: ${one(r)}`).join('; ') + byNode;
  if (perRuntime.length <= CELL_CHARS) return perRuntime;
  // Too long runtime by runtime: what fails on any of them, the split on the study's page.
  const union = (pick) => [...new Set(ids.runtimes.flatMap(pick))];
  const all = {
    failing: union((r) => r.failing),
    propagation: union((r) => r.propagation),
    own: union((r) => r.own),
  };
  return `${one(all)} · differs by runtime${byNode}`;
}

function ratioText(cell) {
  if (!cell) return null;
  if (cell.kind === 'baseline') return 'baseline';
  if (cell.cannotServe) return cannotServeText(cell.cannotServe);
  if (!f.isNum(cell.estimate))
    return cell.judgement ? verdictText(cell.judgement, { quantity: cell.settings?.quantity }) : f.DASH;
  return f.withCi(cell.estimate, cell.interval, f.pctOf);
}

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
  const sign = (x) => (x > 0 ? '+' : x < 0 ? '−' : '') + f.num(Math.abs(x));
  return cell.interval
    ? `${sign(cell.estimate)} ms [${sign(cell.interval[0])}…${sign(cell.interval[1])}]`
    : `${sign(cell.estimate)} ms`;
}

const costPct = (r) => `${Math.abs((1 - r) * 100).toFixed(1)}%`;

// The id verdict the Reading gives, in the words of the ✓ definition (the everyday
// patterns: analysis/registry.js PROPAGATION), never "every pattern".
const KEEPS = 'keeps the id in everyday code';

// The one-line Reading of a row: analysis/strategy-summary.js findingsOf decided what its
// figures say; this writes it, in a few words: the cost at each depth, then the id verdict.
// marginPct: the equivalence margin the findings were judged at.
function readingText(fd, marginPct = null) {
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
    if (outcome === 'equivalent') return { within: true, text: `within ${m} at depth ${c.depth}${held}` };
    if (!c.significant) return { text: `no measurable cost at depth ${c.depth}${tell}${held}` };
    return c.estimate < 1
      ? { costs: true, text: `costs ${costPct(c.estimate)} at depth ${c.depth}${tell}${held}` }
      : { text: `${costPct(c.estimate)} cheaper at depth ${c.depth}${held}` };
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
    // "costs 2.1% at depth 8, 2.8% at depth 256": the verb once.
    cost = parts.map((x, i) => (i > 0 && x.costs && parts[i - 1].costs ? x.text.replace(/^costs /, '') : x.text));
    cost = `${fd.expensive ? 'expensive: ' : ''}${cost.join(', ')}${fd.grows ? ', growing with depth' : ''}`;
  } else if (fd.elsewhere.length) {
    cost = 'cost measured on another machine (its study page)';
  }
  const clauses = [cost, fd.keepsId ? KEEPS : null].filter(Boolean);
  if (!clauses.length) return 'Not measured by the studies this summary reads.';
  const text = clauses.join('; ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

// Throughput per instance at the target (its tail is the study page's: deploymentNote).
function deployText(cell) {
  if (!cell) return null;
  if (cell.kind === 'baseline') return 'baseline';
  // An operating point's cell has a figure or none (analysis/strategy-cells.js operatingCell).
  if (!f.isNum(cell.estimate)) return f.DASH;
  const held = cell.repro && !cell.repro.consistent ? ` (not reproduced: ${f.pctOf(cell.repro.otherEstimate)})` : '';
  return `${f.withCi(cell.estimate, cell.interval, f.pctOf)}${cell.movesWithBase ? ' ⚠' : ''}${held}`;
}

module.exports = { idsText, ratioText, msText, deployText, readingText };
