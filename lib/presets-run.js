'use strict';
// The default run and the studies that measure as it does (lib/presets.js is the registry):
// duet at saturation, the cost model's points, the popular middlewares, the instruction counts.
const { DEFAULT_MAJOR } = require('./node-versions');

// The plan's defaults (lib/plan.js): the duet's windows and the default run's blocks.
const { DEFAULTS } = require('./plan');

// A duet's settings (bench/measure/duet-windows.js): 10 connections per server, 3 counted 1-s windows a
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
// Duet (bench/measure/duet-windows.js): each strategy and `none` under load at the same time on the
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
  // `--resume` gains them from the block it goes on at (bench/run/resume.js).
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
// (bench/probes/probe-run.js), in probe processes.
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

const RUN_PRESETS = {
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
      "the headline table's rows for cls-rtracer, express-http-context, OpenTelemetry's SDK, Sentry and " +
      "Datadog as teams deploy them: each against no context at all, in duet, with the default run's settings",
    ...DEFAULT_MATRIX,
    strategies: [
      'none',
      'cls-rtracer',
      'express-http-context',
      'otel-sdk-otlp',
      'otel-sdk-otlp-10',
      'sentry-errors',
      'sentry-10',
      'sentry',
      'datadog',
    ],
    ...DEFAULT_MEASUREMENT,
    // Twice the default run's groups a block: twice its budget for the same ±1 pp aim.
    maxTime: 1080,
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
    // there go on until ~25,000 requests), 16 of 100 at depth 256 (bench/measure/instruction-windows.js).
    // One request in flight (bench/cli/run.js says why): interleaving bugs cannot show
    // here, which is what the default run and the integrity matrix are for.
    connections: 1,
    pipelining: 1,
    duration: 1,
    warmup: 0,
    rounds: 1,
    baseline: 'none',
  },
};

module.exports = { RUN_PRESETS, DUET, MODEL_STRATEGIES };
