'use strict';
// The gate's worked example (docs/ci.md): a team's context wrapper as it is on main.
// examples/gate/after.js is the same wrapper after a change that adds about 2% of work per
// request; `ctxbench compare` on instruction counts of the two must fail a 1% gate.
const { AsyncLocalStorage } = require('node:async_hooks');

const storage = new AsyncLocalStorage();

module.exports = {
  name: 'mine',
  describe: 'gate example: an AsyncLocalStorage wrapper (examples/gate/before.js)',
  run: (id, fn) => storage.run(id, fn),
  current: () => storage.getStore(),
};
