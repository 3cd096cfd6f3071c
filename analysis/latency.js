'use strict';
// Latency statistics of rate-mode (open-loop) samples. A percentile is not an average:
// the p99 of a block is the p99 of ALL its requests, so each sample's HDR histogram is
// merged exactly with the others of its unit (the server-process block; the round for
// runs without blocks), the percentiles are read off the merged histogram, and the 95%
// interval is a t-interval across units. The added latency of a strategy is paired with
// its baseline at the same load (same group, see analysis/comparable.js) unit by unit.
//
// A configuration that did not hold its rate (load/open-loop.js heldRate) reports no
// latencies: its queue grew without bound, so any percentile would only say how long
// the sample ran.
const hdr = require('hdr-histogram-js');
const { describe, oneSample } = require('./stats');
const { strategyInfo } = require('./registry');
const { baselineFor } = require('./comparable');
const { newHistogram, percentiles: histogramPercentiles, HELD_MIN } = require('../lib/histogram');
const { pairLatencySummary, pairBaselineSummary, isPairConfig } = require('./pair');

const PERCENTILES = [
  { key: 'p50', q: 50 },
  { key: 'p90', q: 90 },
  { key: 'p99', q: 99 },
  { key: 'p99_9', q: 99.9 },
];
// Fewer requests than this in a unit leave fewer than ~10 beyond the percentile: the
// figure is then marked thin (imprecise even before the interval says so).
const minCount = (q) => Math.ceil(10 / (1 - q / 100));

const ALPHA = 0.05;

function isRateSample(s) {
  return Boolean(s && typeof s.histogram === 'string' && s.heldRate);
}

function isRateConfig(config) {
  return Boolean(config && Array.isArray(config.samples) && config.samples.some(isRateSample));
}

function decode(b64) {
  const h = hdr.decodeFromCompressedBase64(b64);
  return h;
}

// The unit samples are merged in: schema-2 blocks when present, else rounds.
function unitKey(samples) {
  return samples.every((s) => Number.isInteger(s.block)) ? 'block' : 'round';
}

// samples -> Map(unit -> merged histogram), in unit order.
function mergeByUnit(samples, key = unitKey(samples)) {
  const units = new Map();
  for (const s of samples) {
    if (!isRateSample(s)) continue;
    const u = s[key] ?? 0;
    if (!units.has(u)) units.set(u, newHistogram());
    units.get(u).add(decode(s.histogram));
  }
  return new Map([...units.entries()].sort((a, b) => a[0] - b[0]));
}

function mergeAll(samples) {
  const h = newHistogram();
  for (const s of samples) if (isRateSample(s)) h.add(decode(s.histogram));
  return h;
}

// Held-rate check over a config's samples: every sample must have held its rate.
function heldCheck(samples) {
  const rate = samples.filter(isRateSample);
  const scheduled = rate.reduce((a, s) => a + (s.scheduled || 0), 0);
  const sent = rate.reduce((a, s) => a + (s.sent || 0), 0);
  const answered = rate.reduce((a, s) => a + (s.requests || 0), 0);
  const failing = rate
    .filter((s) => !s.heldRate.held)
    .map((s) => ({
      round: s.round,
      block: s.block ?? null,
      sentRatio: s.heldRate.sentRatio,
      achievedRatio: s.heldRate.achievedRatio,
    }));
  const lags = rate.map((s) => s.clientLag?.p99).filter((x) => typeof x === 'number');
  return {
    held: rate.length > 0 && failing.length === 0,
    // The worst p99 of the load generator's own lateness (open-loop driver only).
    clientLagP99: lags.length ? Math.max(...lags) : null,
    minRatio: HELD_MIN,
    scheduled,
    sent,
    answered,
    sentRatio: scheduled ? sent / scheduled : null,
    answeredRatio: scheduled ? answered / scheduled : null,
    failing,
  };
}

function round3(x) {
  return x === null || x === undefined ? null : Math.round(x * 1000) / 1000;
}

// Per-unit percentiles (ms) of a config: [{ unit, count, p50, p90, p99, p99_9 }].
function unitPercentiles(samples, key) {
  return [...mergeByUnit(samples, key)].map(([unit, h]) => {
    const p = histogramPercentiles(h);
    return { unit, count: h.totalCount, p50: p.p50, p90: p.p90, p99: p.p99, p99_9: p.p99_9 };
  });
}

// latencySummary(config, baselineConfig) -> null (not a rate-mode config) or
// { unit, units, rate, load, held, percentiles: { p50: { estimate, ci95, pooled, thin } …},
//   added: { p50: { estimate, ci95, pValue, n } … } | null, broken, judgement }
// judgement: what the summary says, as data (report/verdict-text.js writes it):
//   { reason: 'broken' | 'rate not held' | 'baseline not held' | 'no difference' } |
//   { reason: 'too few', unit: 'units' | 'blocks' } | { reason: 'significant', addedMs } |
//   a pair's { reason: 'fell behind', blocksNotServed, blocks } | { reason: 'generator-bound',
//   latenessP99, boundMs } | null (no baseline to add to)
// estimate = geometric mean over units of the unit's percentile, ci95 the t-interval of
// the mean of their logs, back-transformed (latencies are positive and right-skewed: an
// arithmetic interval from a few units reaches below zero);
// pooled = the percentile of every request of the config merged (for reference).
function latencySummary(config, baselineConfig = null) {
  if (isPairConfig(config)) return withBroken(config, pairLatencySummary(config, baselineConfig));
  if (!isRateConfig(config)) return null;
  const samples = config.samples.filter(isRateSample);
  const key = unitKey(samples);
  const held = heldCheck(samples);
  const mismatches = samples.reduce((a, s) => a + (s.mismatches || 0), 0);
  const lost = samples.reduce((a, s) => a + (s.lost || 0), 0);
  const info = strategyInfo(config.strategy);
  const broken = !config.control && !info.control && info.carriesContext !== false && (mismatches > 0 || lost > 0);
  const units = unitPercentiles(samples, key);
  const out = {
    unit: key,
    units: units.length,
    rate: config.rate ?? samples[0].rate ?? null,
    load: config.load ?? null,
    held,
    mismatches,
    lost,
    broken,
    percentiles: null,
    added: null,
    judgement: null,
  };
  if (!held.held) {
    out.judgement = { reason: 'rate not held' };
    return out;
  }
  const pooled = histogramPercentiles(mergeAll(samples));
  const fewest = Math.min(...units.map((u) => u.count));
  out.percentiles = Object.fromEntries(
    PERCENTILES.map(({ key: k, q }) => {
      const d = describe(units.map((u) => Math.log(u[k])));
      const back = (x) => round3(Math.exp(x));
      return [
        k,
        {
          estimate: back(d.mean),
          ci95: d.ci95 ? d.ci95.map(back) : null,
          pooled: pooled[k],
          thin: fewest < minCount(q),
        },
      ];
    }),
  );

  const base = baselineConfig && isRateConfig(baselineConfig) ? baselineConfig : null;
  if (base) {
    const baseSamples = base.samples.filter(isRateSample);
    const baseHeld = heldCheck(baseSamples);
    const baseUnits = new Map(unitPercentiles(baseSamples, key).map((u) => [u.unit, u]));
    out.added = {
      baseline: base.id ?? null,
      held: baseHeld.held,
      ...Object.fromEntries(
        PERCENTILES.map(({ key: k }) => {
          const diffs = units.filter((u) => baseUnits.has(u.unit)).map((u) => u[k] - baseUnits.get(u.unit)[k]);
          const t = oneSample(diffs);
          const d = describe(diffs);
          return [
            k,
            { estimate: round3(d.mean), ci95: d.ci95 ? d.ci95.map(round3) : null, pValue: t.pValue, n: diffs.length },
          ];
        }),
      ),
    };
    out.judgement = addedJudgement(out, 'p99');
  }
  if (broken) out.judgement = { reason: 'broken' };
  return out;
}

// A strategy that carries context and lost or mixed up ids has no latency to compare.
function withBroken(config, s) {
  const info = strategyInfo(config.strategy);
  s.broken = !config.control && !info.control && info.carriesContext !== false && (s.mismatches > 0 || s.lost > 0);
  if (s.broken) s.judgement = { reason: 'broken' };
  return s;
}

// The judgement of the added latency at percentile k.
function addedJudgement(summary, k = 'p99') {
  if (summary.broken) return { reason: 'broken' };
  if (!summary.held.held) return { reason: 'rate not held' };
  const a = summary.added;
  if (!a) return null;
  if (!a.held) return { reason: 'baseline not held' };
  const x = a[k];
  if (!x || x.pValue === null || x.pValue === undefined) return { reason: 'too few', unit: 'units' };
  if (x.pValue >= ALPHA) return { reason: 'no difference' };
  return { reason: 'significant', addedMs: x.estimate };
}

// run -> [{ config, s }]: every rate-mode configuration with its latency summary against
// its baseline at the same load.
const latencyMemo = new WeakMap();
function latencySummaries(run) {
  // Merging every sample's HDR histogram is the slow part of a report: once per run object.
  if (!latencyMemo.has(run)) latencyMemo.set(run, computeLatencySummaries(run));
  return latencyMemo.get(run);
}

function computeLatencySummaries(run) {
  const configs = (run.configs || []).filter((c) => c && Array.isArray(c.samples));
  const baselineArm = run.settings?.baseline;
  return configs
    .map((config) => {
      if (isRateConfig(config) || isPairConfig(config))
        return { config, s: latencySummary(config, baselineFor(config, configs, baselineArm)) };
      // A pair run's baseline: its latencies as the partner of every pair it was in.
      if (run.settings?.method === 'pair') {
        const s = pairBaselineSummary(
          config,
          configs.filter((c) => baselineFor(c, configs, baselineArm) === config),
        );
        return s ? { config, s } : null;
      }
      return null;
    })
    .filter(Boolean);
}

module.exports = {
  latencySummary,
  latencySummaries,
  heldCheck,
  mergeByUnit,
  mergeAll,
  isRateConfig,
  isRateSample,
  addedJudgement,
  PERCENTILES,
  minCount,
  decode,
};
