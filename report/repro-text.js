'use strict';
// The text of `ctxbench repro` in the terminal: per ratio both runs' estimates, whether
// they agree and are consistent, then the shares, from what analysis/repro.js found.
const { formatPct, ratioPct } = require('../lib/format');

const pct = (x) => ratioPct(x);
const ci = (c) => (c ? `[${pct(c[0])}–${pct(c[1])}]` : '—');
const agreed = (row) => (row.agree ? 'agree' : 'DISAGREE');
const tested = (row) => (row.consistent === null ? 'not judged' : row.consistent ? 'consistent' : 'INCONSISTENT');
const share = (x) => (x === null ? '' : `: ${(x * 100).toFixed(0)}%`);

function instructionLines(r, lines) {
  const i = r.instructions;
  for (const row of r.rows) {
    const differ = `differ by ${row.differencePct.toFixed(2)}%`;
    lines.push(`${row.id}  a ${pct(row.a.estimate)}  b ${pct(row.b.estimate)}  ${differ}  ` +
      `${row.differencePct <= i.limitPct ? 'agree' : 'DISAGREE'}`);
  }
  lines.push('', `Instruction counts: ${i.within} of ${r.compared} ratios within ${i.limitPct}% of each other ` +
    `(largest difference ${formatPct(i.maxDifferencePct)}%, median ${formatPct(i.medianDifferencePct)}%).`);
  return lines.join('\n') + '\n';
}

// reproText(result of reproCompare) -> the lines the command prints.
function reproText(r) {
  const lines = [`ctxbench repro: a = ${r.a}, b = ${r.b}`];
  if (r.machines?.same === false) {
    lines.push(`ACROSS MACHINES (${r.machines.differences.join(', ')}): a comparison of two machines, ` +
      'not a second reading of one');
  }
  if (r.settings?.length)
    lines.push(`SETTINGS DIFFER (${r.settings.join(', ')}): a comparison of two settings, not a second reading of one`);
  lines.push('');
  if (r.instructions) return instructionLines(r, lines);
  for (const row of r.rows) {
    lines.push(`${row.id}  a ${pct(row.a.estimate)} ${ci(row.a.ci95)}  b ${pct(row.b.estimate)} ${ci(row.b.ci95)}  ` +
      `diff ${formatPct(row.differencePp, { sign: true })} pp  ${agreed(row)}  ${tested(row)}`);
  }
  for (const row of r.served || []) {
    const where = (x) => (x.blocksNotServed ? `in ${x.blocksNotServed} of ${x.blocks} blocks`
      : 'behind over its windows');
    const said = (x) => (x.cannotServe ? `cannot serve (${where(x)})` : 'served');
    lines.push(`${row.id}  a ${said(row.a)}  b ${said(row.b)}  ${agreed(row)}`);
  }
  for (const row of r.addedP99 || []) {
    const ms = (x) => `${x.estimate.toFixed(2)} ms [${x.ci95[0].toFixed(2)}–${x.ci95[1].toFixed(2)}]`;
    lines.push(`${row.id}  p99 added: a ${ms(row.a)}  b ${ms(row.b)}  ${agreed(row)}  ${tested(row)}`);
  }
  lines.push('', `${r.agreeing} of ${r.compared} ratios agree (each run's interval covers the other's estimate)` +
    `${share(r.shareAgreeing)}; median ratio half-width ±${formatPct(r.medianHalfWidthPct)} pp.`,
  `${r.consistent} of ${r.judged} ratios consistent (difference within what both runs' noise explains, 5% test)` +
    `${share(r.shareConsistent)}.`);
  if (r.served) {
    const both = r.served.filter((x) => x.agree).length;
    lines.push(`${both} of ${r.served.length} "cannot serve" answers given by both runs.`);
  }
  if (r.baseCosts) {
    lines.push(`The baseline's CPU per request at its operating point: ` +
      r.baseCosts.map((x) => `a ${x.a.toFixed(0)} µs, b ${x.b.toFixed(0)} µs at depth ${x.depth}`).join('; ') +
      ' (the machine\'s cost of a lightly loaded request: ratios that move with it differ where it does).');
  }
  if (r.addedP99) {
    const added = r.addedP99;
    lines.push(`${added.filter((x) => x.consistent).length} of ${added.length} added p99s consistent, ` +
      `${added.filter((x) => x.agree).length} agree.`);
  }
  return lines.join('\n') + '\n';
}

module.exports = { reproText };
