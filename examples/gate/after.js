'use strict';
// examples/gate/before.js after a change that adds about 2% of work per request at depth 8
// (250 rounds of a multiply-add, ~10,000 instructions once V8 has optimised it): what the
// instruction-count gate of docs/ci.md must catch at 1%.
const { AsyncLocalStorage } = require('node:async_hooks');

const storage = new AsyncLocalStorage();
// Written, never read: a store the JIT must keep, so the loop is not optimised away.
// eslint-disable-next-line no-unused-vars
let sink = 0;

module.exports = {
  name: 'mine',
  describe: 'gate example: the same wrapper with ~2% more work per request (examples/gate/after.js)',
  run: (id, fn) => {
    let x = 1;
    for (let i = 0; i < 250; i++) x = (x * 31 + i) | 0;
    sink ^= x;
    return storage.run(id, fn);
  },
  current: () => storage.getStore(),
};
