'use strict';
// "What each strategy costs": the table that leads results.md, one row per strategy of the
// default run, each cell a figure of one study (its ratio and interval, its judgement, its
// source), and the findings its Reading is written from (report/strategy-summary.js).
const path = require('node:path');
const stats = require('./stats');
const summaries = require('./summary');
const { summaryOf } = require('./summary');
const { latencySummaries } = require('./latency');
const { isPairConfig, pairLatencySummary } = require('./pair');
const { operatingPoints } = require('./operating-point');
const { equivalence: equivalenceOf } = require('./verdict');
const { DEFAULTS } = require('../lib/presets');
const { PROPAGATION, strategyInfo: info } = require('./registry');

// The integrity scenarios that are plain propagation (a call chain, fan-out, an emitter the
// request owns…): a strategy that fails one of these loses the id in everyday code. The
// other scenarios are patterns (pools, batching, workers) that need a remedy for everyone.
const FAILED = new Set(['lost', 'leaked']);

// The settings of two cells compared where they seem to disagree, in the order they are
// named (report/strategy-summary.js says them: "hop immediate → pg").
const SETTINGS = ['hop', 'method', 'quantity', 'baseline', 'stores', 'node', 'acf', 'connections'];

// The headline's figure columns after Strategy and Keeps the id?, in order: the one place a
// column is declared (its cell is computed per row in strategySummary, under the same key;
// its title and note are report/strategy-summary.js COLUMN_TEXT's). unit '%': a share of the
// baseline with an interval, which leaves the headline when wider than WIDEST_PP; page: a
// column that always lives on its study's page, never in the headline.
const FIGURE_COLUMNS = [
  { key: 'shallow', unit: '%' },
  { key: 'deep', unit: '%' },
  { key: 'io', unit: '%' },
  { key: 'latency', unit: 'ms' },
  { key: 'deploy', unit: '%' },
  { key: 'stores', unit: '%', page: true },
];
// A % figure whose 95% interval is wider than this (half its width, in points) says too
// little for a table read in a minute: its column leaves for its study's page.
const WIDEST_PP = 4;

const halfWidthPp = (cell) =>
  Array.isArray(cell?.interval) && cell.intervalKind === '95% CI'
    ? ((cell.interval[1] - cell.interval[0]) / 2) * 100
    : null;

// Each figure column of the headline, judged over the rows' cells: its machine (the one most
// of its cells were measured on; a cell measured on another moves to row.offMachine and reads
// "—"), its widest interval, and whether it stays (shown) or leaves for its study's page.
// machineOf(sourceName) -> "CPU model × cores" | null. Mutates rows (the cells that move).
// -> [{ key, unit, machine, halfWidthPp, shown, leaves: null | { why: 'wide' | 'page', page } }]
function headlineColumns(rows, machineOf, columns = FIGURE_COLUMNS) {
  return columns.map(({ key, unit, page }) => {
    const cells = rows.map((r) => r[key]).filter((c) => c?.source?.name);
    const count = new Map();
    for (const c of cells) {
      c.machine = machineOf(c.source.name);
      if (c.machine) count.set(c.machine, (count.get(c.machine) ?? 0) + 1);
    }
    // The machine most cells were measured on; a tie goes to the earlier row's.
    const machine = [...count].reduce((best, x) => (!best || x[1] > best[1] ? x : best), null)?.[0] ?? null;
    for (const r of rows) {
      const c = r[key];
      if (!c?.machine || !machine || c.machine === machine) continue;
      r.offMachine = { ...r.offMachine, [key]: { machine: c.machine, source: c.source } };
      r[key] = null;
    }
    const widths = rows.map((r) => (unit === '%' ? halfWidthPp(r[key]) : null)).filter(Number.isFinite);
    const widest = widths.length ? Math.max(...widths) : null;
    const pageOf = rows.map((r) => r[key]?.source?.name).find(Boolean) ?? null;
    const leaves = page ? { why: 'page', page: pageOf } : widest > WIDEST_PP ? { why: 'wide', page: pageOf } : null;
    const present = rows.some((r) => r[key]) || rows.some((r) => r.offMachine?.[key]);
    return { key, unit, machine, halfWidthPp: widest, shown: present && !leaves, present, leaves };
  });
}

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
  const significant = Boolean(summaries.judgementOf(r, { broken: s.broken })?.significant);
  // Equivalence at the run's margin (two one-sided tests; a count has no interval for it).
  const equivalence = counted || s.broken ? null : equivalenceOf(r, run.settings?.margin ?? DEFAULTS.margin);
  return {
    kind: 'ratio',
    estimate: r.estimate,
    interval,
    intervalKind: counted ? 'window range' : '95% CI',
    verdict: r.verdict ?? null,
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
      method: run.settings?.method ?? 'sequential',
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

// The machine a run was measured on, as the headline names it.
const machineText = (env) => (env?.cpuModel ? `${env.cpuModel} × ${env.cores ?? '?'}` : null);

function findConfig(run, strategy, pred) {
  return (run.configs || []).find((c) => c && c.strategy === strategy && c.arm !== 'aa' && !c.error && pred(c)) || null;
}

// The studies the summary reads, by preset (the committed files of `ctxbench run --preset X`).
function pickSources(results) {
  const byPreset = (p) => results.find(({ run }) => run.kind === 'run' && run.settings?.preset === p) || null;
  const named = (x) => (x ? { ...x, name: x.name ?? path.basename(x.file, '.json') } : null);
  return {
    default: named(byPreset('default')),
    // The headline's other rows (the popular middlewares and the APM agents): the same
    // measurement as the default run, in a study of its own.
    popular: named(byPreset('popular')),
    // Every integrity study (the full matrix, and narrower ones such as the agents'): each
    // strategy's column reads the widest study that ran it (integritySourceOf).
    integrity: results.filter(({ run }) => run.kind === 'integrity').map(named),
    io: named(byPreset('io')),
    latency: named(byPreset('latency')),
    stores: named(byPreset('stores')),
    // The deployment column: every strategy on an instance stand-in at the autoscaler's
    // target, the study at the kernel's default period (its others are on its page).
    deployment: named(
      results.find(
        ({ run }) =>
          run.kind === 'run' &&
          run.settings?.preset === 'deployment-f1' &&
          run.settings.instance?.periodUs === 100000 &&
          !run.settings.instance?.burstUs,
      ) ?? byPreset('deployment-f1'),
    ),
    instructions: named(byPreset('instructions')),
    'depth-sweep': named(byPreset('depth-sweep')),
    // Second runs of a study (`ctxbench repro --compare …`): the default run's, the deployment study's.
    repro: results.filter(({ run }) => run.kind === 'repro' && Array.isArray(run.files) && run.repro?.rows).map(named),
  };
}

// The integrity study a strategy's column reads: of those that ran it, the widest (most
// strategy × scenario pairs: its "fails for every strategy" patterns are judged across the
// most; a study of a few scenarios for every strategy, as the Node upgrade's, is narrower
// than the full matrix).
const described = (v) => ({ name: v.name, file: v.file, title: v.run.title ?? null });
const strategiesIn = (x) => new Set((x.run.integrity?.cells || []).map((c) => c.strategy));
const pairsIn = (x) => new Set((x.run.integrity?.cells || []).map((c) => `${c.strategy}|${c.scenario}`)).size;
const widestFirst = (studies) => [...studies].sort((a, b) => pairsIn(b) - pairsIn(a));
const integritySourceOf = (strategy, studies) =>
  widestFirst(studies).find((x) => strategiesIn(x).has(strategy)) || null;

const runtimeLabel = (c) => `${c.node}${c.acf === false && !/^node(1|20)/.test(c.node) ? ' (async_hooks)' : ''}`;

// The scenarios whose verdict for this strategy is not the same on every runtime, from
// every integrity study that ran it on more than one: [{ scenario, source, verdicts:
// [{ runtime, verdict }] }]. A runtime its package does not support ("n/a") is no answer.
function nodeDependent(strategy, studies) {
  const found = [];
  for (const study of studies) {
    const mine = (study.run.integrity?.cells || []).filter(
      (c) => c.strategy === strategy && c.verdict !== 'n/a' && c.requests > 0,
    );
    for (const scenario of [...new Set(mine.map((c) => c.scenario))]) {
      const here = mine.filter((c) => c.scenario === scenario);
      if (new Set(here.map((c) => c.verdict)).size < 2 || found.some((x) => x.scenario === scenario)) continue;
      found.push({
        scenario,
        source: { name: study.name, file: study.file },
        verdicts: here.map((c) => ({ runtime: runtimeLabel(c), acf: c.acf ?? null, verdict: c.verdict })),
        fails: failsWhere(here),
      });
    }
  }
  return found;
}

// Where a node-dependent answer fails, when the runtimes split by implementation:
// 'async_hooks' (fails on every runtime without AsyncContextFrame, kept on every one with
// it), 'AsyncContextFrame' (the reverse), else 'some runtimes'.
function failsWhere(cells) {
  const failing = (c) => FAILED.has(c.verdict);
  if (cells.every((c) => failing(c) === (c.acf === false))) return 'async_hooks';
  if (cells.every((c) => failing(c) === (c.acf === true))) return 'AsyncContextFrame';
  return 'some runtimes';
}

function idsOf(strategy, studies) {
  const ids = idsFromWidest(strategy, studies);
  if (['kept', 'broken'].includes(ids.verdict)) ids.nodeDependent = nodeDependent(strategy, widestFirst(studies));
  return ids;
}

function gatherNodeDependent(rows) {
  const groups = new Map();
  for (const r of rows) {
    for (const d of r.ids.nodeDependent || []) {
      const key = `${d.scenario}|${d.fails}`;
      if (!groups.has(key)) groups.set(key, { scenario: d.scenario, fails: d.fails, strategies: [], source: d.source });
      groups.get(key).strategies.push(r.strategy);
    }
  }
  return [...groups.values()];
}

function idsFromWidest(strategy, studies) {
  const integrity = integritySourceOf(strategy, studies);
  const i = info(strategy);
  if (i.control) return { verdict: 'control', runtimes: [], common: [] };
  if (i.carriesContext === false) return { verdict: 'none', runtimes: [], common: [] };
  const cells = integrity?.run?.integrity?.cells || [];
  const mine = cells.filter((c) => c.strategy === strategy && c.verdict !== 'n/a');
  if (!mine.length) return { verdict: 'unmeasured', runtimes: [], common: [] };
  // Patterns every context strategy (other than param and the control) fails: a property of
  // the pattern, not of this strategy; the summary names them once, not in every row.
  const judged = [...new Set(cells.map((c) => c.strategy))].filter(
    (st) => !info(st).control && info(st).carriesContext !== false && st !== 'param',
  );
  const scenarios = [...new Set(cells.map((c) => c.scenario))];
  const common = scenarios.filter(
    (sc) =>
      judged.length > 1 &&
      judged.every((st) => cells.some((c) => c.strategy === st && c.scenario === sc && FAILED.has(c.verdict))),
  );
  const runtimes = [];
  for (const key of [...new Set(mine.map((c) => `${c.node}|${c.acf}`))]) {
    const here = mine.filter((c) => `${c.node}|${c.acf}` === key);
    const failing = here.filter((c) => FAILED.has(c.verdict)).map((c) => c.scenario);
    runtimes.push({
      label: runtimeLabel(here[0]),
      failing,
      propagation: failing.filter((sc) => PROPAGATION.test(sc)),
      own: failing.filter((sc) => !common.includes(sc)),
      scenarios: here.length,
    });
  }
  const uniform = runtimes.every((r) => r.failing.join() === runtimes[0].failing.join());
  const broken = runtimes.some((r) => r.propagation.length);
  return {
    verdict: broken ? 'broken' : 'kept',
    runtimes,
    uniform,
    common,
    source: { name: integrity.name, file: integrity.file },
  };
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

// What a row's figures say, by rules over them (never hand-written per strategy), as data;
// report/strategy-summary.js writes the Reading sentence from it.
//   { kind: 'baseline', carriesContext } | { kind: 'control', leaks } | { kind: 'floor' }
//   | { kind: 'broken', where: [scenario] }
//   | { kind: 'measured', costs: [{ depth, significant, estimate, equivalence }], expensive, grows,
//       unreproduced: [{ depth, otherEstimate }], sameInstructionsAt, io, latency, stores, keepsId }
function findingsOf(row, shallowDepth, deepDepth) {
  if (row.baseline) return { kind: 'baseline', carriesContext: row.carriesContext };
  if (row.control) return { kind: 'control', leaks: (row.shallow?.mismatches || 0) + (row.deep?.mismatches || 0) };
  if (row.carriesContext === false) return { kind: 'floor' };
  if (row.ids.verdict === 'broken' || row.shallow?.broken || row.deep?.broken) {
    return { kind: 'broken', where: [...new Set(row.ids.runtimes.flatMap((r) => r.propagation))] };
  }
  const atDepths = [
    [row.shallow, shallowDepth],
    [row.deep, deepDepth],
  ].filter(([cell]) => cell);
  const costs = atDepths.map(([cell, depth]) => ({
    depth,
    significant: Boolean(cell.significant),
    estimate: cell.estimate,
    equivalence: cell.equivalence ?? null,
  }));
  const dearer = costs.some((c) => c.significant && c.estimate < 1);
  const worst = costs.length ? Math.min(...costs.map((c) => c.estimate)) : null;
  const counted = row.instructions;
  return {
    kind: 'measured',
    costs,
    expensive: dearer && worst < 0.5,
    grows: Boolean(
      row.shallow?.interval &&
      row.deep?.interval &&
      row.deep.interval[1] < row.shallow.interval[0] &&
      row.deep.significant,
    ),
    // A figure the next run did not reproduce is said to be so, beside it.
    unreproduced: atDepths
      .filter(([cell]) => cell.repro && !cell.repro.consistent)
      .map(([cell, depth]) => ({ depth, otherEstimate: cell.repro.otherEstimate })),
    sameInstructionsAt:
      counted &&
      row.shallow?.significant &&
      counted.interval &&
      counted.interval[0] <= 1.005 &&
      counted.interval[1] >= 0.995
        ? counted.settings.depth
        : null,
    io:
      row.io?.kind === 'ratio' && Number.isFinite(row.io.estimate)
        ? { significant: Boolean(row.io.significant), estimate: row.io.estimate, hop: row.io.settings.hop }
        : null,
    latency:
      row.latency?.significant && row.latency.estimate > 0
        ? { estimate: row.latency.estimate, load: row.latency.settings.load }
        : null,
    stores: row.stores?.significant ? { estimate: row.stores.estimate, stores: row.stores.settings.stores } : null,
    keepsId: row.ids.verdict === 'kept',
    // Depth figures measured on another machine than their column's: on their study's page.
    elsewhere: ['shallow', 'deep'].filter((k) => row.offMachine?.[k]),
  };
}

// Two cells of one strategy that seem to disagree (intervals apart): which settings differ.
function disagreements(row) {
  const out = [];
  const pairs = [
    ['default run', row.shallow, 'io', row.io],
    ['default run', row.shallow, 'stores', row.stores],
    ['default run', row.shallow, 'instruction counts', row.instructions],
    ['default run', row.deep, 'instruction counts', row.deepInstructions],
    ['default run', row.shallow, 'depth sweep', row.sweepShallow],
    ['default run', row.deep, 'depth sweep', row.sweepDeep],
  ];
  for (const [na, a, nb, b] of pairs) {
    if (!a || !b || !a.interval || !b.interval || stats.overlap(a.interval, b.interval)) continue;
    const both = (k) => a.settings[k] !== undefined && b.settings[k] !== undefined;
    const diff = SETTINGS.filter((k) => both(k) && String(a.settings[k]) !== String(b.settings[k])).map((setting) => ({
      setting,
      a: a.settings[setting],
      b: b.settings[setting],
    }));
    out.push({ a: na, b: nb, aEstimate: a.estimate, bEstimate: b.estimate, depth: a.settings.depth, differs: diff });
  }
  return out;
}

// Whether a figure of a study (the default run's, the deployment study's) held in a second run
// on the same machine: the repro comparisons that name the study's file, their row for this
// configuration.
function reproOf(repros, def, id) {
  const mine = path.resolve(def.file);
  for (const r of repros) {
    const at = r.run.files.findIndex((f) => path.resolve(f) === mine);
    const row = at >= 0 && r.run.repro.rows.find((x) => x.id === id);
    if (!row || typeof row.consistent !== 'boolean') continue;
    // Another machine's run is a comparison across machines, never a second reading.
    if (r.run.repro.machines?.same === false) continue;
    const other = at === 0 ? row.b : row.a;
    return {
      consistent: row.consistent,
      otherEstimate: other?.estimate ?? null,
      otherFile: r.run.files[at === 0 ? 1 : 0],
      source: { name: r.name, file: r.file },
    };
  }
  return null;
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

// strategySummary(results) -> { sources, depths, settings, rows, notes } — the table that
// leads results.md ("What each strategy costs"), one row per strategy of the default run.
// results: [{ file, run, name? }].
function strategySummary(results, { ioHop = 'pg', load = 0.5, stores = 10 } = {}) {
  const sources = pickSources(results);
  const def = sources.default;
  if (!def) return null;
  const configs = def.run.configs || [];
  const depths = [...new Set(configs.map((c) => c.depth).filter(Number.isFinite))].sort((a, b) => a - b);
  const shallowDepth = depths[0] ?? null;
  const deepDepth = depths.length > 1 ? depths.at(-1) : null;
  const baseline = def.run.settings?.baseline ?? null;
  const strategies = [...new Set([...(def.run.settings?.strategies || []), ...configs.map((c) => c.strategy)])].filter(
    (st) => configs.some((c) => c.strategy === st),
  );
  // Rows from the popular study: only where its figures read like the default run's (the
  // same baseline, method, hop and depths), for strategies the default run does not have.
  const popular = sources.popular;
  const sameAsDefault =
    popular &&
    ['baseline', 'method'].every((k) => popular.run.settings?.[k] === def.run.settings?.[k]) &&
    String(popular.run.settings?.hops) === String(def.run.settings?.hops) &&
    String(popular.run.settings?.depths) === String(def.run.settings?.depths);
  const fromPopular = sameAsDefault
    ? [...new Set((popular.run.configs || []).map((c) => c.strategy))].filter(
        (st) => st !== baseline && !strategies.includes(st),
      )
    : [];
  strategies.push(...fromPopular);
  const ioDepth = sources.io
    ? Math.min(...(sources.io.run.configs || []).filter((c) => c.hop === ioHop).map((c) => c.depth))
    : null;
  // The latency column moves onto the F1 stand-in once the deployment study holds it as
  // well as the latency study does (issue 47): its first run (3 blocks) gave a p99 added in 6
  // of 12 rows where the latency study (14 blocks) gives 11, so until then it stays there.
  const latencySource = sources.latency ?? sources.deployment;
  const latencyDepth = latencySource
    ? Math.min(...(latencySource.run.configs || []).map((c) => c.depth).filter(Number.isFinite))
    : null;
  const sweep = sources['depth-sweep'];
  const sweepBroken = (c) => Boolean(summaryOf(c, sweep.run.configs, sweep.run.settings?.baseline).broken);
  const storesNode = sources.stores
    ? (sources.stores.run.configs || [])
        .map((c) => c.node)
        .filter(Boolean)
        .sort()
        .at(-1)
    : null;
  const rows = strategies.map((strategy) => {
    const i = info(strategy);
    const isBase = strategy === baseline;
    // The study this row's depth figures, repro and profile come from.
    const own = fromPopular.includes(strategy) ? popular : def;
    const at = (source, pred) => {
      if (!source || (isBase && source === def)) return null;
      const c = findConfig(source.run, strategy, pred);
      return c ? ratioCell(source, c, source.run.configs) : null;
    };
    // The strategy another study measures everything against reads "baseline" there.
    const baselineOr = (source, cell) =>
      strategy === source.run.settings?.baseline && (source.run.configs || []).some((c) => c.strategy === strategy)
        ? { kind: 'baseline', source: { name: source.name, file: source.file, id: null }, settings: {} }
        : cell();
    const defCell = (depth) => {
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
    };
    const row = {
      strategy,
      describe: i.describe ?? null,
      control: Boolean(i.control),
      carriesContext: i.carriesContext !== false,
      userSupplied: (own.run.configs || []).some((c) => c.strategy === strategy && c.userSupplied),
      study: own === def ? 'default' : 'popular',
      baseline: isBase,
      ids: idsOf(strategy, sources.integrity),
      shallow: shallowDepth !== null ? defCell(shallowDepth) : null,
      deep: deepDepth !== null ? defCell(deepDepth) : null,
      io:
        sources.io && Number.isFinite(ioDepth)
          ? baselineOr(sources.io, () => at(sources.io, (c) => c.hop === ioHop && c.depth === ioDepth))
          : null,
      // The latency column reads the stand-in study where there is one (one latency column).
      latency: latencySource
        ? baselineOr(latencySource, () => latencyCell(latencySource, strategy, latencyDepth, load))
        : null,
      deploy:
        sources.deployment?.run.settings?.targetCpu && shallowDepth !== null
          ? baselineOr(sources.deployment, () => operatingCell(sources.deployment, strategy, shallowDepth))
          : null,
      stores: sources.stores
        ? baselineOr(sources.stores, () =>
            at(sources.stores, (c) => c.stores === stores && c.node === storesNode && c.acf !== false),
          )
        : null,
      instructions:
        sources.instructions && shallowDepth !== null
          ? at(sources.instructions, (c) => c.depth === shallowDepth)
          : null,
      deepInstructions:
        sources.instructions && deepDepth !== null ? at(sources.instructions, (c) => c.depth === deepDepth) : null,
      // Not a column: the App Engine study's layout at the same depths, read only to say
      // why it and the default run can both hold where they seem to disagree.
      // A sweep cell whose strategy lost its ids there has no cost to compare (HOP=await breaks alscontext).
      sweepShallow:
        sweep && shallowDepth !== null ? at(sweep, (c) => c.depth === shallowDepth && !c.log && !sweepBroken(c)) : null,
      sweepDeep:
        sweep && deepDepth !== null ? at(sweep, (c) => c.depth === deepDepth && !c.log && !sweepBroken(c)) : null,
    };
    row.profile = profileOf(own, strategy, deepDepth ?? shallowDepth);
    for (const cell of [row.shallow, row.deep])
      if (cell && cell.kind === 'ratio') cell.repro = reproOf(sources.repro, own, cell.source.id);
    if (row.deploy?.kind === 'ratio')
      row.deploy.repro = reproOf(sources.repro, sources.deployment, row.deploy.source.id);
    return row;
  });
  // Each column's figures from one machine, and only columns narrow enough for a headline;
  // the Reading is written from what stays.
  const machineByName = new Map(
    results.map((x) => [x.name ?? path.basename(x.file, '.json'), machineText(x.run.environment)]),
  );
  const columns = headlineColumns(rows, (name) => machineByName.get(name) ?? null);
  for (const row of rows) {
    row.findings = findingsOf(row, shallowDepth, deepDepth);
    row.disagreements = row.baseline ? [] : disagreements(row);
  }
  // Scenarios every context strategy fails: named once below the table, from the widest
  // integrity study; a row read from a narrower one does not repeat them either.
  const widest = widestFirst(sources.integrity)[0];
  const common =
    rows.find((r) => r.ids.common?.length && r.ids.source?.file === widest?.file)?.ids.common ??
    rows.find((r) => r.ids.common?.length)?.ids.common ??
    [];
  for (const r of rows) for (const rt of r.ids.runtimes || []) rt.own = rt.own.filter((sc) => !common.includes(sc));
  return {
    sources: Object.fromEntries(
      Object.entries(sources)
        .filter(([k]) => k !== 'repro')
        .map(([k, v]) => [k, Array.isArray(v) ? v.map(described) : v ? described(v) : null]),
    ),
    columns,
    widestPp: WIDEST_PP,
    // The machines the Keeps the id? column's integrity studies ran on.
    idsMachines: [...new Set(rows.map((r) => r.ids.source && machineByName.get(r.ids.source.name)).filter(Boolean))],
    // On which machine each study of a headline column was measured (CPU model, cores).
    machines: Object.entries(sources)
      .filter(
        ([k, v]) =>
          v && !Array.isArray(v) && ['default', 'popular', 'io', 'latency', 'stores', 'deployment'].includes(k),
      )
      .map(([k, v]) => ({
        study: k,
        name: v.name,
        cpuModel: v.run.environment?.cpuModel ?? null,
        cores: v.run.environment?.cores ?? null,
        date: v.run.environment?.date ?? null,
      })),
    baseline,
    depths: { shallow: shallowDepth, deep: deepDepth },
    settings: {
      method: def.run.settings?.method ?? 'sequential',
      marginPct: def.run.settings?.margin ?? DEFAULTS.margin,
      hop: configs[0]?.hop ?? null,
      node: configs[0]?.node ?? null,
      io: sources.io
        ? {
            hop: ioHop,
            depth: ioDepth,
            baseline: sources.io.run.settings?.baseline ?? null,
            method: sources.io.run.settings?.method ?? 'sequential',
            load: sources.io.run.settings?.loads?.length === 1 ? sources.io.run.settings.loads[0] : null,
          }
        : null,
      latency: latencySource
        ? {
            load,
            depth: latencyDepth,
            hop: (latencySource.run.configs || [])[0]?.hop ?? null,
            baseline: latencySource.run.settings?.baseline ?? null,
            method: latencySource.run.settings?.method ?? 'sequential',
            instance: latencySource.run.settings?.instance?.name ?? null,
            knee: Boolean(latencySource.run.learned?.capacity?.groups?.some((g) => g.knee)),
          }
        : null,
      deployment: sources.deployment
        ? {
            instance: sources.deployment.run.settings?.instance?.name ?? null,
            periodUs: sources.deployment.run.settings?.instance?.periodUs ?? null,
            targetCpu: sources.deployment.run.settings?.targetCpu ?? null,
            slo: sources.deployment.run.settings?.slo?.text ?? null,
            baseline: sources.deployment.run.settings?.baseline ?? null,
            depth: shallowDepth,
          }
        : null,
      stores: sources.stores
        ? { stores, node: storesNode, baseline: sources.stores.run.settings?.baseline ?? null }
        : null,
    },
    commonFailures: common,
    // Answers that depend on the Node version, by scenario and where they fail: [{ scenario,
    // fails, strategies, source }] (the rows' ids.nodeDependent, gathered for the notes).
    nodeDependent: gatherNodeDependent(rows),
    // The rows whose depth figures come from the popular study, not the default run.
    popularRows: fromPopular,
    rows,
  };
}

module.exports = { strategySummary, headlineColumns, FIGURE_COLUMNS, WIDEST_PP };
