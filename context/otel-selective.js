'use strict';
// The platformatic study's "OTel plugin only": the OpenTelemetry SDK with nothing but the
// framework's own instrumentation. Express needs the http instrumentation for its server
// span (instrumentation-express only adds middleware/handler spans under it). Plus the
// clients of the I/O the service does (pg, undici), as a selective set-up of a service
// that talks to PostgreSQL and to other services would have; they add nothing where
// pg and undici are not used (HOP=sync etc.).
const { createOtelStrategy, ioInstrumentations } = require('./otel-sdk');

module.exports = createOtelStrategy('otel-selective', (framework) => {
  if (framework === 'fastify') {
    const FastifyOtelInstrumentation = require('@fastify/otel');
    return [new FastifyOtelInstrumentation({ registerOnInitialization: true }), ...ioInstrumentations()];
  }
  if (framework === 'express') {
    const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
    const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express');
    return [new HttpInstrumentation(), new ExpressInstrumentation(), ...ioInstrumentations()];
  }
  if (framework === 'http') {
    const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
    return [new HttpInstrumentation(), ...ioInstrumentations()];
  }
  return undefined;
});
