'use strict';
// The deployment answer at the autoscaler's operating point (settings.targetCpu; the pair's
// windows of bench/methods/pair.js operatingBlock, each marked with its phase). Per window
// of a pair of fresh stand-ins, the baseline's CPU per request ÷ the candidate's, each at
// its own operating point at once: both at the rate where the baseline used its target
// share of the quota (phase 'base'), or, where the candidate's cost there was more than 5%
// from the baseline's, the baseline at that rate and the candidate at the rate where its
// share was the baseline's (phase 'own'). CPU per request is share × quota ÷ rate, so that
// ratio is the candidate's throughput per instance at the same CPU target as % of the
// baseline's, read like the other columns. Paired in the same windows because a window's
// CPU per request moves by a fifth or more on both sides at once (docs/deploy.md, "How the
// operating point is found"): a ratio across phases would carry it. Log ratios per window,
// averaged per block, t-interval over blocks (stats.twoLevel). Instances per 1,000 req/s:
// 1,000 × the baseline's CPU per request ÷ (quota × target), the candidate's that ÷ the
// block's ratio; geometric mean over blocks, t-interval on the log. The tail each side's
// users see there: every request of every block pooled per side, intervals by resampling
// blocks (analysis/pooled-tail.js).
const hdr = require('hdr-histogram-js');
const ss = require('simple-statistics');
const { twoLevel, describe, mean, tPValue } = require('./stats');
const { pooledTails } = require('./pooled-tail');
const { newHistogram, percentiles } = require('../lib/histogram');
const { concurrencyAllowed: allowedOf } = require('../lib/instances');

const PER = 1000;
const isPhased = (s) => s && s.kind === 'window' && s.method === 'pair' && typeof s.phase === 'string';
const positive = (x) => Number.isFinite(x) && x > 0;

// A window's CPU µs per request on one side: the cgroup's (what the quota counts) where the
// stand-in had one, else the process's.
function cpuPerRequest(w, side) {
  const own = side === 'candidate';
  const inst = own ? w.instance : w.partnerInstance;
  const v = inst?.cpuUsPerRequest ?? (own ? w.cpuUsPerRequest : w.partnerCpuUsPerRequest);
  return positive(v) ? v : null;
}

// A window's µs of an instance per request on one side at whichever of the autoscaler's
// targets bound first, as the run recorded it (bench/rates/at-target.js); runs before it was
// recorded: the CPU per request (the ratio is the same where the CPU binds on both sides).
function costPerRequest(w, side) {
  const v = side === 'candidate' ? w.instanceUsPerRequest : w.partnerInstanceUsPerRequest;
  return positive(v) ? v : cpuPerRequest(w, side);
}
const boundOf = (w, side) => (side === 'candidate' ? w.bound : w.partnerBound);

const geo = (xs) => (xs.length ? Math.exp(mean(xs.map(Math.log))) : null);

function merged(windows, key) {
  const h = newHistogram();
  for (const w of windows) if (typeof w[key] === 'string') h.add(hdr.decodeFromCompressedBase64(w[key]));
  return h;
}

function throttled(windows, side) {
  let periods = 0;
  let n = 0;
  for (const w of windows) {
    const inst = side === 'candidate' ? w.instance : w.partnerInstance;
    periods += inst?.periods || 0;
    n += inst?.throttled || 0;
  }
  return periods > 0 ? n / periods : null;
}

// Requests in flight on average over a side's windows, which the autoscaler's concurrency
// target is on: the time its answers held a connection ÷ the wall time, where the run recorded
// it (from 2026-12-05); before, Little's law on the latencies from intended send times (their
// waits in the generator's queue included, so above the instance's own); h: those windows'
// merged latency histogram (the tail's); null without either.
function inFlight(h, windows, key, side) {
  const busy = side === 'candidate' ? 'busyUsPerRequest' : 'partnerBusyUsPerRequest';
  const schedule = side === 'candidate' ? 'schedule' : 'partnerSchedule';
  const held = windows.filter((w) => Number.isFinite(w[busy]) && w[schedule]?.answered > 0 && w.wallMs > 0);
  if (held.length)
    return (
      held.reduce((a, w) => a + w[busy] * w[schedule].answered, 0) / held.reduce((a, w) => a + w.wallMs * 1000, 0)
    );
  const wallUs = windows.filter((w) => typeof w[key] === 'string').reduce((a, w) => a + (w.wallMs || 0) * 1000, 0);
  return h.totalCount && wallUs > 0 ? (h.totalCount * h.mean) / wallUs : null;
}

// A side's share of its CPU quota over its counted windows: its cgroup's CPU µs ÷ the quota's
// µs over their wall time, as the search reads a step (bench/rates/operating-point.js spanShare);
// runs without the cgroup's µs: its CPU per request × its answers. null without either.
function quotaShare(windows, side, cpus) {
  let used = 0;
  let wallUs = 0;
  for (const w of windows) {
    const inst = side === 'candidate' ? w.instance : w.partnerInstance;
    const answered = side === 'candidate' ? w.requests : w.partnerRequests;
    const perRequest = cpuPerRequest(w, side);
    const us = positive(inst?.cpuUs) ? inst.cpuUs : perRequest && positive(answered) ? perRequest * answered : null;
    if (!w.counted || !positive(us) || !positive(w.wallMs)) continue;
    used += us;
    wallUs += w.wallMs * 1000;
  }
  return wallUs > 0 && positive(cpus) ? used / (wallUs * cpus) : null;
}

// The share of a side's counted windows whose instance count the concurrency target set
// (null where the run recorded no bound).
function boundShare(windows, side) {
  const known = windows.filter((w) => w.counted && boundOf(w, side));
  return known.length ? known.filter((w) => boundOf(w, side) === 'concurrency').length / known.length : null;
}

// What the ratio rests on: the baseline's CPU per request at its operating point per block
// (its geometric mean over blocks, and their range), and whether the candidate's block ratios
// moved with it (Pearson's r of the log ratio on the log cost over blocks, two-sided t-test;
// elasticity: the slope, d ln ratio / d ln cost). A stand-in's cost of a lightly loaded request
// is the machine's state: on one host it moved fivefold between one run's blocks and the dearer
// strategies' ratios followed it (docs/deploy.md, "What the ratio rests on"), so such a ratio's
// interval holds for that run's mix of states, not for the next run's.
// A ratio "moves with the base" where that test gives p < BASE_ALPHA and the slope moves it by
// at least BASE_MOVE over the blocks' range of the baseline's cost (a twin's r can be significant
// with a slope of 0.03: nothing a reader should act on).
const BASE_ALPHA = 0.05;
const BASE_MOVE = 0.05;
function baseOf(blocks) {
  const pts = blocks.filter((b) => b.ds.length && positive(b.cpu.baseline));
  const costs = pts.map((b) => b.cpu.baseline);
  const n = pts.length;
  const out = { cpu: positiveWithCi(costs), range: n ? [Math.min(...costs), Math.max(...costs)] : null };
  const xs = costs.map(Math.log);
  const ys = pts.map((b) => mean(b.ds));
  if (n < 4 || ss.variance(xs) === 0 || ss.variance(ys) === 0) return { ...out, dependence: null };
  const r = ss.sampleCorrelation(xs, ys);
  // |r| = 1: an infinite t, p 0.
  const pValue = tPValue((r * Math.sqrt(n - 2)) / Math.sqrt(Math.max(0, 1 - r * r)), n - 2);
  const elasticity = ss.linearRegression(xs.map((x, i) => [x, ys[i]])).m;
  // The ratio's move over the range: × (max ÷ min) ^ elasticity.
  const move = (out.range[1] / out.range[0]) ** elasticity - 1;
  const moves = pValue < BASE_ALPHA && Math.abs(move) >= BASE_MOVE;
  return { ...out, dependence: { r, elasticity, pValue, n, move, moves } };
}

// Instances per PER req/s said the other way: req/s per instance at the targets, PER ÷ the
// figure, its interval PER ÷ the figure's ends (the same measurement, so reciprocal).
function reciprocal(x) {
  if (!x) return null;
  return { estimate: PER / x.estimate, ci95: x.ci95 ? [PER / x.ci95[1], PER / x.ci95[0]] : null, n: x.n };
}

function withCi(values) {
  const d = describe(values);
  return d.n ? { estimate: d.mean, ci95: d.ci95 ?? null, n: values.length } : null;
}

// A count of instances is positive: its mean and interval over blocks on the log (the
// geometric mean), never an interval below zero (seen with 2 blocks on a busy machine).
function positiveWithCi(values) {
  const d = describe(values.filter(positive).map(Math.log));
  return d.n
    ? { estimate: Math.exp(d.mean), ci95: d.ci95 ? d.ci95.map(Math.exp) : null, n: d.n }
    : null;
}

// The blocks of one candidate configuration -> [{ block, own (the pair measured at the
// candidate's rate), rate: { baseline, candidate }, ds (per-window log ratios of the windows
// the figure is read from), cpu: { baseline } (geometric mean of its phase-'base' windows),
// baseWindows, candidateWindows }]: the windows of each side at its operating point.
function blocksOf(config) {
  const byBlock = new Map();
  for (const w of (config.samples || []).filter(isPhased)) {
    if (!byBlock.has(w.block)) byBlock.set(w.block, { base: [], own: [] });
    byBlock.get(w.block)[w.phase === 'own' ? 'own' : 'base'].push(w);
  }
  const paired = (w) =>
    w.counted && positive(costPerRequest(w, 'baseline')) && positive(costPerRequest(w, 'candidate'));
  const d = (w) => Math.log(costPerRequest(w, 'baseline') / costPerRequest(w, 'candidate'));
  const out = [];
  for (const [block, { base, own }] of [...byBlock].sort((a, b) => a[0] - b[0])) {
    const candidateWindows = own.length ? own : base;
    out.push({
      block,
      own: own.length > 0,
      rate: { baseline: base[0]?.partnerRate ?? base[0]?.rate ?? null, candidate: candidateWindows[0]?.rate ?? null },
      ds: candidateWindows.filter(paired).map(d),
      baseDs: base.filter(paired).map(d),
      cpu: {
        baseline: geo(
          [...base, ...own]
            .filter((w) => w.counted)
            .map((w) => cpuPerRequest(w, 'baseline'))
            .filter(positive),
        ),
      },
      // µs of an instance per request at the targets, where the run recorded it.
      instanceUs: {
        baseline: geo(
          [...base, ...own]
            .filter((w) => w.counted)
            .map((w) => w.partnerInstanceUsPerRequest)
            .filter(positive),
        ),
      },
      // The baseline is at its operating point in both phases.
      baseWindows: [...base, ...own],
      candidateWindows,
    });
  }
  return out;
}

// Instances per PER req/s per side, geometric mean over blocks: where the run recorded each
// window's µs of an instance, those (at whichever target bound); before, the CPU target's.
function instancesOf(blocks, instance, targetCpu) {
  const capacityUs = instance && targetCpu ? instance.cpus * 1e6 * targetCpu : null;
  if (!capacityUs) return { baseline: null, candidate: null };
  const usable = blocks.filter((b) => b.ds.length && positive(b.cpu.baseline));
  const perBase = (b) =>
    b.instanceUs.baseline ? (PER * b.instanceUs.baseline) / 1e6 : (PER * b.cpu.baseline) / capacityUs;
  return {
    baseline: positiveWithCi(usable.map(perBase)),
    candidate: positiveWithCi(usable.map((b) => perBase(b) / Math.exp(mean(b.ds)))),
  };
}

// operatingPoint(config, { instance, targetCpu, slo }) -> null when the config has no phased
// windows; else { target, blocks, ownBlocks, ratio (twoLevel: baseline ÷ candidate CPU per
// request, each at its own operating point), sameRate (twoLevel of the phase-'base' windows
// alone: both at the baseline's rate), rates { baseline, candidate } (mean req/s sent, with
// CI), instances { baseline, candidate } per PER req/s, perInstance (the same as req/s per
// instance), share { baseline, candidate } (of the quota, in the windows read), base { cpu,
// range, dependence } (the baseline's CPU µs per request there and whether the ratio moved
// with it: baseOf), throttled { baseline, candidate } (share of CFS periods), tails
// (pooledTails, with the SLO's share over its bound), inFlight { baseline, candidate }
// (requests in flight there) and concurrencyAllowed (the request limit
// × the concurrency target), concurrencyBound (the candidate's above it), lateness (the
// generator's p99 over those windows, ms), generatorLimited { baseline, candidate } }.
// The ratio alone (the summary's: analysis/summary.js), without the tails' resampling.
function operatingRatio(config) {
  const blocks = blocksOf(config);
  return blocks.length ? twoLevel(blocks.flatMap((b) => b.ds.map((d) => ({ block: b.block, d })))) : null;
}

function operatingPoint(config, { instance = null, targetCpu = null, slo = null } = {}) {
  const blocks = blocksOf(config);
  if (!blocks.length) return null;
  const ratio = twoLevel(blocks.flatMap((b) => b.ds.map((d) => ({ block: b.block, d }))));
  const sameRate = twoLevel(blocks.flatMap((b) => b.baseDs.map((d) => ({ block: b.block, d }))));
  const instances = instancesOf(blocks, instance, targetCpu);
  // Each block's latencies per side, merged once: the pooled tail and the requests in flight.
  const latencies = blocks.map((b) => ({
    block: b.block,
    baseline: merged(b.baseWindows, 'partnerHistogram'),
    candidate: merged(b.candidateWindows, 'histogram'),
  }));
  const tails = pooledTails(latencies, { boundMs: slo?.boundMs ?? null });
  const flights = (side, key, windows) =>
    positiveWithCi(blocks.map((b, i) => inFlight(latencies[i][side], b[windows], key, side)).filter(positive));
  const inFlights = {
    baseline: flights('baseline', 'partnerHistogram', 'baseWindows'),
    candidate: flights('candidate', 'histogram', 'candidateWindows'),
  };
  const all = (key) => blocks.flatMap((b) => b[key]);
  // Each side's share of its quota per block, in the windows its figures are read from.
  const shares = (side, windows) =>
    withCi(blocks.map((b) => quotaShare(b[windows], side, instance?.cpus)).filter(positive));
  // The autoscaler's concurrency target (runs before it was recorded: the platforms' 0.6).
  const concurrencyAllowed = allowedOf(instance);
  const boundBy = {
    baseline: boundShare(all('baseWindows'), 'baseline'),
    candidate: boundShare(all('candidateWindows'), 'candidate'),
  };
  const lateness = {
    baseline: percentiles(merged(all('baseWindows'), 'latenessHistogram')).p99 ?? null,
    candidate: percentiles(merged(all('candidateWindows'), 'latenessHistogram')).p99 ?? null,
  };
  // Required here: analysis/pair.js requires summary.js, which requires this file.
  const { LATENESS_SHARE } = require('./pair');
  const limited = (side) =>
    Boolean(tails && Number.isFinite(lateness[side]) && lateness[side] > LATENESS_SHARE * tails[side].p99);
  return {
    target: targetCpu,
    blocks: ratio.blocks,
    // Of the blocks the figure is read from (ratio.blocks): a block without a paired window
    // gives no figure, wherever it was measured.
    ownBlocks: blocks.filter((b) => b.own && b.ds.length).length,
    ratio,
    sameRate,
    rates: {
      baseline: withCi(blocks.map((b) => b.rate.baseline).filter(positive)),
      candidate: withCi(blocks.map((b) => b.rate.candidate).filter(positive)),
    },
    instances,
    // The same figures per instance: req/s at the targets (not the rate sent: rates).
    perInstance: { baseline: reciprocal(instances.baseline), candidate: reciprocal(instances.candidate) },
    // The share of its quota each side used where its figures were read (mean over blocks):
    // the search stops within its tolerance of the target, not on it.
    share: { baseline: shares('baseline', 'baseWindows'), candidate: shares('candidate', 'candidateWindows') },
    base: baseOf(blocks),
    throttled: {
      baseline: throttled(all('baseWindows'), 'baseline'),
      candidate: throttled(all('candidateWindows'), 'candidate'),
    },
    tails,
    // Per side, geometric mean over blocks.
    inFlight: inFlights,
    concurrencyAllowed,
    // Per side, the share of its counted windows whose instance count the concurrency target
    // set (the figure is read there); null for runs that recorded no bound.
    boundBy,
    // A run that recorded no bound, with the candidate above concurrencyAllowed: that target,
    // not the CPU's, decides its instance count, and the instances above are a lower bound.
    concurrencyBound:
      boundBy.candidate === null && concurrencyAllowed !== null && inFlights.candidate?.estimate > concurrencyAllowed,
    lateness,
    generatorLimited: { baseline: limited('baseline'), candidate: limited('candidate') },
    perRequests: PER,
  };
}

// A run at the autoscaler's operating point (settings.targetCpu): per candidate
// configuration (the A/A twin among them) its figures there and its summary, in the run's
// order. [] for any other run.
// Each run's, once: the tails resample every block 2,000 times, and the headline and a
// page ask for them per strategy.
const pointsOf = new WeakMap();
function operatingPoints(run) {
  const s = run?.settings;
  if (!s?.targetCpu) return [];
  if (pointsOf.has(run)) return pointsOf.get(run);
  // Required here: summary.js requires this file for the ratio.
  const { summaryOf } = require('./summary');
  const points = (run.configs || [])
    .filter((c) => c.strategy !== s.baseline || c.arm === 'aa')
    .map((config) => ({
      config,
      op: operatingPoint(config, { instance: s.instance, targetCpu: s.targetCpu, slo: s.slo }),
      summary: summaryOf(config, run.configs, s.baseline),
    }))
    .filter((r) => r.op);
  pointsOf.set(run, points);
  return points;
}

module.exports = {
  operatingPoint,
  operatingRatio,
  operatingPoints,
  blocksOf,
  isPhased,
  PER,
};
