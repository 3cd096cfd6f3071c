'use strict';
// The cells of a run page's cost-model tables (report/sections/run/model.js,
// model-tables.js): nanoseconds, what the line does at the fitted points, the verdict on a
// point and which term set its margin, and a strategy–runtime pair's word.
const f = require('../../format');
const {
  tally,
  pointName,
  RIGHT_PP,
  MARGIN_FLOOR_PP,
  MARGIN_SHARE,
  BLOCKS_TO_DECIDE_CAP,
  CLAIM_MIN_POINTS,
  CLAIM_SHARE_WITHIN,
} = require('../../../analysis/model');
const { fitWhyText, notModelledText } = require('../../words');

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
  if (!s.fit) return `no fit: ${fitWhyText(s.why)}`;
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
  if (s.word === 'not modelled') return `**not modelled**: ${notModelledText(s.notModelled)}`;
  if (s.word === 'claimed') return `**claimed** (${judgedText(s.validation)})`;
  return (
    `**not validated**: ${judgedText(s.validation)} (claimed needs at least ${CLAIM_MIN_POINTS}, ` +
    `${Math.round(CLAIM_SHARE_WITHIN * 100)}% of them within)`
  );
}

module.exports = {
  nsCi,
  signedPp,
  lineCell,
  tallyCell,
  sideBySideCell,
  pairedGapCell,
  VERDICT,
  verdictCell,
  SET_BY,
  setByCell,
  claimCell,
};
