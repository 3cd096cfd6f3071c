'use strict';
// @fastify/request-context 7 (Fastify only; servers/config.js refuses another framework):
// a Fastify plugin whose onRequest hook opens an AsyncLocalStorage store per request
// and re-enters it for the handler. The server registers `fastifyPlugin` (servers/
// fastify.js); the handler then sets the id in the request's store, as its users do.
// A child context inside a request (nothing in the plugin's API opens one) runs in a
// copy of the store through the AsyncLocalStorage the package exports.
const { AsyncResource } = require('node:async_hooks');
const { fastifyRequestContext, requestContext, asyncLocalStorage } = require('@fastify/request-context');

const KEY = 'id';

module.exports = {
  fastifyPlugin: (app) => app.register(fastifyRequestContext),
  run: (id, fn) => {
    const store = requestContext.getStore();
    if (store && store[KEY] === undefined) {
      store[KEY] = id;
      return fn();
    }
    return asyncLocalStorage.run({ ...store, [KEY]: id }, fn);
  },
  current: () => requestContext.get(KEY),
  // The library has no bind of its own; Node's AsyncResource.bind is what its users reach for.
  bind: (fn) => AsyncResource.bind(fn),
};
