'use strict';
// A run page's cost model (the model presets, analysis/model.js): per runtime, each
// strategy's cost per request and per async resource with their intervals, where the
// straight line misses a fitted point, every held-out prediction beside its measurement,
// the Node upgrade in the model's terms, and the same terms in instructions where an
// instruction-count run of the same points is committed. Formats what analysis computed.
const fs = require('node:fs');
const path = require('node:path');
const f = require('../../format');
const {
  analyzeModel,
  methodCheck,
  tally,
  wordTally,
  upgradeTable,
  instructionTerms,
  pointName,
  RIGHT_PP,
  MARGIN_FLOOR_PP,
  MARGIN_SHARE,
  BLOCKS_TO_DECIDE_CAP,
  CLAIM_MIN_POINTS,
  CLAIM_SHARE_WITHIN,
} = require('../../../analysis/model');
const { nodeLabel } = require('../../../lib/node-versions');

// Nanoseconds with a true minus sign, so that a range reads [−1,482–468].
const ns = (us) =>
  f.isNum(us)
    ? `${Math.round(us * 1000) < 0 ? '−' : ''}${Math.abs(Math.round(us * 1000)).toLocaleString('en-US')}`
    : f.DASH;
const nsCi = (x) => (x && f.isNum(x.estimate) ? f.withCi(x.estimate, x.ci95, ns) : f.DASH);
const signedPp = (x) => (f.isNum(x) ? `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}` : f.DASH);

// What the line does at the fitted points: the ones it misses, or, where none is shown off
// it, its largest gap and whether that point's own interval could tell.
function lineCell(s) {
  if (!s.fit) return `no fit: ${s.why}`;
  const fitted = s.points.filter((p) => p.role === 'fit');
  const off = fitted.filter((p) => p.offLine);
  if (off.length)
    return (
      `misses ` +
      off
        .map((p) => `${pointName(p)} by ${ns(p.residualUs.estimate)} ns (${signedPp(p.judgement.gapPp)} pp)`)
        .join('; ')
    );
  const widest = fitted
    .filter((p) => f.isNum(p.judgement.gapPp))
    .sort((a, b) => Math.abs(b.judgement.gapPp) - Math.abs(a.judgement.gapPp))[0];
  if (!widest) return 'no fitted point measured';
  const within =
    Math.abs(widest.judgement.gapPp) <= RIGHT_PP
      ? 'within 1 pp at every fitted point'
      : `not shown to miss (its residual's interval holds zero everywhere); largest gap ` +
        `${signedPp(widest.judgement.gapPp)} pp at ${pointName(widest)}, a point measured to ` +
        `±${widest.judgement.halfWidthPp.toFixed(1)} pp`;
  return within;
}

// The verdicts on a strategy's held-out points.
function tallyCell(points) {
  const t = tally(points);
  if (!t.total) return f.DASH;
  return (
    `${t.within} / ${t.beyond} / ` +
    `${t.cannotTell}${t.unjudged ? ` (${t.unjudged} not measured or not predicted)` : ''}`
  );
}

// The side-by-side reading, kept for comparison with the pages before the verdict changed.
function sideBySideCell(points) {
  const t = tally(points);
  if (!t.total) return f.DASH;
  return `${t.right} of ${t.right + t.miss} judged`;
}

// The gap paired by block: its estimate with its 90% interval (the interval the two
// one-sided tests read) and their outcome against the point's margin.
function pairedGapCell(g) {
  if (!g || !f.isNum(g.estimate)) return f.DASH;
  if (!g.agreement) return signedPp(g.estimate);
  const [lo, hi] = g.agreement.ci90;
  return `${signedPp(g.estimate)} [${signedPp(lo)}, ${signedPp(hi)}]`;
}

const VERDICT = {
  within: '✅ within',
  beyond: '❌ beyond',
  'cannot tell': '… cannot tell',
  'not measured': 'not measured',
  'no prediction': 'no prediction',
};
function verdictCell(p) {
  if (p.role !== 'held-out')
    return !p.measured
      ? `fitted: not ` +
          `measured` +
          `${p.dropped ? ` (${p.dropped.windows} of ${p.dropped.of} windows dropped: ${p.dropped.reason})` : ''}`
      : p.offLine
        ? 'fitted: off the line'
        : 'fitted: on the line';
  const v = p.verdict;
  const margin = ['within', 'beyond', 'cannot tell'].includes(v.outcome) ? ` ±${v.marginPp.toFixed(1)} pp` : '';
  const dropped =
    v.outcome === 'not measured' && p.dropped
      ? ` (${p.dropped.windows} of ${p.dropped.of} windows dropped: ${p.dropped.reason})`
      : '';
  return `${VERDICT[v.outcome] ?? v.outcome}${margin}${dropped}${toDecideText(p.gapPp?.agreement?.toDecide)}`;
}

// A "cannot tell"'s projection (analysis/model.js blocksToDecide), in the verdict cell.
function toDecideText(d) {
  if (!d) return '';
  return d.blocks === null
    ? ` (on the margin's edge: over ${BLOCKS_TO_DECIDE_CAP} blocks, if its gap held)`
    : ` (${d.outcome} at ${d.blocks} blocks, if its gap held)`;
}

// How far the "cannot tell" points are from an answer, at the study's pace of measuring.
function toDecideSummary(points, run) {
  const projections = points
    .filter((p) => p.role === 'held-out' && p.verdict?.outcome === 'cannot tell')
    .map((p) => p.gapPp?.agreement?.toDecide)
    .filter(Boolean);
  if (!projections.length) return null;
  const blocks = new Set(run.configs.flatMap((c) => (c.samples || []).map((x) => x.block)).filter(Number.isInteger))
    .size;
  // A held-out resume's blocks measure a part of the design: the pace is the whole design's.
  const heldOut = (run.resumes || []).find((r) => r.heldOut && r.measuredBeforeS > 0 && r.fromBlock > 0);
  const perBlockS = heldOut
    ? heldOut.measuredBeforeS / heldOut.fromBlock
    : run.measuringSeconds > 0 && blocks
      ? run.measuringSeconds / blocks
      : null;
  const finite = projections
    .map((d) => d.blocks)
    .filter((n) => n !== null)
    .sort((a, b) => a - b);
  const median = finite.length ? finite[Math.floor((finite.length - 1) / 2)] : null;
  const hours = (n) =>
    perBlockS
      ? ` (~${((n * perBlockS) / 3600).toFixed(1)} h of measuring at ` +
        `${heldOut ? 'the whole design' : 'this study'}'s ${Math.round(perBlockS)} s a block)`
      : '';
  const edge = projections.length - finite.length;
  return (
    `If each gap's mean and spread held, the ${projections.length} *cannot tell* points would decide at ` +
    (finite.length
      ? `${finite[0]}–${finite.at(-1)} blocks in all, half of them by ${median}${hours(median)}`
      : 'no number of blocks') +
    `${edge ? `; ${edge} sit on their margin's edge (over ${BLOCKS_TO_DECIDE_CAP} blocks)` : ''}. The study ` +
    `has ${blocks}: a projection, not a promise.`
  );
}

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

// Which term of max(1 pp, 15% of the predicted cost, the A/A half-width) set a margin.
const SET_BY = {
  floor: `the ${MARGIN_FLOOR_PP} pp floor`,
  share: `${Math.round(MARGIN_SHARE * 100)}% of the predicted cost`,
  aa: 'the A/A half-width',
};
const setByCell = (p) =>
  p.role === 'held-out' && ['within', 'beyond', 'cannot tell'].includes(p.verdict?.outcome)
    ? (SET_BY[p.verdict.setBy] ?? f.DASH)
    : f.DASH;

// A strategy–runtime pair's word (analysis/model.js), with the count behind it.
const judgedText = (v) =>
  `${v.within} of ${v.judged} judged held-out point${v.judged === 1 ? '' : 's'} within` +
  `${v.cannotTell ? `, ${v.cannotTell} cannot tell` : ''}`;
function claimCell(s) {
  if (s.word === 'not modelled') return `**not modelled**: ${s.notModelled}`;
  if (s.word === 'claimed') return `**claimed** (${judgedText(s.validation)})`;
  return (
    `**not validated**: ${judgedText(s.validation)} (claimed needs at least ${CLAIM_MIN_POINTS}, ` +
    `${Math.round(CLAIM_SHARE_WITHIN * 100)}% of them within)`
  );
}

// Whether the margins had their A/A term, per runtime.
function aaNote(model) {
  const measured = model.runtimes.filter((rt) => rt.aa);
  if (!measured.length)
    return (
      'No A/A point measured (no `none`-beside-`none` twin at the reference configuration in this run): the ' +
      "margin's third term is absent, and every margin here is max(1 pp, 15% of the predicted cost)."
    );
  const missing = model.runtimes.filter((rt) => !rt.aa).map((rt) => f.code(rt.runtime));
  return (
    `The A/A point at the reference configuration: ` +
    measured.map((rt) => `±${rt.aa.halfWidthPp.toFixed(1)} pp on ${f.code(rt.runtime)} (${rt.aa.blocks} blocks)`)
      .join(', ') +
    ` over all its blocks. A point's margin takes its spread over the blocks the two share, scaled to the ` +
    `point's own count of blocks (what one point of the method resolves with as many blocks as its verdict ` +
    `has); a point that shares fewer than 3 blocks with it has no third term` +
    `${missing.length ? `; no A/A point measured on ${missing.join(', ')}, whose margins have no third term` : ''}.`
  );
}

// A held-out resume's blocks (bench/held-out.js): which pairs they measured, and why.
function heldOutNote(run) {
  const all = run.resumes || [];
  const resumes = all.filter((r) => r.heldOut);
  if (!resumes.length) return null;
  const blocks = run.configs.flatMap((c) => (c.samples || []).map((x) => x.block));
  const lastBlock = Math.max(...blocks.filter(Number.isInteger));
  return resumes
    .map((r) => {
      const next = all[all.indexOf(r) + 1];
      const end = next ? next.fromBlock : lastBlock + 1;
      const pairs = r.heldOut.pairs.map(
        (p) => `${f.code(p.strategy)} on ${f.code(p.runtime)} (${p.toward} at ${p.projected} blocks, if its gaps held)`,
      );
      const which = end > r.fromBlock + 1 ? `Blocks ${r.fromBlock + 1}–${end} are` : `Block ${end} is`;
      return (
        `**${which} a held-out resume** (\`--held-out\`, ` +
        `${Math.round(r.heldOut.budgetS / 60)} min of measuring at most), measuring only the pairs whose word ` +
        `the page's projection then said was decided by ${r.blocks} blocks — ${pairs.join(', ')} — with ` +
        `their open held-out points, the fitted points their line is drawn through, their \`none\` partners ` +
        `and an A/A point; the ${r.heldOut.rested} other configurations rest at their first ${r.fromBlock} ` +
        `blocks, their verdicts read from those.`
      );
    })
    .join(' ');
}

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
  const rows = rt.strategies.map((s) => [
    f.code(s.strategy) + (s.control ? ' (control: leaks)' : ''),
    nsCi(s.fit?.perRequestUs),
    nsCi(s.fit?.perResourceUs),
    lineCell(s),
    tallyCell(s.points),
    claimCell(s),
    sideBySideCell(s.points),
  ]);
  out.push(
    f.table(
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
    ),
    '',
  );
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
  out.push('<details><summary>Every point: measured and predicted</summary>', '');
  out.push(
    f.table(
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
    ),
    '',
  );
  out.push('</details>', '');
  return out.join('\n');
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

function modelSection(run, ctx = {}) {
  const model = analyzeModel(run);
  if (!model) return '';
  const all = model.runtimes.flatMap((rt) => rt.strategies.flatMap((s) => s.points));
  const t = tally(all);
  const words = wordTally(model);
  const toDecide = toDecideSummary(
    model.runtimes.flatMap((rt) => rt.strategies.flatMap((st) => st.points)),
    run,
  );
  const parts = [
    f.heading(3, 'Cost model: a cost per request and a cost per async resource'),
    '',
    "Each strategy's extra CPU per request over `none` is written as **per request + per async resource × " +
      'R**, R being the async resources one request of the service creates ' +
      '(counted in a probe process of the `none` server at each point, never in a measured one). Per block, ' +
      "each fitted point's extra CPU is `none`'s CPU per request × (the strategy's CPU ratio − 1) " +
      "from that block's duet windows; a least-squares line through the block's fitted points, both terms " +
      "held to costs (never below zero: no code costs less than nothing), gives that block's two terms; " +
      'the figures are their means over blocks with a t-interval over blocks.',
    '',
    `**The verdict on a held-out point** (measured in the same blocks, never fitted): per block, that block's ` +
      `line predicts the point from that block's \`none\` level and is set against that block's ratio; ` +
      `the gap's mean over blocks is judged by two one-sided tests at 5% against a margin of ` +
      `max(${MARGIN_FLOOR_PP} pp, ${Math.round(MARGIN_SHARE * 100)}% of the predicted cost, the A/A ` +
      `half-width): ` +
      '*within* when its 90% interval lies inside the margin, *beyond* when wholly outside it (the line is ' +
      'wrong there), *cannot tell* when it straddles an edge (more blocks would decide). ' +
      'A fixed margin would ask the same absolute accuracy of a strategy that costs 2% and of one that costs ' +
      "60%; the A/A half-width (the 90% half-width of a `none`-beside-`none` point at the reference " +
      'configuration, measured in the same blocks) is what one point of the method resolves, and no margin ' +
      'is finer. Each point says which term set its margin.',
    '',
    aaNote(model),
    '',
    ...(heldOutNote(run) ? [heldOutNote(run), ''] : []),
    `**Held-out: ${t.within} within, ${t.beyond} beyond, ${t.cannotTell} cannot ` +
      `tell**${t.unjudged ? `, ${t.unjudged} not measured or not predicted` : ''}, of ${t.total}. ` +
      `**Of ${words.pairs} strategy–runtime pairs, ${words.claimed} claimed, ${words.notValidated} not ` +
      `validated, ${words.notModelled} not modelled.** A pair is *claimed* with at least ${CLAIM_MIN_POINTS} ` +
      `judged held-out points (within, beyond or cannot tell), at least ` +
      `${Math.round(CLAIM_SHARE_WITHIN * 100)}% of them within and none beyond; *not modelled* when any is ` +
      `beyond (its line is shown wrong: \`ctxbench app --predict\` prints no figure for it); *not validated* ` +
      'otherwise (too few judged points or too many cannot-tells: `--predict` prints its figure labelled so).',
    '',
    ...(toDecide ? [toDecide, ''] : []),
    `The side-by-side reading of earlier pages (the prediction within ` +
      `${model.rightPp} pp of a measurement at most ±${model.judgeablePp} pp wide) sets two noisy point ` +
      `estimates side by side and is kept only for comparison: ${t.right} of ${t.right + t.miss} judged right.`,
  ];
  // Points the duet could not measure (servers waiting on timers are never saturated) are
  // not measured with the pair instead: the pair at a fixed rate is not the duet's measure.
  const unsaturated = model.runtimes
    .flatMap((rt) => rt.strategies.flatMap((st) => st.points))
    .filter((p) => p.role === 'held-out' && !p.measured && /not saturated/.test(p.dropped?.reason ?? ''));
  if (unsaturated.length) {
    const where = [...new Set(unsaturated.map((p) => `HOP=${p.hop}`))].map(f.code).join(', ');
    parts.push(
      '',
      `${unsaturated.length} held-out point${unsaturated.length === 1 ? ' is' : 's are'} not measured ` +
        `(${where}): the duet needs both servers busy throughout, and there they were not. ` +
        'The pair at a fixed rate measures such points; whether it may be judged against these lines is the ' +
        "method check's to say (below, or docs/model.md where the check is not committed).",
    );
  }
  const check = methodCheckSection(ctx.companions?.methodCheck);
  if (check) parts.push('', check);
  if (model.missingProbes.length)
    parts.push(
      '',
      `> ⚠ No async-resource count for ${model.missingProbes.length} point(s): \`ctxbench probe ` +
        `${ctx.file ?? 'RUN.json'}\` counts them.`,
    );
  parts.push('', ...model.runtimes.map((rt) => runtimeSection(rt, model, run)));
  const upgrade = upgradeSection(model);
  if (upgrade) parts.push(upgrade);
  const instructions = instructionsSection(run, ctx);
  if (instructions) parts.push('', instructions);
  return parts.join('\n');
}

module.exports = { modelSection };
