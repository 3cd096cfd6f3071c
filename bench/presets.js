'use strict';
// Named parameter matrices, declared as data (as Node core's benchmark/ does). A preset
// is either a cross product (strategies × depths × hops × frameworks) or an explicit
// list of `configs` when the study it reproduces was not a cross product.

const PRESETS = {
  default: {
    title: 'Default run: every context strategy at two call depths',
    why: 'what `npm run bench` measures: each strategy against no context at all, shallow and deep, with a macrotask hop between levels so requests interleave and a broken context shows',
    strategies: ['none', 'param', 'als', 'alscontext-als', 'otel', 'cls-hooked', 'alscontext', 'global'],
    depths: [8, 256],
    hops: ['immediate'],
    frameworks: ['express'],
    // 100 requests in flight, no pipelining (the App Engine study's 100 concurrent
    // curls): at depth 256 a request then takes tens of ms, well inside a 2 s sample.
    connections: 100,
    pipelining: 1,
    // Short bursts, many rounds: a round of the 8 strategies then spans ~10 s, so the
    // paired samples of a strategy and its baseline are close in time (precision).
    duration: 1,
    warmup: 2,
    rounds: 18,
    baseline: 'none',
  },
  'depth-sweep': {
    title: 'Depth sweep: the App Engine study (parameter passing vs async_hooks by call depth)',
    why: 'seed 004 deployed param vs cls-hooked to App Engine and reported latency at call depths 8-1024 from one run each; here with interleaved rounds and AsyncLocalStorage beside them',
    strategies: ['param', 'cls-hooked', 'als', 'alscontext'],
    depths: [8, 16, 32, 256, 1024],
    hops: ['await'],
    frameworks: ['express'],
    connections: 100,
    pipelining: 1,
    duration: 2,
    warmup: 2,
    rounds: 5,
    baseline: 'param',
  },
  libraries: {
    title: 'Libraries: the als-context benchmark (10 connections, no pipelining)',
    why: 'seed 003 compared request-param, AsyncLocalStorage, alscontext and cls-hooked with autocannon -c 10 for 10 s, one run each',
    strategies: ['none', 'param', 'als', 'alscontext', 'cls-hooked'],
    depths: [8],
    hops: ['await'],
    frameworks: ['express'],
    connections: 10,
    pipelining: 1,
    duration: 3,
    warmup: 2,
    rounds: 6,
    baseline: 'param',
  },
  precision: {
    title: 'Precision: AsyncLocalStorage vs no context at depth 8, to ±3 percentage points',
    why: 'how precisely this machine can state a small overhead: rounds are added until the 95% CI of the als/none ratio is within ±3 pp, or 120 s of measuring have passed',
    strategies: ['none', 'als'],
    depths: [8],
    hops: ['immediate'],
    frameworks: ['express'],
    connections: 100,
    pipelining: 1,
    duration: 1,
    warmup: 2,
    rounds: 10,
    precision: 3,
    maxTime: 120,
    baseline: 'none',
  },
  frameworks: {
    title: 'Frameworks: the platformatic study (node:http, Fastify, OpenTelemetry; Node 22 and 24)',
    why: 'seeds 000/001 ran five servers once each for 10 s (+5 s warm-up) with autocannon -c 100 -p 10 on Node 22.17.1 and 24.4.1; the same scenarios here, same payload everywhere, an explicit in-memory span exporter, Express rows added',
    node: ['22', '24'],
    depths: [1],
    hops: ['sync'],
    frameworks: ['http', 'fastify', 'express'],
    strategies: ['none', 'als', 'otel-full', 'otel-selective'],
    configs: [
      { framework: 'http', strategy: 'none' },
      { framework: 'http', strategy: 'als' },
      { framework: 'fastify', strategy: 'none' },
      { framework: 'fastify', strategy: 'otel-full' },
      { framework: 'fastify', strategy: 'otel-selective' },
      { framework: 'express', strategy: 'none' },
      { framework: 'express', strategy: 'als' },
      { framework: 'express', strategy: 'otel-full' },
      { framework: 'express', strategy: 'otel-selective' },
    ],
    connections: 100,
    pipelining: 10,
    duration: 10,
    warmup: 5,
    rounds: 3,
    baseline: 'none',
  },
  latency: {
    title: 'Latency at a given load: the App Engine study at 25%, 50% and 75% of the baseline\'s capacity',
    why: 'seed 004 reported latency per call depth for param vs cls-hooked; a team running below saturation feels latency, not throughput. Open loop (fixed arrival rate, latency from each request\'s intended send time), loads as fractions of the param baseline\'s capacity measured first',
    // Servers on Node 24 (its AsyncLocalStorage is AsyncContextFrame), the runtime a team deploys today.
    node: ['24'],
    strategies: ['param', 'cls-hooked', 'als'],
    depths: [8, 16, 32, 256, 1024],
    hops: ['await'],
    frameworks: ['express'],
    loads: [0.25, 0.5, 0.75],
    // Open loop: at most this many requests in flight; a request due while all are busy
    // waits in the client's queue and that wait counts in its latency.
    connections: 100,
    pipelining: 1,
    duration: 2,
    warmup: 2,
    rounds: 4,
    baseline: 'param',
  },
};

// Shrinks any preset to a sub-minute smoke run: same shape, first depth only, short
// bursts, two rounds. Numbers from it are not precise and the report says so.
function quick(preset) {
  return { ...preset, depths: preset.depths.slice(0, 1), duration: 1, warmup: 0.5, rounds: 2 };
}

module.exports = { PRESETS, quick };
