'use strict';
// The cost model's fit (analysis/model.js): the points, the per-block lines through them and
// what a line predicts.
//
// The unit is the block, as for every ratio of a run: per block (one pair of fresh
// processes per configuration), a fit point's extra µs is `none`'s CPU per request times
// the CPU ratio minus one, from that block's windows; a straight line through the block's
// points (least squares, both terms held to costs: never below zero) gives that block's two terms; the estimate is
// their mean over the blocks and the interval a t-interval over blocks (df = blocks - 1).
const { linearRegression } = require('simple-statistics');
const { mean, positive, tCritical, variance } = require('./stats');
const { instructionLevel } = require('./summary');

// Where `none`'s CPU per request is read as the run's reference level (the scale a team's
// service is put on by `ctxbench app --predict`): the first fitted point.
const REFERENCE = { framework: 'express', depth: 8, hop: 'immediate', stores: 0 };

// A point as its environment sets it, for a reader: DEPTH=64 HOP=immediate STORES=10.
const pointName = (p) => `DEPTH=${p.depth} HOP=${p.hop}${p.stores ? ` STORES=${p.stores}` : ''}`;

// The point a configuration measures, without its strategy: what a probe counts.
const pointKey = (c) => [c.framework, c.depth, c.hop, c.stores ?? 0, c.nodeLabel ?? c.node ?? ''].join('/');

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
// resume (from: its first block, bench/run/resume.js) is in the lines of the blocks from then
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
      // The terms take CPU off a request (a fit from before terms were constrained to costs).
      why: { code: 'negative-terms' },
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
  REFERENCE,
  pointName,
  pointKey,
  overBlocks,
  blockFigures,
  resourcesByPoint,
  nonNegativeLine,
  fitLine,
  linesAt,
  predictRatio,
  levelsByBlock,
  baselineLevel,
  upgradeTable,
  instructionTerms,
};
