'use strict';
// The cells of the headline's rows (analysis/strategy-summary.js): each a figure of one study
// (its ratio and interval, its judgement, its source), and a strategy's row of them.
const path = require('node:path');
const summaries = require('./summary');
const { summaryOf } = require('./summary');
const { latencySummaries } = require('./latency');
const { isPairConfig, pairLatencySummary } = require('./pair');
const { operatingPoints } = require('./operating-point');
const { equivalence: equivalenceOf } = require('./verdict');
const { DEFAULTS } = require('../lib/presets');
const { strategyInfo: info } = require('./registry');
const { idsOf } = require('./strategy-ids');
const { reproOf, holdOf, ADDED_P99_ROWS } = require('./strategy-held');

// A run's cell for one strategy: its ratio against the run's baseline, with the settings
// that make it comparable (or not) with another study's cell.
function ratioCell(source, config, configs) {
  const run = source.run;
  const baseline = run.settings?.baseline ?? null;
  const s = summaryOf(config, configs, baseline);
  const r = s.ratio;
  // In a pair, a strategy that fell behind the rate its baseline kept (in any block: the
  // windows it kept elsewhere are the ones it caught up in, not the rate) has that as its
  // answer, said as such rather than a ratio or an empty cell.
  const held = isPairConfig(config) ? pairLatencySummary(config) : null;
  if (held && held.candidateHeld === false && held.baselineHeld) {
    const cannotServe = { load: config.load ?? null, rate: config.rate ?? null, baseline };
    const settings = { depth: config.depth ?? null, hop: config.hop ?? null, baseline };
    const from = { name: source.name, file: source.file, id: config.id };
    return { kind: 'ratio', estimate: null, interval: null, cannotServe, significant: false, source: from, settings };
  }
  if (!r || !Number.isFinite(r.estimate)) return null;
  const counted = r.quantity === 'instructions';
  const interval = counted ? (r.range ?? null) : (r.ci95 ?? null);
  const judgement = summaries.judgementOf(r, { broken: s.broken });
  const significant = Boolean(judgement?.significant);
  // Equivalence at the run's margin (two one-sided tests; a count has no interval for it).
  const equivalence = counted || s.broken ? null : equivalenceOf(r, run.settings?.margin ?? DEFAULTS.margin);
  return {
    kind: 'ratio',
    estimate: r.estimate,
    interval,
    intervalKind: counted ? 'window range' : '95% CI',
    judgement,
    significant,
    equivalence,
    blocks: r.blocks ?? s.blocks ?? null,
    broken: Boolean(s.broken),
    mismatches: s.mismatches ?? 0,
    lost: s.lost ?? 0,
    source: { name: source.name, file: source.file, id: config.id },
    settings: {
      depth: config.depth ?? null,
      hop: config.hop ?? null,
      method: run.settings?.method,
      quantity: r.quantity ?? 'throughput',
      baseline,
      stores: config.stores ?? 0,
      node: config.node ?? null,
      acf: config.acf ?? null,
      connections: run.settings?.connections ?? null,
      // The rate a pair sent (as a share of its baseline's capacity and in req/s), if any.
      load: config.load ?? null,
      rate: config.rate ?? null,
    },
  };
}

function findConfig(run, strategy, pred) {
  return (run.configs || []).find((c) => c && c.strategy === strategy && c.arm !== 'aa' && !c.error && pred(c)) || null;
}

// A strategy on the stand-in at the autoscaler's operating point (analysis/operating-point.js),
// at one depth: its throughput per instance as % of the baseline's, with the p99 each side's
// users see there. A capacity within the SLO is not a headline figure (issue 60): on an F1 a
// throttled period stalls a server inside the bound, and its A/A twin read ±60–170 pp.
function operatingCell(source, strategy, depth) {
  const hit = operatingPoints(source.run).find(
    (r) => r.config.strategy === strategy && r.config.depth === depth && r.config.arm !== 'aa',
  );
  if (!hit || !Number.isFinite(hit.op.ratio.estimate)) return null;
  const { op, config } = hit;
  const s = source.run.settings;
  return {
    kind: 'ratio',
    estimate: op.ratio.estimate,
    interval: op.ratio.ci95 ?? null,
    intervalKind: '95% CI',
    significant: Boolean(op.ratio.ci95 && (op.ratio.ci95[1] < 1 || op.ratio.ci95[0] > 1)),
    blocks: op.ratio.blocks,
    ownRate: op.ownBlocks > 0,
    // Its block ratios followed the baseline's cost there (the machine's state): its interval
    // holds for this run's mix of states (analysis/operating-point.js baseOf).
    movesWithBase: Boolean(op.base?.dependence?.moves),
    p99: op.tails
      ? {
          candidate: op.tails.candidate.p99,
          candidateCi: op.tails.candidate.ci95.p99,
          baseline: op.tails.baseline.p99,
          baselineCi: op.tails.baseline.ci95.p99,
        }
      : null,
    instances: op.instances,
    source: { name: source.name, file: source.file, id: config.id },
    settings: { depth, instance: s.instance?.name ?? null, targetCpu: s.targetCpu, periodUs: s.instance?.periodUs },
  };
}

function latencyCell(source, strategy, depth, load) {
  const rows = latencySummaries(source.run);
  const hit = rows.find((r) => r.config.strategy === strategy && r.config.depth === depth && r.config.load === load);
  if (!hit) return null;
  const a = hit.s?.added?.p99;
  const base = {
    kind: 'ms',
    source: { name: source.name, file: source.file, id: hit.config.id },
    settings: {
      depth,
      load,
      hop: hit.config.hop,
      baseline: source.run.settings?.baseline ?? null,
      rate: hit.config.rate ?? null,
    },
  };
  // A rate not held (by this configuration or its baseline) has no latency to report: the
  // cell says so instead of showing a figure from a queue that grew without bound. In a
  // pair, a candidate that could not keep a rate its baseline kept is itself the answer.
  // A pair's added p99 from a single block that passed the generator's rule has no
  // interval: the headline gives no bare figure for it, but how few blocks there were.
  const single = hit.s?.method === 'pair' && a && Number.isFinite(a.estimate) && !a.ci95;
  if (!a || !Number.isFinite(a.estimate) || single) {
    // Held, but every block's generator was late past the rule: its lateness, not a figure.
    const generatorBound = Boolean(a && a.n === 0 && hit.s?.generator);
    return {
      ...base,
      estimate: null,
      interval: null,
      significant: false,
      rateHeld: hit.s?.held ? hit.s.held.held : null,
      candidateHeld: hit.s?.candidateHeld ?? null,
      baselineHeld: hit.s?.baselineHeld ?? null,
      broken: Boolean(hit.s?.broken),
      generatorBound,
      latenessP99: generatorBound ? hit.s.generator.latenessP99 : null,
      ...(single && { fewBlocks: { n: a.n, of: hit.s.units } }),
      judgement: hit.s?.judgement ?? null,
    };
  }
  return {
    ...base,
    estimate: a.estimate,
    interval: a.ci95 ?? null,
    intervalKind: '95% CI',
    significant: Number.isFinite(a.pValue) && a.pValue < 0.05,
    judgement: hit.s.judgement,
    blocks: a.n ?? null,
  };
}

// The CPU profile (`ctxbench run --profile`) that explains a strategy's cost: its config at
// the deep end, and the package that grew most over its baseline's share of busy time.
// Profile paths in a run file are relative to the run file's folder.
function profileOf(source, strategy, depth) {
  const run = source.run;
  const c = findConfig(run, strategy, (x) => x.depth === depth);
  const p = c && run.profiles?.configs?.[c.id];
  if (!p) return null;
  const grew = p.overBaseline?.packages?.[0] ?? null;
  return {
    file: path.join(path.dirname(source.file), p.file),
    depth,
    id: c.id,
    grew: grew && { name: grew.name, share: grew.share, baselineShare: grew.baselineShare },
    top: p.summary?.packages?.[0]?.name ?? null,
  };
}

// The strategy's ratio cell in a study, at the config `pred` picks (at: the row's context,
// from rowOf). The baseline has none in the default run: it is what the rest is set against.
function cellAt({ strategy, isBase, def }, source, pred) {
  if (!source || (isBase && source === def)) return null;
  const c = findConfig(source.run, strategy, pred);
  return c ? ratioCell(source, c, source.run.configs) : null;
}

// The strategy another study measures everything against reads "baseline" there.
const baselineOr = (strategy, source, cell) =>
  strategy === source.run.settings?.baseline && (source.run.configs || []).some((c) => c.strategy === strategy)
    ? { kind: 'baseline', source: { name: source.name, file: source.file, id: null }, settings: {} }
    : cell();

// A depth column's cell, from the row's own study (the default run's or the popular one's).
function defCell({ strategy, isBase, own, def, configs, baseline }, depth) {
  const c = findConfig(own.run, strategy, (x) => x.depth === depth);
  if (!c) return null;
  if (isBase) {
    const s = summaryOf(c, configs, baseline);
    return {
      kind: 'baseline',
      mismatches: s.mismatches ?? 0,
      lost: s.lost ?? 0,
      source: { name: def.name, file: def.file, id: c.id },
      settings: { depth },
    };
  }
  return ratioCell(own, c, own.run.configs);
}

// The cells of the columns read from other studies than the row's own.
function otherCells(at) {
  const { strategy, sources, ioHop, ioDepth, load, latencySource, latencyDepth, stores, storesNode } = at;
  const { shallowDepth, deepDepth, sweep, sweepBroken } = at;
  return {
    io:
      sources.io && Number.isFinite(ioDepth)
        ? baselineOr(strategy, sources.io, () => cellAt(at, sources.io, (c) => c.hop === ioHop && c.depth === ioDepth))
        : null,
    // The latency column reads the stand-in study where there is one (one latency column).
    latency: latencySource
      ? baselineOr(strategy, latencySource, () => latencyCell(latencySource, strategy, latencyDepth, load))
      : null,
    deploy:
      sources.deployment?.run.settings?.targetCpu && shallowDepth !== null
        ? baselineOr(strategy, sources.deployment, () => operatingCell(sources.deployment, strategy, shallowDepth))
        : null,
    stores: sources.stores
      ? baselineOr(strategy, sources.stores, () =>
          cellAt(at, sources.stores, (c) => c.stores === stores && c.node === storesNode && c.acf !== false),
        )
      : null,
    instructions:
      sources.instructions && shallowDepth !== null
        ? cellAt(at, sources.instructions, (c) => c.depth === shallowDepth)
        : null,
    deepInstructions:
      sources.instructions && deepDepth !== null
        ? cellAt(at, sources.instructions, (c) => c.depth === deepDepth)
        : null,
    // Not a column: the App Engine study's layout at the same depths, read only to say
    // why it and the default run can both hold where they seem to disagree.
    // A sweep cell whose strategy lost its ids there has no cost to compare (HOP=await breaks alscontext).
    sweepShallow:
      sweep && shallowDepth !== null
        ? cellAt(at, sweep, (c) => c.depth === shallowDepth && !c.log && !sweepBroken(c))
        : null,
    sweepDeep:
      sweep && deepDepth !== null ? cellAt(at, sweep, (c) => c.depth === deepDepth && !c.log && !sweepBroken(c)) : null,
  };
}

// One strategy's row of the headline (plan: analysis/strategy-sources.js headlinePlan), a
// cell per column, with the profile that explains its cost and whether its figures held.
function rowOf(strategy, plan) {
  const { sources, def, popular, baseline, fromPopular, shallowDepth, deepDepth } = plan;
  const i = info(strategy);
  const isBase = strategy === baseline;
  // The study this row's depth figures, repro and profile come from.
  const own = fromPopular.includes(strategy) ? popular : def;
  const at = { ...plan, strategy, isBase, own };
  const row = {
    strategy,
    describe: i.describe ?? null,
    label: i.label ?? null,
    control: Boolean(i.control),
    carriesContext: i.carriesContext !== false,
    userSupplied: (own.run.configs || []).some((c) => c.strategy === strategy && c.userSupplied),
    study: own === def ? 'default' : 'popular',
    baseline: isBase,
    ids: idsOf(strategy, sources.integrity),
    shallow: shallowDepth !== null ? defCell(at, shallowDepth) : null,
    deep: deepDepth !== null ? defCell(at, deepDepth) : null,
    ...otherCells(at),
  };
  row.profile = profileOf(own, strategy, deepDepth ?? shallowDepth);
  // Each figure's marks (analysis/strategy-held.js): its second run, its study's precision
  // against the promise (a % figure's), and whether its interval leaves it a number.
  const repros = sources.repro;
  const promisedPp = plan.promisedPp ?? null;
  for (const key of ['shallow', 'deep']) holdOf(row[key], { study: own, repros, promisedPp });
  holdOf(row.io, { study: sources.io, repros, promisedPp });
  holdOf(row.deploy, { study: sources.deployment, repros, promisedPp });
  holdOf(row.latency, { study: plan.latencySource, repros, rowsOf: ADDED_P99_ROWS });
  return row;
}

module.exports = { ratioCell, findConfig, operatingCell, latencyCell, reproOf, profileOf, rowOf };
