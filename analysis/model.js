'use strict';
// The cost model (issue 38): what a strategy adds to the CPU one request costs, written as
//
//   extra µs per request = perRequest + perResource × R
//
// where R is the number of async resources one request of the service creates (counted in a
// probe process of the `none` server, bench/probes/probe-run.js, never in a measured one). The
// first term is entering the context, the second propagating it. Fitted per strategy and
// runtime from the duet windows of the configurations whose role is 'fit' (lib/presets.js);
// the 'held-out' ones are predicted from the fit and judged against their measurement.
//
// This file is the entry: analyzeModel and the names the rest of the tree requires from here.
// The fit is analysis/model-fit.js, the judgement of held-out points analysis/model-judge.js
// (with the method check, analysis/model-method.js), the prediction analysis/model-predict.js.
const { summaryOf } = require('./summary');
const { armOf } = require('./comparable');
const fit = require('./model-fit');
const judge = require('./model-judge');
const method = require('./model-method');
const predict = require('./model-predict');
const { REFERENCE, pointKey, overBlocks, blockFigures, resourcesByPoint, fitLine, predictRatio } = fit;
const { levelsByBlock, baselineLevel } = fit;
const { RIGHT_PP, JUDGEABLE_PP, isAaTwin, aaHalfWidth, marginFor, judgePrediction, gapOverBlocks } = judge;
const { verdictOf, wordOf } = judge;
const { exportFit } = predict;

function mostCommon(xs) {
  const counts = new Map();
  for (const x of xs) counts.set(x, (counts.get(x) || 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}

// Why a point has too few windows to measure, in the duet's own words.
function droppedOf(config) {
  const windows = (config.samples || []).filter((w) => w && w.kind === 'window');
  const reasons = windows
    .filter((w) => !w.counted && w.dropped)
    .map((w) => String(w.dropped).replace(/ \(\d+% used\)$/, ''));
  return reasons.length ? { windows: reasons.length, of: windows.length, reason: mostCommon(reasons) } : null;
}

// For a fitted point: how far the line is from it, per block, over blocks.
function residualOf(r, fit) {
  return fit && r.config.role === 'fit'
    ? overBlocks(
        fit.blocks
          .filter((l) => r.figures.has(l.block))
          .map((l) => r.figures.get(l.block).extraUs - (l.a + l.b * r.R)),
      )
    : null;
}

// One point of a strategy (r: its config, R, block figures, measured ratio and baseline
// level): what the line predicts there, and that prediction judged against its measurement.
function pointModel(r, fit, aaConfig) {
  const predicted = fit && Number.isFinite(r.R) ? predictRatio(fit, r.R, r.c0) : null;
  const measured =
    r.measured && Number.isFinite(r.measured.estimate)
      ? { estimate: r.measured.estimate, ci95: r.measured.ci95, blocks: r.measured.blocks }
      : null;
  const residualUs = residualOf(r, fit);
  const judgement = judgePrediction(predicted, measured);
  const aa = aaHalfWidth(aaConfig, new Set(r.figures.keys()));
  const margin = marginFor(predicted?.estimate, aa?.halfWidthPp);
  const gapPp = fit && Number.isFinite(r.R) ? gapOverBlocks(fit, r.R, r.figures, margin.marginPp) : null;
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
    dropped: droppedOf(r.config),
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
}

// The line through a strategy's 'fit' points, or null and why there is none, a code
// (report/words.js fitWhyText): { code: 'unfitted-points', count } (fitted points without a
// probe count or a measured window) or { code: 'too-few-points' } (fewer than two with
// different resource counts).
function fitOf(rows) {
  // A fitted point that joined on a resume and has no counted window yet is not in the
  // fit yet (the run goes on); one of the study's first design without one stops it.
  const fitRows = rows.filter((r) => r.config.role === 'fit' && !(r.from > 0 && !r.figures.size));
  const usable = fitRows.filter((r) => Number.isFinite(r.R) && r.figures.size);
  const fit = usable.length === fitRows.length ? fitLine(usable) : null;
  const why = fit
    ? null
    : fitRows.length > usable.length
      ? { code: 'unfitted-points', count: fitRows.length - usable.length }
      : { code: 'too-few-points' };
  return { fit, why };
}

// One strategy on one runtime (at: the runtime's configs and levels, from runtimeModel): its
// points, the line through its fitted ones, each point judged, and the word they earn it.
function strategyModel(strategy, { run, baseline, R, others, atPoint, aaConfig }) {
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
  const { fit, why } = fitOf(rows);
  const points = rows.map((r) => pointModel(r, fit, aaConfig));
  const { word, validation, notModelled } = wordOf(fit, why, points);
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
}

// One runtime of the run: its reference level, its A/A point and each strategy's model.
function runtimeModel(run, configs, { baseline, R, runtime }) {
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
  const at = { run, baseline, R, others, atPoint, aaConfig };
  const strategies = [...new Set(others.map(armOf))].map((strategy) => strategyModel(strategy, at));
  return {
    runtime,
    node: mine[0].node,
    acf: mine[0].acf ?? mine[0].expectAcf ?? null,
    reference,
    // The A/A point at the reference configuration over all its blocks, or null: not measured.
    aa: aaHalfWidth(aaConfig),
    strategies,
  };
}

// analyzeModel(run) -> null for a run without roles, else
//   { rightPp, judgeablePp, runtimes: [{ runtime, node, acf, reference, strategies: [{ strategy,
//     control, fit: { perRequestUs, perResourceUs } | null, why, points: [{ id, role, depth, hop,
//     stores, R, measured, predicted, judgement, residualUs }] }] }], missingProbes: [pointKey] }
function analyzeModel(run) {
  const configs = (run.configs || []).filter((c) => c && c.role);
  if (!configs.length) return null;
  const baseline = run.settings?.baseline;
  const R = resourcesByPoint(run);
  const missingProbes = [...new Set(configs.map(pointKey))].filter((k) => !R.has(k));
  const runtimes = [...new Set(configs.map((c) => c.nodeLabel ?? c.node))].map((runtime) =>
    runtimeModel(run, configs, { baseline, R, runtime }),
  );
  return { rightPp: RIGHT_PP, judgeablePp: JUDGEABLE_PP, runtimes, missingProbes };
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

// Every name the tree requires from the cost model, wherever it now lives: callers keep this path.
module.exports = { ...fit, ...judge, ...method, ...predict, analyzeModel, fitsByRuntime };
