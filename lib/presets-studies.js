'use strict';
// The seeds' studies and the other questions asked at saturation, one process per server
// or in duet (lib/presets.js is the registry): depth, libraries, precision, frameworks, stores.
const { DEFAULT_MAJOR } = require('./node-versions');
const { DUET } = require('./presets-run');

// The App Engine study's shape (seed 004): param as the baseline, call depths 8 to 1024,
// an await between levels, 100 connections, on the runtime a team deploys today (Node
// 24, whose AsyncLocalStorage is AsyncContextFrame). Its throughput form is the depth
// sweep, its latency-at-a-given-load form the latency preset.
const APP_ENGINE_STUDY = {
  node: [DEFAULT_MAJOR],
  depths: [8, 16, 32, 256, 1024],
  hops: ['await'],
  frameworks: ['express'],
  connections: 100,
  pipelining: 1,
  duration: 2,
  warmup: 1,
  blocks: 3,
  rounds: 2,
  baseline: 'param',
};

const STUDY_PRESETS = {
  'depth-sweep': {
    title:
      'Depth sweep: the App Engine study (parameter passing vs async_hooks by call depth, with and without a ' +
      'log line per level)',
    why:
      "seed 004's App Engine study (param vs cls-hooked, depths 8-1024) in duet beside a fresh `param`, " +
      'with and without a log line per level, AsyncLocalStorage beside them (details: ' +
      'results/depth-sweep.md)',
    ...APP_ENGINE_STUDY,
    strategies: ['param', 'cls-hooked', 'als', 'alscontext'],
    logs: ['none', 'stdout'],
    // Duet as the default run: 10 connections each (a solo burst must hold >= 30 requests
    // per connection, and cls-hooked at depth 1024 is slower still: docs/investigations.md,
    // "Figures that code comments carried"), 3 windows a pair.
    ...DUET,
    duration: 1,
    rounds: 1,
    // 40 pairs a block (4 arms incl. the A/A twin × 5 depths × 2 LOGs), ~5 min: blocks are
    // added until every ratio is within ±2 pp or the next would end after 20 minutes.
    precision: 2,
    maxTime: 1200,
  },
  // Seed 004's own table on its own instance (issue 60): its method, not ctxbench's — 10,000
  // requests, 100 at a time, xargs/curl (closed loop), mean latency per call depth — each
  // server an App Engine F1 stand-in (a quarter of a CPU, 384 MiB), one at a time on the
  // server CPU, `param` the baseline as in the study (docs/deploy.md).
  'appengine-f1': {
    title: "The App Engine study on its instance: seed 004's method on F1 stand-ins, by call depth",
    why:
      "seed 004's table measured its own way (10,000 requests, 100 at a time, xargs/curl, mean latency) on " +
      'App Engine F1 stand-ins: `param` against cls-hooked and AsyncLocalStorage at depths 8 to 1024 (details: ' +
      'results/appengine-f1.md)',
    ...APP_ENGINE_STUDY,
    strategies: ['param', 'cls-hooked', 'als'],
    instance: 'F1',
    driver: 'curl',
    amount: 10000,
    // Warm-up bursts of 1,000 requests (curl counts requests) until the cost per request
    // stops falling; one sample of 10,000 per configuration and block, next to a baseline
    // burst: cls-hooked at depth 1024 serves ~100 req/s on a quarter of a CPU, the slowest.
    rounds: 1,
    blocks: 3,
    maxTime: 3000,
  },
  libraries: {
    title: 'Libraries: the als-context benchmark (10 connections, no pipelining)',
    why:
      'seed 003 compared request-param, AsyncLocalStorage, alscontext and cls-hooked with autocannon -c 10 for ' +
      '10 s, one run each; here each library in duet beside a fresh `param` process',
    node: [DEFAULT_MAJOR],
    strategies: ['none', 'param', 'als', 'alscontext', 'cls-hooked', 'cls-rtracer', 'express-http-context'],
    depths: [8],
    hops: ['await'],
    frameworks: ['express'],
    // Duet as the default run (7 pairs a block, ~45 s): 5 blocks of fresh pairs.
    ...DUET,
    duration: 3,
    warmup: 1,
    blocks: 5,
    rounds: 2,
    baseline: 'param',
  },
  precision: {
    title: 'Precision: AsyncLocalStorage vs no context at depth 8, to ±3 percentage points',
    why:
      'how precisely this machine can state a small overhead: blocks of fresh processes are added until the 95% ' +
      'CI of the als/none ratio is within ±3 pp, or the next block would end after 120 s',
    node: [DEFAULT_MAJOR],
    strategies: ['none', 'als'],
    depths: [8],
    hops: ['immediate'],
    frameworks: ['express'],
    connections: 100,
    pipelining: 1,
    duration: 1,
    warmup: 1,
    blocks: 3,
    rounds: 3,
    precision: 3,
    maxTime: 120,
    baseline: 'none',
  },
  frameworks: {
    title: 'Frameworks: the platformatic study (node:http, Fastify, OpenTelemetry; Node 22, 24 and 26)',
    why:
      'seeds 000/001 ran five servers once each for 10 s (+5 s warm-up) with autocannon -c 100 -p 10 on Node ' +
      '22.17.1 and 24.4.1; the same scenarios here, same payload everywhere, an explicit in-memory span ' +
      'exporter, Express rows added',
    node: ['22', '24', '26'],
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
    // Sequential, not duet: two node:http or Fastify `none` servers on one CPU serve more
    // than one autocannon process on the other CPU can send (every window dropped, the load
    // generator near a full core: docs/investigations.md, "Frameworks in duet").
    // 5 s bursts, not the study's one 10 s run: precision comes from blocks of fresh
    // processes, and 10 s bursts made the three runtimes' run take over half an hour.
    duration: 5,
    warmup: 1,
    blocks: 3,
    rounds: 1,
    baseline: 'none',
  },
  stores: {
    title:
      'Live stores: AsyncLocalStorage and OpenTelemetry with 0, 1, 10 and 100 other live stores (Node 20; ' +
      'Node 24 with and without AsyncContextFrame)',
    why:
      'real services carry several AsyncLocalStorage stores at once; whether the cost grows with their ' +
      'number on async_hooks and on AsyncContextFrame (details: results/stores.md)',
    node: ['20', DEFAULT_MAJOR],
    // Node 20 has no AsyncContextFrame, so 'both' gives it one target; Node 24 gets two.
    acf: 'both',
    depths: [8],
    hops: ['immediate'],
    frameworks: ['express'],
    strategies: ['none', 'als', 'otel'],
    configs: [0, 1, 10, 100].flatMap((stores) =>
      ['none', 'als', 'otel'].map((strategy) => ({ framework: 'express', strategy, stores })),
    ),
    // In duet, as the default run (each server busy throughout, so the duet's CPU ratio
    // holds): it was sequential only because its question was across groups (a store
    // count against 0), which the duet's per-group ratios answer against `none` at each.
    // 24 pairs a block (als and otel × 4 store counts × 3 runtimes), ~3 min. 2,700 s (was
    // 1,200): 6 blocks left the headline's two 10-store cells more than twice as wide as
    // the committed run's 14 blocks (docs/investigations.md, "Figures that code comments
    // carried").
    ...DUET,
    aa: false,
    duration: 1,
    warmup: 1,
    blocks: 3,
    rounds: 1,
    precision: 2,
    maxTime: 2700,
    baseline: 'none',
  },
};

module.exports = { STUDY_PRESETS };
