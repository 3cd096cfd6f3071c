'use strict';
// The cost model's tables on a run page (report/sections/run/model.js): per runtime, the
// strategies' terms and every point; the Node upgrade in the model's terms; the same terms
// in instructions; and the method check of the pair against the duet.
const fs = require('node:fs');
const path = require('node:path');
const f = require('../../format');
const { methodCheck, upgradeTable, instructionTerms, pointName } = require('../../../analysis/model');
const { nodeLabel } = require('../../../lib/node-versions');
const {
  nsCi,
  lineCell,
  tallyCell,
  claimCell,
  sideBySideCell,
  signedPp,
  pairedGapCell,
  verdictCell,
  setByCell,
  VERDICT,
  SET_BY,
} = require('./model-cells');

// Fitted points a resume added (lib/presets.js gained them after the study's first
// blocks): which, from which block, and what that makes each block's line.
function designNote(rt) {
  const fitted = rt.strategies.flatMap((s) => s.points).filter((p) => p.role === 'fit');
  const late = fitted.filter((p) => p.joinedBlock > 0);
  if (!late.length) return null;
  const byBlock = new Map();
  for (const p of late) byBlock.set(p.joinedBlock, [...(byBlock.get(p.joinedBlock) || []), pointName(p)]);
  const first = new Set(fitted.filter((p) => !(p.joinedBlock > 0)).map(pointName)).size;
  const added = [...byBlock]
    .sort((a, b) => a[0] - b[0])
    .map(([block, names]) => `${[...new Set(names)].join(' and ')} from block ${block + 1}`)
    .join('; ');
  const ranges = rt.strategies.map((s) => s.fit?.rangeR).filter(Array.isArray);
  const range = ranges.length
    ? ` The fitted range, where \`ctxbench app --predict\` predicts, is ` +
      `${f.int(Math.min(...ranges.map((r) => r[0])))}–${f.int(Math.max(...ranges.map((r) => r[1])))} async ` +
      `resources per request.`
    : '';
  const blocks = late.map((p) => p.measured?.blocks).filter(f.isNum);
  const lo = Math.min(...blocks);
  const hi = Math.max(...blocks);
  const measured = blocks.length
    ? ` (measured in ${lo === hi ? lo : `${lo}–${hi}`} block${hi === 1 ? '' : 's'})`
    : ' (not measured yet)';
  return (
    `Fitted points added on a resume: ${added}` +
    `${measured}. Each block's line goes through the points that block measured (${first} before, ` +
    `${first + new Set(late.map(pointName)).size} after), a strategy's terms are the mean of its blocks' lines, ` +
    `and a block's line predicts only inside the range of async resources it was fitted on: below the first ` +
    `design's smallest count, predictions and their intervals rest on the blocks that measured the added points ` +
    `alone.${range}`
  );
}

// A runtime's part: its reference level, any points a resume added, each strategy's terms and
// every point behind them.
function runtimeSection(rt, model, run) {
  const out = [
    f.heading(
      4,
      `${nodeLabel(rt.node, run.environment?.date)}` +
        `${rt.acf === false ? ', AsyncContextFrame off (async_hooks)' : rt.acf ? ', AsyncContextFrame on' : ''} ` +
        `(\`${rt.runtime}\`)`,
    ),
    '',
  ];
  if (rt.reference?.cpuUsPerRequest)
    out.push(
      `Reference level (\`none\` at ${rt.reference.point}, what \`ctxbench app --predict\` puts a service's ` +
        `CPU on): ${f.withCi(rt.reference.cpuUsPerRequest.estimate, rt.reference.cpuUsPerRequest.ci95, f.num)} ` +
        `µs per request.`,
      '',
    );
  const joined = designNote(rt);
  if (joined) out.push(joined, '');
  out.push(strategiesTable(rt), '');
  out.push('<details><summary>Every point: measured and predicted</summary>', '');
  out.push(pointsTable(rt), '');
  out.push('</details>', '');
  return out.join('\n');
}

// Each strategy's two terms on a runtime, with what the line and the held-out points say.
function strategiesTable(rt) {
  const rows = rt.strategies.map((s) => [
    f.code(s.strategy) + (s.control ? ' (control: leaks)' : ''),
    nsCi(s.fit?.perRequestUs),
    nsCi(s.fit?.perResourceUs),
    lineCell(s),
    tallyCell(s.points),
    claimCell(s),
    sideBySideCell(s.points),
  ]);
  return f.table(
    [
      'Strategy',
      'Per request, ns [95% CI]',
      'Per async resource, ns [95% CI]',
      'The straight line',
      'Held-out: within / beyond / cannot tell',
      'The model says',
      'Side by side: right',
    ],
    rows,
    ['l', 'r', 'r', 'l', 'r', 'l', 'r'],
  );
}

// Every point of a runtime, fitted or held out: measured beside predicted, and its verdict.
function pointsTable(rt) {
  const detail = rt.strategies.flatMap((s) =>
    s.points.map((p) => [
      f.code(s.strategy),
      pointName(p),
      p.role,
      f.isNum(p.R) ? p.R.toFixed(1) : f.DASH,
      f.num(p.baselineUs?.estimate),
      p.measured ? f.withCi(p.measured.estimate, p.measured.ci95, f.pctOf) : f.DASH,
      p.predicted ? f.withCi(p.predicted.estimate, p.predicted.ci95, f.pctOf) : f.DASH,
      signedPp(p.judgement.gapPp),
      pairedGapCell(p.gapPp),
      verdictCell(p),
      setByCell(p),
    ]),
  );
  return f.table(
    [
      'Strategy',
      'Point',
      'Role',
      'Async resources per request',
      '`none` CPU µs/req',
      'Measured % of `none` [95% CI]',
      'Predicted [95% CI]',
      'Gap, pp',
      'Gap paired by block, pp [90% CI]',
      'Verdict',
      'Margin set by',
    ],
    detail,
    ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'l'],
  );
}

function upgradeSection(model) {
  const table = upgradeTable(model, model.runtimes.find((r) => /^node20/.test(r.runtime))?.runtime);
  if (!table) return '';
  const rows = table.strategies.flatMap((s) =>
    s.rows.map((r) => [
      f.code(s.strategy),
      f.code(r.runtime),
      nsCi(r.fit?.perRequestUs),
      nsCi(r.fit?.perResourceUs),
      r.change ? nsCi(r.change.perRequestUs) : 'from here',
      r.change ? nsCi(r.change.perResourceUs) : 'from here',
    ]),
  );
  return [
    f.heading(3, "The Node upgrade in the model's terms"),
    '',
    `Each strategy's two terms on every runtime of this run, and what moving from \`${table.from}\` changes ` +
      `in each (paired by block: the runtimes were measured in the same blocks, so the change's interval is ` +
      `over blocks too).`,
    '',
    f.table(
      [
        'Strategy',
        'Runtime',
        'Per request, ns',
        'Per async resource, ns',
        `Per request: change from ${table.from}`,
        `Per resource: change from ${table.from}`,
      ],
      rows,
      ['l', 'l', 'r', 'r', 'r', 'r'],
    ),
  ].join('\n');
}

function instructionsSection(run, ctx) {
  const file = ctx.resultsDir ? path.join(ctx.resultsDir, 'instructions.json') : null;
  if (!file || !fs.existsSync(file)) return '';
  let counted;
  try {
    counted = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return '';
  }
  const terms = instructionTerms(counted, run);
  if (!terms || !terms.rows.length) return '';
  const count = (x) => `${Math.round(x) < 0 ? '−' : ''}${Math.abs(Math.round(x)).toLocaleString('en-US')}`;
  const rows = terms.rows.map((r) => [f.code(r.strategy), count(r.perRequest), count(r.perResource)]);
  return [
    f.heading(3, 'The same terms in instructions'),
    '',
    `From the committed instruction counts (\`instructions.json\`, callgrind, one request in flight, on ` +
      `\`${terms.runtime}\`) at ` +
      terms.points
        .map((p) => `DEPTH=${p.depth} HOP=${p.hop} (${p.R.toFixed(1)} async resources per request here)`)
        .join(' and ') +
      `: ` +
      "each strategy's instructions per request over `none`'s, on the line through those two points. A count " +
      'repeats from process to process within ~0.15%, so these terms are nearly exact, ' +
      'but two points cannot show a bend, and instructions miss what the CPU terms above include: cache ' +
      'misses and memory stalls.',
    '',
    f.table(['Strategy', 'Per request, instructions', 'Per async resource, instructions'], rows, ['l', 'r', 'r']),
  ].join('\n');
}

// The method check (ctx.companions.methodCheck, analysis/model.js methodCheck): whether a
// point measured with the pair may be judged against the duet's lines, per rate, and the
// table behind it.
const CHECK_OUTCOME = {
  agree: 'the methods agree: every strategy within its margin',
  disagree: 'the methods do not agree',
  undecided: 'undecided: no strategy beyond its margin, not every one within (more blocks would say)',
};
function methodCheckSection(companion) {
  const check = companion && methodCheck(companion.duet.run, companion.pair.run);
  if (!check) return '';
  const { point, baseline } = check;
  const us = (x) =>
    f.isNum(x?.estimate) ? f.withCi(x.estimate, x.ci95, (v) => `${v < 0 ? '−' : ''}${Math.abs(v).toFixed(1)}`) : f.DASH;
  const runOf = (c) =>
    `\`${path.basename(c.file)}\` ` +
    `(${c.run.environment?.commit ? `commit \`${c.run.environment.commit}\`, ` : ''}` +
    `${String(c.run.environment?.date ?? '').slice(0, 10)})`;
  const rows = check.rows.map((r) => {
    const a = r.gapPp.agreement;
    return [
      `${f.code(r.strategy)}${r.aa ? ' (A/A twin)' : ''}`,
      r.rate.toLocaleString('en-US'),
      `${us(r.duetExtraUs)} on ${r.duetBaselineUs.estimate.toFixed(1)}`,
      `${us(r.pairExtraUs)} on ${r.pairBaselineUs.estimate.toFixed(1)}`,
      f.withCi(r.predicted.estimate, r.predicted.ci95, f.pctOf),
      f.withCi(r.measured.estimate, r.measured.ci95, f.pctOf),
      a ? `${signedPp(r.gapPp.estimate)} [${signedPp(a.ci90[0])}, ${signedPp(a.ci90[1])}]` : signedPp(r.gapPp.estimate),
      a ? `${VERDICT[a.outcome]} ±${a.marginPp.toFixed(1)} pp` : 'not judged',
      a ? (SET_BY[a.setBy] ?? f.DASH) : f.DASH,
      `${r.wakeups.pair.candidate?.toFixed(2) ?? f.DASH} / ${r.wakeups.pair.baseline?.toFixed(2) ?? f.DASH}`,
      String(r.blocks),
    ];
  });
  return [
    f.heading(4, 'The method check: may the pair stand in for the duet?'),
    '',
    `These lines are fitted from duet windows, both servers saturated; a point where a server waits (on ` +
      `timers, a database, another service) can only be measured with the pair at a fixed rate, and is judged ` +
      `against these lines only where one point measured both ways agrees. ` +
      `Measured: ${f.code(`${point.framework} DEPTH=${point.depth} HOP=${point.hop}`)} on ` +
      `${f.code(point.runtime)}, the duet ${runOf(companion.duet)} and the pair ${runOf(companion.pair)}, ` +
      `their blocks interleaved in time and paired by number (\`scripts/method-check.sh\`); one run of each, ` +
      `no second committed. ` +
      `Per block the duet's extra CPU per request, set on the pair's own \`${baseline}\` level, predicts the ` +
      `pair's ratio; the gap is judged as a held-out point's, against the same margin: its A/A term is the ` +
      `90% half-width of the pair's own A/A twin at that rate in the same blocks` +
      `${check.rows.some((r) => r.aaHalfWidthPp !== null) ? '' : ' (no A/A twin in the pair run: no such term)'}.`,
    '',
    ...check.rates.map(
      (r) =>
        `- **At ${r.rate.toLocaleString('en-US')} req/s each: ${CHECK_OUTCOME[r.outcome]}** (${r.within} ` +
        `within, ${r.beyond} beyond, ${r.cannotTell} cannot tell).`,
    ),
    '',
    f.table(
      [
        'Strategy',
        'Pair rate (req/s each)',
        `Duet: extra µs/request [95% CI] on \`${baseline}\`'s`,
        `Pair: extra µs/request [95% CI] on \`${baseline}\`'s`,
        'Pair ratio predicted from the duet',
        'Pair ratio measured',
        'Gap pp [90% CI]',
        'Verdict',
        'Margin set by',
        `Wake-ups per request in the pair: strategy / \`${baseline}\``,
        'Blocks',
      ],
      rows,
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'l', 'r', 'r'],
    ),
  ].join('\n');
}

module.exports = { runtimeSection, upgradeSection, instructionsSection, methodCheckSection };
