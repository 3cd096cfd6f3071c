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
// points (least squares) gives that block's two terms; the estimate is their mean over the
// blocks and the interval a t-interval over blocks (df = blocks - 1).
const { linearRegression } = require('simple-statistics');
const { mean, positive, tCritical, variance } = require('./stats');
const { summaryOf, instructionLevel } = require('./summary');
const { armOf } = require('./comparable');
const { tost } = require('./verdict');

// A prediction is right when it lies within RIGHT_PP percentage points of the measurement
// and that measurement's 95% half-width is at most JUDGEABLE_PP.
const RIGHT_PP = 1;
const JUDGEABLE_PP = 2;
// Where `none`'s CPU per request is read as the run's reference level (the scale a team's
// service is put on by `ctxbench app --predict`): the first fitted point.
const REFERENCE = { framework: 'express', depth: 8, hop: 'immediate', stores: 0 };

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
    if (!w || w.kind !== 'window' || !w.counted || !positive(w.cpuUsPerRequest) || !positive(w.partnerCpuUsPerRequest)) continue;
    if (!byBlock.has(w.block)) byBlock.set(w.block, []);
    byBlock.get(w.block).push(w);
  }
  return new Map([...byBlock].map(([block, ws]) => {
    const c0 = Math.exp(mean(ws.map((w) => Math.log(w.partnerCpuUsPerRequest))));
    const cost = Math.exp(mean(ws.map((w) => Math.log(w.cpuUsPerRequest) - Math.log(w.partnerCpuUsPerRequest))));
    return [block, { c0, cost, extraUs: c0 * (cost - 1) }];
  }));
}

// The probe counts of a run by point: Map(pointKey -> resources per request).
function resourcesByPoint(run) {
  return new Map((run.probes || []).filter((p) => positive(p.perRequest?.total)).map((p) => [pointKey(p), p.perRequest.total]));
}

// points: [{ R, figures: Map(block -> { extraUs }) }] -> per block the least-squares line
// through the points -> { perRequestUs, perResourceUs, blocks: [{ block, a, b }] }; null
// with fewer than two distinct R.
function fitLine(points) {
  if (new Set(points.map((p) => p.R)).size < 2) return null;
  const blocks = [...points[0].figures.keys()].filter((b) => points.every((p) => p.figures.has(b))).sort((x, y) => x - y);
  const lines = blocks.map((block) => {
    const { m, b } = linearRegression(points.map((p) => [p.R, p.figures.get(block).extraUs]));
    return { block, a: b, b: m };
  });
  const Rs = points.map((p) => p.R);
  return { perRequestUs: overBlocks(lines.map((l) => l.a)), perResourceUs: overBlocks(lines.map((l) => l.b)), blocks: lines, rangeR: [Math.min(...Rs), Math.max(...Rs)] };
}

// The % of `none`'s throughput on one CPU the fitted terms predict for a service whose
// request costs `baselineUs` (mean, se, df) and creates R async resources:
// none's CPU ÷ (none's + a + b·R). Uncertainty of the terms (the fit's blocks) and of the
// baseline combined to first order; df the smaller of the two.
// -> { estimate, ci95, extraUs } (ratios as fractions).
function predictRatio(fit, R, baselineUs) {
  const perBlock = fit.blocks.map((l) => l.a + l.b * R);
  const extra = overBlocks(perBlock);
  const D = baselineUs.estimate;
  if (!Number.isFinite(extra.estimate) || !positive(D)) return { estimate: null, ci95: null, extraUs: extra };
  const f = extra.estimate / D;
  // A line that, extrapolated, takes off more than half the baseline's CPU says nothing
  // about this service: no prediction rather than a throughput of double or worse.
  if (f <= -0.5) return { estimate: null, ci95: null, extraUs: extra, why: 'the line, extrapolated to this many async resources, takes off more than half the CPU a request costs' };
  const estimate = 1 / (1 + f);
  if (extra.se === null) return { estimate, ci95: null, extraUs: extra };
  const seD = baselineUs.se ?? 0;
  const seF = Math.sqrt((extra.se / D) ** 2 + ((extra.estimate * seD) / (D * D)) ** 2);
  const df = Math.min(extra.df, baselineUs.df ?? extra.df);
  const half = tCritical(df) * seF;
  // An extra cost below minus half the baseline's would double the throughput: where the
  // interval reaches that far, its upper end is left open (null) rather than printed as
  // hundreds of percent.
  const lo = f + half;
  const hi = f - half;
  return { estimate, ci95: [1 / (1 + lo), hi <= -0.5 ? null : 1 / (1 + hi)], extraUs: extra };
}

// Right, a miss, or not judged (the measurement is wider than JUDGEABLE_PP).
function judgePrediction(predicted, measured) {
  if (!measured || !Number.isFinite(measured.estimate) || !measured.ci95) return { outcome: 'not measured', gapPp: null };
  if (!Number.isFinite(predicted?.estimate)) return { outcome: 'no prediction', gapPp: null };
  const gapPp = (predicted.estimate - measured.estimate) * 100;
  const half = ((measured.ci95[1] - measured.ci95[0]) / 2) * 100;
  // Whether the measurement lies inside the prediction's own interval: a miss inside it is
  // one the model's uncertainty allowed for, one outside it is the model's shape.
  const inside = predicted.ci95 ? measured.estimate >= predicted.ci95[0] && measured.estimate <= predicted.ci95[1] : null;
  if (half > JUDGEABLE_PP) return { outcome: 'too wide to judge', gapPp, halfWidthPp: half, inside };
  return { outcome: Math.abs(gapPp) <= RIGHT_PP ? 'right' : 'miss', gapPp, halfWidthPp: half, inside };
}

// The prediction's gap to the measurement, paired by block (pp, predicted − measured):
// per block, that block's line predicts the point from that block's `none` level and is set
// against that block's ratio; mean over blocks with its t-interval, as every figure of the
// fit. Judged by two one-sided tests at 5% against ±RIGHT_PP: "equivalent" (the 90%
// interval of the gap inside ±1 pp: the prediction is right, as far as the blocks can
// tell), "beyond" (wholly outside: the line is wrong there), "cannot tell". Unlike the rule
// of judgePrediction, which sets two point estimates side by side, this weighs the noise of
// both. -> overBlocks(...) + { agreement } | null
function gapOverBlocks(fit, R, figures) {
  const values = fit.blocks.filter((l) => figures.has(l.block)).map((l) => {
    const { c0, cost } = figures.get(l.block);
    const predictedUs = c0 + l.a + l.b * R;
    return predictedUs > 0 ? (c0 / predictedUs - 1 / cost) * 100 : NaN;
  });
  const gap = overBlocks(values);
  if (gap.se === null) return gap.estimate === null ? null : { ...gap, agreement: null };
  const { outcome, interval } = tost({ center: gap.estimate, se: gap.se, df: gap.df }, [-RIGHT_PP, RIGHT_PP]);
  return { ...gap, agreement: { outcome, ci90: interval, marginPp: RIGHT_PP } };
}

// The baseline's CPU per request at a point, over blocks: the partner's level in the
// windows of any configuration measured against it there (they share the baseline process).
function baselineLevel(configsAtPoint) {
  const byBlock = new Map();
  for (const c of configsAtPoint) {
    for (const [block, fig] of blockFigures(c)) {
      if (!byBlock.has(block)) byBlock.set(block, []);
      byBlock.get(block).push(Math.log(fig.c0));
    }
  }
  const levels = [...byBlock.values()].map((xs) => Math.exp(mean(xs)));
  return overBlocks(levels);
}

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
    const others = mine.filter((c) => armOf(c) !== baseline);
    const atPoint = (c) => others.filter((o) => pointKey(o) === pointKey(c));
    const refConfig = mine.find((c) => pointKey(c) === pointKey({ ...REFERENCE, nodeLabel: runtime }));
    const reference = refConfig ? { point: `${REFERENCE.framework} DEPTH=${REFERENCE.depth} HOP=${REFERENCE.hop}`, cpuUsPerRequest: baselineLevel(atPoint(refConfig)) } : null;
    const strategies = [...new Set(others.map(armOf))].map((strategy) => {
      const rows = others.filter((c) => armOf(c) === strategy).map((c) => ({
        config: c,
        R: R.get(pointKey(c)) ?? null,
        figures: blockFigures(c),
        measured: summaryOf(c, run.configs, baseline).ratio,
        c0: baselineLevel(atPoint(c)),
      }));
      const fitRows = rows.filter((r) => r.config.role === 'fit');
      const usable = fitRows.filter((r) => Number.isFinite(r.R) && r.figures.size);
      const fit = usable.length === fitRows.length ? fitLine(usable) : null;
      const why = fit ? null : fitRows.length > usable.length ? `${fitRows.length - usable.length} fitted point(s) without a probe count or a measured window` : 'fewer than two fitted points with different resource counts';
      const points = rows.map((r) => {
        const predicted = fit && Number.isFinite(r.R) ? predictRatio(fit, r.R, r.c0) : null;
        const measured = r.measured && Number.isFinite(r.measured.estimate) ? { estimate: r.measured.estimate, ci95: r.measured.ci95, blocks: r.measured.blocks } : null;
        // For a fitted point: how far the line is from it, per block, over blocks.
        const residualUs = fit && r.config.role === 'fit' ? overBlocks(fit.blocks.filter((l) => r.figures.has(l.block)).map((l) => r.figures.get(l.block).extraUs - (l.a + l.b * r.R))) : null;
        const judgement = judgePrediction(predicted, measured);
        const gapPp = fit && Number.isFinite(r.R) ? gapOverBlocks(fit, r.R, r.figures) : null;
        // Why a point has too few windows to measure, in the duet's own words.
        const windows = (r.config.samples || []).filter((w) => w && w.kind === 'window');
        const reasons = windows.filter((w) => !w.counted && w.dropped).map((w) => String(w.dropped).replace(/ \(\d+% used\)$/, ''));
        const dropped = reasons.length ? { windows: reasons.length, of: windows.length, reason: mostCommon(reasons) } : null;
        return {
          id: r.config.id,
          role: r.config.role,
          depth: r.config.depth,
          hop: r.config.hop,
          stores: r.config.stores ?? 0,
          R: r.R,
          baselineUs: r.c0,
          extraUs: overBlocks([...r.figures.values()].map((x) => x.extraUs)),
          measured,
          predicted: predicted && { estimate: predicted.estimate, ci95: predicted.ci95 },
          judgement,
          gapPp,
          dropped,
          residualUs,
          // The line misses a fitted point when its residual's interval leaves out zero and
          // the line's figure there is further from the measurement than a right prediction
          // may be (a bias of a few ns, real but harmless, is not a miss).
          offLine: Boolean(residualUs?.ci95 && (residualUs.ci95[0] > 0 || residualUs.ci95[1] < 0) && Math.abs(judgement.gapPp ?? 0) > RIGHT_PP),
        };
      });
      return { strategy, control: Boolean(rows[0]?.config.control), fit: fit && { perRequestUs: fit.perRequestUs, perResourceUs: fit.perResourceUs, blocks: fit.blocks, rangeR: fit.rangeR }, why, points };
    });
    return { runtime, node: mine[0].node, acf: mine[0].acf ?? mine[0].expectAcf ?? null, reference, strategies };
  });
  return { rightPp: RIGHT_PP, judgeablePp: JUDGEABLE_PP, runtimes, missingProbes };
}

// The held-out tally of one strategy (or of all): { right, miss, wide, other, total } by
// the rule, and { equivalent, beyond, cannotTell } by the gap over blocks.
function tally(points) {
  const held = points.filter((p) => p.role === 'held-out');
  const count = (o) => held.filter((p) => p.judgement.outcome === o).length;
  const right = count('right');
  const miss = count('miss');
  const wide = count('too wide to judge');
  const agree = (o) => held.filter((p) => p.gapPp?.agreement?.outcome === o).length;
  return { right, miss, wide, other: held.length - right - miss - wide, total: held.length, blocks: { equivalent: agree('equivalent'), beyond: agree('beyond'), cannotTell: agree('cannot tell') } };
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
        return { runtime: rt.runtime, node: rt.node, acf: rt.acf, fit, change: rt === base ? null : { perRequestUs: paired('a'), perResourceUs: paired('b') } };
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
    runtimes: Object.fromEntries(model.runtimes.map((rt) => [rt.runtime, {
      node: rt.node,
      acf: rt.acf,
      reference: rt.reference,
      strategies: Object.fromEntries(rt.strategies.filter((s) => s.fit).map((s) => [s.strategy, {
        perRequestUs: s.fit.perRequestUs,
        perResourceUs: s.fit.perResourceUs,
        blocks: s.fit.blocks.map(({ a, b }) => ({ a, b })),
        rangeR: s.fit.rangeR,
      }])),
    }])),
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
    const exported = exportFit(model, { file, commit: run.environment?.commit ?? null, date: run.environment?.date ?? null });
    for (const [runtime, fit] of Object.entries(exported.runtimes)) if (!out.has(runtime)) out.set(runtime, { ...fit, source: exported.source });
  }
  return out;
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
    const p = predictRatio(terms, R, baselineUs);
    // Outside the resource counts the terms were fitted on, the line is extrapolated.
    const extrapolated = Array.isArray(terms.rangeR) && (R < terms.rangeR[0] || R > terms.rangeR[1]);
    return { strategy, estimate: p.estimate, ci95: p.ci95, extraUs: p.extraUs.estimate, ...(p.why && { why: p.why }), ...(extrapolated && { extrapolated: true, rangeR: terms.rangeR }) };
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
  const rows = [...byStrategy].filter(([, xy]) => new Set(xy.map(([r]) => r)).size >= 2).map(([strategy, xy]) => {
    const { m, b } = linearRegression(xy);
    return { strategy, perRequest: b, perResource: m, points: xy.length };
  });
  const sample = configs.find((c) => points.includes(pointKey(c)));
  return { runtime: sample?.nodeLabel ?? null, points: points.map((k) => { const [framework, depth, hop] = k.split('/'); return { framework, depth: Number(depth), hop, R: R.get(k) }; }), rows };
}

module.exports = { analyzeModel, instructionTerms, fitsByRuntime, predictService, tally, upgradeTable, exportFit, predictRatio, judgePrediction, fitLine, blockFigures, gapOverBlocks, pointKey, overBlocks, REFERENCE, RIGHT_PP, JUDGEABLE_PP };
