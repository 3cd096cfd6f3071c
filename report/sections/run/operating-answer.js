'use strict';
// The table a deployment page opens with (analysis/operating-answer.js): per deployment its
// throughput per instance as % of the baseline's, the instances 1,000 req/s take on each side
// and the p99 its users see there, a level whose interval is wider than itself as "not
// resolved"; below it, the share of its quota the baseline used where the figures were read.
const f = require('../../format');
const { answerRow, studyShares, SHARE_TOLERANCE } = require('../../../analysis/operating-answer');
const { strategyCell } = require('./common');

const ms = (x) => (f.isNum(x) ? f.num(x) : f.DASH);
const signed = (x) => (f.isNum(x) ? `${x > 0 ? '+' : x < 0 ? '−' : ''}${ms(Math.abs(x))}` : f.DASH);
const two = (x) => (f.isNum(x) ? x.toFixed(2) : f.DASH);
const pct = (x) => `${Math.round(x * 100)}%`;
const blocks = (n) => `${n} block${n === 1 ? '' : 's'}`;
const unresolved = (x) => `not resolved (${blocks(x.n)})`;

// A level: its figure and interval where resolved.
function levelText(x, fmt) {
  if (!x) return f.DASH;
  return x.resolved ? f.withCi(x.estimate, x.ci95, fmt) : unresolved(x);
}

// A difference: the bound it gives where its interval holds zero.
function differenceText(x) {
  if (!x) return f.DASH;
  if (!x.resolved) return unresolved(x);
  if (x.atMost !== null) return `at most ${signed(x.atMost)} ms`;
  return `${signed(x.estimate)} [${signed(x.ci95[0])}…${signed(x.ci95[1])}]`;
}

function answerHeader({ app, base }) {
  return [
    app ? 'Candidate' : 'Strategy',
    ...(app ? [] : ['Depth']),
    `Throughput per instance, % of ${base} [95% CI]`,
    'Instances per 1,000 req/s [95% CI]',
    `${base}'s instances per 1,000 req/s [95% CI]`,
    'p99 its users see, ms [95% CI]',
    `p99 added vs ${base}, ms [95% CI]`,
    'Blocks',
  ];
}

function answerRows(rows, { app }) {
  return rows.map(({ config: c, op }) => {
    const a = answerRow(op);
    const late = op.generatorLimited?.candidate ? ' (generator late)' : '';
    return [
      app ? f.code(c.name) : strategyCell(c),
      ...(app ? [] : [c.depth]),
      levelText(a.ratio, f.pctOf),
      levelText(a.instances.candidate, two),
      levelText(a.instances.baseline, two),
      a.p99 ? `${levelText(a.p99, ms)}${a.p99.resolved ? late : ''}` : f.DASH,
      differenceText(a.added),
      op.blocks,
    ].map(String);
  });
}

// The answer's lead: what the table says and how an unresolved figure reads.
function leadText({ app, base, who, both, brief }) {
  return (
    `Per ${who}${app ? '' : ' and depth'}: its throughput per instance at the autoscaler's ` +
    `target${both ? 's' : ''} as % of ` +
    `${base}'s, the instances an autoscaler runs for 1,000 req/s of it and of ${base}, and the p99 its users see ` +
    `there (how each is measured, and every other figure: ${brief ? 'the study page' : 'the detail below'}). ` +
    `A level whose 95% interval is wider ` +
    `than itself reads "not resolved (N blocks)"; an added p99 whose interval holds zero reads as the bound it ` +
    `gives ("at most").`
  );
}

// The share of its quota the baseline used where the figures were read, per depth, and what
// the instances are: the cost of a request there over the target's share, not the rate sent.
function shareText(rows, { app, base, both, target, allowed, brief }) {
  const groups = studyShares(rows, rows[0]?.op.target);
  const at = (g) => (app || g.depth === undefined ? '' : ` at depth ${g.depth}`);
  const spread = (g) =>
    g.rows > 1 && pct(g.range[0]) !== pct(g.range[1]) ? `${pct(g.range[0])}–${pct(g.range[1])}` : '';
  const said = groups.map(
    (g, i) =>
      `${pct(g.estimate)}${i ? '' : ' of its CPU quota'}${at(g)}` +
      (spread(g) ? ` (${spread(g)}${i ? '' : ' by row'})` : ''),
  );
  const off = groups.filter((g) => !g.within);
  const detail = brief ? "study page's detail" : 'detail';
  const tol = `±${Math.round(SHARE_TOLERANCE * 100)} pp`;
  const out = groups.length
    ? [
        `*Where it was measured:* in the counted windows ${base} used ${said.join(' and ')}, against the ` +
          `${target} target (the search for its rate ends on a short step within a tenth of the target, or at ` +
          `its step limit; the counted windows after it read the share anew).`,
      ]
    : [];
  if (off.length) {
    const where =
      groups.length === 1 ? 'That' : `At ${off.map((g) => `depth ${g.depth} (${pct(g.estimate)})`).join(' and ')} that`;
    out.push(
      `${where} is not within ${tol} of ${target}: the figures ${groups.length === 1 ? '' : 'there '}were ` +
        `measured at that share of the quota, not at ${target}, and a request's CPU moves with the load.`,
    );
  }
  for (const g of groups.filter((x) => x.within && x.outside))
    out.push(
      `${g.outside} of ${g.rows} rows${at(g)} ${g.outside === 1 ? 'was' : 'were'} beyond ${tol} of ${target}: ` +
        `${g.outside === 1 ? 'its share is' : 'their shares are'} in the ${detail}.`,
    );
  const held = groups.reduce((a, g) => a + g.concurrencyRows, 0);
  if (held)
    out.push(
      `${held} row${held === 1 ? '' : 's'} whose ${base} the concurrency target held ${held === 1 ? 'is' : 'are'} ` +
        `left out: there its CPU share stays below the target by design.`,
    );
  const cost = both
    ? `the µs of an instance each request took in those windows (its CPU ÷ (quota × ${target}), or the time ` +
      `it held its connection ÷ ${two(allowed)}, whichever is more)`
    : `the CPU each request took in those windows ÷ (quota × ${target})`;
  out.push(
    `*Instances per 1,000 req/s* and the ${detail}'s *req/s per instance at the target* are one measurement said ` +
      `two ways (1,000 ÷ each other): ${cost}; not the rate sent, which is the ${detail}'s *req/s sent*.`,
  );
  return out.join(' ');
}

module.exports = { answerHeader, answerRows, leadText, shareText };
