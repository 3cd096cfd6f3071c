'use strict';
// OpenTelemetry as teams deploy it: NodeSDK, getNodeAutoInstrumentations() at its defaults,
// the SDK's own defaults for everything else (parent-based always-on sampler, traces through
// the BatchSpanProcessor, metrics and logs, all OTLP http/protobuf), only the endpoint set:
// ctxbench's local receiver (SINK_URL). How: context/otel-sdk.js createOtlpStrategy.
module.exports = require('./otel-sdk').createOtlpStrategy('otel-sdk-otlp');
