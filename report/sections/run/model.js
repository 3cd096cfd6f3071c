'use strict';
// A run page's cost model (the model presets, analysis/model.js): per runtime, each
// strategy's cost per request and per async resource with their intervals, where the
// straight line misses a fitted point, every held-out prediction beside its measurement,
// the Node upgrade in the model's terms, and the same terms in instructions where an
// instruction-count run of the same points is committed. Formats what analysis computed.
// Its cells are report/sections/run/model-cells.js, its tables model-tables.js.
const f = require('../../format');
const {
  analyzeModel,
  tally,
  wordTally,
  MARGIN_FLOOR_PP,
  MARGIN_SHARE,
  BLOCKS_TO_DECIDE_CAP,
  CLAIM_MIN_POINTS,
  CLAIM_SHARE_WITHIN,
} = require('../../../analysis/model');
const { runtimeSection, upgradeSection, instructionsSection, methodCheckSection } = require('./model-tables');

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

// A held-out resume's blocks (bench/run/held-out.js): which pairs they measured, and why.
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
  const unsaturated = unsaturatedNote(model);
  if (unsaturated) parts.push('', unsaturated);
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

// Points the duet could not measure (servers waiting on timers are never saturated) are
// not measured with the pair instead: the pair at a fixed rate is not the duet's measure.
function unsaturatedNote(model) {
  const unsaturated = model.runtimes
    .flatMap((rt) => rt.strategies.flatMap((st) => st.points))
    .filter((p) => p.role === 'held-out' && !p.measured && /not saturated/.test(p.dropped?.reason ?? ''));
  if (!unsaturated.length) return null;
  const where = [...new Set(unsaturated.map((p) => `HOP=${p.hop}`))].map(f.code).join(', ');
  return (
    `${unsaturated.length} held-out point${unsaturated.length === 1 ? ' is' : 's are'} not measured ` +
    `(${where}): the duet needs both servers busy throughout, and there they were not. ` +
    'The pair at a fixed rate measures such points; whether it may be judged against these lines is the ' +
    "method check's to say (below, or docs/model.md where the check is not committed)."
  );
}

module.exports = { modelSection };
