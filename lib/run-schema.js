'use strict';
// The run JSON's shape, declared once as JSON Schema (checked by Ajv): every file a command
// saves is checked before it is written, and every file a command reads (report, compare,
// repro, run --resume) is migrated from the version that wrote it, then checked. A file
// that does not match is refused in one line naming the file and the field.
// docs/run-json.md's field reference is generated from these declarations
// (scripts/docs-run-json.js; test/run-schema.test.js fails when it is stale).
// The declarations hold the fields tools may rely on and their types; a run may carry more.
const { FIELDS, LEARNED_BEFORE } = require('./plan');

// The version of the file format. 1: one warm process per configuration (no blocks);
// 2: blocks of fresh processes; 3: the plan (settings) frozen, what measuring learned in
// `learned`. Readers that ask `schema >= 2` mean "measured in blocks", which 3 still is.
const VERSION = 3;

const num = (doc) => ({ type: ['number', 'null'], description: doc });
const str = (doc) => ({ type: 'string', description: doc });
const obj = (doc, properties = {}, required = []) => ({ type: 'object', description: doc, properties, required });
const arr = (doc, items) => ({ type: 'array', description: doc, ...(items && { items }) });

const RATIO = obj('a ratio to the baseline (1 = same cost)', {
  estimate: num('the point estimate'),
  ci95: { type: ['array', 'null'], description: 'its 95% interval [low, high]', items: { type: ['number', 'null'] } },
  verdict: str("the reader's sentence, written by one function from the judgement beside it"),
});

const SAMPLE = obj('one measured sample: a burst, a duet or pair window, or a count window', {
  rps: num('requests per second over the sample'),
  mismatches: { type: 'integer', description: "responses whose id was not the request's" },
  lost: { type: 'integer', description: 'requests whose id was lost' },
  errors: { type: 'integer', description: 'failed requests' },
  block: { type: 'integer', description: 'the block of fresh processes it belongs to' },
  window: { type: 'integer', description: 'duet, pair: the window within its block' },
});

const CONFIG = obj(
  'one configuration of the matrix',
  {
    id: str('unique within the run, e.g. express/als/d8/await/node24'),
    framework: { type: ['string', 'null'], description: 'express, http or fastify' },
    strategy: { type: ['string', 'null'], description: "the context strategy (null: a command of a team's own)" },
    depth: { type: ['integer', 'null'], description: 'the call depth' },
    hop: { type: ['string', 'null'], description: 'the async hop between levels' },
    node: { type: ['string', 'null'], description: 'the Node version the server ran (null: a deployed target)' },
    status: str('complete, failed or interrupted'),
    joinedBlock: { type: 'integer', description: 'a configuration a resume added: measured from this block on' },
    restingFrom: {
      type: 'integer',
      description: 'a configuration a held-out resume left out: measured up to this block, never after',
    },
    samples: arr('what was measured, in order', SAMPLE),
    summary: {
      ...obj("the configuration's figures (analysis/summary.js)", { ratio: { ...RATIO, type: ['object', 'null'] } }),
      type: ['object', 'null'],
    },
  },
  ['id', 'samples'],
);

const PLAN = {
  type: 'object',
  description: 'the plan: what the command was asked to measure, resolved once and frozen (lib/plan.js)',
  properties: Object.fromEntries(Object.entries(FIELDS).map(([k, f]) => [k, { type: f.type, description: f.doc }])),
};

const LEARNED = obj('what measuring learned, beside the plan', {
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

const ENVIRONMENT = obj('the machine and the code (bench/environment.js)', {
  node: str('the Node version of ctxbench itself'),
  cpuModel: str('the CPU model'),
  cores: { type: 'integer', description: 'CPU cores' },
  date: str('when the run began (ISO 8601)'),
  commit: { type: ['string', 'null'], description: 'the ctxbench commit' },
});

const COMMON = {
  schema: { type: 'integer', minimum: 1, description: `the file format's version (now ${VERSION})` },
  kind: str('what wrote it: run, micro, integrity, calibrate, aa, overhead, app, repro or compare'),
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
  resumes: arr(
    'each sitting a --resume added: when, from which block, on which commit and machine',
    obj('one resume', {
      fromBlock: { type: 'integer', description: 'the first block it measured (its complete blocks before)' },
      measuredBeforeS: num('seconds of measuring the run had before it'),
      heldOut: obj('a held-out resume (--held-out): what it measured and why (bench/held-out.js)', {
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
      }),
    }),
  ),
};

// Each kind, declared once: its fields and the ones it must have.
const KINDS = {
  run: {
    doc: '`ctxbench run`, `deploy`, and each run inside a repro',
    properties: { ...MEASURED, configs: arr('the configurations', CONFIG) },
    required: ['kind', 'configs'],
  },
  aa: {
    doc: '`ctxbench aa`',
    properties: { ...MEASURED, configs: arr('A and B', CONFIG), aa: obj('the A/A trials') },
    required: ['kind', 'configs'],
  },
  calibrate: {
    doc: '`ctxbench calibrate`',
    properties: { ...MEASURED, configs: arr('one per planted cost', CONFIG), calibrate: obj('what was recovered') },
    required: ['kind', 'configs'],
  },
  overhead: {
    doc: '`ctxbench overhead`',
    properties: { ...MEASURED, configs: arr('ctxbench and the hello-world', CONFIG), overhead: obj('the comparison') },
    required: ['kind', 'configs'],
  },
  app: {
    doc: '`ctxbench app`',
    properties: {
      ...MEASURED,
      configs: arr('the sides', CONFIG),
      predict: obj("--predict: each strategy's predicted cost"),
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
    properties: { ...COMMON, files: arr('the two files', { type: 'string' }), compare: obj("the gate's judgement") },
    required: ['kind', 'compare'],
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
    compiled.set(kind, ajv.compile({ type: 'object', properties, required }));
  }
  return compiled.get(kind);
}

// Older files ctxbench wrote become today's shape; the file on disk is not changed.
// 1 and 2 → 3: what measuring learned moves out of the plan into `learned`.
function migrate(run) {
  if (run?.kind === 'repro' && Array.isArray(run.runs)) return { ...run, runs: run.runs.map(migrate) };
  if (!run || typeof run !== 'object' || !run.settings || run.learned) return run;
  const learned = Object.fromEntries(
    LEARNED_BEFORE.filter((k) => Object.hasOwn(run.settings, k)).map((k) => [k, run.settings[k]]),
  );
  const settings = Object.fromEntries(Object.entries(run.settings).filter(([k]) => !LEARNED_BEFORE.includes(k)));
  return { ...run, settings, learned };
}

// The one line that names what is wrong: file, field (as a JSON path) and what it should be.
function problem(file, err) {
  const where = err.instancePath ? err.instancePath.slice(1).replace(/\//g, '.') : 'the top level';
  const what = err.keyword === 'required' ? `has no "${err.params.missingProperty}"` : err.message;
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
