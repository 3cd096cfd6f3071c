'use strict';
// express-http-context 2.x: its middleware opens an AsyncLocalStorage store (a Map) for
// the request, and get/set read and write keys of it. As published, the middleware
// opens a new store only when none is active: called where a context already exists (a
// middleware mounted twice, a sub-operation opening "its own" context inside a request)
// it reuses that store, so set() there overwrites the outer context's values. The
// integrity `nested` scenario shows it.
const { AsyncResource } = require('node:async_hooks');
const httpContext = require('express-http-context');

const KEY = 'ctxbench.id';

module.exports = {
  // The middleware ignores req and res; it is called here exactly as Express calls it.
  run: (id, fn) => {
    let result;
    httpContext.middleware(undefined, undefined, () => {
      httpContext.set(KEY, id);
      result = fn();
    });
    return result;
  },
  current: () => httpContext.get(KEY),
  // The library has no bind of its own; Node's AsyncResource.bind is what its users reach for.
  bind: (fn) => AsyncResource.bind(fn),
};
