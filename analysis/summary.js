'use strict';
// From samples to what a configuration costs: which baseline sample a sample is compared
// with (pairing by burst, by block, by window), the throughput / CPU / instruction ratio
// of a config to its baseline with its interval and judgement (analysis/verdict.js), and
// the per-config `summary` object of docs/run-json.md. The maths is analysis/stats.js.
// Over 400 lines, one file on purpose: it is the one definition of a comparison; the
// pairing rules, the four kinds of ratio and summarize() that picks among them are read
// together when a figure is questioned, and split they would only import each other.
//
// Throughput is compared on the log scale: a ratio of throughputs is what a reader wants
// ("93% of baseline"), and log rps turns that ratio into a difference whose sampling error
// is roughly symmetric.

const {
  CONFIDENCE,
  mean,
  variance,
  median,
  tCritical,
  welch,
  oneSample,
  twoLevel,
  overlap,
  positive,
} = require('./stats');
const { baselineFor } = require('./comparable');
const { operatingRatio, isPhased, OPERATING_METHOD } = require('./operating-point');
const { isControl, carriesContext } = require('./registry');
const { BROKEN, CLIENT_BOUND, judge, judgeInstructions, verdictText, verdict, judgementOf } = require('./verdict');

const CLIENT_BOUND_CPU = 0.85;

// Accepts sample objects ({ round, rps }) or bare numbers (round = index). Keeps only
// samples with a positive finite throughput.
function normaliseSamples(samples) {
  const out = [];
  (samples || []).forEach((s, i) => {
    const rps = typeof s === 'number' ? s : s && s.rps;
    const round = typeof s === 'number' ? i : s && Number.isInteger(s.round) ? s.round : i;
    if (typeof rps === 'number' && Number.isFinite(rps) && rps > 0) out.push({ round, rps });
  });
  return out;
}

// ratio(cfgSamples, baseSamples, { paired = true }) -> throughput of cfg relative to base.
//   { estimate, ci95: [lo, hi] | null, halfWidthPct, pValue, paired, n }
// paired (the default when possible): rounds are interleaved (A B C A B C …), so round i of
// each config ran close together in time and shares the machine's drift. Samples are
// matched by `round`; the per-round log ratios are tested against 0 (one-sample t) and
// estimate = exp(mean log ratio). Pairing needs at least two matched rounds; otherwise,
// or with { paired: false }, Welch's test on log rps is used and estimate is the ratio of
// geometric means. n is the number of pairs (paired) or the smaller sample size (Welch).
// halfWidthPct: half the CI width, in percentage points of the baseline.
function ratio(cfgSamples, baseSamples, { paired = true, confidence = CONFIDENCE } = {}) {
  const a = normaliseSamples(cfgSamples);
  const b = normaliseSamples(baseSamples);
  const empty = { estimate: null, ci95: null, halfWidthPct: null, pValue: null, paired: false, n: 0 };
  if (a.length === 0 || b.length === 0) return empty;

  let test;
  let isPaired = false;
  let n;
  if (paired) {
    const byRound = new Map(b.map((s) => [s.round, s.rps]));
    const seen = new Set();
    const logRatios = [];
    for (const s of a) {
      if (byRound.has(s.round) && !seen.has(s.round)) {
        seen.add(s.round);
        logRatios.push(Math.log(s.rps) - Math.log(byRound.get(s.round)));
      }
    }
    if (logRatios.length >= 2) {
      isPaired = true;
      n = logRatios.length;
      test = oneSample(logRatios);
    }
  }
  if (!isPaired) {
    n = Math.min(a.length, b.length);
    test = welch(
      a.map((s) => Math.log(s.rps)),
      b.map((s) => Math.log(s.rps)),
    );
  }

  const estimate = Math.exp(test.diff);
  if (test.se === null) return { estimate, ci95: null, halfWidthPct: null, pValue: null, paired: isPaired, n };
  const half = test.se === 0 ? 0 : tCritical(test.df, confidence) * test.se;
  const ci95 = [Math.exp(test.diff - half), Math.exp(test.diff + half)];
  return {
    estimate,
    ci95,
    halfWidthPct: ((ci95[1] - ci95[0]) / 2) * 100,
    pValue: test.pValue,
    paired: isPaired,
    n,
    df: test.df,
  };
}

function sum(samples, key) {
  let s = 0;
  for (const x of samples || []) if (x && typeof x[key] === 'number' && Number.isFinite(x[key])) s += x[key];
  return s;
}

// Schema 2 records which baseline burst each sample sits next to (sample.pairSeq) and
// which server process it came from (sample.block). Schema 1 has neither: there the
// samples are paired by `round` and each round is its own unit (one warm process).
function isSchema2(samples) {
  return (samples || []).some((s) => s && Number.isInteger(s.block) && s.pairSeq !== undefined);
}

// samplePairs(cfgSamples, baseSamples, usable) -> [{ sample, base, unit }]: the one
// definition of which baseline sample a sample is compared with. Schema 2: the baseline
// burst whose seq is the sample's pairSeq (the adjacent burst the runner recorded), unit
// = the sample's block (its server process). Schema 1: the baseline sample of the same
// round, the first usable one per round, unit = the round. usable(sample, base) filters.
function samplePairs(cfgSamples, baseSamples, usable = () => true) {
  const out = [];
  if (isSchema2(cfgSamples)) {
    const bySeq = new Map((baseSamples || []).filter((b) => b && Number.isInteger(b.seq)).map((b) => [b.seq, b]));
    for (const s of cfgSamples || []) {
      const b = s && s.pairSeq !== null && s.pairSeq !== undefined ? bySeq.get(s.pairSeq) : null;
      if (b && usable(s, b)) out.push({ sample: s, base: b, unit: s.block });
    }
    return out;
  }
  const byRound = new Map();
  (baseSamples || []).forEach((b, i) => {
    if (b) byRound.set(Number.isInteger(b.round) ? b.round : i, b);
  });
  const seen = new Set();
  (cfgSamples || []).forEach((s, i) => {
    const round = s && Number.isInteger(s.round) ? s.round : i;
    const b = byRound.get(round);
    if (s && b && !seen.has(round) && usable(s, b)) {
      seen.add(round);
      out.push({ sample: s, base: b, unit: round });
    }
  });
  return out;
}

// pairs(cfgSamples, baseSamples, key) -> [{ block, d }]: the log ratio of each pair's
// `key` (rps, cpuUsPerRequest), by unit.
function pairs(cfgSamples, baseSamples, key = 'rps') {
  return samplePairs(cfgSamples, baseSamples, (s, b) => positive(s[key]) && positive(b[key])).map(
    ({ sample, base, unit }) => ({ block: unit, d: Math.log(sample[key]) - Math.log(base[key]) }),
  );
}

// pairedRatio(cfgSamples, baseSamples, key) -> twoLevel on the recorded pairs, plus the
// method in words.
function pairedRatio(cfgSamples, baseSamples, key = 'rps') {
  const two = isSchema2(cfgSamples);
  const r = twoLevel(pairs(cfgSamples, baseSamples, key));
  return {
    ...r,
    paired: r.n > 0,
    method: two
      ? 'adjacent pairs, log ratio averaged per block, t-interval over blocks (df = blocks - 1)'
      : 'pairs by round in one warm process per config (schema 1): each round is a unit; restarts are not in ' +
        'the interval',
  };
}

// blockLogMeans(samples, key) -> Map(block -> mean of log sample[key]): the per-process
// (block) means that levels and block-unit ratios are built from. Schema 1: each round is
// its own block. Samples without a positive `key` are skipped.
function blockLogMeans(samples, key = 'rps') {
  const byBlock = new Map();
  (samples || []).forEach((s, i) => {
    if (!s || !positive(s[key])) return;
    const b = Number.isInteger(s.block) ? s.block : Number.isInteger(s.round) ? s.round : i;
    if (!byBlock.has(b)) byBlock.set(b, []);
    byBlock.get(b).push(Math.log(s[key]));
  });
  return new Map([...byBlock].map(([b, xs]) => [b, mean(xs)]));
}

// blockRatio(cfgSamples, baseSamples, key) -> the ratio of two configurations measured in
// the same blocks but not side by side (other frameworks, say): per block, the difference of
// their mean log `key`; the estimate is its mean over blocks and the interval a t-interval
// over blocks. Wider than an adjacent pair's (the machine drifts within a block) but of the
// same statistic as its figure. { estimate, ci95, halfWidthPct, pValue, paired, n, unit }.
function blockRatio(cfgSamples, baseSamples, key = 'rps') {
  const a = blockLogMeans(cfgSamples, key);
  const b = blockLogMeans(baseSamples, key);
  const diffs = [...a].filter(([block]) => b.has(block)).map(([block, x]) => x - b.get(block));
  if (!diffs.length)
    return { estimate: null, ci95: null, halfWidthPct: null, pValue: null, paired: true, n: 0, unit: 'block' };
  const t = oneSample(diffs);
  const estimate = Math.exp(mean(diffs));
  if (t.se === null || diffs.length < 2)
    return { estimate, ci95: null, halfWidthPct: null, pValue: null, paired: true, n: diffs.length, unit: 'block' };
  const half = t.se === 0 ? 0 : tCritical(diffs.length - 1) * t.se;
  const ci95 = [Math.exp(mean(diffs) - half), Math.exp(mean(diffs) + half)];
  return {
    estimate,
    ci95,
    halfWidthPct: ((ci95[1] - ci95[0]) / 2) * 100,
    pValue: t.pValue,
    paired: true,
    n: diffs.length,
    unit: 'block',
  };
}

// sameRunRatio(cfgSamples, baseSamples) -> the req/s ratio of two configurations of one run
// that are not a config and its adjacent baseline (another Node version, the other ACF
// mode): schema 2 pairs them by block (both measured in each block of fresh processes;
// the process is the unit), schema 1 by round.
function sameRunRatio(cfgSamples, baseSamples) {
  return isSchema2(cfgSamples) ? blockRatio(cfgSamples, baseSamples) : ratio(cfgSamples, baseSamples, { paired: true });
}

// The level of a run's throughput: per block, the geometric mean of its samples; the
// estimate is the geometric mean over blocks and its interval the t-interval over the
// block log-means, so the figure and its interval are of the same statistic. Schema 1:
// each round is its own block.
function rpsLevel(samples) {
  const means = [...blockLogMeans(samples, 'rps').values()];
  if (!means.length) return { estimate: null, ci95: null, statistic: null };
  const statistic = isSchema2(samples)
    ? 'geometric mean over blocks of per-block geometric means'
    : 'geometric mean of rounds';
  const m = mean(means);
  if (means.length < 2) return { estimate: Math.exp(m), ci95: null, statistic };
  const half = tCritical(means.length - 1) * Math.sqrt(variance(means) / means.length);
  return { estimate: Math.exp(m), ci95: [Math.exp(m - half), Math.exp(m + half)], statistic };
}

// isBroken(config, lost, mismatches): a strategy that should carry context but lost or
// mixed ids. `global` is the control (it leaks by design) and `none` carries nothing.
function isBroken(config, counts) {
  if (!(counts.lost > 0 || counts.mismatches > 0)) return false;
  if (config.strategy === 'none' || config.strategy === 'global') return false;
  // An unknown strategy that lost ids is broken all the same.
  return !isControl(config.strategy) && carriesContext(config.strategy);
}

// Duet windows (bench/duet-windows.js) are samples of kind 'window'; each group's load counts are
// of kind 'duet'. Neither is a solo burst: only solo samples (no kind, or 'solo') give a
// configuration its own req/s, p99 and CPU level.
const isSolo = (s) => Boolean(s) && (s.kind === undefined || s.kind === 'solo');

// duetRatios(windows) -> the ratios of a duet-measured config to its partner, from the
// windows that counted, with the group (one pair of fresh processes per block) as the
// unit: log ratios averaged per block, t-interval over blocks (twoLevel).
//   ratio:  partner's CPU µs per request ÷ this one's, read like throughput (93% = costs
//           7% more CPU per request): summary.ratio, the figure the verdict is on;
//   shared: this one's requests ÷ the partner's in the same windows (throughput on the
//           shared CPU; equal to the ratio only when both got the same CPU share).
function duetRatios(windows) {
  const counted = (windows || []).filter(
    (w) => w && w.counted && positive(w.cpuUsPerRequest) && positive(w.partnerCpuUsPerRequest),
  );
  const ratio = twoLevel(
    counted.map((w) => ({ block: w.block, d: Math.log(w.partnerCpuUsPerRequest) - Math.log(w.cpuUsPerRequest) })),
  );
  const shared = twoLevel(
    counted
      .filter((w) => positive(w.requests) && positive(w.partnerRequests))
      .map((w) => ({ block: w.block, d: Math.log(w.requests) - Math.log(w.partnerRequests) })),
  );
  return { ratio, shared, counted: counted.length, dropped: (windows || []).filter((w) => w && !w.counted).length };
}

// Instruction-count windows (bench/instruction-windows.js) are samples of kind 'instructions':
// per window, the requests served and the instructions executed (callgrind, Ir).
const isInstructionWindow = (s) => Boolean(s) && s.kind === 'instructions' && positive(s.perRequest);

// Instructions per request of each process (block) of a config: its windows' instructions
// over their requests. -> Map(block -> { perRequest, windows: Map(index -> perRequest) }).
function instructionProcesses(samples) {
  const byBlock = new Map();
  for (const s of (samples || []).filter(isInstructionWindow)) {
    if (!byBlock.has(s.block)) byBlock.set(s.block, { instructions: 0, requests: 0, windows: new Map() });
    const b = byBlock.get(s.block);
    b.instructions += s.instructions;
    b.requests += s.requests;
    b.windows.set(s.window, s.perRequest);
  }
  return new Map([...byBlock].map(([k, b]) => [k, { perRequest: b.instructions / b.requests, windows: b.windows }]));
}

// The instruction level of a config: the median over processes of each one's instructions
// per request, with the spread between processes ((max - min) / median, in percent).
function instructionLevel(samples) {
  const per = [...instructionProcesses(samples).values()].map((p) => p.perRequest);
  if (!per.length) return null;
  const mid = median(per);
  return { median: mid, processes: per.length, spreadPct: ((Math.max(...per) - Math.min(...per)) / mid) * 100 };
}

// A spread below this (in percent of the ratio) is the instruction count's own
// repeatability from process to process (docs/investigations.md, "A bound instead of 24
// windows"): a ratio whose windows all
// fall within it needs no interval to be read.
const INSTRUCTION_SPREAD_OK = 0.5;

const INSTRUCTION_METHOD =
  'instruction count (callgrind, one request in flight, node flags as in settings.nodeFlags): per window of N ' +
  "requests at the same request index, the baseline process's instructions per request ÷ this one's; log " +
  'ratios averaged per block (pair of processes), t-interval over blocks; range = lowest and highest window ' +
  'ratio';

// A config's warm-up length per block (its process records): windows of the same index
// are at the same request index only in processes with the same warm-up.
function warmupSchedule(config) {
  return new Map(
    (config?.processes || []).filter((p) => Array.isArray(p.warmup)).map((p) => [p.block, p.warmup.length]),
  );
}

// instructionRatio(cfgSamples, baseSamples, { cfgSchedule, baseSchedule }) -> the ratio
// read like throughput (baseline instructions per request ÷ this config's: 95% = executes
// 5.3% more instructions). In a block whose two processes warmed up for the same number
// of windows, window i is compared with window i (the same request index: comparable even
// where the count had not settled); where one process settled earlier, the two processes'
// means are compared and the range spans every pair of their windows (sameSchedule false).
// range = [lowest, highest] window ratio, spreadPct = half the range in percent of the estimate.
function instructionRatio(cfgSamples, baseSamples, { cfgSchedule = new Map(), baseSchedule = new Map() } = {}) {
  const cfg = instructionProcesses(cfgSamples);
  const base = instructionProcesses(baseSamples);
  const ps = [];
  const ratios = [];
  let sameSchedule = true;
  for (const [block, p] of cfg) {
    const b = base.get(block);
    if (!b) continue;
    if (cfgSchedule.get(block) === baseSchedule.get(block)) {
      for (const [index, perRequest] of p.windows) {
        if (!b.windows.has(index)) continue;
        ps.push({ block, d: Math.log(b.windows.get(index)) - Math.log(perRequest) });
        ratios.push(b.windows.get(index) / perRequest);
      }
    } else {
      sameSchedule = false;
      ps.push({ block, d: Math.log(b.perRequest) - Math.log(p.perRequest) });
      for (const x of b.windows.values()) for (const y of p.windows.values()) ratios.push(x / y);
    }
  }
  const r = twoLevel(ps);
  if (r.estimate === null) return { ...r, range: null, spreadPct: null, sameSchedule };
  const range = [Math.min(...ratios), Math.max(...ratios)];
  return { ...r, range, spreadPct: ((range[1] - range[0]) / 2 / r.estimate) * 100, sameSchedule };
}

const DUET_METHOD =
  'duet: both servers under load at once on one CPU; per window the ratio of server CPU µs per request, log ' +
  'ratios averaged per block (pair of fresh processes), t-interval over blocks (df = blocks - 1)';
const PAIR_METHOD =
  'pair at a fixed rate: both servers sent the same open-loop schedule at once, on one CPU; per window the ' +
  'ratio of server CPU µs per request, log ratios averaged per block (pair of fresh processes), t-interval ' +
  'over blocks (df = blocks - 1)';

const invert = (r) =>
  r.estimate === null ? r : { ...r, estimate: 1 / r.estimate, ci95: r.ci95 && [1 / r.ci95[1], 1 / r.ci95[0]] };

// summarize(config, baselineConfig | null) -> the `summary` object of docs/run-json.md
// (schema 2). Schema 1 configs get the same shape, paired by round.
// marginPct: the equivalence margin of the ratio's judgement (the run's --margin).
function summarize(config, baselineConfig = null, { marginPct } = {}) {
  const all = (config && config.samples) || [];
  const samples = all.filter(isSolo);
  const windows = all.filter((s) => s && s.kind === 'window');
  const valid = samples.filter((s) => s && positive(s.rps));
  const counts = {
    mismatches: sum(all, 'mismatches'),
    lost: sum(all, 'lost'),
    errors: sum(all, 'errors'),
    non2xx: sum(all, 'non2xx'),
  };
  const broken = isBroken(config || {}, counts);
  // The curl driver's client is the curl processes: their load CPU's busy share (loadCpu).
  const loadgen = median(valid.map((s) => s.loadgenCpu ?? s.loadCpu ?? null));
  const clientBound = loadgen !== null && loadgen >= CLIENT_BOUND_CPU;
  const blocks = new Set(
    valid.map((s, i) => (Number.isInteger(s.block) ? s.block : `r${Number.isInteger(s.round) ? s.round : i}`)),
  ).size;
  let ratio = null;
  let cpuRatio = null;
  let sharedRatio = null;
  let disagree = false;
  const instructions = instructionLevel(all);
  if (instructions && baselineConfig && baselineConfig !== config && baselineConfig.id !== config.id) {
    const r = instructionRatio(all, baselineConfig.samples, {
      cfgSchedule: warmupSchedule(config),
      baseSchedule: warmupSchedule(baselineConfig),
    });
    const judgement = judgeInstructions(r, { broken });
    ratio = {
      baseline: baselineConfig.id,
      ...r,
      paired: r.n > 0,
      quantity: 'instructions',
      method: INSTRUCTION_METHOD,
      judgement,
      verdict: verdictText(judgement, { quantity: 'instructions' }),
    };
  } else if (baselineConfig && baselineConfig !== config && baselineConfig.id !== config.id && windows.length) {
    const d = duetRatios(windows);
    const windowCounts = { counted: d.counted, dropped: d.dropped };
    // A pair's windows are at a fixed rate: both served the same requests, so the ratio of
    // requests served (the duet's shared throughput) says nothing there.
    const atRate = windows.some((w) => w.method === 'pair');
    // At the autoscaler's operating point each side is read at its own rate
    // (analysis/operating-point.js): the ratio is the per-instance throughput at the target.
    const operating = windows.some(isPhased);
    if (operating) d.ratio = operatingRatio(config);
    const method = operating ? OPERATING_METHOD : atRate ? PAIR_METHOD : DUET_METHOD;
    // The windows already leave out client-bound seconds: the verdict stands.
    const judgement = judge(d.ratio, 0.05, { broken, marginPct });
    ratio = {
      baseline: baselineConfig.id,
      ...d.ratio,
      paired: d.ratio.n > 0,
      quantity: 'cpu',
      method,
      ...(atRate && !operating && { rate: windows.find((w) => w.rate)?.rate ?? null }),
      windows: windowCounts,
      judgement,
      verdict: verdictText(judgement),
    };
    cpuRatio = {
      baseline: baselineConfig.id,
      ...invert(d.ratio),
      paired: d.ratio.n > 0,
      method,
      judgement,
      verdict: ratio.verdict,
    };
    if (!atRate) {
      const shared = judge(d.shared, 0.05, { broken, marginPct });
      sharedRatio = {
        baseline: baselineConfig.id,
        ...d.shared,
        quantity: 'shared throughput',
        judgement: shared,
        verdict: verdictText(shared),
      };
      disagree = Boolean(ratio.ci95 && sharedRatio.ci95 && !overlap(ratio.ci95, sharedRatio.ci95));
    }
  } else if (baselineConfig && baselineConfig !== config && baselineConfig.id !== config.id) {
    const base = (baselineConfig.samples || []).filter(isSolo);
    const q = pairedRatio(valid, base, 'rps');
    const judgement = judge(q, 0.05, { broken, clientBound, marginPct });
    ratio = { baseline: baselineConfig.id, ...q, judgement, verdict: verdictText(judgement) };
    const c = pairedRatio(samples, base, 'cpuUsPerRequest');
    // CPU per request rises when a strategy costs more: its ratio reads the other way
    // round from throughput, so the verdict is on base/cfg to keep "slower" meaning cost.
    const cpuJudgement = judge(invert(c), 0.05, { broken, clientBound, marginPct });
    cpuRatio = c.n
      ? { baseline: baselineConfig.id, ...c, judgement: cpuJudgement, verdict: verdictText(cpuJudgement) }
      : null;
    // Throughput ratio r and CPU ratio c tell the same story when r ≈ 1/c: disagree when
    // the throughput interval and the inverted CPU interval do not overlap.
    disagree = Boolean(
      ratio &&
      cpuRatio &&
      ratio.ci95 &&
      cpuRatio.ci95 &&
      !overlap(ratio.ci95, [1 / cpuRatio.ci95[1], 1 / cpuRatio.ci95[0]]),
    );
  }
  const level = rpsLevel(valid);
  return {
    n: valid.length,
    blocks: blocks || instructions?.processes || 0,
    rps: { ...level, median: median(valid.map((s) => s.rps)) },
    p99: { median: median(valid.map((s) => s.latency && s.latency.p99)) },
    cpuUsPerRequest: { median: median(valid.map((s) => s.cpuUsPerRequest)) },
    // Event-loop utilization under the load the ratio was measured at: the duet windows
    // where there are any, else the solo bursts; null where the run did not record it.
    elu: { median: median((windows.length ? windows : valid).map((s) => s.elu).filter((x) => Number.isFinite(x))) },
    ...(instructions && { instructions }),
    loadgenCpu: loadgen,
    ratio,
    cpuRatio,
    ...(sharedRatio && { sharedRatio }),
    disagree,
    broken,
    clientBound,
    ...counts,
  };
}

// Summary recomputed from the samples (so every section uses the same statistics), or
// the stored one when a config carries no samples.
function summaryOf(config, configs, baseline) {
  if ((config.samples || []).length) return summarize(config, baselineFor(config, configs, baseline));
  return config.summary || summarize(config, null);
}

module.exports = {
  summaryOf,
  ratio,
  pairs,
  samplePairs,
  pairedRatio,
  blockLogMeans,
  blockRatio,
  sameRunRatio,
  isSchema2,
  rpsLevel,
  BROKEN,
  CLIENT_BOUND,
  CLIENT_BOUND_CPU,
  judge,
  judgeInstructions,
  judgementOf,
  verdictText,
  verdict,
  summarize,
  duetRatios,
  isSolo,
  instructionProcesses,
  instructionLevel,
  instructionRatio,
  warmupSchedule,
  INSTRUCTION_SPREAD_OK,
};
