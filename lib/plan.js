'use strict';
// The plan: what a command was asked to measure, resolved once from its flags and preset
// (bench/cli/*) and frozen before anything is measured; the layers below read it and never
// write it. It is saved as the run JSON's `settings`. What measuring learns (a capacity,
// the services' versions) goes into the run's `learned` record instead (lib/run-schema.js).
// Each field is declared once: its JSON type, its default where one applies, and what it
// means; a field a flag's setting fills is declared with that setting (lib/settings.js:
// its type from what the flag parses to, its doc the flag's help, its default the plan's),
// every other one here. docs/run-json.md is generated from FIELDS (scripts/docs-run-json.js).

// type: a JSON Schema type or list of types. default: the value a command takes when
// neither its flag nor its preset sets one (what autocannon's defaultOptions.js is for it).
const { PLAN_FIELDS, PLAN_DEFAULTS } = require('./settings');
const OWN_FIELDS = {
  // What is measured
  preset: {
    type: ['string', 'null'],
    default: 'default',
    doc: 'the preset, or "custom" when a matrix flag changed it',
  },
  basedOn: { type: 'string', doc: 'the preset a custom matrix started from' },
  quick: { type: 'boolean', doc: 'a sub-minute smoke run of the preset (imprecise)' },
  title: { type: 'string', doc: 'the section heading in results.md' },
  why: { type: ['string', 'null'], doc: 'what the preset is for (null for a custom matrix)' },
  strategies: { type: 'array', doc: 'the strategies measured, the baseline among them' },
  strategy: { type: 'string', doc: 'the one strategy of a single-configuration command (aa, calibrate)' },
  extra: { type: 'object', doc: 'micro, integrity: strategy modules a team added ({ name: file })' },
  strategyFiles: { type: 'array', doc: "a team's own strategy files ({ name, file }), marked user-supplied" },
  hops: { type: 'array', doc: 'the async hop kinds between levels' },
  hop: { type: 'string', doc: 'the hop of a single-configuration command' },
  logs: { type: 'array', default: ['none'], doc: 'LOG of the servers; recorded only when some server logs' },
  frameworks: { type: 'array', doc: 'the server frameworks' },
  framework: { type: ['string', 'null'], doc: 'the framework of a single-configuration command' },
  configs: { type: ['array', 'null'], doc: 'the points a preset lists when it is not a cross product' },
  runtimes: { type: 'array', doc: 'the runtimes (node24, node24-noacf, …) a preset keeps of those its majors give' },
  acf: { type: ['string', 'null'], doc: 'AsyncContextFrame: on, off, both or default' },
  targets: { type: 'array', doc: '--target: deployed servers ({ name, url }); integrity: the Node runtimes it ran' },
  baseline: { type: 'string', doc: 'what "% of baseline" compares with' },
  // How it is loaded
  driver: { type: 'string', default: 'autocannon', doc: 'the load driver' },
  rates: { type: ['array', 'null'], doc: 'rate mode: open-loop rates in req/s' },
  loads: { type: ['array', 'null'], doc: "rate mode: shares of the baseline's capacity (or knee)" },
  instance: { type: ['object', 'null'], doc: 'the instance stand-in: class, CPU quota, period, memory, request limit' },
  deploy: { type: 'object', doc: 'ctxbench deploy: the yamls measured ({ file, service, strategy, maxInstances })' },
  // How it is repeated and judged
  methodWhy: { type: 'string', doc: 'why the run uses its method' },
  aa: { type: 'boolean', doc: 'an A/A twin: a second baseline process measured against the first' },
  otelExporter: { type: 'string', doc: 'where OpenTelemetry spans went (memory by default)' },
  probe: { type: 'boolean', doc: "model presets: each point's async resources counted after the blocks" },
  // Instruction counts
  valgrind: { type: 'string', doc: 'the Valgrind version' },
  nodeFlags: { type: 'array', doc: 'Node flags under callgrind' },
  // Other commands
  at: { type: 'array', doc: 'calibrate: the configurations the planted cost is measured at' },
  paths: { type: 'array', doc: 'app: the paths loaded' },
  idHeader: { type: ['string', 'null'], doc: 'app: the header that carries a request id' },
  predict: { type: 'boolean', doc: "app: each strategy's cost predicted from the model" },
  with: { type: 'array', doc: "app: the services started beside the team's (sink, postgres, …)" },
  scenarios: { type: 'array', doc: 'integrity, micro: the scenarios run' },
  pipeline: { type: 'integer', doc: 'integrity: pipelined requests per connection' },
  body: { type: 'object', doc: "integrity: the body scenario's sizes" },
  soakGrowthLimitPct: { type: 'number', doc: 'integrity: heap growth a soak may show' },
  maxWarmup: { type: 'number', doc: 'micro: warm-up at most' },
  time: { type: 'number', doc: 'micro: ms per task' },
  warmupTime: { type: 'number', doc: 'micro: warm-up ms per task' },
  iterations: { type: 'integer', doc: 'micro: iterations per task at least' },
  warmupIterations: { type: 'integer', doc: 'micro: warm-up iterations' },
  library: { type: 'string', doc: 'micro: the benchmark library' },
  timer: { type: 'string', doc: 'micro: the clock' },
};
const twice = Object.keys(PLAN_FIELDS).filter((k) => Object.hasOwn(OWN_FIELDS, k));
if (twice.length) throw new Error(`plan: field(s) declared in lib/plan.js and lib/settings.js: ${twice.join(', ')}`);
const FIELDS = { ...OWN_FIELDS, ...PLAN_FIELDS };

// Fields of runs written before the plan was frozen: they are what measuring learned and
// live in the run's `learned` record now (lib/run-schema.js migrates them on read).
const LEARNED_BEFORE = ['capacity', 'postgres', 'redis', 'mysql'];

// The fallbacks, from FIELDS: { blocks: 3, … }.
const DEFAULTS = {
  ...Object.fromEntries(
    Object.entries(FIELDS)
      .filter(([, f]) => 'default' in f)
      .map(([k, f]) => [k, f.default]),
  ),
  ...PLAN_DEFAULTS,
};

function deepFreeze(x) {
  if (x && typeof x === 'object' && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

// The one way a command ends its resolution: every field declared, the object (and all it
// holds) frozen, so a layer below that writes into it throws at once instead of silently
// changing what the run says it measured. Returns a frozen copy; `fields` is not changed.
function freezePlan(fields) {
  const unknown = Object.keys(fields).filter((k) => !Object.hasOwn(FIELDS, k));
  // Declared in FIELDS: here, or with its setting in lib/settings.js.
  if (unknown.length) throw new Error(`plan: field(s) not declared in lib/plan.js: ${unknown.join(', ')}`);
  return deepFreeze(structuredClone(fields));
}

module.exports = { FIELDS, DEFAULTS, LEARNED_BEFORE, freezePlan, deepFreeze };
