'use strict';
// The run JSON's shape, declared once as JSON Schema (checked by Ajv): every file a command
// saves is checked before it is written, and every file a command reads (report, compare,
// repro, run --resume) is migrated from the version that wrote it, then checked. A file
// that does not match is refused in one line naming the file and the field.
// docs/run-json.md's field reference is generated from these declarations
// (scripts/docs-run-json.js; test/run-schema.test.js fails when it is stale).
// Every object whose shape is known is closed: a field it does not declare is refused.
const { FIELDS, LEARNED_BEFORE } = require('./plan');
const { CONFIG, ENVIRONMENT, closed } = require('./run-fields');

// The version of the file format. 1: one warm process per configuration (no blocks);
// 2: blocks of fresh processes; 3: the plan (settings) frozen, what measuring learned in
// `learned`; 4: the record closed (every object whose shape is known refuses a field it
// does not declare) and `settings.method` and `settings.baseline` always present.
// Readers that ask `schema >= 2` mean "measured in blocks", which 3 and 4 still are.
const VERSION = 4;

const num = (doc) => ({ type: ['number', 'null'], description: doc });
const str = (doc) => ({ type: 'string', description: doc });
const obj = (doc, properties = {}, required = []) => ({ type: 'object', description: doc, properties, required });
const arr = (doc, items) => ({ type: 'array', description: doc, ...(items && { items }) });

// Fields of plans written before a rule was withdrawn: declared so that those files still read.
const PLAN_BEFORE = {
  extendUnsettled: { type: 'boolean', description: 'withdrawn: instructions runs of 2026-11-25 only' },
};
const PLAN = closed(
  'the plan: what the command was asked to measure, resolved once and frozen (lib/plan.js)',
  {
    ...Object.fromEntries(Object.entries(FIELDS).map(([k, f]) => [k, { type: f.type, description: f.doc }])),
    ...PLAN_BEFORE,
  },
);

const LEARNED = closed('what measuring learned, beside the plan', {
  capacity: obj("rate mode: the baseline's closed-loop capacity (and open-loop knee) the rates are shares of"),
  operatingPoints: arr(
    "--target-cpu: per block and pair, the baseline's operating point as searched ({ block, group, baseline, " +
      'candidate, target, base: { rate, share, converged, steps: [{ rate, share, behind, bound }] }, ' +
      "candidateAtBase: { cost, behind }, own?: { rate, from } }); share: the step's load as a share of the CPU " +
      "target, bound: the target it reached first ('cpu' or 'concurrency')",
    obj('one pair of one block'),
  ),
  postgres: { type: ['string', 'null'], description: 'HOP=pg: "embedded", or the --pg-url with its password as ***' },
  redis: obj('the Redis server the scenarios ran against ({ server, pid, dir })'),
  mysql: obj('the MariaDB server the scenarios ran against ({ server, pid, dir })'),
});

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
  command: str('the command as typed (passwords redacted)'),
  status: str('running, complete, failed or interrupted'),
};
const MEASURED = {
  ...COMMON,
  environment: ENVIRONMENT,
  settings: PLAN,
  learned: LEARNED,
  warnings: arr('lines the run printed as warnings', { type: 'string' }),
  resumes: arr('each sitting a --resume added: when, from which block, on which commit and machine', RESUME),
  measuringSeconds: num('seconds spent measuring (blocks), set-up and services apart'),
  precision: obj('with --precision: { target, reached, elapsedS, maxTimeS, blocks, missing: [{ id, halfWidthPct, ' +
    'blocksNeeded }] }'),
  profiles: obj('with --profile (bench/probes/profile.js): { dir, seconds, configs: { id: { file, requests, summary, ' +
    'overBaseline } }, errors }, paths relative to the file'),
  probes: arr(
    'model presets, `ctxbench probe`: async resources per request, per point (bench/probes/probe-run.js)',
    obj(
      'one point: { nodeLabel, node, framework, depth, hop, stores, strategy, requests, concurrency, perRequest: ' +
        '{ total, byType }, pid, runtime }',
    ),
  ),
  agentSink: obj(
    'the local sink the agents exported to (bench/services/agent-sink.js): { pid, counts }, warm-ups included',
  ),
};
const configs = (doc) => ({ type: 'array', description: doc, items: CONFIG });

// Each kind, declared once: its fields and the ones it must have. Every kind is closed.
const KINDS = {
  run: {
    doc: '`ctxbench run`, `deploy`, and each run inside a repro',
    properties: { ...MEASURED, configs: configs('the configurations') },
    required: ['kind', 'configs'],
  },
  aa: {
    doc: '`ctxbench aa`',
    properties: { ...MEASURED, configs: configs('A and B'), aa: obj('the A/A trials') },
    required: ['kind', 'configs'],
  },
  calibrate: {
    doc: '`ctxbench calibrate`',
    properties: { ...MEASURED, configs: configs('one per planted cost'), calibrate: obj('what was recovered') },
    required: ['kind', 'configs'],
  },
  overhead: {
    doc: '`ctxbench overhead`',
    properties: { ...MEASURED, configs: configs('ctxbench and the hello-world'), overhead: obj('the comparison') },
    required: ['kind', 'configs'],
  },
  app: {
    doc: '`ctxbench app`',
    properties: {
      ...MEASURED,
      configs: configs('the sides'),
      app: obj("the answer (analysis/index.js analyzeApp): { ratio, blocks, windows, ids, broken, … }"),
      predict: obj("--predict: each strategy's predicted cost"),
      probe: obj("--probe: each side's async resources per request ({ sides: [{ perRequest, runtime, … }] })"),
    },
    required: ['kind', 'configs'],
  },
  micro: {
    doc: '`ctxbench micro`',
    properties: {
      ...MEASURED,
      micro: obj('the scenarios and their results', { results: arr('per scenario and strategy') }, ['results']),
    },
    required: ['kind', 'micro'],
  },
  integrity: {
    doc: '`ctxbench integrity`',
    properties: {
      ...MEASURED,
      integrity: obj('the scenarios, cells and soaks', { cells: arr('per strategy, scenario and runtime') }, ['cells']),
    },
    required: ['kind', 'integrity'],
  },
  repro: {
    doc: '`ctxbench repro`',
    properties: {
      ...COMMON,
      runs: arr('the two runs (kind run)'),
      files: arr('or the two files compared', { type: 'string' }),
      repro: { type: ['object', 'null'], description: 'the agreement per ratio' },
    },
    required: ['kind'],
  },
  compare: {
    doc: '`ctxbench compare --out`',
    properties: {
      ...COMMON,
      files: arr('the two files', { type: 'string' }),
      maxRegression: num('--max-regression, percent'),
      runs: arr('the two runs compared'),
      compare: obj("the gate's judgement"),
    },
    required: ['kind', 'compare'],
  },
  'model-fit': {
    doc: "the cost model's fits that `ctxbench app --predict` applies (results/model-fit.json, written by `report`)",
    properties: {
      kind: str('model-fit'),
      generated: str('what wrote it'),
      runtimes: obj('per runtime: the fit (analysis/model.js exportFit)'),
    },
    required: ['kind', 'runtimes'],
  },
};

// Compiled on first use, each kind when first checked: a command refused for bad input, and
// most commands, never check a run, and compiling every kind cost each start ~0.1 s of CPU.
let ajv = null;
const compiled = new Map();
function validatorOf(kind) {
  if (!compiled.has(kind)) {
    ajv ??= new (require('ajv'))({ allErrors: false, strict: false });
    const { properties, required } = KINDS[kind];
    compiled.set(kind, ajv.compile({ type: 'object', properties, required, additionalProperties: false }));
  }
  return compiled.get(kind);
}

// A saved ratio without its sentence: a summary's ratios, and the ratio of an app's answer,
// an overhead run's and the A/A trials' overall one (copies of a summary's ratio).
const RATIO_KEYS = ['ratio', 'cpuRatio', 'sharedRatio'];
const ANSWERS = [
  ['app', 'ratio'],
  ['overhead', 'ratio'],
  ['aa', 'overall'],
];
const withoutVerdict = (r) =>
  r && Object.hasOwn(r, 'verdict') ? Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'verdict')) : r;
const summaryWithout = (s) =>
  s && { ...s, ...Object.fromEntries(RATIO_KEYS.filter((k) => s[k]).map((k) => [k, withoutVerdict(s[k])])) };
function withoutVerdicts(run) {
  const answers = ANSWERS.filter(([kind, key]) => run[kind]?.[key]).map(([kind, key]) => [
    kind,
    { ...run[kind], [key]: withoutVerdict(run[kind][key]) },
  ]);
  return {
    ...run,
    ...(Array.isArray(run.configs) && {
      configs: run.configs.map((c) => (c?.summary ? { ...c, summary: summaryWithout(c.summary) } : c)),
    }),
    ...Object.fromEntries(answers),
  };
}

// Older files ctxbench wrote become today's shape; the file on disk is not changed.
// 1 and 2 → 3: what measuring learned moves out of the plan into `learned`.
// → 4: a measured run's plan names its method and baseline (before, readers took a
// missing method for sequential and a missing baseline for none; now only this does), and
// a ratio's saved verdict sentence is dropped, so no reader can use it (the report words the
// judgement; judgementOf rebuilds one from the figures of a ratio saved before judgements).
const PLANS_MEASURED = new Set(['run', 'aa', 'calibrate', 'overhead', 'app']);
function migrate(run) {
  if (run?.kind === 'repro' && Array.isArray(run.runs)) return { ...run, runs: run.runs.map(migrate) };
  if (!run || typeof run !== 'object') return run;
  // A measured run without a plan (a hand-made one) reads as the oldest files do.
  if (!run.settings && !PLANS_MEASURED.has(run.kind)) return run;
  let out = withoutVerdicts(run);
  if (!run.learned) {
    const plan = run.settings ?? {};
    const learned = Object.fromEntries(LEARNED_BEFORE.filter((k) => Object.hasOwn(plan, k)).map((k) => [k, plan[k]]));
    const settings = Object.fromEntries(Object.entries(plan).filter(([k]) => !LEARNED_BEFORE.includes(k)));
    out = { ...out, settings, learned };
  }
  if (PLANS_MEASURED.has(run.kind) && !(out.settings.method && out.settings.baseline)) {
    out = { ...out, settings: { method: 'sequential', baseline: 'none', ...out.settings } };
  }
  return out;
}

// The one line that names what is wrong: file, field (as a JSON path) and what it should be.
function problem(file, err) {
  const where = err.instancePath ? err.instancePath.slice(1).replace(/\//g, '.') : 'the top level';
  const what =
    err.keyword === 'required'
      ? `has no "${err.params.missingProperty}"`
      : err.keyword === 'additionalProperties'
        ? `has a field "${err.params.additionalProperty}" that is not declared (misspelt, or a writer's bug)`
        : err.message;
  return `${file}: not a ctxbench result as docs/run-json.md declares it: ${where} ${what}`;
}

// -> the run (migrated) or throws one line. kinds: the kinds the reader accepts; unknown:
// let a kind not declared here through as it is (the report's generic section).
function checkRun(run, { file = 'run JSON', kinds = null, unknown = false } = {}) {
  if (!run || typeof run !== 'object' || Array.isArray(run))
    throw new Error(`${file}: not a ctxbench result (not an object; see docs/run-json.md)`);
  if (typeof run.kind !== 'string' || !run.kind)
    throw new Error(`${file}: not a ctxbench result (no "kind" field; see docs/run-json.md)`);
  // The report renders a kind it does not know as a generic section; the other readers refuse it.
  if (!Object.hasOwn(KINDS, run.kind)) {
    if (unknown) return run;
    throw new Error(
      `${file}: not a ctxbench result: kind ${JSON.stringify(run.kind)} is not one of ${Object.keys(KINDS).join(', ')}`,
    );
  }
  if (kinds && !kinds.includes(run.kind))
    throw new Error(`${file}: a ${run.kind} run, not ${kinds.map((k) => `a \`ctxbench ${k}\``).join(' or ')}`);
  const migrated = migrate(run);
  const validate = validatorOf(run.kind);
  if (!validate(migrated)) throw new Error(problem(file, validate.errors[0]));
  if (run.kind === 'repro') {
    const validateRun = validatorOf('run');
    for (const [i, r] of (migrated.runs || []).entries()) {
      if (r && !validateRun(r)) throw new Error(problem(`${file} (runs.${i})`, validateRun.errors[0]));
    }
  }
  return migrated;
}

module.exports = { VERSION, KINDS, PLAN, LEARNED, migrate, checkRun };
