'use strict';
// What the frameworks study's tables show (report/sections/frameworks.js formats them):
// each scenario's throughput level, medians of its samples, its ratio to http/none and
// the version and ACF comparisons, per block of fresh processes (per round in schema 1).
const { median, isNum } = require('./stats');
const { summarize, rpsLevel, blockRatio, sameRunRatio, judge, isSchema2 } = require('./summary');

const validSamples = (c) => (c.samples || []).filter((s) => s && isNum(s.rps) && s.rps > 0);

// The figure and its interval are of the same statistic (geometric mean of req/s).
const throughputLevel = (c) => rpsLevel(validSamples(c));
const medianRps = (c) => median(validSamples(c).map((s) => s.rps));
const medianP99 = (c) => median(validSamples(c).map((s) => s.latency && s.latency.p99));
const medianCpuPerRequest = (c) => median(validSamples(c).map((s) => s.cpuUsPerRequest));

// c against http/none: the paired ratio where they were measured in adjacent pairs; else
// (another framework) per block of fresh processes, { paired: false }, its judgement only
// with an interval (null without).
function ratioToBase(c, base) {
  const r = summarize(c, base).ratio;
  if (r && isNum(r.estimate)) return { paired: true, ratio: r, judgement: r.judgement };
  const b = blockRatio(validSamples(c), validSamples(base));
  return {
    paired: false,
    ratio: b,
    judgement: isNum(b.estimate) && b.ci95 ? judge(b, 0.05, { broken: summarize(c, null).broken }) : null,
  };
}

// The same scenario on two runtimes (two majors, or ACF flipped) in one run: `to` ÷ `from`,
// with its judgement (the report names the runtime in its words: "7.0% faster on 24").
function runtimeGain(to, from) {
  const r = sameRunRatio(validSamples(to), validSamples(from));
  return { ...r, judgement: judge(r) };
}

const measuredInBlocks = (configs) => configs.some((c) => isSchema2(c.samples));

module.exports = {
  throughputLevel,
  medianRps,
  medianP99,
  medianCpuPerRequest,
  ratioToBase,
  runtimeGain,
  measuredInBlocks,
};
