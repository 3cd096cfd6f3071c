'use strict';
// The method check of the cost model (analysis/model.js, issue 48): whether a strategy adds
// the same CPU to a request at a fixed rate (the pair) as at saturation (the duet), so a
// point measured with the pair may be judged against a duet line.
const { tost } = require('./verdict');
const { overBlocks, blockFigures, pointKey } = require('./model-fit');
const { isAaTwin, aaHalfWidth, marginFor, verdictCounts, VERDICT_OF_TOST } = require('./model-judge');

// The method check (issue 48): does a strategy add the same CPU a request at a fixed rate
// (the pair) as at saturation (the duet, the method every line is fitted from)? One point
// measured both ways, the two runs' blocks interleaved in time and paired by number: per
// block, the duet's extra µs set on the pair's `none` level predicts the pair's ratio,
// c0 / (c0 + extra), and the gap to the pair's own ratio is judged as a held-out point's
// (two one-sided tests at 5%, margin max(1 pp, 15% of the predicted cost)). Only where it
// is *within* may a point measured with the pair be judged against a duet line. Beside
// it, each method's extra µs and the event loop's wake-ups per request of both servers
// (how many requests one wake-up served: at a fixed rate its CPU is part of every
// request's). -> { duetExtraUs, pairExtraUs, pairBaselineUs, predicted, measured, gapPp,
// wakeups: { duet, pair } } | null when the two share no block
function methodAgreement(duetConfig, pairConfig, aaConfig = null) {
  const duet = blockFigures(duetConfig);
  const pair = blockFigures(pairConfig);
  const blocks = [...pair.keys()].filter((b) => duet.has(b)).sort((x, y) => x - y);
  if (!blocks.length) return null;
  const predicted = blocks.map((b) => pair.get(b).c0 / (pair.get(b).c0 + duet.get(b).extraUs));
  const predictedRatio = overBlocks(predicted);
  // The same margin as a held-out point's; its A/A term from the pair's own A/A twin at this
  // rate in the same blocks (the measurement judged is the pair's ratio).
  const aa = aaHalfWidth(aaConfig, new Set(blocks));
  const { marginPp, setBy } = marginFor(predictedRatio.estimate, aa?.halfWidthPp);
  const gap = overBlocks(blocks.map((b, i) => (predicted[i] - 1 / pair.get(b).cost) * 100));
  const agreement =
    gap.se === null ? null : tost({ center: gap.estimate, se: gap.se, df: gap.df }, [-marginPp, marginPp]);
  const wakeupsOf = (config) => {
    const counted = (config.samples || []).filter((w) => w && w.kind === 'window' && w.counted);
    const at = (key) => overBlocks(counted.map((w) => w[key])).estimate;
    return { candidate: at('wakeupsPerRequest'), baseline: at('partnerWakeupsPerRequest') };
  };
  return {
    blocks: blocks.length,
    duetExtraUs: overBlocks(blocks.map((b) => duet.get(b).extraUs)),
    duetBaselineUs: overBlocks(blocks.map((b) => duet.get(b).c0)),
    pairExtraUs: overBlocks(blocks.map((b) => pair.get(b).extraUs)),
    pairBaselineUs: overBlocks(blocks.map((b) => pair.get(b).c0)),
    predicted: predictedRatio,
    measured: overBlocks(blocks.map((b) => 1 / pair.get(b).cost)),
    gapPp: {
      ...gap,
      agreement: agreement && {
        outcome: VERDICT_OF_TOST[agreement.outcome],
        ci90: agreement.interval,
        marginPp,
        setBy,
      },
    },
    aaHalfWidthPp: aa?.halfWidthPp ?? null,
    wakeups: { duet: wakeupsOf(duetConfig), pair: wakeupsOf(pairConfig) },
  };
}

// The method check of two runs of one point (scripts/method-check.sh): per strategy (the
// A/A twin too) and pair rate, methodAgreement; per rate, whether the pair may be judged
// against the duet's lines there: "agree" when every strategy's gap is within its margin,
// "disagree" when any is beyond, else "undecided" (more blocks would say).
// -> { point, rows: [{ strategy, aa, rate, ...methodAgreement }], rates: [{ rate, outcome,
// within, beyond, cannotTell }] } | null
function methodCheck(duetRun, pairRun) {
  if (!duetRun?.configs || !pairRun?.configs) return null;
  const baseline = duetRun.settings?.baseline;
  const pointOf = (c) => `${c.strategy}/${c.arm ?? ''}/${pointKey(c)}`;
  const rows = [];
  for (const d of duetRun.configs.filter((c) => c.strategy !== baseline || c.arm)) {
    for (const p of pairRun.configs.filter((c) => pointOf(c) === pointOf(d)).sort((a, b) => a.rate - b.rate)) {
      const aa = pairRun.configs.find(
        (c) => isAaTwin(c) && c.strategy === baseline && c.rate === p.rate && pointKey(c) === pointKey(p),
      );
      const m = methodAgreement(d, p, aa);
      if (m) rows.push({ strategy: d.strategy, aa: Boolean(d.arm), rate: p.rate, ...m });
    }
  }
  if (!rows.length) return null;
  const first = duetRun.configs.find((c) => c.strategy !== baseline) ?? duetRun.configs[0];
  const rates = [...new Set(rows.map((r) => r.rate))].map((rate) => {
    const at = rows.filter((r) => r.rate === rate && !r.aa);
    const { within, beyond } = verdictCounts(at, (r) => r.gapPp.agreement?.outcome);
    return {
      rate,
      within,
      beyond,
      cannotTell: at.length - within - beyond,
      outcome: beyond ? 'disagree' : within === at.length ? 'agree' : 'undecided',
    };
  });
  return {
    baseline,
    point: {
      framework: first.framework,
      depth: first.depth,
      hop: first.hop,
      stores: first.stores ?? 0,
      runtime: first.nodeLabel ?? first.node,
    },
    rows,
    rates,
  };
}

module.exports = { methodAgreement, methodCheck };
