'use strict';
// Named parameter matrices, declared as data (as Node core's benchmark/ does). A preset
// is either a cross product (strategies × depths × hops × frameworks) or an explicit
// list of `configs` when the study it reproduces was not a cross product. `node` names
// the majors the servers run on (default: the active LTS line, DEFAULT_MAJOR).
const { DEFAULT_MAJOR } = require('./node-versions');

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

// What an option of `ctxbench run` is when neither its flag nor the preset sets it: the
// plan's defaults (lib/plan.js). --help is written from them and from PRESETS, docs/options.md
// is generated from --help (scripts/docs-options.js), and test/options-doc.test.js fails
// when they disagree.
const { DEFAULTS } = require('./plan');

// A duet's settings (bench/duet-windows.js): 10 connections per server, 3 counted 1-s windows a
// pair of fresh processes, a 0.5-s solo burst each for req/s and p99, the A/A twin.
const DUET = {
  method: 'duet',
  aa: true,
  windows: DEFAULTS.windows,
  window: DEFAULTS.window,
  soloDuration: DEFAULTS.soloDuration,
  connections: 10,
  pipelining: 1,
};

// What `npm run bench` measures; the instruction-count preset counts the same matrix.
const DEFAULT_MATRIX = {
  node: [DEFAULT_MAJOR],
  strategies: ['none', 'param', 'als', 'alscontext-als', 'otel', 'cls-hooked', 'alscontext', 'global'],
  depths: [8, 256],
  hops: ['immediate'],
  frameworks: ['express'],
};

// How the default run measures (also the popular study's, whose rows sit beside it).
// Duet (bench/duet-windows.js): each strategy and `none` under load at the same time on the
// server CPU, 10 connections each, the ratio of their CPU µs per request per 1-s window.
// The window log ratio moves far less in a duet than between bursts one after the other
// (docs/method.md, "Duet: a strategy and its baseline at the same time"), so a few windows
// per pair suffice and what is left is how much two fresh processes differ: the time goes
// into more blocks of fresh pairs, not longer ones. A pair takes seconds: start, warm-up
// until both stop getting cheaper, 3 counted windows, the arm's 0.5-s solo burst. Why 10
// connections and not the App Engine study's 100: a solo burst must hold >= 30 completed
// requests per connection, and cls-hooked at depth 256 serves few requests a second (the
// figures: docs/investigations.md, "Figures that code comments carried").
// Ten requests in flight still interleave at every hop, so a broken context shows.
const DEFAULT_MEASUREMENT = {
  ...DUET,
  duration: 1,
  warmup: 1,
  blocks: DEFAULTS.blocks,
  rounds: 1,
  minPerConnection: DEFAULTS.minPerConnection,
  // Aim for ±1 pp: blocks are added until every ratio is that precise or the next block
  // would end after maxTime (a deadline for the whole run, start-up included, ~1 min
  // left for the report).
  precision: 1,
  maxTime: 540,
  baseline: 'none',
};

// The cost model's studies (issue 38, analysis/model.js): each strategy's extra CPU per
// request over `none`, fitted as a cost per request plus a cost per async resource the
// request creates. The fit reads only the points whose role is 'fit' (call depths and the
// two CPU-bound hop kinds that make many resources per request); the 'held-out' points are
// measured in the same blocks and predicted from the fit, never fitted. This split is
// committed before either study runs.
const MODEL_FIT_POINTS = [
  // Depths 1 and 2 (12 and 17 resources per request with `none`) reach down to a small
  // service's count (issue 48: `app --predict` refuses outside the fitted range, and
  // examples/app makes 25). Added after the studies' first blocks: a run resumed with
  // `--resume` gains them from the block it goes on at (bench/resume.js).
  { depth: 1, hop: 'immediate' },
  { depth: 2, hop: 'immediate' },
  { depth: 8, hop: 'immediate' },
  { depth: 64, hop: 'immediate' },
  { depth: 256, hop: 'immediate' },
  { depth: 64, hop: 'nexttick' },
];
const MODEL_HELD_OUT_POINTS = [
  // Another depth, between two fitted ones.
  { depth: 32, hop: 'immediate' },
  // Other hop kinds: promises only (await), and a rotation of seven (mixed).
  { depth: 64, hop: 'await' },
  { depth: 64, hop: 'mixed' },
  // Ten other live AsyncLocalStorage stores in the process.
  { depth: 64, hop: 'immediate', stores: 10 },
];
// Every row of the headline table (the default run's strategies and the popular study's).
const MODEL_STRATEGIES = [
  'param',
  'als',
  'alscontext-als',
  'otel',
  'cls-hooked',
  'alscontext',
  'global',
  'cls-rtracer',
  'express-http-context',
  'sentry',
  'datadog',
];
const modelConfigs = (strategies, points, role) =>
  points.flatMap((p) => ['none', ...strategies].map((strategy) => ({ framework: 'express', strategy, ...p, role })));

// How both model studies measure: the default run's duet (10 connections a server, 3
// windows a pair) without the A/A twin (the method's null is checked in every default run;
// here the time goes to points), 3 blocks of fresh pairs and a 4th where every ratio is not
// yet within ±2 pp (a held-out prediction is judged only against a measurement that
// precise) and the block fits in the time. Both run longer than a sitting:
// `ctxbench run --resume` goes on from the saved run JSON.
// `probe`: each point's async resources per request counted once the blocks are done
// (bench/probe-run.js), in probe processes.
const MODEL_MEASUREMENT = {
  ...DUET,
  aa: false,
  probe: true,
  duration: 1,
  warmup: 1,
  blocks: 3,
  rounds: 1,
  minPerConnection: DEFAULTS.minPerConnection,
  precision: 2,
  baseline: 'none',
};

const PRESETS = {
  default: {
    title: 'Default run: every context strategy at two call depths',
    why:
      'what `npm run bench` measures: each strategy against no context at all, shallow and deep, with a ' +
      'macrotask hop between levels so requests interleave and a broken context shows',
    ...DEFAULT_MATRIX,
    // 16 pairs a block: 7 strategies and the A/A twin at each depth.
    ...DEFAULT_MEASUREMENT,
  },
  model: {
    title: 'Cost model: every headline strategy on Node 24, by call depth and hop kind, with held-out points',
    why:
      'the extra CPU per request of each strategy over `none`, in duet, at six points a cost model is fitted on ' +
      'and four held-out points it predicts (docs/model.md)',
    node: [DEFAULT_MAJOR],
    strategies: ['none', ...MODEL_STRATEGIES],
    depths: [8],
    hops: ['immediate'],
    frameworks: ['express'],
    configs: [
      ...modelConfigs(MODEL_STRATEGIES, MODEL_FIT_POINTS, 'fit'),
      ...modelConfigs(MODEL_STRATEGIES, MODEL_HELD_OUT_POINTS, 'held-out'),
    ],
    ...MODEL_MEASUREMENT,
    // The fit is of duet ratios at saturation, and the study resumes across sittings: a
    // fresh run must measure as the committed one does. Its one point that waits (HOP=mixed,
    // timers among its hops) is measured in duet all the same and stays "not measured"
    // where no window counts; the pair for it needs a point measured both ways first.
    keepMethod:
      'its fit is of duet ratios at saturation; the HOP=mixed held-out point waits on timers and stays "not ' +
      'measured" where no duet window counts (docs/model.md)',
    // 110 pairs a block, ~16 min.
    maxTime: 2700,
  },
  'model-runtimes': {
    title:
      'Cost model across runtimes: AsyncLocalStorage, OpenTelemetry and cls-hooked on Node 20, on 22 and 24 ' +
      'with AsyncContextFrame off and on, and on 26',
    why:
      "the Node upgrade in the model's terms: the same fitted points for the three strategies whose propagation " +
      'changed with AsyncContextFrame, on every runtime a team may be leaving or moving to, and one held-out ' +
      'depth',
    node: ['20', '22', DEFAULT_MAJOR, '26'],
    acf: 'both',
    // Of the seven runtimes those majors give with AsyncContextFrame off and on, Node 26
    // with it turned off is not a runtime a team moves to.
    runtimes: ['node20', 'node22', 'node22-acf', 'node24-noacf', 'node24', 'node26'],
    strategies: ['none', 'als', 'otel', 'cls-hooked'],
    depths: [8],
    hops: ['immediate'],
    frameworks: ['express'],
    configs: [
      ...modelConfigs(['als', 'otel', 'cls-hooked'], MODEL_FIT_POINTS, 'fit'),
      ...modelConfigs(['als', 'otel', 'cls-hooked'], MODEL_HELD_OUT_POINTS.slice(0, 1), 'held-out'),
    ],
    ...MODEL_MEASUREMENT,
    // 6 runtimes × 7 points × 3 strategies: 126 pairs a block, ~17 min: 3 blocks in the
    // first sitting (`--resume FILE --blocks N` adds more).
    maxTime: 1900,
  },
  // The headline table's other rows (analysis/strategy-summary.js): the middlewares and
  // APM agents teams actually run, measured exactly as the default run measures, in a
  // study of their own so that the default run keeps its blocks (a block of 16 pairs
  // would grow to 24, and the ±1 pp target would be reached for fewer ratios within the
  // same 9 minutes).
  popular: {
    title: 'What teams run: the popular middlewares and the APM agents at two call depths',
    why:
      "the headline table's rows for cls-rtracer, express-http-context, Sentry and Datadog: each against no " +
      "context at all, in duet, with the default run's settings",
    ...DEFAULT_MATRIX,
    strategies: ['none', 'cls-rtracer', 'express-http-context', 'sentry', 'datadog'],
    ...DEFAULT_MEASUREMENT,
  },
  instructions: {
    title: "Instruction counts: the default run's matrix, instructions per request under Valgrind",
    why:
      'a second figure any machine reproduces closely, for CI gates and effects of 1-2%: instructions ' +
      'counted under callgrind, one request in flight (details: results/instructions.md)',
    ...DEFAULT_MATRIX,
    method: 'instructions',
    // One process per configuration: a count repeats from process to process within a few
    // tenths of a percent (docs/investigations.md, "A bound instead of 24 windows"), and
    // `ctxbench repro --preset instructions` (or a second run) is the second process; a
    // process at depth 256 is slow under Valgrind (docs/commands.md; docs/investigations.md,
    // "Figures that code comments carried").
    blocks: 1,
    windows: 3,
    // Warm-up: at most 40 windows of 1,000 requests at depth 8 (Turbofan compilations
    // there go on until ~25,000 requests), 16 of 100 at depth 256 (bench/instruction-windows.js).
    // One request in flight (bench/cli/run.js says why): interleaving bugs cannot show
    // here, which is what the default run and the integrity matrix are for.
    connections: 1,
    pipelining: 1,
    duration: 1,
    warmup: 0,
    rounds: 1,
    baseline: 'none',
  },
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
    pipelining: 1,
    windows: 3,
    window: 1,
    duration: 2,
    warmup: 1,
    blocks: 3,
    rounds: 1,
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
    pipelining: 1,
    windows: 3,
    window: 1,
    duration: 2,
    warmup: 1,
    blocks: 3,
    rounds: 1,
    // 12 pairs a block, ~100 s. The added p99 counts only blocks whose generator kept
    // within 1 ms at p99, under half of them here (docs/method.md): 15 blocks give each
    // strategy at least two such blocks nearly always, 9 left `otel` with one.
    precision: 2,
    maxTime: 1500,
    baseline: 'none',
  },
  // The headline's deployment column (issue 60): every strategy on an App Engine F1 stand-in
  // (a quarter of a CPU, 384 MiB, 10 requests at once; bench/cgroup.js) beside a fresh `none`
  // stand-in at the autoscaler's operating point: the rate at which `none` uses 60% of its
  // quota (App Engine's default target_cpu_utilization), found per block (docs/deploy.md).
  'deployment-f1': {
    title: "Deployments on an F1 at the autoscaler's target: throughput per instance and the tail at 60% CPU",
    why:
      'what a team pays on a small instance once autoscaling has added instances: each strategy beside a fresh ' +
      "`none` on F1 stand-ins at the rate where `none` uses 60% of its quota (details: results/deployment-f1.md)",
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
PRESETS['deployment-cloudrun'] = {
  ...PRESETS['deployment-f1'],
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

// Shrinks any preset to a smoke run: same shape, first depth only, short bursts, the
// minimum 3 blocks of one round, no precision target. Numbers from it are not precise
// and the report says so.
function quick(preset) {
  return {
    ...preset,
    depths: preset.depths.slice(0, 1),
    duration: 1,
    warmup: 0.5,
    blocks: 3,
    rounds: 1,
    precision: null,
  };
}

module.exports = { PRESETS, DEFAULTS, quick, MODEL_STRATEGIES };
