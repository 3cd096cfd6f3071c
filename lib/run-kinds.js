'use strict';
// The run JSON's top level, declared once as JSON Schema: the fields every kind shares, the
// plan (`settings`) and what measuring learned (`learned`), and each kind with its own
// fields and what it is. lib/run-schema.js checks and migrates files against these, and
// docs/run-json.md is generated from them whole (scripts/docs-run-json.js); a configuration's
// fields are lib/run-config.js's. Every kind is closed; so is every object declared with its
// fields (lib/run-fields.js `notes` describes a field of an open object, never checks it).
const { FIELDS } = require('./plan');
const { ENVIRONMENT, closed, notes } = require('./run-fields');
const { CONFIG } = require('./run-config');

// The version of the file format, and what each version changed. Readers that ask
// `schema >= 2` mean "measured in blocks", which 3 and 4 still are.
const VERSION = 4;
const VERSIONS = {
  1: 'one warm process per configuration, no blocks; bursts paired by round',
  2: 'blocks of fresh processes',
  3: 'the plan (`settings`) frozen before measuring; what measuring learned in `learned`',
  4:
    'the record closed (every object whose shape is known refuses a field it does not declare); ' +
    '`settings.method` and `settings.baseline` always present; no ratio saves its verdict as a sentence',
};

// What a run file is: the page's first paragraph.
const ABOUT =
  'Every ctxbench command that measures something writes one JSON file. It is rewritten atomically (`*.tmp`, ' +
  'then a rename) after every sample, so an interrupted run keeps everything it measured. `ctxbench report` reads ' +
  'every `results/*.json` and renders one section per file, chosen by its `kind`.';

// The fixed contract: every run has had these since schema 1; tools may rely on them.
const CONTRACT = ['environment', 'settings', 'configs', 'configs[].samples', 'configs[].summary'];

const num = (doc) => ({ type: ['number', 'null'], description: doc });
const str = (doc) => ({ type: 'string', description: doc });
const obj = (doc, properties = {}, required = []) => ({ type: 'object', description: doc, properties, required });
const arr = (doc, items) => ({ type: 'array', description: doc, ...(items && { items }) });

// Fields of plans written before a rule was withdrawn: declared so that those files still read.
const PLAN_BEFORE = {
  extendUnsettled: { type: 'boolean', description: 'withdrawn: instructions runs of 2026-11-25 only' },
};
const PLAN = closed(
  'what the command was asked to measure, resolved once from its flags and preset and frozen before anything ' +
    'is measured: everything needed to repeat the run (lib/plan.js declares each field)',
  {
    ...Object.fromEntries(Object.entries(FIELDS).map(([k, f]) => [k, { type: f.type, description: f.doc }])),
    ...PLAN_BEFORE,
  },
);

const CAPACITY = obj(
  "rate mode, pair: the baseline's closed-loop capacity the rates are shares of, measured before the run",
  notes({
    method: 'how it was measured, in words: closed loop, bursts until the last 3 are within 10% of their median ' +
      '(at most 10), the median of those',
    bursts: 'the last this many bursts must agree',
    servers: 'pair: 2, measured with two baseline processes at once (each one\'s share)',
    groups:
      '[{ group, baseline, rps, bursts, settled, knee? }]: per group, its baseline\'s capacity (req/s) and bursts; ' +
      'settled false: ten bursts and the last three still apart',
    rps: 'app: the capacity (req/s)',
    knee:
      "an SLO ladder's 100% (on each group; app: here): { rps (the last rate at which both baseline processes kept " +
      "the SLO), censored ('below': over it from the first rate, 'above': within it at the top rate tried, else " +
      "null), steps: [{ rate, ok, p (each process's percentile, ms), held }], method }",
  }),
);
const LEARNED = closed(
  'what measuring learned, beside the plan (schema 3; in `settings` before, moved on read)',
  {
    capacity: CAPACITY,
    operatingPoints: arr(
      "--target-cpu: per block and pair, the baseline's operating point as searched ({ block, group, baseline, " +
        'candidate, target, base: { rate, share, converged, steps: [{ rate, share, behind, bound }] }, ' +
        "candidateAtBase: { cost, behind }, own?: { rate, from } }); share: the step's load as a share of the CPU " +
        "target, bound: the target it reached first ('cpu' or 'concurrency')",
      obj('one pair of one block'),
    ),
    postgres: { type: ['string', 'null'], description: 'HOP=pg: "embedded", or the --pg-url with its password as ***' },
    redis: obj('the Redis server the scenarios ran against ({ server, pid, dir })'),
    mysql: obj('the MariaDB server the scenarios (or `app --with mariadb`) ran against ({ server, pid, dir })'),
  },
);
const RESUME = closed('one resume', {
  at: str('when it began (ISO 8601)'),
  command: str('the command as typed'),
  fromBlock: { type: 'integer', description: 'the first block it measured (its complete blocks before)' },
  droppedSamples: { type: 'integer', description: 'samples of the interrupted block left out' },
  measuredBeforeS: num('seconds of measuring the run had before it'),
  status: str('what the run was before it: interrupted, running, failed'),
  commit: { type: ['string', 'null'], description: 'the ctxbench commit it ran' },
  dirty: { type: ['boolean', 'null'], description: 'the work tree had uncommitted changes' },
  node: str('the Node version of ctxbench'),
  machine: obj('the machine it ran on ({ cpuModel, cores, kernel })'),
  blocks: { type: 'integer', description: '--blocks as the resume asked' },
  maxTime: num('--max-time as the resume asked'),
  added: arr('configurations the preset had gained since (they carry joinedBlock)', { type: 'string' }),
  heldOut: obj('a held-out resume (--held-out): what it measured and why (bench/run/held-out.js)', {
    budgetS: num('its own time budget, seconds of measuring'),
    pairs: arr(
      'the strategy-runtime pairs whose word the projection said was decided by --blocks',
      obj('one pair', {
        runtime: str('the runtime label'),
        strategy: str('the strategy'),
        projected: { type: 'integer', description: 'blocks in all by which its word was projected decided' },
        toward: str('claimed or not modelled: the word projected'),
      }),
    ),
    measured: { type: 'integer', description: 'configurations measured from fromBlock on' },
    rested: { type: 'integer', description: 'configurations set resting (restingFrom)' },
    added: arr('configurations it added', { type: 'string' }),
  }),
});

const COMMON = {
  schema: { type: 'integer', minimum: 1, description: `the file format's version (now ${VERSION})` },
  kind: str('what wrote it: run, micro, integrity, calibrate, aa, overhead, app, repro, compare or model-fit'),
  title: str('the section heading in results.md'),
  command: str('the command exactly as typed, argv joined (passwords redacted)'),
  status: str('running, complete, failed (a configuration failed; exit 1) or interrupted (exit 130)'),
};
const MEASURED = {
  ...COMMON,
  environment: ENVIRONMENT,
  settings: PLAN,
  learned: LEARNED,
  warnings: arr('lines the run printed as warnings', { type: 'string' }),
  resumes: arr(
    'only a run that went on with --resume: each sitting it added, when, from which block, on which commit and ' +
      'machine, and what the run was before it',
    RESUME,
  ),
  measuringSeconds: num('seconds spent measuring (blocks), set-up and services apart'),
  precision: obj(
    'with --precision: { target, reached, elapsedS, maxTimeS, blocks, missing: [{ id, halfWidthPct, ' +
      'blocksNeeded }] }',
  ),
  profiles: obj(
    "with --profile (bench/probes/profile.js), paths relative to the file's folder: { dir, seconds, configs: " +
      '{ <id>: { file (a V8 .cpuprofile: Chrome DevTools opens it), requests (served in the unmeasured profiling ' +
      'burst), summary: { durationMs, samples, busyMs (not idle), skippedMs (the start-up before the load, left ' +
      'out), packages and functions: [{ name, package?, selfMs, share (of busy time) }] }, overBaseline: ' +
      '{ baseline, packages, functions: [{ name, share, baselineShare, growthPp }] } (what grows most over the ' +
      'baseline) } }, errors (a line per configuration whose profile could not be recorded) }',
  ),
  probes: arr(
    'model presets, `ctxbench probe`: async resources per request, per point (bench/probes/probe-run.js), ' +
      "counted between two labelled requests at the run's connections",
    obj(
      "{ nodeLabel, node, framework, depth, hop, stores, strategy (the run's baseline), requests, " +
        'concurrency, perRequest: { total, byType }, pid, runtime: { node, execPath, execArgv, acf } }',
    ),
  ),
  agentSink: obj(
    'the local sink the agents exported to (`--with sink`, bench/services/agent-sink.js): { pid, counts: ' +
      '{ <agent>: { posts, spans, … } } }, what it received, warm-ups included',
  ),
};
const configs = (doc) => ({ type: 'array', description: doc, items: CONFIG });

const OVERHEAD = obj(
  'the comparison (analysis/method.js analyzeOverhead)',
  notes({
    required: 'the floor the ratio must clear (0.9)',
    rule:
      "a code: 'interval-over-required': met when the 95% interval's lower end is at least required, not met when " +
      'its upper end is below it, else cannot tell (in words in older files)',
    sides:
      "{ ctxbench, hello-world }: each { rps (the summary's), samples } (older files: \"ctxbench none depth 1\" and " +
      '"express hello-world")',
    ratio: "ctxbench's ratio to the hello-world, as a summary's",
    verdict: "'met', 'not met', 'cannot tell' or 'not shown' (no interval)",
    pass: 'true only when met',
  }),
);
const APP = obj(
  'the answer (analysis/index.js analyzeApp)',
  notes({
    method: "'pair' with --instance",
    ratio: "the candidate's ratio to the baseline, as a duet's (analysis/summary.js duetRatios), with its judgement",
    blocks: 'blocks',
    windows: '{ counted, dropped }',
    cpuUsPerRequest: '{ baseline, candidate }: medians over the counted windows',
    requestsPerWindow: '{ baseline, candidate }',
    ids: '{ baseline, candidate }: each { checked, requests, kept, mismatches, lost, errors, non2xx } (pair: from ' +
      'the pair samples)',
    broken: 'lost or mismatched ids',
    capacity:
      "--instance: analysis/capacity.js sloCapacity, rows[0] the candidate's: per deployment capacity and " +
      "baselineCapacity (each block's SLO crossing, geometric mean and interval over blocks), ratio (the " +
      "candidate's as % of the baseline process beside it, paired by block), cpuBelowKnee: { ratio, rungs } (the " +
      "baseline's CPU per request ÷ the candidate's over the counted windows of the rungs up to 100% in which " +
      'neither was throttled in more than half its CFS periods: a cost under the quota, not a capacity), ' +
      'instances: { serve, baseline, candidate, candidateRange, per100: { estimate, ci95 } } (per100: instances ' +
      'where the baseline needs 100, 100 ÷ the ratio)',
  }),
);
const PREDICT = obj(
  "--predict (docs/model.md): each strategy's cost predicted for the service from the cost model",
  notes({
    runtime: "the model applied: the probed process's Node and ACF mode",
    probe: "{ perRequest: { total, byType }, runtime }: the service's async resources per request",
    model: '{ runtime, source: { file, commit, date }, reference: { point, cpuUsPerRequest: { estimate, ci95 } } }',
    reference: '{ command, env, configs }: the reference server, measured in duet beside the service',
    prediction:
      "{ baselineUs: { estimate, se, df } (the service's CPU per request on the model's scale), rows: [{ strategy, " +
      "estimate, ci95, extraUs, caveat?: { code } ('agent-io': an agent's row, whose I/O spans the model does not " +
      "count), why?: { code, … } (no figure, and why: 'outside-range' with R and rangeR) }] }",
    candidate:
      'with --candidate --strategy: { strategy, predicted: { estimate }, measured: { estimate }, judgement: ' +
      '{ outcome, gapPp, halfWidthPp } }',
    error: 'only when no model applies: which runtimes the studies cover',
  }),
);
const REPRO = {
  type: ['object', 'null'],
  description: 'the agreement per ratio (analysis/repro.js)',
  properties: notes({
    a: "run a's title",
    b: "run b's",
    schemas: "the two files' schema versions",
    rows:
      '[{ id, a, b: { estimate, ci95, halfWidthPct }, differencePp, aCoversB, bCoversA, agree, consistent }]; ' +
      'instruction runs add differencePct',
    compared: 'ratios compared',
    agreeing: 'of them, those that agree',
    shareAgreeing: 'agreeing ÷ compared',
    medianHalfWidthPct: "the ratios' median half-width, pp",
    onlyInOne: 'configurations only one run has',
    served:
      'pair runs, when not empty: [{ id, a, b, agree }], each side { cannotServe, blocksNotServed, blocks }: the ' +
      'configurations either run says cannot serve their rate, left out of rows',
    addedP99:
      'pair runs, when not empty: [{ id, a, b, differenceMs, aCoversB, bCoversA, agree, consistent }], each side ' +
      '{ estimate, ci95, n } in ms',
    machines:
      "{ a, b, same, differences }: each run's { cpuModel, cores, kernel }; same false: a comparison across " +
      'machines, never a second reading',
    instructions:
      'two instruction runs: { limitPct, within, maxDifferencePct, medianDifferencePct, levels: [{ id, a, b, ' +
      'differencePct }] }',
  }),
};

// Each kind, declared once: who writes it, what it is, its fields and the ones it must have.
const KINDS = {
  run: {
    doc: '`ctxbench run`, `deploy`, and each run inside a repro or compare file',
    description:
      "One configuration per point of the matrix, each measured in every block; `settings.method` says how " +
      'its samples were taken and its summary computed ([By method](#by-method), below).',
    properties: { ...MEASURED, configs: configs('the configurations') },
    required: ['kind', 'configs'],
  },
  aa: {
    doc: '`ctxbench aa`',
    description:
      'Two processes of the same server, A and B (`arm`), measured against each other in `settings.trials` ' +
      'trials of `blocksPerTrial` blocks: how often the method calls a difference where there is none.',
    properties: {
      ...MEASURED,
      configs: configs('A and B'),
      aa: obj(
        'the A/A trials (analysis/method.js analyzeAa): { alpha, rule: { code: "binomial-tail", tail } (in words ' +
          'in older files), trials: [{ trial, estimate, ci95, pValue, significant }], completedTrials, significant, ' +
          'falsePositiveRate, rateCi95, allowed, tailP, pass (fails only if P(X ≥ k) < tail for X ~ Binomial(n, ' +
          'alpha), k the significant trials), overall (B against A over every sample, a summary\'s ratio), ' +
          "latency? (pair: what B adds to A's p50 and p99) }",
      ),
    },
    required: ['kind', 'configs'],
  },
  calibrate: {
    doc: '`ctxbench calibrate`',
    description:
      'A planted cost (BURN_US, `settings.burns`) measured at `settings.at` against burn0: does the cost seen ' +
      'from outside match the burn the server timed?',
    properties: {
      ...MEASURED,
      configs: configs('one per planted cost'),
      calibrate: obj(
        'what was recovered (analysis/method.js analyzeCalibration): { tolerance, checkedLevels, rule (a code, ' +
          '"interval-in-tolerance"; in words in older files), points: [{ group, depth, hop, levels: [{ burnUs, arm, ' +
          'pairs, actualUs, seenUs, cpuUs, seenRatio, cpuRatio, checked, verdict, cpuVerdict, pass }], fit: { slope, ' +
          'interceptUs, r2, points }, verdict, cpuVerdict }], verdict, cpuVerdict, pass }: pass when the 95% ' +
          'interval of seen ÷ timed lies within 1 ± tolerance at every checked level, fail when wholly outside',
      ),
    },
    required: ['kind', 'configs'],
  },
  overhead: {
    doc: '`ctxbench overhead`',
    description:
      "A run of two configurations, arms `ctxbench` (STRATEGY=none DEPTH=1) and `hello-world` (group `overhead`, " +
      "baseline `hello-world`): does the server's request path add anything but the strategy?",
    properties: { ...MEASURED, configs: configs('ctxbench and the hello-world'), overhead: OVERHEAD },
    required: ['kind', 'configs'],
  },
  app: {
    doc: '`ctxbench app`',
    description:
      "A team's own service: two sides started from their commands (`configs[].name`, `command`; ids " +
      '`app/<name>`, arms baseline and candidate) and measured in duet; each side\'s `duet` samples are the id ' +
      'check per window (`kept`, `unchecked`), and the candidate carries the window samples (CPU per request of ' +
      'the process tree, from /proc). With `--instance CLASS`, in pairs at fixed rates on the stand-ins: ' +
      '`settings.method: "pair"`, `loads` shares of the knee, `connections` the instance\'s request limit, ' +
      '`learned.capacity` { rps, bursts, knee, method }, and per rate a baseline and a candidate configuration ' +
      '(`app/<name>/load50`, group `load50`) with `pair` samples and, on the candidate, the pair\'s windows ' +
      '(bench/measure/pair-windows.js). The services `--with` started are in `learned` (postgres, redis, mysql).',
    properties: {
      ...MEASURED,
      configs: configs('the sides'),
      app: APP,
      predict: PREDICT,
      probe: obj("--probe: each side's async resources per request ({ sides: [{ perRequest, runtime, … }] })"),
    },
    required: ['kind', 'configs'],
  },
  micro: {
    doc: '`ctxbench micro`',
    description: 'What one context operation costs, strategy by strategy, away from HTTP: [its part](micro.md#json).',
    properties: {
      ...MEASURED,
      micro: obj('the scenarios and their results', { results: arr('per scenario and strategy') }, ['results']),
    },
    required: ['kind', 'micro'],
  },
  integrity: {
    doc: '`ctxbench integrity`',
    description: 'Whether each strategy keeps the right context, per scenario and runtime: ' +
      '[its part](integrity.md#json).',
    properties: {
      ...MEASURED,
      integrity: obj('the scenarios, cells and soaks', { cells: arr('per strategy, scenario and runtime') }, ['cells']),
    },
    required: ['kind', 'integrity'],
  },
  repro: {
    doc: '`ctxbench repro`',
    description: 'A preset run twice, or two files compared (`--compare`): do the ratios agree?',
    properties: {
      ...COMMON,
      runs: arr('the two runs (kind run; absent with --compare)'),
      files: arr('--compare: the two files compared', { type: 'string' }),
      repro: REPRO,
    },
    required: ['kind'],
  },
  compare: {
    doc: '`ctxbench compare a.json b.json --out FILE`',
    description: 'The regression gate between two runs, as its exit code decides it.',
    properties: {
      ...COMMON,
      files: arr('the two files', { type: 'string' }),
      maxRegression: num('--max-regression, percent'),
      runs: arr('the two runs compared'),
      compare: obj(
        "the gate's judgement (analysis/compare.js): { a, b, maxRegression, alpha, machines (as a repro's), " +
          'counted, duet, baseline, direct, rows: [{ id, status, unit, a, b, estimate, changePct, ci95, pValue, ' +
          'pRegression, pPass, outcome, … }], regressions, inconclusive, failed, exitCode (1: a regression; 2: ' +
          'inconclusive, or nothing compared; 0: none) }; an instruction row adds instructions: { growthPct, ' +
          'marginPct, spreads, unsteady }',
      ),
    },
    required: ['kind', 'compare'],
  },
  'model-fit': {
    doc: "results/model-fit.json, written by `report`",
    description: "The cost model's fits that `ctxbench app --predict` applies.",
    properties: {
      kind: str('model-fit'),
      generated: str('what wrote it'),
      runtimes: obj('per runtime: the fit (analysis/model.js exportFit)'),
    },
    required: ['kind', 'runtimes'],
  },
};

module.exports = { VERSION, VERSIONS, ABOUT, CONTRACT, KINDS, PLAN, LEARNED, COMMON, MEASURED };
