'use strict';
// Sentry's Node SDK (@sentry/node 11) as its users run it: init before the framework is
// required (its instrumentations patch modules as they load), every envelope sent to
// ctxbench's local sink (SINK_URL, a DSN on loopback). Three rows share this module and
// differ only in tracing (createSentryStrategy): `sentry` traces every request
// (tracesSampleRate 1), `sentry-10` a tenth of those without a sampled parent (0.1),
// `sentry-errors` none (Sentry's default: neither tracesSampleRate nor tracesSampler).
// The id lives where Sentry keeps per-request data, the isolation scope, as the user; every
// level reads it back from the scope Sentry finds active, so the id check proves Sentry's
// own context holds, not a side channel of ours.
// Entering as its users do: in the middleware (req given), on the isolation scope that
// Sentry's http instrumentation forked for this request (a scope forked inside a
// middleware does not reach the route handlers: Sentry's Express instrumentation runs each
// layer in the context the request entered with, measured: every id lost); elsewhere (a
// child context inside a request, node:http), withIsolationScope forks one. With tracing
// off the fork per request still happens: @sentry/core's server subscription
// (integrations/http/server-subscription.js instrumentServer) clones the isolation scope
// for every request and makes spans only when tracing is on.
// Under the span check (CTXBENCH_SPAN_CHECK=1, which only `ctxbench integrity` sets) the
// request's span also gets the id as `ctxbench.id` for the sink; measured runs skip that
// bookkeeping, which is not the agent's cost.
//
// Nothing may leave the machine: the DSN is the sink, client reports are off, and a test
// runs this server in a network namespace with only `lo` and counts every other
// destination it tries (test/all/agents.test.js).
const { AsyncResource } = require('node:async_hooks');
const agents = require('../lib/agents');

const SPAN_CHECK = process.env.CTXBENCH_SPAN_CHECK === '1';

// tracesSampleRate: a number, or undefined for errors only (then no tracing key at all:
// Sentry counts a rate of 0 as tracing on, @sentry/core hasSpansEnabled).
function createSentryStrategy({ tracesSampleRate } = {}) {
  let Sentry;
  return {
    start(config) {
      // The row's rate is the code's: Sentry reads SENTRY_TRACES_SAMPLE_RATE when the
      // option is absent, which would turn tracing on in the errors-only row.
      delete process.env.SENTRY_TRACES_SAMPLE_RATE;
      Sentry = agents.requireAgent('sentry');
      const sink = new URL(config.sinkUrl);
      Sentry.init({
        dsn: `http://ctxbench@${sink.host}/1`,
        ...(tracesSampleRate !== undefined && { tracesSampleRate }),
        sendClientReports: false,
        environment: 'ctxbench',
        // The span check needs every span: Sentry's transport drops an envelope (one per
        // request) while 64 are still in flight, its default bufferSize, and says so nowhere
        // with client reports off. 100 requests in flight end about together, and a sink
        // that stalls for a moment lost many requests' spans that way, none with this buffer
        // (docs/investigations.md, "Figures that code comments carried"). Measured runs keep the default.
        ...(SPAN_CHECK && { transportOptions: { bufferSize: 100000 } }),
      });
    },
    run(id, fn, req) {
      if (SPAN_CHECK) Sentry.getActiveSpan()?.setAttribute('ctxbench.id', id);
      if (req) {
        Sentry.getIsolationScope().setUser({ id });
        return fn();
      }
      return Sentry.withIsolationScope((scope) => {
        scope.setUser({ id });
        return fn();
      });
    },
    current: () => Sentry.getIsolationScope().getUser().id,
    // The SDK keeps its scopes in an AsyncLocalStorage of its own (@sentry/server-utils
    // async-context.js) and has no bind: Node's AsyncResource.bind carries every store.
    bind: (fn) => AsyncResource.bind(fn),
  };
}

module.exports = { ...createSentryStrategy({ tracesSampleRate: 1.0 }), createSentryStrategy };
