'use strict';
// The studies at a fixed rate, open loop (lib/presets.js is the registry): real I/O and latency
// in a pair, the deployments at the autoscaler's target, the engine pair of drivers.
const { DEFAULT_MAJOR } = require('./node-versions');
const { MODEL_STRATEGIES } = require('./presets-run');

// How io's and latency's pairs measure (bench/measure/pair-windows.js): 3 counted 1-s windows a pair,
// no pipelining, 3 blocks to start with.
const PAIR_WINDOWS = { pipelining: 1, windows: 3, window: 1, duration: 2, warmup: 1, blocks: 3, rounds: 1 };

const RATE_PRESETS = {
  io: {
    title: 'Real I/O: context cost when every level waits on PostgreSQL, MariaDB, Redis or a downstream service',
    why:
      'whether the async_hooks penalty shrinks once every level does real I/O (PostgreSQL, MariaDB, Redis, ' +
      'a downstream service), each strategy paired with a fresh `none` at a fixed rate (details: ' +
      'results/io.md)',
    node: [DEFAULT_MAJOR],
    // The APM agents beside als and otel: their cost where requests wait on a database.
    strategies: ['none', 'param', 'als', 'cls-hooked', 'otel', 'sentry', 'datadog'],
    depths: [8],
    hops: ['pg', 'mysql', 'redis', 'http'],
    frameworks: ['express'],
    method: 'pair',
    aa: true,
    loads: [0.5],
    // 20 in flight at most per server, twice the pools' 10 clients, so requests queue for
    // a client at a burst, as in production.
    connections: 20,
    ...PAIR_WINDOWS,
    // 28 pairs a block (6 strategies and the A/A twin × 4 drivers), ~4 min: blocks are
    // added until the ratios are within ±2 pp or the next block would end after 30 min.
    precision: 2,
    maxTime: 1800,
    baseline: 'none',
  },
  latency: {
    title: "Latency at half of `none`'s capacity: what each strategy adds to p99, in a pair at a fixed rate",
    why:
      'a team below saturation feels latency: the p99 each strategy adds to a fresh `none` sent the same ' +
      "open-loop schedule at half of `none`'s capacity (details: results/latency.md)",
    node: [DEFAULT_MAJOR],
    strategies: ['none', ...MODEL_STRATEGIES],
    depths: [8],
    hops: ['immediate'],
    frameworks: ['express'],
    method: 'pair',
    aa: true,
    loads: [0.5],
    // Enough connections that a burst of requests never waits for one while the server
    // keeps up (in flight ≈ rate × latency, a handful at this preset's rate:
    // docs/investigations.md, "Figures that code comments carried").
    connections: 50,
    ...PAIR_WINDOWS,
    // 12 pairs a block, ~100 s. The added p99 counts only blocks whose generator kept
    // within 1 ms at p99, under half of them here (docs/method.md): 15 blocks give each
    // strategy at least two such blocks nearly always, 9 left `otel` with one.
    precision: 2,
    maxTime: 1500,
    baseline: 'none',
  },
  // The headline's deployment column (issue 60): every strategy on an App Engine F1 stand-in
  // (a quarter of a CPU, 384 MiB, 10 requests at once; bench/processes/cgroup.js) beside a fresh `none`
  // stand-in at the autoscaler's operating point: the rate at which `none` uses 60% of its
  // quota (App Engine's default target_cpu_utilization), found per block (docs/deploy.md).
  'deployment-f1': {
    title: "Deployments on an F1 at the autoscaler's target: throughput per instance and the tail at 60% CPU",
    why:
      'what a team pays on a small instance once autoscaling has added instances: each strategy beside a fresh ' +
      '`none` on F1 stand-ins at the rate where `none` uses near 60% of its quota (the share it used is on ' +
      'the page; details: results/deployment-f1.md)',
    node: [DEFAULT_MAJOR],
    strategies: ['none', 'param', 'als', 'otel', 'cls-hooked', 'sentry', 'datadog'],
    depths: [8, 256],
    hops: ['immediate'],
    frameworks: ['express'],
    instance: 'F1',
    slo: 'p99=100ms',
    targetCpu: 0.6,
    method: 'pair',
    aa: true,
    windows: 5,
    window: 1,
    duration: 2,
    warmup: 1,
    // 14 pairs a block (6 strategies and the A/A twin, 2 depths), each warmed closed loop,
    // its operating point searched, then 5 windows at it (and 5 at the candidate's own): ~30
    // s a pair, ~8 min a block. Blocks are added until every ratio is within ±2 pp or the
    // next would end after 60 minutes.
    blocks: 6,
    rounds: 1,
    precision: 2,
    maxTime: 3600,
    baseline: 'none',
  },
  engine: {
    title: 'Engine pair: the open-loop driver and Artillery at the same rates',
    why:
      "ctxbench's open-loop driver and Artillery at the same rates, so their numbers can be compared " +
      '(details: results/engine-autocannon.md, results/engine-artillery.md)',
    node: [DEFAULT_MAJOR],
    strategies: ['param', 'cls-hooked', 'als'],
    depths: [8, 256],
    hops: ['await'],
    frameworks: ['express'],
    // Rates every configuration holds on this machine with either driver (cls-hooked at
    // depth 256, the slowest, serves well above them: docs/investigations.md, "Figures
    // that code comments carried"), so every cell gets latencies to compare.
    rates: [200, 500],
    connections: 10,
    pipelining: 1,
    duration: 2,
    warmup: 1,
    blocks: 3,
    rounds: 1,
    baseline: 'param',
  },
};

// The deployment study on Cloud Run below 1 vCPU (issue 60 item 5): half a CPU, 512 MiB and
// one request at a time (Cloud Run requires concurrency 1 there), at the 60% CPU target its
// autoscaler holds; depth 8 only: 7 pairs a block, ~4 min, blocks added until every ratio is
// within ±2 pp or the next would end after 40 minutes. At 1 vCPU two stand-ins cannot share
// this machine's one server CPU: the latency preset's full-CPU pair stands in (docs/deploy.md).
RATE_PRESETS['deployment-cloudrun'] = {
  ...RATE_PRESETS['deployment-f1'],
  title: "Deployments on Cloud Run at half a vCPU at the autoscaler's target: throughput per instance and the tail",
  why:
    'what a team pays on Cloud Run below 1 vCPU once autoscaling has added instances: each strategy beside a ' +
    'fresh `none` on `cloudrun:cpu=0.5` stand-ins (one request at a time) at the rate where `none` reaches the ' +
    'first of the autoscaler\'s targets, 60% of its quota or 0.6 requests in flight (details: ' +
    'results/deployment-cloudrun.md)',
  instance: 'cloudrun:cpu=0.5',
  depths: [8],
  maxTime: 2400,
};

module.exports = { RATE_PRESETS };
