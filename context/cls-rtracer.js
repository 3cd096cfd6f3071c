'use strict';
// cls-rtracer 2.x (AsyncLocalStorage inside). On Express the request enters through its
// own expressMiddleware, as its users mount it: it opens the context with the id and
// wraps req's and res's emitters so listeners added later run in it. Elsewhere (node:http,
// Fastify's raw request, a child context inside a request) runWithId(fn, id), its API
// for code outside a middleware.
const { AsyncResource } = require('node:async_hooks');
const rTracer = require('cls-rtracer');

// The id is ctxbench's (handlers/trace.js, set on req before run), not a fresh uuid.
const middleware = rTracer.expressMiddleware({ requestIdFactory: (req) => req.traceId });

module.exports = {
  run: (id, fn, req) => (req && req.res ? middleware(req, req.res, fn) : rTracer.runWithId(fn, id)),
  current: () => rTracer.id(),
  // The library has no bind of its own; Node's AsyncResource.bind is what its users reach for.
  bind: (fn) => AsyncResource.bind(fn),
};
