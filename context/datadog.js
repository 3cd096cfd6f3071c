'use strict';
// Datadog's tracer (dd-trace 6) as its users run it: init before the framework is
// required, its integrations on, traces flushed to an agent URL, here ctxbench's local
// sink (SINK_URL), which decodes what it receives. The id is dd-trace's baggage
// (tracer.setBaggageItem: its own AsyncLocalStorage, entered with enterWith), read back
// at every level with tracer.getBaggageItem, so the id check proves dd-trace's own
// context holds. Not a span's baggage: dd-trace's router instrumentation runs each
// Express layer in the request span's scope, so a span a middleware activates never
// reaches the route handler (measured: every id lost). enterWith has its continuity: a
// child run() inside a request changes the rest of the parent's turn too (the nested
// scenario shows it). Under the span check (CTXBENCH_SPAN_CHECK=1, `ctxbench integrity`
// only) the span active at run() also gets `ctxbench.id` for the sink; measured runs skip it.
//
// Nothing may leave the machine: telemetry, remote configuration, crash tracking,
// profiling, runtime metrics (DogStatsD) and the startup log are off, and a test runs
// this server in a network namespace with only `lo` and counts every other destination
// it tries (test/all/agents.test.js). dd-trace 6 needs Node 22 or newer (lib/agents.js reads
// its engines: a Node 20 cell is "n/a").
const agents = require('../lib/agents');

const KEY = 'ctxbench.id';
const SPAN_CHECK = process.env.CTXBENCH_SPAN_CHECK === '1';
// Set before the require: some of these are read when the module loads.
const OFF = {
  DD_INSTRUMENTATION_TELEMETRY_ENABLED: 'false',
  DD_REMOTE_CONFIGURATION_ENABLED: 'false',
  DD_CRASHTRACKING_ENABLED: 'false',
  DD_PROFILING_ENABLED: 'false',
  DD_RUNTIME_METRICS_ENABLED: 'false',
  DD_TRACE_STARTUP_LOGS: 'false',
  DD_APPSEC_ENABLED: 'false',
  DD_IAST_ENABLED: 'false',
  DD_DATA_STREAMS_ENABLED: 'false',
  DD_LLMOBS_ENABLED: 'false',
  DD_DYNAMIC_INSTRUMENTATION_ENABLED: 'false',
};

let tracer;

module.exports = {
  start(config) {
    Object.assign(process.env, OFF);
    // Its default flush (every 2 s) unless the span check runs (`ctxbench integrity`), whose
    // servers live a few seconds: then 100 ms, so their spans reach the sink before they stop.
    const flushInterval = SPAN_CHECK ? 100 : undefined;
    tracer = agents
      .requireAgent('datadog')
      .init({ url: config.sinkUrl, service: 'ctxbench', env: 'ctxbench', flushInterval });
  },
  run(id, fn) {
    if (SPAN_CHECK) tracer.scope().active()?.setTag(KEY, id);
    tracer.setBaggageItem(KEY, id);
    return fn();
  },
  current: () => tracer.getBaggageItem(KEY),
  // run() is already enterWith-style (setBaggageItem); without the span-check tag.
  enter: (id) => tracer.setBaggageItem(KEY, id),
  // dd-trace's public way to carry its scope into a callback.
  bind: (fn) => tracer.scope().bind(fn),
};
