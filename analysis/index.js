'use strict';
// The analysis layer: what the reports show, computed once from run JSON. results.md,
// the study pages, results/index.html, the terminal summary and `report --csv` format
// these objects; none of them computes a figure of its own.
const stats = require('./stats');
const summaries = require('./summary');
const { summaryOf } = summaries;
const { latencySummaries } = require('./latency');
const { strategySummary } = require('./strategy-summary');
const { acrossMachines } = require('./across-machines');
const { PROPAGATION } = require('./registry');
const { sloCapacity } = require('./capacity');
const { operatingPoints, operatingPoint } = require('./operating-point');

// ------------------------------------------------------------ your own service

// analyzeApp(run) -> what `ctxbench app` found: the candidate's duet ratio to the
// baseline (baseline CPU per request ÷ candidate's, per window, interval over blocks),
// each side's CPU per request and requests per window (medians), and the id check.
function analyzeApp(run) {
  if (run.settings?.method === 'pair') return analyzeAppOnInstance(run);
  const [base, cand] = run.configs || [];
  if (!base || !cand) return { ratio: null, blocks: 0, blocksRun: 0, windows: { counted: 0, dropped: 0 }, ids: {} };
  const s = summaries.summarize(cand, base, { marginPct: run.settings?.margin });
  const windows = cand.samples.filter((w) => w.kind === 'window');
  const counted = windows.filter((w) => w.counted);
  const ids = {};
  for (const c of run.configs) {
    ids[c.arm] = idTally(run, c.samples.filter((x) => x.kind === 'duet'));
  }
  return {
    ratio: s.ratio,
    blocks: new Set(counted.map((w) => w.block)).size,
    blocksRun: new Set(windows.map((w) => w.block)).size,
    windows: { counted: counted.length, dropped: windows.length - counted.length },
    cpuUsPerRequest: {
      baseline: stats.median(counted.map((w) => w.partnerCpuUsPerRequest)),
      candidate: stats.median(counted.map((w) => w.cpuUsPerRequest)),
    },
    requestsPerWindow: {
      baseline: stats.median(counted.map((w) => w.partnerRequests)),
      candidate: stats.median(counted.map((w) => w.requests)),
    },
    ids,
    broken: Object.values(ids).some((x) => x.checked && x.mismatches + x.lost > 0),
    probe: probeOf(run.probe),
  };
}

// A side's id check, summed over the samples that carry it (duet checks, pair samples).
function idTally(run, samples) {
  const total = (k) => samples.reduce((a, x) => a + (x[k] || 0), 0);
  const keys = ['requests', 'kept', 'mismatches', 'lost', 'errors', 'non2xx'];
  const counts = Object.fromEntries(keys.map((k) => [k, total(k)]));
  return { checked: Boolean(run.settings?.idHeader), ...counts };
}

// `ctxbench app --instance`: both sides as stand-ins, in pairs at the autoscaler's operating
// point (settings.targetCpu: the candidate's figures there, analysis/operating-point.js) or
// at a ladder of rates (the candidate's capacity within the SLO, the baseline's beside it,
// the candidate's as % of it: analysis/capacity.js); the pairs' windows and each side's id
// check.
function analyzeAppOnInstance(run) {
  const configs = run.configs || [];
  const s = run.settings || {};
  const cand = configs.find((c) => c.arm === 'candidate');
  const windows = configs.flatMap((c) => c.samples.filter((w) => w.kind === 'window'));
  const counted = windows.filter((w) => w.counted);
  const ids = {};
  for (const arm of ['baseline', 'candidate']) {
    const pairs = configs.filter((c) => c.arm === arm).flatMap((c) => c.samples.filter((x) => x.kind === 'pair'));
    ids[arm] = idTally(run, pairs);
  }
  return {
    method: 'pair',
    ...(s.targetCpu
      ? {
          capacity: null,
          operating: cand
            ? operatingPoint(cand, { instance: s.instance, targetCpu: s.targetCpu, slo: s.slo ?? null })
            : null,
        }
      : { capacity: sloCapacity(run) }),
    blocks: new Set(counted.map((w) => w.block)).size,
    // Every block run, counted windows or not: on a busy machine a block's may all be dropped.
    blocksRun: new Set(windows.map((w) => w.block)).size,
    windows: { counted: counted.length, dropped: windows.length - counted.length },
    ids,
    broken: Object.values(ids).some((x) => x.checked && x.mismatches + x.lost > 0),
    probe: probeOf(run.probe),
  };
}

// `ctxbench app --probe`: each side's async resources per request (bench/probes/probe.js, a
// probe process of its own) and what the candidate adds, in total and by type.
function probeOf(probe) {
  const [base, cand] = probe?.sides || [];
  if (!base || !cand) return null;
  const types = [...new Set([...Object.keys(base.perRequest.byType), ...Object.keys(cand.perRequest.byType)])];
  const byType = types
    .map((t) => [t, (cand.perRequest.byType[t] || 0) - (base.perRequest.byType[t] || 0)])
    .filter(([, d]) => Math.abs(d) >= 0.01)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
  return {
    sides: probe.sides,
    added: { total: cand.perRequest.total - base.perRequest.total, byType: Object.fromEntries(byType) },
  };
}

// ------------------------------------------------------------ a log line per level

// logEffect(run) -> null unless the run measured LOG=stdout beside LOG=none (the depth
// sweep), else { depths, rows: [{ strategy, cells: [{ depth, none, stdout }] }], closer,
// cells }: each strategy's ratio to the baseline with and without a log line per level
// (none/stdout: { estimate, ci95, broken } or null), and in how many cells of strategies
// that kept their ids the logged ratio is nearer 100% — the logging's own fixed cost, paid by the baseline too,
// dilutes the context's share of the work.
function logEffect(run) {
  const configs = (run.configs || []).filter((c) => c && c.arm !== 'aa' && !c.error);
  const baseline = run.settings?.baseline;
  if (!configs.some((c) => c.log === 'stdout') || !configs.some((c) => !c.log)) return null;
  const depths = [...new Set(configs.map((c) => c.depth))].sort((a, b) => a - b);
  const strategies = [...new Set(configs.map((c) => c.strategy))].filter((st) => st !== baseline);
  const ratioAt = (strategy, depth, logged) => {
    const c = configs.find((x) => x.strategy === strategy && x.depth === depth && Boolean(x.log) === logged);
    const summary = c ? summaryOf(c, run.configs, baseline) : null;
    const r = summary?.ratio;
    return r && Number.isFinite(r.estimate)
      ? { estimate: r.estimate, ci95: r.ci95 ?? null, broken: Boolean(summary.broken) }
      : null;
  };
  let closer = 0;
  let cells = 0;
  const rows = strategies.map((strategy) => ({
    strategy,
    cells: depths.map((depth) => {
      const none = ratioAt(strategy, depth, false);
      const stdout = ratioAt(strategy, depth, true);
      if (none && stdout && !none.broken && !stdout.broken) {
        cells++;
        if (Math.abs(Math.log(stdout.estimate)) < Math.abs(Math.log(none.estimate))) closer++;
      }
      return { depth, none, stdout };
    }),
  }));
  return { depths, rows, closer, cells };
}

// ------------------------------------------------------------ live stores

const majorOfConfig = (c) => {
  const m = /^v?(\d+)(?:\.|$)/.exec(String(c.node || '')) || /^node(\d+)/.exec(String(c.nodeLabel || ''));
  return m ? Number(m[1]) : null;
};
const medianOf = (xs) => stats.median(xs.filter((x) => typeof x === 'number' && Number.isFinite(x)));

// One config of the stores preset: median req/s and CPU µs per request over its samples.
function storesLevel(c) {
  const samples = (c.samples || []).filter(
    (s) => s && typeof s.rps === 'number' && Number.isFinite(s.rps) && s.rps > 0,
  );
  return {
    rps: medianOf(samples.map((s) => s.rps)),
    cpu: medianOf(samples.map((s) => s.cpuUsPerRequest)),
    n: samples.length,
  };
}

function implementationOf(configs) {
  const acf = configs.map((c) => c.acf ?? c.expectAcf).find((a) => a === true || a === false);
  return acf === true ? 'AsyncContextFrame' : acf === false ? 'async_hooks' : null;
}

// CPU at the largest N relative to N=0, and whether the change is beyond the round-to-round
// spread of either end (a rough, stated test: the two medians' ranges do not overlap).
function storesGrowth(byN) {
  const ns = [...byN.keys()].sort((a, b) => a - b);
  const lo = byN.get(ns[0]);
  const hi = byN.get(ns[ns.length - 1]);
  const ok = (x) => typeof x === 'number' && Number.isFinite(x);
  if (!lo || !hi || !ok(lo.cpu) || !ok(hi.cpu) || lo.cpu <= 0) return null;
  const range = (x) => [Math.min(...x.cpus), Math.max(...x.cpus)];
  const [loMin, loMax] = range(lo);
  const [hiMin, hiMax] = range(hi);
  const direction = hiMin > loMax ? 'grows' : hiMax < loMin ? 'shrinks' : null;
  return { from: ns[0], to: ns[ns.length - 1], ratio: hi.cpu / lo.cpu, direction };
}

// AsyncContextFrame against async_hooks on the same major (`--acf both`): both ran in every
// block (fresh processes, same minutes) but not as adjacent bursts, so the unit is the
// block: per block the difference of the two configurations' mean log CPU per request,
// the t-interval over blocks (stats.twoLevel).
function implementationRatio(hooks, frame) {
  const a = summaries.blockLogMeans(hooks.samples, 'cpuUsPerRequest');
  const b = summaries.blockLogMeans(frame.samples, 'cpuUsPerRequest');
  return stats.twoLevel([...a].filter(([block]) => b.has(block)).map(([block, m]) => ({ block, d: m - b.get(block) })));
}

// analyzeStores(run) -> null for a run without `stores` configs, else
//   { runtimes: [{ runtime, node, implementation, ns,
//       rows: [{ strategy, levels: [{ n, cpu, rps, times }], growth }] }],
//     implementations: [{ major, labels,
//       rows: [{ strategy, stores, cpuFrame, cpuHooks, ratio, dearer, frameDearer }] }],
//     acfDearer }; implementation: 'AsyncContextFrame' | 'async_hooks' | null (unknown); dearer: the implementation
//     whose CPU per request is clearly higher, 'neither', or null without an interval
//     (report/sections/stores.js says it).
function analyzeStores(run) {
  // A model run's held-out STORES point is a point of the model, not a study of stores.
  const configs = (run.configs || []).filter((c) => c.stores !== undefined && c.stores !== null && !c.role);
  if (!configs.length) return null;
  const runtimes = [...new Set(configs.map((c) => c.nodeLabel || c.node))].map((runtime) => {
    const mine = configs.filter((c) => (c.nodeLabel || c.node) === runtime);
    const ns = [...new Set(mine.map((c) => c.stores))].sort((a, b) => a - b);
    const rows = [...new Set(mine.map((c) => c.strategy))].map((strategy) => {
      const byN = new Map();
      for (const n of ns) {
        const c = mine.find((x) => x.strategy === strategy && x.stores === n);
        if (c)
          byN.set(n, {
            ...storesLevel(c),
            cpus: (c.samples || [])
              .map((x) => x && x.cpuUsPerRequest)
              .filter((x) => typeof x === 'number' && Number.isFinite(x)),
          });
      }
      const base = byN.get(ns[0]);
      const levels = ns.map((n) => {
        const m = byN.get(n);
        if (!m) return { n, cpu: null, rps: null, times: null };
        const times = base && base.cpu > 0 && n !== ns[0] && typeof m.cpu === 'number' ? m.cpu / base.cpu : null;
        return { n, cpu: m.cpu, rps: m.rps, times };
      });
      return { strategy, levels, growth: storesGrowth(byN) };
    });
    return { runtime, node: mine[0].node, implementation: implementationOf(mine), ns, rows };
  });
  let acfDearer = false;
  const implementations = [];
  for (const major of [...new Set(configs.map(majorOfConfig).filter(Boolean))]) {
    const mine = configs.filter((c) => majorOfConfig(c) === major);
    const frame = mine.filter((c) => c.acf === true);
    const hooks = mine.filter((c) => c.acf === false);
    const rows = [];
    for (const h of hooks) {
      const a = frame.find((c) => c.strategy === h.strategy && c.stores === h.stores);
      if (!a) continue;
      const ratio = implementationRatio(h, a);
      const frameDearer = Boolean(ratio.ci95) && ratio.ci95[1] < 1;
      acfDearer ||= frameDearer;
      const dearer = !ratio.ci95
        ? null
        : ratio.ci95[0] > 1
          ? 'async_hooks'
          : frameDearer
            ? 'AsyncContextFrame'
            : 'neither';
      const cpu = { cpuFrame: storesLevel(a).cpu, cpuHooks: storesLevel(h).cpu };
      rows.push({ strategy: h.strategy, stores: h.stores, ...cpu, ratio, dearer, frameDearer });
    }
    if (rows.length)
      implementations.push({
        major,
        labels: [
          ...new Set(
            frame
              .concat(hooks)
              .map((c) => c.nodeLabel)
              .filter(Boolean),
          ),
        ],
        rows,
      });
  }
  return { runtimes, implementations, acfDearer };
}

// The analysis API the report reads: this module's own figures, and those of the
// run page, the frameworks tables and the instruction-count page.
module.exports = {
  summaryOf,
  latencySummaries,
  sloCapacity,
  operatingPoints,
  strategySummary,
  acrossMachines,
  analyzeApp,
  analyzeStores,
  logEffect,
  PROPAGATION,
  ...require('./registry'),
  ...require('./run'),
  ...require('./frameworks'),
  ...require('./instructions'),
};
