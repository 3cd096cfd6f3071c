'use strict';
// Does a run reproduce? reproCompare(runA, runB) matches the ratios of two runs of the
// same matrix (config id -> ratio to its baseline, recomputed by analysis/summary.js from the
// samples) and reports, per ratio, both estimates, their difference and whether each
// run's 95% CI covers the other's estimate. A ratio "agrees" when both intervals cover
// the other's estimate. Agreement bought with wide intervals is no agreement, so the
// median half-width of the ratio intervals is reported beside the share that agrees.
//
// Why a second rule, "consistent": two honest 95% intervals of equally precise runs
// cover each other's estimate only about 83% of the time (the difference of two
// estimates has sqrt(2) times the spread of one), so "9 in 10 agree" would fail honest
// intervals. The test that holds 95% of the time when both runs measure the same thing
// is on the difference itself: |log b − log a| ≤ t · sqrt(se_a² + se_b²), with each se
// read back from its interval (half-width on the log scale ÷ t with blocks − 1 df) and
// Welch–Satterthwaite degrees of freedom. So ≥ 9 in 10 consistent is the bar.
const stats = require('./stats');
const summary = require('./summary');
const { baselineFor } = require('./comparable');
const { compareCounts } = require('./micro');
const { pairLatencySummary, isPairConfig } = require('./pair');
const { operatingPoints } = require('./operating-point');

const isMicroCount = (run) => run?.kind === 'micro' && run?.settings?.method === 'instructions';

// A micro count run's ratios: per target, strategy and scenario, the baseline's
// instructions per operation ÷ the strategy's (read like the server runs' "% of none").
// -> Map(id -> { estimate }), and the per-operation levels Map(id -> perOp).
function microCountRatios(run) {
  const results = run?.micro?.results || [];
  const baseline = run?.settings?.baseline;
  const out = new Map();
  const levels = new Map();
  for (const e of results) {
    for (const [key, sc] of Object.entries(e.scenarios || {})) {
      if (typeof sc?.perOp === 'number') levels.set(`${e.target}/${e.strategy}/${key}`, sc.perOp);
    }
    const base = results.find((b) => b.target === e.target && b.strategy === baseline);
    if (!base || base === e) continue;
    for (const [key, c] of Object.entries(compareCounts(e, base)))
      out.set(`${e.target}/${e.strategy}/${key}`, { estimate: 1 / c.ratio });
  }
  return { ratios: out, levels };
}

// The pair-measured configs of a run with their baseline and what the pair says of them
// (analysis/pair.js pairLatencySummary): [{ id, config, baseline, pair }].
function pairSummaries(run) {
  const configs = run?.configs || [];
  const baseline = run?.settings?.baseline;
  // At the autoscaler's operating point a candidate that cannot keep the baseline's rate is
  // measured at its own (analysis/operating-point.js): falling behind there is not its answer.
  if (run?.settings?.targetCpu) return [];
  return configs
    .filter((c) => isPairConfig(c) && (c.samples || []).length)
    .map((c) => {
      const b = baselineFor(c, configs, baseline);
      return b ? { id: c.id, pair: pairLatencySummary(c, b) } : null;
    })
    .filter(Boolean);
}

// A candidate that fell behind the rate its baseline kept has no ratio: "cannot serve" is
// its answer (analysis/strategy-summary.js says the same in the headline).
const cannotServe = (pair) => pair.candidateHeld === false && pair.baselineHeld;

// id -> summary.ratio of every config with a baseline in its run (not those that cannot
// serve their pair's rate).
function ratios(run) {
  const configs = (run && run.configs) || [];
  const baseline = run && run.settings && run.settings.baseline;
  const unserved = new Set(
    pairSummaries(run)
      .filter((p) => cannotServe(p.pair))
      .map((p) => p.id),
  );
  const out = new Map();
  for (const c of configs) {
    const b = baselineFor(c, configs, baseline);
    if (!b || !(c.samples || []).length || unserved.has(c.id)) continue;
    const s = summary.summarize(c, b);
    if (s.ratio && s.ratio.estimate !== null)
      out.set(c.id, { ...s.ratio, broken: s.broken, clientBound: s.clientBound });
  }
  return out;
}

// Pair runs: the configurations either run says cannot serve their rate, with what the
// other run says of them; they agree when both say it. -> [{ id, a, b, agree }], each side
// { cannotServe, blocksNotServed, blocks } (null when that run has no such config).
function servedRows(pa, pb) {
  const side = (p) =>
    p ? { cannotServe: cannotServe(p.pair), blocksNotServed: p.pair.blocksNotServed, blocks: p.pair.units } : null;
  const byId = new Map(pb.map((p) => [p.id, p]));
  return pa
    .filter((p) => byId.has(p.id) && (cannotServe(p.pair) || cannotServe(byId.get(p.id).pair)))
    .map((p) => {
      const a = side(p);
      const b = side(byId.get(p.id));
      return { id: p.id, a, b, agree: a.cannotServe === b.cannotServe };
    });
}

// Is the difference of two added latencies (ms, each a mean over blocks with its
// t-interval) within what both runs' noise explains (Welch, two-sided 5%)? null when
// either has no interval.
function consistentLinear(x, y) {
  const seOf = (r) =>
    r.ci95 && r.n >= 2 ? { se: (r.ci95[1] - r.ci95[0]) / (2 * stats.tCritical(r.n - 1)), df: r.n - 1 } : null;
  const a = seOf(x);
  const b = seOf(y);
  if (!a || !b) return null;
  const va = a.se ** 2;
  const vb = b.se ** 2;
  const diff = Math.abs(y.estimate - x.estimate);
  if (va + vb === 0) return diff === 0;
  const df = (va + vb) ** 2 / (va ** 2 / a.df + vb ** 2 / b.df);
  return diff <= stats.tCritical(df) * Math.sqrt(va + vb);
}

// Pair runs: the p99 each candidate adds to its baseline's (ms, paired by block), where both
// runs publish it with an interval. -> [{ id, a, b, differenceMs, aCoversB, bCoversA, agree,
// consistent }], each side { estimate, ci95, n }.
function addedP99Rows(pa, pb) {
  const added = (p) => {
    const x = p.pair.added?.p99;
    return x && Number.isFinite(x.estimate) && x.ci95 ? { estimate: x.estimate, ci95: x.ci95, n: x.n } : null;
  };
  const byId = new Map(pb.map((p) => [p.id, added(p)]));
  return pa
    .map((p) => [p.id, added(p), byId.get(p.id)])
    .filter(([, a, b]) => a && b)
    .map(([id, a, b]) => {
      const aCoversB = covers(a.ci95, b.estimate);
      const bCoversA = covers(b.ci95, a.estimate);
      return {
        id,
        a,
        b,
        differenceMs: b.estimate - a.estimate,
        aCoversB,
        bCoversA,
        agree: aCoversB && bCoversA,
        consistent: consistentLinear(a, b),
      };
    });
}

const covers = (ci, x) => Boolean(ci) && ci[0] <= x && x <= ci[1];

// Runs at the autoscaler's operating point: per depth, the baseline's CPU µs per request there in
// each run (the geometric mean of its candidates' figures: analysis/operating-point.js baseOf),
// what a ratio that moves with it rests on. -> [{ depth, a, b }] ([] for other runs).
function baseCosts(runA, runB) {
  const byDepth = (run) => {
    const m = new Map();
    for (const { config, op } of operatingPoints(run)) {
      const x = op.base?.cpu?.estimate;
      if (!(x > 0)) continue;
      if (!m.has(config.depth)) m.set(config.depth, []);
      m.get(config.depth).push(Math.log(x));
    }
    return new Map([...m].map(([d, xs]) => [d, Math.exp(stats.mean(xs))]));
  };
  const [a, b] = [byDepth(runA), byDepth(runB)];
  return [...a]
    .filter(([d]) => b.has(d))
    .sort((x, y) => x[0] - y[0])
    .map(([depth, x]) => ({ depth, a: x, b: b.get(depth) }));
}

// { se, df } of a ratio's log estimate, from its 95% interval and block count.
function logSe(r) {
  if (!r.ci95 || !(r.blocks >= 2) || !(r.ci95[0] > 0)) return null;
  const df = r.blocks - 1;
  return { se: Math.log(r.ci95[1] / r.ci95[0]) / (2 * stats.tCritical(df)), df };
}

// Is the difference between two runs' estimates within what their own noise explains
// (two-sided 5% test on the log difference)? null when either has no interval.
function consistent(x, y) {
  const a = logSe(x);
  const b = logSe(y);
  if (!a || !b) return null;
  const va = a.se ** 2;
  const vb = b.se ** 2;
  const se = Math.sqrt(va + vb);
  const diff = Math.abs(Math.log(y.estimate / x.estimate));
  if (se === 0) return diff === 0;
  const df = (va + vb) ** 2 / (va ** 2 / a.df + vb ** 2 / b.df);
  return diff <= stats.tCritical(df) * se;
}

// Two instruction-count runs agree on a ratio when their estimates differ by at most this
// many percent (the count's own repeatability from process to process is a fraction of it:
// docs/investigations.md, "A bound instead of 24 windows").
const INSTRUCTION_AGREEMENT_PCT = 0.5;

// The machine a run was measured on: its identity (CPU model, cores, kernel), not its
// speed (environment.fingerprint moves from hour to hour on one machine). Two runs on
// different machines are a comparison across machines, never a second reading of one
// figure: the committed default run (an Intel Xeon) and a fresh clone's on an AMD EPYC
// disagreed on 3 of 16 ratios.
function machineOf(run) {
  const e = run?.environment || {};
  return { cpuModel: e.cpuModel ?? null, cores: e.cores ?? null, kernel: e.kernel ?? null };
}

// Whether two runs come from the same machine; null when either does not say.
function sameMachine(a, b) {
  const x = machineOf(a);
  const y = machineOf(b);
  if (!x.cpuModel || !y.cpuModel) return null;
  return x.cpuModel === y.cpuModel && x.cores === y.cores && x.kernel === y.kernel;
}

// The fields that differ between two runs' machines, as "CPU model A → B" phrases.
function machineDifferences(a, b) {
  const x = machineOf(a);
  const y = machineOf(b);
  return [
    ['cpuModel', 'CPU'],
    ['cores', 'cores'],
    ['kernel', 'kernel'],
  ]
    .filter(([k]) => x[k] !== y[k])
    .map(([k, label]) => `${label} ${x[k] ?? '?'} → ${y[k] ?? '?'}`);
}

// Each run's machine-speed fingerprint (environment.fingerprint, µs a request) and their ratio:
// beside the machine's name, since one name can stand for hosts of very different speed (one
// read 3.7× apart six hours later: docs/deploy.md, "What the ratio rests on").
function speedsOf(a, b) {
  const us = (run) => run?.environment?.fingerprint?.cpuUsPerRequest ?? null;
  const [x, y] = [us(a), us(b)];
  return { a: x, b: y, ratio: x > 0 && y > 0 ? Math.max(x, y) / Math.min(x, y) : null };
}

// What a ratio measures beyond the matrix: the method, the stand-in's class, CPU share, quota
// period and burst, the CPU target. Two runs that differ in one compare two settings, never a
// second reading of one figure (the 10-ms study read against the 100-ms one as a repro would
// have called the period's effect, or its absence, noise). -> ["CFS period 100,000 → 10,000 µs"].
function settingDifferences(a, b) {
  const of = (run) => {
    const s = run?.settings || {};
    const i = s.instance || null;
    return {
      method: s.method ?? null,
      instance: i?.name ?? null,
      cpus: i?.cpus ?? null,
      periodUs: i?.periodUs ?? null,
      burstUs: i ? (i.burstUs ?? 0) : null,
      targetCpu: s.targetCpu ?? null,
    };
  };
  const [x, y] = [of(a), of(b)];
  const text = (v) => (v === null ? '?' : typeof v === 'number' ? v.toLocaleString('en-US') : String(v));
  return [
    ['method', 'method'],
    ['instance', 'instance'],
    ['cpus', 'CPU share'],
    ['periodUs', 'CFS period', ' µs'],
    ['burstUs', 'CFS burst', ' µs'],
    ['targetCpu', 'CPU target'],
  ]
    .filter(([k]) => x[k] !== y[k])
    .map(([k, label, unit = '']) => `${label} ${text(x[k])} → ${text(y[k])}${unit}`);
}

// The bar a second reading of one figure is held to: at least 9 in 10 ratios consistent.
const BAR = 0.9;

// How often an honest method misses at least `k` of `n` ratios, each missing its 5% test
// independently: the binomial tail (1 − 0.95^n for one miss).
function missChance(n, k) {
  let below = 0;
  for (let i = 0, c = 1; i < k && i <= n; c = (c * (n - i)) / (i + 1), i++) below += c * 0.05 ** i * 0.95 ** (n - i);
  return Math.max(0, 1 - below);
}

// The one verdict of a repro, which the page's sentences and its verdict line both word
// (report/sections/repro.js): 'comparison' when the runs are not two readings of one figure
// (why: 'machines', 'settings'; no bar applies), 'unjudged' with no interval to test, else
// 'meets' or 'below' the bar. -> { code, why, bar, judged, consistent, missed, chance }.
function reproVerdict(r) {
  const judged = r?.judged ?? 0;
  const consistent = r?.consistent ?? 0;
  const missed = (r?.rows || []).filter((x) => x.consistent === false).map((x) => x.id);
  const why = [r?.machines?.same === false && 'machines', r?.settings?.length > 0 && 'settings'].filter(Boolean);
  const code = why.length ? 'comparison' : !judged ? 'unjudged' : consistent / judged >= BAR ? 'meets' : 'below';
  return { code, why, bar: BAR, judged, consistent, missed, chance: missChance(judged, missed.length) };
}

// reproCompare(a, b) -> { a, b, rows: [{ id, a: { estimate, ci95, halfWidthPct }, b: {...},
//   differencePp, aCoversB, bCoversA, agree }], compared, agreeing, shareAgreeing,
//   medianHalfWidthPct, onlyInOne } (its verdict: reproVerdict, decided where it is read)
function reproCompare(a, b) {
  const [runA, runB] = [a, b];
  const counted = runA?.settings?.method === 'instructions' && runB?.settings?.method === 'instructions';
  const micro = counted && isMicroCount(runA) && isMicroCount(runB);
  const ra = micro ? microCountRatios(runA).ratios : ratios(runA);
  const rb = micro ? microCountRatios(runB).ratios : ratios(runB);
  const rows = [];
  for (const [id, x] of ra) {
    const y = rb.get(id);
    if (!y) continue;
    const aCoversB = covers(x.ci95, y.estimate);
    const bCoversA = covers(y.ci95, x.estimate);
    rows.push({
      id,
      a: { estimate: x.estimate, ci95: x.ci95, halfWidthPct: x.halfWidthPct },
      b: { estimate: y.estimate, ci95: y.ci95, halfWidthPct: y.halfWidthPct },
      differencePp: (y.estimate - x.estimate) * 100,
      aCoversB,
      bCoversA,
      agree: aCoversB && bCoversA,
      consistent: consistent(x, y),
      ...(counted && { differencePct: Math.abs(y.estimate / x.estimate - 1) * 100 }),
    });
  }
  const widths = rows
    .flatMap((r) => [r.a.halfWidthPct, r.b.halfWidthPct])
    .filter((w) => typeof w === 'number' && Number.isFinite(w));
  const agreeing = rows.filter((r) => r.agree).length;
  const judged = rows.filter((r) => r.consistent !== null);
  const consistentCount = judged.filter((r) => r.consistent).length;
  const onlyInOne = [...ra.keys()].filter((id) => !rb.has(id)).concat([...rb.keys()].filter((id) => !ra.has(id)));
  const pairsA = counted ? [] : pairSummaries(runA);
  const pairsB = counted ? [] : pairSummaries(runB);
  const served = servedRows(pairsA, pairsB);
  const addedP99 = addedP99Rows(pairsA, pairsB);
  const base = counted ? [] : baseCosts(runA, runB);
  return {
    a: typeof a === 'string' ? a : (runA && runA.title) || 'a',
    b: typeof b === 'string' ? b : (runB && runB.title) || 'b',
    schemas: [runA && runA.schema, runB && runB.schema],
    machines: {
      a: machineOf(runA),
      b: machineOf(runB),
      same: sameMachine(runA, runB),
      differences: machineDifferences(runA, runB),
      speeds: speedsOf(runA, runB),
    },
    settings: settingDifferences(runA, runB),
    ...(counted && instructionAgreement(rows, runA, runB, micro)),
    rows,
    compared: rows.length,
    agreeing,
    shareAgreeing: rows.length ? agreeing / rows.length : null,
    judged: judged.length,
    consistent: consistentCount,
    shareConsistent: judged.length ? consistentCount / judged.length : null,
    medianHalfWidthPct: stats.median(widths),
    onlyInOne: onlyInOne.filter((id) => !served.some((r) => r.id === id)),
    ...(served.length && { served }),
    ...(addedP99.length && { addedP99 }),
    ...(base.length && { baseCosts: base }),
  };
}

// Instruction-count runs: how many ratios agree within INSTRUCTION_AGREEMENT_PCT, the
// largest difference, and the same for each configuration's instructions per request.
function instructionAgreement(rows, runA, runB, micro = false) {
  const levels = [];
  if (micro) {
    const la = microCountRatios(runA).levels;
    const lb = microCountRatios(runB).levels;
    for (const [id, a] of la)
      if (lb.has(id)) levels.push({ id, a, b: lb.get(id), differencePct: (lb.get(id) / a - 1) * 100 });
  }
  const byId = new Map((runB.configs || []).map((c) => [c.id, c]));
  for (const ca of micro ? [] : runA.configs || []) {
    const la = summary.instructionLevel(ca.samples);
    const lb = byId.has(ca.id) ? summary.instructionLevel(byId.get(ca.id).samples) : null;
    if (la && lb)
      levels.push({ id: ca.id, a: la.median, b: lb.median, differencePct: (lb.median / la.median - 1) * 100 });
  }
  const diffs = rows.map((r) => r.differencePct);
  return {
    instructions: {
      unit: micro ? 'operation' : 'request',
      limitPct: INSTRUCTION_AGREEMENT_PCT,
      within: diffs.filter((d) => d <= INSTRUCTION_AGREEMENT_PCT).length,
      maxDifferencePct: diffs.length ? Math.max(...diffs) : null,
      medianDifferencePct: stats.median(diffs),
      levels,
    },
  };
}

module.exports = {
  reproCompare, reproVerdict, missChance, ratios, consistent, machineOf, sameMachine, machineDifferences,
  INSTRUCTION_AGREEMENT_PCT, BAR,
};
