'use strict';
// A configuration's declaration (lib/run-fields.js holds its processes' and samples'): its
// fields, its summary and the ratio to the baseline, and how each method fills them
// (METHODS, the page's "By method"). lib/run-schema.js closes every object declared here
// and docs/run-json.md is generated from these descriptions (scripts/docs-run-json.js).
const { SAMPLE, PROCESS, closed, fields, notes, T } = require('./run-fields');
const { SERVER_SETTINGS } = require('./settings');

const JUDGEMENT = {
  type: T.obj,
  description:
    'the verdict as data (analysis/verdict.js judge); no sentence is saved: the report words it ' +
    '(report/verdict-text.js)',
  properties: notes({
    significant: 'p < 0.05 (instructions: the whole window range on one side of 1)',
    direction: "'slower' or 'faster'; null when not significant",
    changePct: '(estimate − 1) × 100',
    reason: "'significant', 'no difference', 'too few samples', 'broken' or 'client-bound'",
    equivalence:
      "two one-sided tests at 5% (analysis/verdict.js): { outcome: 'equivalent', 'beyond' or 'cannot tell', " +
      'marginPct (settings.margin, --margin; default 2), ci90 (the 90% interval of the same ratio) }; null without ' +
      'an interval',
  }),
};
const RATIO_FIELDS = {
  ...notes({ baseline: "the baseline configuration's id" }),
  estimate: { type: T.num, description: 'the point estimate; how each method computes it: [By method](#by-method)' },
  ci95: {
    type: T.arr,
    description: 'its 95% interval [low, high]: a t-interval over blocks (df = blocks − 1; null with one block)',
    items: { type: T.num },
  },
  ...notes({
    halfWidthPct: "half the interval's width, pp",
    pValue: 'of the test that the ratio is 1',
    paired: 'true: computed from paired samples',
    n: 'the pairs (or windows) it is computed from',
    blocks: 'the blocks it is over',
    df: "the interval's degrees of freedom",
    quantity: "what it is of: 'cpu' (duet, pair), 'instructions'; absent: throughput",
    windows: 'duet, pair: { counted, dropped }',
    rate: 'pair: the rate both servers were sent',
    range: 'instructions: the lowest and highest window ratio',
    spreadPct: 'instructions: half the range, % of the estimate',
    components:
      'sequential: the log ratio\'s variances { betweenBlocks, withinBlocks } and a one-way ANOVA by block ' +
      '{ F, p, dfBetween, dfWithin }',
  }),
  method: {
    type: T.str,
    description:
      "how it was measured, a code (a sentence in older files): 'adjacent-pairs', 'rounds' (schema 1: paired by " +
      "round), 'duet', 'pair' (at a fixed rate), 'operating-point' (at the autoscaler's CPU target), 'instructions'",
  },
  judgement: JUDGEMENT,
  verdict: {
    type: 'string',
    description:
      'files written before schema 4 only: the judgement in words, dropped on read (lib/run-schema.js ' +
      'migrate); readers word the judgement (report/verdict-text.js)',
  },
};
const RATIO = {
  type: T.obj,
  description:
    'the ratio to the baseline configuration (same group, baseline arm), read like throughput: 1 = the same ' +
    "cost, 0.95 = about 5% costlier (analysis/summary.js); null for the baseline",
  properties: RATIO_FIELDS,
};

const SUMMARY = {
  ...closed(
    "the configuration's figures (analysis/summary.js summarize(config, baseline)), written at every save so a " +
      'reader without ctxbench has them; ctxbench itself recomputes them from the samples (summaryOf), so a run ' +
      'read by a later version is judged by its rules',
    fields({
      n: ['int', 'samples'],
      blocks: ['int', 'blocks (server processes; schema 1: rounds)'],
      rps: [
        'obj',
        "{ estimate, ci95, statistic, median }: req/s, figure and interval of the same statistic, a code: 'block-" +
          "geomeans' (the geometric mean over blocks of per-block geometric means) or 'round-geomean' (schema 1); " +
          'a sentence in older files',
      ],
      p99: ['obj', '{ median }: ms'],
      cpuUsPerRequest: ['obj', '{ median }: µs'],
      elu: ['obj', '{ median }: of the duet windows where there are any, else of the samples'],
      loadgenCpu: ['num', 'median load-generator CPU, share of a core'],
      cpuRatio: ['obj', 'the same of CPU per request, this ÷ the baseline (> 1 = costlier)'],
      sharedRatio: [
        'obj',
        'duet: requests ÷ partnerRequests in the same counted windows (throughput on the shared CPU)',
      ],
      instructions: [
        'obj',
        "instructions: { median (over processes, of each one's instructions ÷ requests), processes, spreadPct " +
          '((max − min) ÷ median, %) }',
      ],
      disagree: [
        'bool',
        "the intervals do not overlap: sequential, the throughput ratio's and 1 ÷ cpuRatio's; duet, ratio's and " +
          "sharedRatio's",
      ],
      broken: ['bool', 'lost or mismatched ids on a strategy other than global or none'],
      clientBound: ['bool', 'the load generator reached 85% of a core: no verdict'],
      mismatches: ['int', "responses carrying another request's id, over every sample"],
      lost: ['int', 'responses carrying no id of ours'],
      errors: ['int', 'failed requests'],
      non2xx: ['int', 'responses that were not 2xx'],
    }),
  ),
  type: T.obj,
};
SUMMARY.properties.ratio = RATIO;

// A server variable declared with a flag (lib/settings.js SERVER_SETTINGS) is carried on each
// configuration under its plan field: declared here from that one declaration.
const SERVER_FIELDS = Object.fromEntries(
  SERVER_SETTINGS.map((s) => [s.plan, [s.integer ? 'int' : 'num', `${s.env} of the server: ${s.help}`]]),
);

const CONFIG = closed(
  'one configuration of the matrix',
  {
    ...fields(SERVER_FIELDS),
    ...fields({
      id: [
        'string',
        'unique within the run, e.g. express/als/d8/await/node24 (rate mode adds /load50 or /r2000; app: ' +
          'app/<name>)',
      ],
      framework: ['str', 'express, http or fastify'],
      strategy: ['str', "the context strategy (null: a command of a team's own)"],
      depth: ['int', 'the call depth'],
      hop: ['str', 'the async hop between levels'],
      node: ['str', 'the Node version the server ran (null: a deployed target)'],
      nodeLabel: ['str', 'the runtime label (node24, node24-noacf, remote)'],
      acf: ['bool', 'AsyncContextFrame as /__stats reported it active'],
      expectAcf: ['bool', 'what the runtime should report (null: not checked)'],
      target: ['str', '--target: the URL driven'],
      path: ['str', '--target: the path requested'],
      group: ['str', 'set by commands that compare something other than strategies; ratios are within a group'],
      arm: [
        'str',
        'the side within its group (baseline, candidate, A, B, …); aa: the A/A twin, a second baseline process ' +
          '(id <baseline id>/aa)',
      ],
      variant: ['str', 'part of the group key (load50, r2000, A, …): compared with the baseline of the same only'],
      control: ['bool', 'the broken control (global) that must leak'],
      userSupplied: ['bool', 'a strategy loaded with --strategy-file'],
      strategyFile: ['str', 'its file'],
      name: ['str', "app: the side's name"],
      command: ['str', "app: the side's start command"],
      burnUs: ['int', 'BURN_US of the server'],
      stores: ['int', 'STORES: extra live AsyncLocalStorage instances (only when set: preset stores)'],
      log: ['str', 'LOG of the server'],
      role: [
        'str',
        "model presets: 'fit' (the cost model is fitted on it) or 'held-out' (predicted by the fit, never " +
          'fitted); set before the run',
      ],
      rate: ['num', 'rate mode: requests per second it was driven at'],
      load: ['num', "rate mode: the share of the baseline's capacity (null with --rate)"],
      capacityRps: ['num', 'rate mode, --load: the baseline capacity the rate came from'],
      status: [
        'string',
        'ok, failed (it failed to start, died, or was refused in some block), complete or interrupted',
      ],
      joinedBlock: [
        'integer',
        'a configuration a resume added (its preset gained it after the run began): measured from this block on; ' +
          'the blocks before it are not its',
      ],
      restingFrom: [
        'integer',
        'measured up to this block, never after (its earlier blocks still count): a held-out resume left it out, ' +
          'or its ratio was within the precision target past the minimum of blocks',
      ],
      error: [
        'obj',
        '{ message, stderrTail, exit?: { code, signal } } when it failed; a dead server reads "server process ' +
          '<pid> died (killed by SIGKILL) (block 2)"',
      ],
    }),
    processes: {
      type: 'array',
      description:
        'one server process per block it ran in (duet: one per group it was in; the baseline, one beside every arm ' +
        'in every block)',
      items: PROCESS,
    },
    samples: {
      type: 'array',
      description: "what was measured, in order; the fields a sample carries depend on its kind and the run's method",
      items: SAMPLE,
    },
    summary: SUMMARY,
  },
  ['id', 'samples'],
);


// How each method fills a configuration: its processes, its samples' kinds and its summary.
// settings.method names it (lib/plan.js); rate mode is a run driven open loop.
const METHODS = [
  {
    title: 'sequential (`settings.method: "sequential"`; a measured run without a method reads as one)',
    doc:
      'Each block starts a fresh process per configuration and measures `settings.rounds` rounds of closed-loop ' +
      "bursts, each configuration's burst adjacent to one of the baseline's (`pairSeq`; the baseline has one sample " +
      'per adjacent burst). A sample is a burst with no `kind`. `summary.ratio` (`method: "adjacent-pairs"`) is ' +
      "each burst's rps ÷ its paired baseline burst's, the log ratio averaged per block, with a t-interval over " +
      'blocks (df = blocks − 1). Schema 1 (one warm process per configuration, no blocks) paired bursts by round ' +
      '(`"rounds"`).',
  },
  {
    title: 'duet (`settings.method: "duet"`, the default preset)',
    doc:
      'Per block, each configuration runs beside a baseline process on the shared CPU (`groupSize` servers loaded ' +
      'at once), `windows` counted windows of `window` s after a warm-up. `samples` holds three kinds: `window` ' +
      '(on the non-baseline member only: both servers\' requests, CPU per request and CPU share, counted or ' +
      'dropped), `duet` (the whole load of a group, per member: the id check) and `solo` (a solo burst of ' +
      "`soloDuration` s, with a sequential burst's fields). Windows and duet loads carry no `rps`, so only solo " +
      'bursts give `summary.rps`, `p99` and `cpuUsPerRequest`; `mismatches` and `lost` count every duet load and ' +
      'solo burst. `summary.ratio` (`method: "duet"`, `quantity: "cpu"`) = exp(the mean over blocks of each ' +
      "block's mean window log of partnerCpuUsPerRequest ÷ cpuUsPerRequest), read like throughput, with a " +
      't-interval over blocks; `cpuRatio` is its inverse. With `settings.aa`, the A/A twin is a configuration of ' +
      "its own: the baseline's strategy, `arm: \"aa\"`, `id` `<baseline id>/aa`.",
  },
  {
    title: 'pair (`settings.method: "pair"`: rate mode on real I/O, timers, the instance stand-ins, deploy)',
    doc:
      'Per block, each configuration and a baseline process are sent the same open-loop schedule at a fixed rate ' +
      "(`settings.rates`, or `loads`: shares of the baseline's capacity in `learned.capacity`). `samples` holds two " +
      "kinds: `window` (`method: \"pair\"`, on the candidate only: both servers' CPU per request, schedule, latency " +
      "histogram and wake-ups, the generator's lateness, with `--instance` each cgroup's accounting; counted or " +
      'dropped) and `pair` (the whole pair, per member: the id check, what was due and sent). `summary.ratio` is ' +
      'computed as a duet\'s from the counted windows (`method: "pair"`, `rate`); there is no `sharedRatio` (both ' +
      "served the same schedule). The latencies are analysis/pair.js's (per block, merged over the counted " +
      'windows; the generator\'s rule: docs/how-it-measures.md). With `--instance`, `settings.instance` is the ' +
      'stand-in (lib/instances.js: { name, platform, cpus, mhz?, memoryBytes, requestLimit, requestLimitSource, ' +
      'periodUs, quotaUs, assumption?, … }), `settings.slo` the bound ({ key, boundMs, text }), and each process ' +
      'carries its `cgroup`. At the operating point ' +
      '(`--target-cpu`) a window carries `phase`, `instanceUsPerRequest` and `bound`, and `learned.operatingPoints` ' +
      "the search. An SLO ladder (`--slo` with `--instance`, `deploy`, `app --instance`): the capacity adds the " +
      "open-loop knee, the ladder's 100%, and `loads` are fractions of it (up to 2); per block each deployment's " +
      'pair is started once, warmed closed loop and sent every rate lowest first, so its `pair` samples carry ' +
      '`ladder: true` and its process records sit on the configuration of the lowest rate; after a rate both fell ' +
      'behind, the higher ones have no samples in that block. The capacity under the SLO is analysis/capacity.js ' +
      "sloCapacity's (as an app file saves it: `app.capacity`).",
  },
  {
    title: 'instructions (`settings.method: "instructions"`, preset `instructions`)',
    doc:
      'Each server runs under callgrind (`settings.valgrind`; `nodeFlags`, bench/measure/callgrind.js says why), ' +
      'on one connection unless `--connections` says otherwise. A process warms up in windows of `windowRequests` ' +
      'requests (null: by depth, bench/measure/instruction-windows.js) until the last 6 are within ±2% of their ' +
      'median, or `maxWarmupWindows`, then measures `windows` windows (one that never settled: ' +
      '`unsettledWindows`; with `unsettledBound`, an arm compared on its mean measures until one window\'s swing ' +
      'moves that mean by at most that percent). `processes` has one record per block, `samples` are of kind ' +
      '`instructions`, and the timed figures (`rps`, `p99`, `cpuUsPerRequest`) are null. `summary.ratio` ' +
      "(`method` and `quantity` \"instructions\"): per window at the same block and index, the baseline's " +
      "perRequest ÷ this one's (read like throughput), the log ratios averaged per block, with a t-interval over " +
      'blocks, `range` and `spreadPct`; its judgement names a direction only when the whole range lies on one side ' +
      'of 1.',
  },
  {
    title: 'rate mode (`--rate`, `--load`, preset `latency`)',
    doc:
      'A run driven open loop: `settings.rates` (req/s, with `--rate`) or `loads` (shares of the baseline\'s ' +
      'capacity, with `--load`; the other null), `pipelining` always 1; with `--load`, `learned.capacity` is ' +
      'measured before the run, closed loop. One configuration per rate (`variant` load50 or r2000, compared with ' +
      'the baseline at the same load only) with `rate`, `load` and `capacityRps`. A sample\'s `rps` is answered ' +
      '÷ window and `requests` the answered; its `latency` is timed from each request\'s intended send time, beside ' +
      '`scheduled`, `sent`, `heldRate`, `histogram`, `sendLag`, `clientLag` and (`--driver artillery`) `engine`. ' +
      "The report's latency statistics (analysis/latency.js) merge each block's histograms exactly (without " +
      'blocks, each round\'s), combine the percentiles of the merged histograms over blocks as a geometric mean ' +
      'with a 95% t-interval on their logs, and pair the added latency block by block with the baseline ' +
      'configuration of the same group (same load).',
  },
];

module.exports = { RATIO, SUMMARY, CONFIG, METHODS };
