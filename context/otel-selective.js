'use strict';
// The platformatic study's "OTel plugin only": the OpenTelemetry SDK with nothing but the
// framework's own instrumentation. Express needs the http instrumentation for its server
// span (instrumentation-express only adds middleware/handler spans under it).
const { createOtelStrategy } = require('./otel-sdk');

module.exports = createOtelStrategy('otel-selective', (framework) => {
  if (framework === 'fastify') {
    const FastifyOtelInstrumentation = require('@fastify/otel');
    return [new FastifyOtelInstrumentation({ registerOnInitialization: true })];
  }
  if (framework === 'express') {
    const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
    const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express');
    return [new HttpInstrumentation(), new ExpressInstrumentation()];
  }
  if (framework === 'http') {
    const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
    return [new HttpInstrumentation()];
  }
  return undefined;
});
