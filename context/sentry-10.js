'use strict';
// Sentry's Node SDK tracing a tenth of the requests that arrive without a sampled parent
// (tracesSampleRate 0.1), as production services often run it. context/sentry.js.
module.exports = require('./sentry').createSentryStrategy({ tracesSampleRate: 0.1 });
