'use strict';
// The cost model (issue 38): what a strategy adds to the CPU one request costs, written as
//
//   extra µs per request = perRequest + perResource × R
//
// where R is the number of async resources one request of the service creates (counted in a
// probe process of the `none` server, bench/probe-run.js, never in a measured one). The
// first term is entering the context, the second propagating it. Fitted per strategy and
// runtime from the duet windows of the configurations whose role is 'fit' (lib/presets.js);
// the 'held-out' ones are predicted from the fit and judged against their measurement.
//
// The unit is the block, as for every ratio of a run: per block (one pair of fresh
// processes per configuration), a fit point's extra µs is `none`'s CPU per request times
// the CPU ratio minus one, from that block's windows; a straight line through the block's
// points (least squares, both terms held to costs: never below zero) gives that block's two terms; the estimate is
// their mean over the blocks and the interval a t-interval over blocks (df = blocks - 1).
const { linearRegression } = require('simple-statistics');
const { mean, positive, tCritical, variance } = require('./stats');
const { summaryOf, instructionLevel } = require('./summary');
const { armOf } = require('./comparable');
const { tost } = require('./verdict');
const strategies = require('../context');

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
// Where `none`'s CPU per request is read as the run's reference level (the scale a team's
// service is put on by `ctxbench app --predict`): the first fitted point.
const REFERENCE = { framework: 'express', depth: 8, hop: 'immediate', stores: 0 };

// A point as its environment sets it, for a reader: DEPTH=64 HOP=immediate STORES=10.
const pointName = (p) => `DEPTH=${p.depth} HOP=${p.hop}${p.stores ? ` STORES=${p.stores}` : ''}`;

// The point a configuration measures, without its strategy: what a probe counts.
const pointKey = (c) => [c.framework, c.depth, c.hop, c.stores ?? 0, c.nodeLabel ?? c.node ?? ''].join('/');

function mostCommon(xs) {
  const counts = new Map();
  for (const x of xs) counts.set(x, (counts.get(x) || 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}

// { estimate, se, df, ci95 } of values that are one per block.
function overBlocks(values) {
  const v = values.filter(Number.isFinite);
  if (!v.length) return { estimate: null, se: null, df: null, ci95: null, blocks: 0 };
  const estimate = mean(v);
  if (v.length < 2) return { estimate, se: null, df: null, ci95: null, blocks: v.length };
  const se = Math.sqrt(variance(v) / v.length);
  const half = tCritical(v.length - 1) * se;
  return { estimate, se, df: v.length - 1, ci95: [estimate - half, estimate + half], blocks: v.length };
}

// A configuration's duet windows by block -> Map(block -> { c0, cost, extraUs }): c0 the
// partner's (none's) CPU µs per request (geometric mean of the block's windows), cost
// this one's CPU per request ÷ none's (exp of the mean log ratio, as duetRatios), extraUs
// = c0 × (cost - 1).
function blockFigures(config) {
  const byBlock = new Map();
  for (const w of config.samples || []) {
    if (!w || w.kind !== 'window' || !w.counted || !positive(w.cpuUsPerRequest) || !positive(w.partnerCpuUsPerRequest))
      continue;
    if (!byBlock.has(w.block)) byBlock.set(w.block, []);
    byBlock.get(w.block).push(w);
  }
  return new Map(
    [...byBlock].map(([block, ws]) => {
      const c0 = Math.exp(mean(ws.map((w) => Math.log(w.partnerCpuUsPerRequest))));
      const cost = Math.exp(mean(ws.map((w) => Math.log(w.cpuUsPerRequest) - Math.log(w.partnerCpuUsPerRequest))));
      return [block, { c0, cost, extraUs: c0 * (cost - 1) }];
    }),
  );
}

// The A/A twin of a run (bench/matrix.js): a second `none` process measured beside `none`.
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

// The probe counts of a run by point: Map(pointKey -> resources per request).
function resourcesByPoint(run) {
  return new Map(
    (run.probes || []).filter((p) => positive(p.perRequest?.total)).map((p) => [pointKey(p), p.perRequest.total]),
  );
}

// The least-squares line y = a + b·x with a ≥ 0 and b ≥ 0: both terms are costs, and no
// code costs less than nothing (an unconstrained fit gave cls-hooked on Node 20 a negative
// per-request term, and a small service a predicted speed-up: docs/model.md, "How it is
// fitted"). Two unknowns, so the optimum is
// the free fit when it is feasible, else the best of its faces (a = 0, b = 0, or both):
// simple-statistics has no constrained regression, and four candidates need no solver.
// xy: [[x, y]] -> { a, b }
function nonNegativeLine(xy) {
  const sse = ({ a, b }) => xy.reduce((acc, [x, y]) => acc + (y - a - b * x) ** 2, 0);
  const free = linearRegression(xy);
  if (free.b >= 0 && free.m >= 0) return { a: free.b, b: free.m };
  const sxx = xy.reduce((acc, [x]) => acc + x * x, 0);
  const sxy = xy.reduce((acc, [x, y]) => acc + x * y, 0);
  const candidates = [
    { a: 0, b: sxx > 0 ? Math.max(0, sxy / sxx) : 0 },
    { a: Math.max(0, mean(xy.map(([, y]) => y))), b: 0 },
    { a: 0, b: 0 },
  ];
  return candidates.reduce((best, c) => (sse(c) < sse(best) ? c : best));
}

// points: [{ R, figures: Map(block -> { extraUs }), from }] -> per block the constrained
// least-squares line through the points -> { perRequestUs, perResourceUs, blocks: [{ block,
// a, b, points }] }; null with fewer than two distinct R. A point that joined the study on a
// resume (from: its first block, bench/resume.js) is in the lines of the blocks from then
// on; a block missing a point it was to measure has no line (its design is not the others').
function fitLine(points) {
  if (new Set(points.map((p) => p.R)).size < 2) return null;
  const design = (block) => points.filter((p) => (p.from ?? 0) <= block);
  const blocks = [...new Set(points.flatMap((p) => [...p.figures.keys()]))]
    .filter((b) => design(b).every((p) => p.figures.has(b)) && new Set(design(b).map((p) => p.R)).size >= 2)
    .sort((x, y) => x - y);
  // Each line records the range of R it was fitted on (lo, hi): it predicts only there
  // (linesAt), so a block that never measured a small service's count is not extrapolated
  // to it.
  const lines = blocks.map((block) => {
    const xy = design(block).map((p) => [p.R, p.figures.get(block).extraUs]);
    return {
      block,
      ...nonNegativeLine(xy),
      points: xy.length,
      lo: Math.min(...xy.map(([x]) => x)),
      hi: Math.max(...xy.map(([x]) => x)),
    };
  });
  const Rs = points.map((p) => p.R);
  return {
    perRequestUs: overBlocks(lines.map((l) => l.a)),
    perResourceUs: overBlocks(lines.map((l) => l.b)),
    blocks: lines,
    rangeR: [Math.min(...Rs), Math.max(...Rs)],
  };
}

// The blocks' lines fitted on a range that holds R. A line without its own range comes
// from an older fit, made when every block measured the same points: it holds the fit's
// range (rangeR), and only that; a fit without either holds every R.
function linesAt(fit, R) {
  const [lo, hi] = Array.isArray(fit.rangeR) ? fit.rangeR : [-Infinity, Infinity];
  return fit.blocks.filter((l) => (Number.isFinite(l.lo) ? R >= l.lo && R <= l.hi : R >= lo && R <= hi));
}

// The % of `none`'s throughput on one CPU the fitted terms predict for a service whose
// request costs `baselineUs` (mean, se, df) and creates R async resources:
// none's CPU ÷ (none's + a + b·R). Uncertainty of the terms (the fit's blocks) and of the
// baseline combined to first order; df the smaller of the two.
// -> { estimate, ci95, extraUs } (ratios as fractions).
function predictRatio(fit, R, baselineUs) {
  const perBlock = linesAt(fit, R).map((l) => l.a + l.b * R);
  const extra = overBlocks(perBlock);
  const D = baselineUs.estimate;
  if (!Number.isFinite(extra.estimate) || !positive(D)) return { estimate: null, ci95: null, extraUs: extra };
  const f = extra.estimate / D;
  // Terms fitted as costs cannot take CPU off; terms from an older fit could.
  if (f < 0)
    return {
      estimate: null,
      ci95: null,
      extraUs: extra,
      why:
        'the fitted terms take CPU off a request (a fit from before terms were constrained to costs): refit ' +
        'with `ctxbench report`',
    };
  const estimate = 1 / (1 + f);
  if (extra.se === null) return { estimate, ci95: null, extraUs: extra };
  const seD = baselineUs.se ?? 0;
  const seF = Math.sqrt((extra.se / D) ** 2 + ((extra.estimate * seD) / (D * D)) ** 2);
  const df = Math.min(extra.df, baselineUs.df ?? extra.df);
  const half = tCritical(df) * seF;
  // Both terms are costs (never below zero), so the cost's interval stops at zero: its
  // upper end is `none`'s throughput, never a speed-up.
  return { estimate, ci95: [1 / (1 + f + half), 1 / (1 + Math.max(0, f - half))], df, extraUs: extra };
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
  if (half > JUDGEABLE_PP) return { outcome: 'too wide to judge', gapPp, halfWidthPp: half, inside };
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
  const baseline = duetRun.settings?.baseline ?? 'none';
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
    const count = (o) => at.filter((r) => r.gapPp.agreement?.outcome === o).length;
    const within = count('within');
    const beyond = count('beyond');
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

// block -> `none`'s CPU per request at a point in that block (geometric mean over the
// strategies measured beside it).
function levelsByBlock(configsAtPoint) {
  const byBlock = new Map();
  for (const c of configsAtPoint) {
    for (const [block, fig] of blockFigures(c)) {
      if (!byBlock.has(block)) byBlock.set(block, []);
      byBlock.get(block).push(Math.log(fig.c0));
    }
  }
  return new Map([...byBlock].map(([block, xs]) => [block, Math.exp(mean(xs))]));
}

// The baseline's CPU per request at a point, over blocks: the partner's level in the
// windows of any configuration measured against it there (they share the baseline process).
const baselineLevel = (configsAtPoint) => overBlocks([...levelsByBlock(configsAtPoint).values()]);

// analyzeModel(run) -> null for a run without roles, else
//   { rightPp, judgeablePp, runtimes: [{ runtime, node, acf, reference, strategies: [{ strategy,
//     control, fit: { perRequestUs, perResourceUs } | null, why, points: [{ id, role, depth, hop,
//     stores, R, measured, predicted, judgement, residualUs }] }] }], missingProbes: [pointKey] }
function analyzeModel(run) {
  const configs = (run.configs || []).filter((c) => c && c.role);
  if (!configs.length) return null;
  const baseline = run.settings?.baseline ?? 'none';
  const R = resourcesByPoint(run);
  const missingProbes = [...new Set(configs.map(pointKey))].filter((k) => !R.has(k));
  const runtimes = [...new Set(configs.map((c) => c.nodeLabel ?? c.node))].map((runtime) => {
    const mine = configs.filter((c) => (c.nodeLabel ?? c.node) === runtime);
    const others = mine.filter((c) => armOf(c) !== baseline && !isAaTwin(c));
    // The A/A point at the reference configuration (issue 61): its half-width is a margin's
    // third term. Found among every config, whatever role a preset gives it.
    const refKey = pointKey({ ...REFERENCE, nodeLabel: runtime });
    const aaConfig = (run.configs || []).find(
      (c) => isAaTwin(c) && c.strategy === baseline && (c.nodeLabel ?? c.node) === runtime && pointKey(c) === refKey,
    );
    const atPoint = (c) => others.filter((o) => pointKey(o) === pointKey(c));
    const refConfig = mine.find((c) => !isAaTwin(c) && pointKey(c) === refKey);
    // Per block too: a study resumed on another machine has blocks in another CPU's µs.
    const reference = refConfig
      ? {
          point: `${REFERENCE.framework} DEPTH=${REFERENCE.depth} HOP=${REFERENCE.hop}`,
          cpuUsPerRequest: baselineLevel(atPoint(refConfig)),
          byBlock: Object.fromEntries(levelsByBlock(atPoint(refConfig))),
        }
      : null;
    const strategies = [...new Set(others.map(armOf))].map((strategy) => {
      const rows = others
        .filter((c) => armOf(c) === strategy)
        .map((c) => ({
          config: c,
          from: c.joinedBlock ?? 0,
          R: R.get(pointKey(c)) ?? null,
          figures: blockFigures(c),
          measured: summaryOf(c, run.configs, baseline).ratio,
          c0: baselineLevel(atPoint(c)),
        }));
      // A fitted point that joined on a resume and has no counted window yet is not in the
      // fit yet (the run goes on); one of the study's first design without one stops it.
      const fitRows = rows.filter((r) => r.config.role === 'fit' && !(r.from > 0 && !r.figures.size));
      const usable = fitRows.filter((r) => Number.isFinite(r.R) && r.figures.size);
      const fit = usable.length === fitRows.length ? fitLine(usable) : null;
      const why = fit
        ? null
        : fitRows.length > usable.length
          ? `${fitRows.length - usable.length} fitted point(s) without a probe count or a measured window`
          : 'fewer than two fitted points with different resource counts';
      const points = rows.map((r) => {
        const predicted = fit && Number.isFinite(r.R) ? predictRatio(fit, r.R, r.c0) : null;
        const measured =
          r.measured && Number.isFinite(r.measured.estimate)
            ? { estimate: r.measured.estimate, ci95: r.measured.ci95, blocks: r.measured.blocks }
            : null;
        // For a fitted point: how far the line is from it, per block, over blocks.
        const residualUs =
          fit && r.config.role === 'fit'
            ? overBlocks(
                fit.blocks
                  .filter((l) => r.figures.has(l.block))
                  .map((l) => r.figures.get(l.block).extraUs - (l.a + l.b * r.R)),
              )
            : null;
        const judgement = judgePrediction(predicted, measured);
        const aa = aaHalfWidth(aaConfig, new Set(r.figures.keys()));
        const margin = marginFor(predicted?.estimate, aa?.halfWidthPp);
        const gapPp = fit && Number.isFinite(r.R) ? gapOverBlocks(fit, r.R, r.figures, margin.marginPp) : null;
        // Why a point has too few windows to measure, in the duet's own words.
        const windows = (r.config.samples || []).filter((w) => w && w.kind === 'window');
        const reasons = windows
          .filter((w) => !w.counted && w.dropped)
          .map((w) => String(w.dropped).replace(/ \(\d+% used\)$/, ''));
        const dropped = reasons.length
          ? { windows: reasons.length, of: windows.length, reason: mostCommon(reasons) }
          : null;
        return {
          id: r.config.id,
          role: r.config.role,
          depth: r.config.depth,
          hop: r.config.hop,
          stores: r.config.stores ?? 0,
          R: r.R,
          // The block it joined the study at (a resume added it), 0 from the start.
          joinedBlock: r.from,
          baselineUs: r.c0,
          extraUs: overBlocks([...r.figures.values()].map((x) => x.extraUs)),
          measured,
          predicted: predicted && { estimate: predicted.estimate, ci95: predicted.ci95 },
          judgement,
          gapPp,
          verdict: { ...verdictOf(predicted, measured, gapPp, margin.marginPp), setBy: margin.setBy },
          aaHalfWidthPp: aa?.halfWidthPp ?? null,
          dropped,
          residualUs,
          // The line misses a fitted point when its residual's interval leaves out zero and
          // the line's figure there is further from the measurement than a right prediction
          // may be (a bias of a few ns, real but harmless, is not a miss).
          offLine: Boolean(
            residualUs?.ci95 &&
            (residualUs.ci95[0] > 0 || residualUs.ci95[1] < 0) &&
            Math.abs(judgement.gapPp ?? 0) > RIGHT_PP,
          ),
        };
      });
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
      const notModelled = !fit
        ? why
        : beyond.length
          ? `its line is wrong at ${beyond.length} held-out point${beyond.length === 1 ? '' : 's'} ` +
            `(` +
            beyond
              .map(
                (p) =>
                  `${pointName(p)} by ${p.gapPp.estimate >= 0 ? '+' : '−'}${Math.abs(p.gapPp.estimate).toFixed(1)} pp`,
              )
              .join(', ') +
            `, ` +
            `beyond the margin)`
          : null;
      return {
        strategy,
        control: Boolean(rows[0]?.config.control),
        fit: fit && {
          perRequestUs: fit.perRequestUs,
          perResourceUs: fit.perResourceUs,
          blocks: fit.blocks,
          rangeR: fit.rangeR,
        },
        why,
        word,
        claimed: word === 'claimed',
        validation,
        notModelled,
        points,
      };
    });
    return {
      runtime,
      node: mine[0].node,
      acf: mine[0].acf ?? mine[0].expectAcf ?? null,
      reference,
      // The A/A point at the reference configuration over all its blocks, or null: not measured.
      aa: aaHalfWidth(aaConfig),
      strategies,
    };
  });
  return { rightPp: RIGHT_PP, judgeablePp: JUDGEABLE_PP, runtimes, missingProbes };
}

// The held-out tally of one strategy (or of all): { within, beyond, cannotTell, unjudged,
// total } by the verdict, and { right, miss, wide, other } by the side-by-side reading.
function tally(points) {
  const held = points.filter((p) => p.role === 'held-out');
  const count = (o) => held.filter((p) => p.judgement.outcome === o).length;
  const right = count('right');
  const miss = count('miss');
  const wide = count('too wide to judge');
  const verdict = (o) => held.filter((p) => p.verdict?.outcome === o).length;
  const within = verdict('within');
  const beyond = verdict('beyond');
  const cannotTell = verdict('cannot tell');
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

// The Node upgrade in the model's terms (item 5): per strategy, its two terms on every
// runtime of the run, and the change of each from `from` to every other runtime, paired by
// block (the runtimes were measured in the same blocks): { strategy, rows: [{ runtime,
// perRequestUs, perResourceUs, change: { perRequestUs, perResourceUs } | null }] }.
function upgradeTable(model, from) {
  if (!model || model.runtimes.length < 2) return null;
  const base = model.runtimes.find((r) => r.runtime === from) ?? model.runtimes[0];
  const names = [...new Set(model.runtimes.flatMap((r) => r.strategies.map((s) => s.strategy)))];
  return {
    from: base.runtime,
    strategies: names.map((strategy) => {
      const baseFit = base.strategies.find((s) => s.strategy === strategy)?.fit;
      const rows = model.runtimes.map((rt) => {
        const fit = rt.strategies.find((s) => s.strategy === strategy)?.fit;
        if (!fit) return { runtime: rt.runtime, node: rt.node, acf: rt.acf, fit: null, change: null };
        const paired = (key) => {
          if (!baseFit || rt === base) return null;
          const baseBy = new Map(baseFit.blocks.map((l) => [l.block, l[key]]));
          return overBlocks(fit.blocks.filter((l) => baseBy.has(l.block)).map((l) => l[key] - baseBy.get(l.block)));
        };
        return {
          runtime: rt.runtime,
          node: rt.node,
          acf: rt.acf,
          fit,
          change: rt === base ? null : { perRequestUs: paired('a'), perResourceUs: paired('b') },
        };
      });
      return { strategy, rows };
    }),
  };
}

// What `ctxbench app --predict` reads: per runtime, the reference level and each strategy's
// per-block terms (µs), with where they came from. model: analyzeModel of a run.
function exportFit(model, source) {
  return {
    source,
    runtimes: Object.fromEntries(
      model.runtimes.map((rt) => [
        rt.runtime,
        {
          node: rt.node,
          acf: rt.acf,
          reference: rt.reference,
          strategies: Object.fromEntries(
            rt.strategies.map((s) => [
              s.strategy,
              // The word travels with the terms (`app --predict` prints it beside the figure);
              // a pair not modelled ships its reason and no terms.
              s.word !== 'not modelled'
                ? {
                    word: s.word,
                    validation: s.validation,
                    perRequestUs: s.fit.perRequestUs,
                    perResourceUs: s.fit.perResourceUs,
                    blocks: s.fit.blocks.map(({ block, a, b, lo, hi }) => ({ block, a, b, lo, hi })),
                    rangeR: s.fit.rangeR,
                  }
                : { word: s.word, notModelled: s.notModelled },
            ]),
          ),
        },
      ]),
    ),
  };
}

// The fits `ctxbench app --predict` applies, from the model studies' runs (the first run
// that has a runtime wins: list the Node 24 study first): Map(runtime -> exportFit entry
// with its source).
function fitsByRuntime(runs) {
  const out = new Map();
  for (const { run, file } of runs) {
    const model = analyzeModel(run);
    if (!model) continue;
    // A study resumed is its last sitting's code and date as well: name that one.
    const last = run.resumes?.at(-1);
    const exported = exportFit(model, {
      file,
      commit: last?.commit ?? run.environment?.commit ?? null,
      date: last?.at ?? run.environment?.date ?? null,
    });
    for (const [runtime, fit] of Object.entries(exported.runtimes))
      if (!out.has(runtime)) out.set(runtime, { ...fit, source: exported.source });
  }
  return out;
}

// An APM agent's cost follows the spans a request makes, which no async resource count
// says: the model's server makes none beyond its request's own (2 Sentry spans a
// request, as the sink counted them), so a service whose requests query a database or
// call out pays a span's cost per call more (measured on examples/orders: docs/model.md,
// "What the studies found").
const isAgent = (strategy) => Boolean(strategies.names.includes(strategy) && strategies.info(strategy).agent);
// What every prediction is a share of: the model's lines are fitted from duet windows, both
// servers saturated. At a fixed load below it a strategy's CPU per request is not the
// saturated one (the method check, measured: scripts/method-check.sh), so the prediction
// says which it is.
const AT_SATURATION =
  "each a share at saturation (the duet's measure): at a fixed load below it some strategies cost a request " +
  'more CPU than this and some less (docs/model.md, "The method check")';
const AGENT_CAVEAT =
  'fitted on requests that make no database, cache or HTTP client call: the agent spans each such call, which ' +
  'the model does not count, so a service that makes them pays more than this';

// Each block's line in the µs of the model's reference level: a block measured on a CPU
// faster than the study's mean (a sitting on another machine) has its line scaled by the
// reference level's mean over that block's own. The service's CPU per request is put on the
// mean's scale, so a line from the fast blocks alone (the small services' range, measured
// only in later sittings) would otherwise read as a cheaper cost. Lines without their
// block or a fit without per-block levels (older fits) stay as they are.
function onReferenceScale(terms, reference) {
  const mean = reference?.cpuUsPerRequest?.estimate;
  const byBlock = reference?.byBlock;
  if (!positive(mean) || !byBlock) return terms;
  const blocks = terms.blocks.map((l) => {
    const level = byBlock[l.block];
    return positive(level) ? { ...l, a: (l.a * mean) / level, b: (l.b * mean) / level } : l;
  });
  return { ...terms, blocks };
}

// A team's service predicted (item 3): its CPU per request put on the model run's scale
// through the reference server measured beside it in duet (referenceConfig: the reference's
// windows against the service as partner; cost = reference ÷ service per block), then each
// strategy's terms at the service's R. -> { baselineUs, rows: [{ strategy, estimate, ci95,
// extraUs }] } or { error } when the runtime has no reference level.
function predictService(fit, R, referenceConfig) {
  const ref = fit.reference?.cpuUsPerRequest;
  if (!ref || !positive(ref.estimate)) return { error: 'the model has no reference level for this runtime' };
  const perBlock = [...blockFigures(referenceConfig).values()].map((x) => ref.estimate / x.cost);
  const level = overBlocks(perBlock);
  if (!positive(level.estimate)) return { error: 'no window of the service beside the reference server counted' };
  // The reference level's own uncertainty, relative, added to the service's.
  const rel = ref.se ? ref.se / ref.estimate : 0;
  const se = level.se === null ? null : Math.sqrt(level.se ** 2 + (level.estimate * rel) ** 2);
  const df = level.df === null ? ref.df : Math.min(level.df, ref.df ?? level.df);
  const half = se !== null && df ? tCritical(df) * se : null;
  const baselineUs = { ...level, se, df, ci95: half === null ? null : [level.estimate - half, level.estimate + half] };
  const rows = Object.entries(fit.strategies).map(([strategy, terms]) => {
    const measureIt = `measure it with \`ctxbench app --candidate ${strategy}\``;
    // A fit written before the words (issue 61) has none: its rows say nothing of validation.
    const word = terms.word ?? (terms.notModelled ? 'not modelled' : null);
    const said = { word, ...(terms.validation && { validation: terms.validation }) };
    if (terms.notModelled || !terms.blocks)
      return {
        strategy,
        ...said,
        estimate: null,
        ci95: null,
        extraUs: null,
        notModelled: true,
        why: `not modelled: ${terms.notModelled ?? 'no terms'}; ${measureIt}`,
      };
    // Outside the resource counts the terms were fitted on, the line was never tested:
    // refused with the reason, never printed as a figure.
    if (Array.isArray(terms.rangeR) && (R < terms.rangeR[0] || R > terms.rangeR[1])) {
      return {
        strategy,
        ...said,
        estimate: null,
        ci95: null,
        extraUs: null,
        outside: true,
        rangeR: terms.rangeR,
        why:
          `outside the fitted range: ${R.toFixed(1)} async resources per request, the terms were fitted on ` +
          `${terms.rangeR.map((x) => x.toFixed(0)).join('–')}; ${measureIt}`,
      };
    }
    const p = predictRatio(onReferenceScale(terms, fit.reference), R, baselineUs);
    return {
      strategy,
      ...said,
      estimate: p.estimate,
      ci95: p.ci95,
      df: p.df ?? null,
      extraUs: p.extraUs.estimate,
      ...(p.why && { why: p.why }),
      ...(isAgent(strategy) && p.estimate !== null && { caveat: AGENT_CAVEAT }),
    };
  });
  return { baselineUs, rows };
}

// The same two terms in instructions (deterministic, beside the CPU terms): from an
// instruction-count run (the instructions preset) at two depths of one hop, each strategy's
// instructions per request over `none`'s, through the model run's resource counts at those
// points. Two points make the line exact: it cannot show a bend, and what instructions miss
// (cache and memory stalls) is not in it. -> { runtime, points: [{ depth, hop, R }], rows:
// [{ strategy, perRequest, perResource }] } or null.
function instructionTerms(instructionRun, run) {
  const R = resourcesByPoint(run);
  const configs = (instructionRun?.configs || []).filter((c) => !c.arm || c.arm === c.strategy);
  const level = (c) => instructionLevel(c.samples || [])?.median ?? null;
  const noneAt = new Map(configs.filter((c) => c.strategy === 'none').map((c) => [pointKey(c), level(c)]));
  const points = [...noneAt.keys()].filter((k) => R.has(k) && Number.isFinite(noneAt.get(k)));
  if (points.length < 2) return null;
  const byStrategy = new Map();
  for (const c of configs) {
    if (c.strategy === 'none' || !points.includes(pointKey(c)) || !Number.isFinite(level(c))) continue;
    if (!byStrategy.has(c.strategy)) byStrategy.set(c.strategy, []);
    byStrategy.get(c.strategy).push([R.get(pointKey(c)), level(c) - noneAt.get(pointKey(c))]);
  }
  const rows = [...byStrategy]
    .filter(([, xy]) => new Set(xy.map(([r]) => r)).size >= 2)
    .map(([strategy, xy]) => {
      const { m, b } = linearRegression(xy);
      return { strategy, perRequest: b, perResource: m, points: xy.length };
    });
  const sample = configs.find((c) => points.includes(pointKey(c)));
  return {
    runtime: sample?.nodeLabel ?? null,
    points: points.map((k) => {
      const [framework, depth, hop] = k.split('/');
      return { framework, depth: Number(depth), hop, R: R.get(k) };
    }),
    rows,
  };
}

module.exports = {
  methodCheck,
  blocksToDecide,
  BLOCKS_TO_DECIDE_CAP,
  AT_SATURATION,
  methodAgreement,
  analyzeModel,
  instructionTerms,
  fitsByRuntime,
  predictService,
  tally,
  wordTally,
  aaHalfWidth,
  marginFor,
  CLAIM_MIN_POINTS,
  CLAIM_SHARE_WITHIN,
  WORDS,
  upgradeTable,
  exportFit,
  predictRatio,
  judgePrediction,
  judgeAgainst,
  fitLine,
  nonNegativeLine,
  blockFigures,
  gapOverBlocks,
  marginPpFor,
  verdictOf,
  pointKey,
  pointName,
  isAaTwin,
  overBlocks,
  REFERENCE,
  RIGHT_PP,
  JUDGEABLE_PP,
  MARGIN_FLOOR_PP,
  MARGIN_SHARE,
};
