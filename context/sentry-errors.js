'use strict';
// Sentry's Node SDK at its default: errors only, no tracesSampleRate and no tracesSampler
// (no spans), request isolation still on (a scope forked per request). context/sentry.js.
module.exports = require('./sentry').createSentryStrategy();
