'use strict';
// The cost model's judgement (analysis/model.js): each held-out point's prediction set
// against its measurement (the margin, the paired gap, its verdict) and the word a strategy
// on a runtime earns from them: claimed, not validated or not modelled.
const { tCritical } = require('./stats');
const { tost } = require('./verdict');
const { overBlocks, blockFigures, linesAt, pointName } = require('./model-fit');

// The side-by-side reading (kept beside the verdict, never the verdict): a prediction lies
// within RIGHT_PP points of a measurement whose 95% half-width is at most JUDGEABLE_PP.
const RIGHT_PP = 1;
const JUDGEABLE_PP = 2;
// The verdict on a held-out point (issues 48, 61): its gap paired by block, two one-sided
// tests at 5%, against a margin of max(1 pp, 15% of the predicted cost, the A/A half-width).
// A fixed point asks the same absolute accuracy of a strategy that costs 2% and of one that
// costs 60%; a team choosing among the dear ones needs them right to a share of their cost;
// and no margin may be finer than the method resolves at one point: the 90% half-width of a
// `none`-beside-`none` point measured in the same blocks (absent when none was measured).
const MARGIN_FLOOR_PP = 1;
const MARGIN_SHARE = 0.15;
// -> { marginPp, setBy: 'floor' | 'share' | 'aa' }: the largest term, and which it is.
function marginFor(predicted, aaHalfPp = null) {
  const terms = [
    ['floor', MARGIN_FLOOR_PP],
    ['share', Number.isFinite(predicted) ? MARGIN_SHARE * (1 - predicted) * 100 : -Infinity],
    ['aa', Number.isFinite(aaHalfPp) ? aaHalfPp : -Infinity],
  ];
  const [setBy, marginPp] = terms.reduce((best, t) => (t[1] > best[1] ? t : best));
  return { marginPp, setBy };
}
const marginPpFor = (predicted, aaHalfPp) => marginFor(predicted, aaHalfPp).marginPp;
// What a strategy on a runtime is (issue 61), one meaning each: 'claimed' with at least
// CLAIM_MIN_POINTS held-out points judged (within, beyond or cannot tell), at least
// CLAIM_SHARE_WITHIN of them within and none beyond; 'not modelled' with any beyond (its
// line is wrong there: no figure is printed); 'not validated' otherwise (too few points, or
// too many cannot-tells: its prediction may be printed, labelled so).
const CLAIM_MIN_POINTS = 2;
const CLAIM_SHARE_WITHIN = 0.8;
const WORDS = ['claimed', 'not validated', 'not modelled'];
// Past this many blocks a projection says "more than" (a gap on its margin's edge never decides).
const BLOCKS_TO_DECIDE_CAP = 200;
const VERDICT_OF_TOST = { equivalent: 'within', beyond: 'beyond', 'cannot tell': 'cannot tell' };

// The A/A twin of a run (bench/run/matrix.js): a second `none` process measured beside `none`.
const isAaTwin = (c) => c?.arm === 'aa';

// The A/A half-width (pp): the 90% half-width over blocks of a `none`-beside-`none` point's
// share of `none`'s throughput (1 ÷ its cost per block), over `blocks` (every block it has
// without them): what one point of the method resolves in those blocks. A twin that joined
// on a held-out resume shares only the later blocks with an older point: its spread over
// the blocks they share (at least MIN_AA_BLOCKS) is scaled to the point's count, so a
// margin is what the method resolves with as many blocks as the verdict has, neither wider
// for the twin's fewer blocks nor narrower.
// -> { halfWidthPp, blocks, of } | null (no twin, or too few blocks shared)
const MIN_AA_BLOCKS = 3;
function aaHalfWidth(aaConfig, blocks = null) {
  if (!aaConfig) return null;
  const values = [...blockFigures(aaConfig)].filter(([b]) => !blocks || blocks.has(b)).map(([, x]) => 100 / x.cost);
  const o = overBlocks(values);
  if (o.se === null) return null;
  const n = blocks ? blocks.size : o.blocks;
  if (n === o.blocks) return { halfWidthPp: tCritical(o.df, 0.9) * o.se, blocks: o.blocks, of: n };
  if (o.blocks < MIN_AA_BLOCKS) return null;
  const sd = o.se * Math.sqrt(o.blocks);
  return { halfWidthPp: (tCritical(n - 1, 0.9) * sd) / Math.sqrt(n), blocks: o.blocks, of: n };
}

// Right, a miss, or not judged (the measurement is wider than JUDGEABLE_PP).
function judgePrediction(predicted, measured) {
  if (!measured || !Number.isFinite(measured.estimate) || !measured.ci95)
    return { outcome: 'not measured', gapPp: null };
  if (!Number.isFinite(predicted?.estimate)) return { outcome: 'no prediction', gapPp: null };
  const gapPp = (predicted.estimate - measured.estimate) * 100;
  const half = ((measured.ci95[1] - measured.ci95[0]) / 2) * 100;
  // Whether the measurement lies inside the prediction's own interval: a miss inside it is
  // one the model's uncertainty allowed for, one outside it is the model's shape.
  const inside = predicted.ci95
    ? measured.estimate >= predicted.ci95[0] && measured.estimate <= predicted.ci95[1]
    : null;
  if (half > JUDGEABLE_PP) return { outcome: 'too wide', gapPp, halfWidthPp: half, inside };
  return { outcome: Math.abs(gapPp) <= RIGHT_PP ? 'right' : 'miss', gapPp, halfWidthPp: half, inside };
}

// The prediction's gap to the measurement, paired by block (pp, predicted − measured):
// per block, that block's line predicts the point from that block's `none` level and is set
// against that block's ratio; mean over blocks with its t-interval, as every figure of the
// fit. Judged by two one-sided tests at 5% against ±marginPp (marginFor the predicted
// ratio): "within" (the 90% interval of the gap inside the margin: the prediction is right,
// as far as the blocks can tell), "beyond" (wholly outside: the line is wrong there),
// "cannot tell". Unlike judgePrediction, which sets two point estimates side by side, this
// weighs the noise of both. -> overBlocks(...) + { agreement } | null
function gapOverBlocks(fit, R, figures, marginPp = MARGIN_FLOOR_PP) {
  const values = linesAt(fit, R)
    .filter((l) => figures.has(l.block))
    .map((l) => {
      const { c0, cost } = figures.get(l.block);
      const predictedUs = c0 + l.a + l.b * R;
      return predictedUs > 0 ? (c0 / predictedUs - 1 / cost) * 100 : NaN;
    });
  const gap = overBlocks(values);
  if (gap.se === null) return gap.estimate === null ? null : { ...gap, agreement: null };
  const { outcome, interval } = tost({ center: gap.estimate, se: gap.se, df: gap.df }, [-marginPp, marginPp]);
  const verdict = VERDICT_OF_TOST[outcome];
  return {
    ...gap,
    agreement: {
      outcome: verdict,
      ci90: interval,
      marginPp,
      ...(verdict === 'cannot tell' && { toDecide: blocksToDecide(gap, marginPp) }),
    },
  };
}

// How many blocks in all a "cannot tell" would take to decide if its gap's mean and its
// spread over blocks held: the fewest n whose 90% interval lies inside the margin
// (within) or wholly outside it (beyond). A projection, not a promise (the mean moves as
// blocks come), but it says how far a point is from an answer: one on the margin's edge
// never decides. -> { blocks, outcome } | { blocks: null, outcome: null } past `cap`
function blocksToDecide(gap, marginPp, cap = BLOCKS_TO_DECIDE_CAP) {
  const sd = gap.se * Math.sqrt(gap.blocks);
  for (let n = gap.blocks + 1; n <= cap; n++) {
    const half = (tCritical(n - 1, 0.9) * sd) / Math.sqrt(n);
    if (Math.abs(gap.estimate) + half <= marginPp) return { blocks: n, outcome: 'within' };
    if (Math.abs(gap.estimate) - half > marginPp) return { blocks: n, outcome: 'beyond' };
  }
  return { blocks: null, outcome: null };
}

// A prediction set against a measurement made apart from the fit (`ctxbench app
// --predict` with a candidate: no blocks in common, so nothing to pair): the gap's
// standard error from both 95% intervals as independent, two one-sided tests at 5%
// against the same margin as a held-out point's. -> { outcome, gapPp, ci90, marginPp }
function judgeAgainst(predicted, measured) {
  if (!Number.isFinite(predicted?.estimate)) return { outcome: 'no prediction', gapPp: null };
  if (!measured || !Number.isFinite(measured.estimate) || !measured.ci95 || !(measured.df >= 1))
    return { outcome: 'not measured', gapPp: null };
  const marginPp = marginPpFor(predicted.estimate);
  const gapPp = (predicted.estimate - measured.estimate) * 100;
  const seOf = (x, df) => (x.ci95 && x.ci95[1] !== null ? ((x.ci95[1] - x.ci95[0]) * 100) / 2 / tCritical(df) : null);
  const seM = seOf(measured, measured.df);
  const seP = predicted.df >= 1 ? seOf(predicted, predicted.df) : 0;
  if (seM === null || seP === null) return { outcome: 'not measured', gapPp, marginPp };
  const df = Math.min(measured.df, predicted.df >= 1 ? predicted.df : measured.df);
  const { outcome, interval } = tost({ center: gapPp, se: Math.sqrt(seM ** 2 + seP ** 2), df }, [-marginPp, marginPp]);
  return { outcome: VERDICT_OF_TOST[outcome], gapPp, ci90: interval, marginPp };
}

// A held-out point's verdict: the paired gap's outcome against its margin, or why there is
// none. -> { outcome: 'within' | 'beyond' | 'cannot tell' | 'not measured' | 'no prediction',
// marginPp }
function verdictOf(predicted, measured, gapPp, marginPp) {
  if (!Number.isFinite(predicted?.estimate)) return { outcome: 'no prediction', marginPp };
  if (!measured || !gapPp?.agreement) return { outcome: 'not measured', marginPp };
  return { outcome: gapPp.agreement.outcome, marginPp };
}

// The word a strategy on a runtime earns from its held-out points (fit: its line, or null
// with why there is none). -> { word, validation, notModelled }
function wordOf(fit, why, points) {
  const held = points.filter((p) => p.role === 'held-out');
  const judged = (o) => held.filter((p) => p.verdict.outcome === o);
  const beyond = judged('beyond');
  const validation = {
    judged: judged('within').length + beyond.length + judged('cannot tell').length,
    within: judged('within').length,
    beyond: beyond.length,
    cannotTell: judged('cannot tell').length,
  };
  // Where a held-out point is beyond, the line is shown wrong: a prediction elsewhere is
  // not trusted either (not modelled). A line that is never shown wrong is claimed only
  // where enough points were judged and most of them within.
  const word =
    !fit || beyond.length
      ? 'not modelled'
      : validation.judged >= CLAIM_MIN_POINTS && validation.within >= CLAIM_SHARE_WITHIN * validation.judged
        ? 'claimed'
        : 'not validated';
  // Why it is not modelled, as data (report/words.js notModelledText words it): fitOf's
  // reason where there is no line, else the held-out points its line misses beyond the margin.
  const notModelled = !fit
    ? why
    : beyond.length
      ? { code: 'line-wrong', points: beyond.map((p) => ({ point: pointName(p), gapPp: p.gapPp.estimate })) }
      : null;
  return { word, validation, notModelled };
}

// How many of xs each verdict has (outcomeOf(x): a verdict's outcome, or none).
function verdictCounts(xs, outcomeOf) {
  const count = (o) => xs.filter((x) => outcomeOf(x) === o).length;
  return { within: count('within'), beyond: count('beyond'), cannotTell: count('cannot tell') };
}

// The held-out tally of one strategy (or of all): { within, beyond, cannotTell, unjudged,
// total } by the verdict, and { right, miss, wide, other } by the side-by-side reading.
function tally(points) {
  const held = points.filter((p) => p.role === 'held-out');
  const count = (o) => held.filter((p) => p.judgement.outcome === o).length;
  const right = count('right');
  const miss = count('miss');
  const wide = count('too wide');
  const { within, beyond, cannotTell } = verdictCounts(held, (p) => p.verdict?.outcome);
  return {
    right,
    miss,
    wide,
    other: held.length - right - miss - wide,
    total: held.length,
    within,
    beyond,
    cannotTell,
    unjudged: held.length - within - beyond - cannotTell,
  };
}

// The three words counted over a model's strategy–runtime pairs (analysis only counts; the
// report writes the sentence). -> { claimed, notValidated, notModelled, pairs, claimedPairs:
// [{ runtime, strategy }] }
function wordTally(model) {
  const pairs = model.runtimes.flatMap((rt) => rt.strategies.map((s) => ({ runtime: rt.runtime, ...s })));
  const count = (w) => pairs.filter((s) => s.word === w).length;
  return {
    claimed: count('claimed'),
    notValidated: count('not validated'),
    notModelled: count('not modelled'),
    pairs: pairs.length,
    claimedPairs: pairs.filter((s) => s.word === 'claimed').map(({ runtime, strategy }) => ({ runtime, strategy })),
  };
}

module.exports = {
  RIGHT_PP,
  JUDGEABLE_PP,
  MARGIN_FLOOR_PP,
  MARGIN_SHARE,
  marginFor,
  marginPpFor,
  CLAIM_MIN_POINTS,
  CLAIM_SHARE_WITHIN,
  WORDS,
  BLOCKS_TO_DECIDE_CAP,
  VERDICT_OF_TOST,
  isAaTwin,
  aaHalfWidth,
  judgePrediction,
  gapOverBlocks,
  blocksToDecide,
  judgeAgainst,
  verdictOf,
  verdictCounts,
  wordOf,
  tally,
  wordTally,
};
