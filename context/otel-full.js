'use strict';
// The platformatic study's "Full OTel": the OpenTelemetry SDK with every instrumentation of
// @opentelemetry/auto-instrumentations-node (its defaults: fs and host-metrics stay off,
// nothing else is disabled), plus @fastify/otel when the framework is Fastify (the bundle
// has no Fastify instrumentation; http, express and router come with it).
const { createOtelStrategy } = require('./otel-sdk');

module.exports = createOtelStrategy('otel-full', (framework) => {
  const { getNodeAutoInstrumentations } = require('@opentelemetry/auto-instrumentations-node');
  const instrumentations = [getNodeAutoInstrumentations()];
  if (framework === 'fastify') {
    const FastifyOtelInstrumentation = require('@fastify/otel');
    instrumentations.push(new FastifyOtelInstrumentation({ registerOnInitialization: true }));
  }
  return instrumentations;
});
