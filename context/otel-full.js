'use strict';
// The platformatic study's "Full OTel": the OpenTelemetry SDK with every instrumentation of
// @opentelemetry/auto-instrumentations-node (its defaults: fs and host-metrics stay off,
// nothing else is disabled), plus @fastify/otel when the framework is Fastify (the bundle
// has no Fastify instrumentation; http, express and router come with it).
// The pg instrumentation also records query values, so the span check (otel-sdk.js)
// can tell which request each query span was made for.
const { createOtelStrategy, PG_CONFIG } = require('./otel-sdk');

module.exports = createOtelStrategy('otel-full', (framework) => {
  const { getNodeAutoInstrumentations } = require('@opentelemetry/auto-instrumentations-node');
  const instrumentations = [getNodeAutoInstrumentations({ '@opentelemetry/instrumentation-pg': PG_CONFIG })];
  if (framework === 'fastify') {
    const FastifyOtelInstrumentation = require('@fastify/otel');
    instrumentations.push(new FastifyOtelInstrumentation({ registerOnInitialization: true }));
  }
  return instrumentations;
});
