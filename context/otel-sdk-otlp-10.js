'use strict';
// otel-sdk-otlp with a head sampler of 10%, as production services often run it: the
// standard variables, parent-based (a sampled parent is traced whatever the ratio).
module.exports = require('./otel-sdk').createOtlpStrategy('otel-sdk-otlp-10', {
  OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
  OTEL_TRACES_SAMPLER_ARG: '0.1',
});
