'use strict';
const { AsyncLocalStorage, AsyncResource } = require('node:async_hooks');

const storage = new AsyncLocalStorage();

module.exports = {
  run: (id, fn) => storage.run(id, fn),
  current: () => storage.getStore(),
  bind: (fn) => AsyncResource.bind(fn),
  // enterWith-style, for the Node-upgrade integrity scenarios (exit-enter, enter-in-callback).
  enter: (id) => storage.enterWith(id),
  exit: (fn) => storage.exit(fn),
};
