'use strict';
// The registry: the only place that maps a strategy name to its module.
// Metadata lives here rather than in the modules so that listing strategies (--help,
// reports, the runner) never requires one: requiring cls-hooked or alscontext's CLS
// installs an async hook that slows every promise in the process.

// label: the few words a table names the row by (what it runs); describe: the whole setup.
const STRATEGIES = {
  none: {
    label: 'no context',
    describe: 'no context at all: the floor every other strategy is measured against',
    carriesContext: false,
  },
  param: {
    label: 'the id as an argument',
    describe: "id passed down the call chain as an argument (the App Engine study's baseline)",
    carriesContext: true,
    // The server does the same work as `none` (a property read instead of a constant):
    // its ratio to `none` is an A/A check inside every run that has both.
    sameWorkAs: 'none',
  },
  'cls-hooked': {
    label: 'cls-hooked',
    describe: 'cls-hooked namespace (async_hooks createHook)',
    carriesContext: true,
  },
  alscontext: {
    label: "alscontext's CLS",
    describe: 'alscontext CLS part (its own async_hooks createHook), as the als-context benchmark used',
    carriesContext: true,
  },
  'alscontext-als': {
    label: "alscontext's ALS wrapper",
    describe: 'alscontext ALS part (a Map-store wrapper over AsyncLocalStorage)',
    carriesContext: true,
  },
  als: {
    label: 'AsyncLocalStorage',
    describe: 'native AsyncLocalStorage holding the id',
    carriesContext: true,
    // The optional enterWith-style operations its module has (the Node-upgrade scenarios
    // that need them are "n/a" for a strategy without them).
    operations: ['enter', 'exit'],
  },
  otel: {
    label: "OpenTelemetry's context API alone",
    describe: 'OpenTelemetry context API with AsyncLocalStorageContextManager, id in a context key',
    carriesContext: true,
  },
  'otel-selective': {
    label: 'OpenTelemetry SDK, the framework instrumentation only',
    describe:
      "OpenTelemetry SDK, only the framework's instrumentation (@fastify/otel; express + http; http): the " +
      'study\'s "OTel plugin only"',
    carriesContext: true,
    otel: true,
  },
  'otel-full': {
    label: 'OpenTelemetry SDK, every instrumentation, spans in memory',
    describe:
      "OpenTelemetry SDK with auto-instrumentations-node plus the framework's instrumentation: the study's " +
      '"Full OTel"',
    carriesContext: true,
    otel: true,
  },
  'cls-rtracer': {
    label: 'cls-rtracer middleware',
    describe: 'cls-rtracer 2.x: its Express middleware (runWithId elsewhere), id read with rTracer.id()',
    carriesContext: true,
  },
  'express-http-context': {
    label: 'express-http-context middleware',
    describe: 'express-http-context 2.x: its middleware opens a Map store (reusing one already active), id in a key',
    carriesContext: true,
  },
  'fastify-request-context': {
    label: '@fastify/request-context',
    describe:
      '@fastify/request-context: its Fastify plugin opens the store at onRequest, id set in the handler (Fastify only)',
    carriesContext: true,
    frameworks: ['fastify'],
  },
  // The rows as teams deploy them. `sink`: which of the local sink's APIs the row sends to
  // (bench/services/agent-sink.js); a row with one needs SINK_URL, and ctxbench starts the sink for it.
  // `sampleRate`: a head-sampled row's ratio, for requests without a sampled parent (the
  // integrity client then sends none: a sampled W3C parent would trace every request).
  'otel-sdk-otlp': {
    label: 'OpenTelemetry SDK as deployed: auto-instrumented, OTLP, every request traced',
    describe:
      'OpenTelemetry NodeSDK as teams deploy it: auto-instrumentations-node and SDK defaults (parent-based ' +
      'always-on; traces, metrics and logs over OTLP http/protobuf to a local receiver), id in a context key',
    carriesContext: true,
    otel: true,
    sink: 'otlp',
  },
  'otel-sdk-otlp-10': {
    label: 'OpenTelemetry SDK as deployed, 10% of requests traced',
    describe:
      'otel-sdk-otlp with a parent-based 10% trace-id ratio sampler (OTEL_TRACES_SAMPLER=parentbased_traceidratio, ' +
      'OTEL_TRACES_SAMPLER_ARG=0.1)',
    carriesContext: true,
    otel: true,
    sink: 'otlp',
    sampleRate: 0.1,
  },
  sentry: {
    label: 'Sentry, every request traced',
    describe:
      '@sentry/node 11 tracing every request (tracesSampleRate 1), envelopes to a local sink: the id on the ' +
      "request's isolation scope, read back from it",
    carriesContext: true,
    agent: 'sentry',
    sink: 'sentry',
  },
  'sentry-errors': {
    label: "Sentry's default: errors only, no tracing",
    describe:
      "@sentry/node 11 at its default, errors only (no tracesSampleRate or tracesSampler), request isolation on: the " +
      "id on the request's isolation scope",
    carriesContext: true,
    agent: 'sentry',
    sink: 'sentry',
  },
  'sentry-10': {
    label: 'Sentry, 10% of requests traced',
    describe:
      '@sentry/node 11 tracing 10% of requests without a sampled parent (tracesSampleRate 0.1), envelopes to a ' +
      "local sink: the id on the request's isolation scope",
    carriesContext: true,
    agent: 'sentry',
    sink: 'sentry',
    sampleRate: 0.1,
  },
  datadog: {
    label: 'Datadog: tracing on, its network features off',
    describe:
      'dd-trace 6 (Datadog APM), tracing on, its network features off, traces to a local sink: the id in ' +
      "dd-trace's baggage (setBaggageItem), read back with getBaggageItem",
    carriesContext: true,
    agent: 'datadog',
    sink: 'datadog',
    operations: ['enter'],
  },
  global: {
    label: 'a module-level variable',
    describe: 'CONTROL: a module-level variable; must be reported as leaking under concurrency',
    carriesContext: true,
    control: true,
    sameWorkAs: 'none',
    operations: ['enter', 'exit'],
  },
};

// Each built-in strategy's module, named here so that the layering lint reads it. Loaded
// on use, one per process (see the top of this file: some install an async hook).
const MODULES = {
  none: () => require('./none'),
  param: () => require('./param'),
  'cls-hooked': () => require('./cls-hooked'),
  alscontext: () => require('./alscontext'),
  'alscontext-als': () => require('./alscontext-als'),
  als: () => require('./als'),
  otel: () => require('./otel'),
  'otel-selective': () => require('./otel-selective'),
  'otel-full': () => require('./otel-full'),
  'cls-rtracer': () => require('./cls-rtracer'),
  'express-http-context': () => require('./express-http-context'),
  'fastify-request-context': () => require('./fastify-request-context'),
  'otel-sdk-otlp': () => require('./otel-sdk-otlp'),
  'otel-sdk-otlp-10': () => require('./otel-sdk-otlp-10'),
  sentry: () => require('./sentry'),
  'sentry-errors': () => require('./sentry-errors'),
  'sentry-10': () => require('./sentry-10'),
  datadog: () => require('./datadog'),
  global: () => require('./global'),
};

// TEST ONLY: CTXBENCH_EXTRA_STRATEGY=/abs/path.js adds one strategy, 'test-extra', whose
// module is that file (run, current, optional bind), so tests can plant a deliberately
// broken strategy in a real server. Unset (always, outside tests), nothing changes.
if (process.env.CTXBENCH_EXTRA_STRATEGY) {
  STRATEGIES['test-extra'] = {
    describe: 'TEST ONLY: the module named by CTXBENCH_EXTRA_STRATEGY',
    carriesContext: true,
    testOnly: true,
    file: require('node:path').resolve(process.env.CTXBENCH_EXTRA_STRATEGY),
  };
}

// A team's own strategies (--strategy-file): registered by the runner after it inspected
// the files (register), and in every server it starts through the environment.
const strategyFile = require('./strategy-file');

const names = Object.keys(STRATEGIES);

// entries: [{ name, describe, file }] from strategyFile.inspect. Adds each as a strategy
// marked user-supplied, and returns the names.
function register(entries) {
  for (const e of entries) {
    if (STRATEGIES[e.name] && !STRATEGIES[e.name].userSupplied)
      throw new Error(`strategy file ${e.file}: name '${e.name}' is a built-in strategy's`);
    STRATEGIES[e.name] = {
      describe: e.describe,
      carriesContext: true,
      userSupplied: true,
      file: e.file,
      operations: e.operations || [],
    };
    if (!names.includes(e.name)) names.push(e.name);
  }
  return entries.map((e) => e.name);
}

register(strategyFile.fromEnv());

// One line when a strategy cannot run on a framework (a Fastify plugin on Express);
// null when it can.
function frameworkProblem(name, framework) {
  const meta = STRATEGIES[name];
  if (!meta || !meta.frameworks || meta.frameworks.includes(framework)) return null;
  return (
    `STRATEGY=${name} runs only with FRAMEWORK=${meta.frameworks.join(' or ')} (it is a plugin of that ` +
    `framework), not FRAMEWORK=${framework}`
  );
}

function info(name) {
  const meta = STRATEGIES[name];
  if (!meta) throw new Error(`unknown strategy '${name}' (valid: ${names.join(', ')})`);
  return { name, ...meta };
}

// Loads exactly one strategy module. Call once per process. config (servers/config.js) is
// passed to a module's start(config) when it has one: the OpenTelemetry strategies
// start their SDK there, before the framework is required, and need its name.
function load(name, config = {}) {
  const meta = info(name);
  // A team's file (or the test-only one) is the one require whose path is data.
  const impl = meta.file ? require(meta.file) : MODULES[name]();
  if (typeof impl.start === 'function') impl.start(config);
  return {
    ...meta,
    run: impl.run,
    current: impl.current,
    bind: impl.bind,
    bindEmitter: impl.bindEmitter,
    enter: impl.enter,
    exit: impl.exit,
    stats: impl.stats,
    fastifyPlugin: impl.fastifyPlugin,
  };
}

module.exports = { names, info, load, frameworkProblem, register };
