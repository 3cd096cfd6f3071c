'use strict';
// An example of a team's own context strategy, in the form `ctxbench run --strategy-file`
// loads: a small logger child per request, kept in AsyncLocalStorage, the way a service
// using pino's `logger.child({ traceId })` keeps one per request. Measure it with
//   npx ctxbench run --strategy-file examples/als-logger.js --strategies none
// and check it keeps the id in every code pattern with
//   npx ctxbench integrity --strategy-file examples/als-logger.js
const { AsyncLocalStorage } = require('node:async_hooks');

const storage = new AsyncLocalStorage();

// What a child logger costs to make: an object with the request's fields and a method.
function childLogger(traceId) {
  const fields = { traceId, service: 'example' };
  return {
    fields,
    info(message) {
      return `${JSON.stringify({ ...fields, message })}\n`;
    },
  };
}

module.exports = {
  name: 'als-logger',
  describe: 'example: a logger child per request kept in AsyncLocalStorage (examples/als-logger.js)',
  run: (id, fn) => storage.run(childLogger(id), fn),
  current: () => storage.getStore()?.fields.traceId,
  bind: (fn) => AsyncLocalStorage.bind(fn),
};
