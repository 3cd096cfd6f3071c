'use strict';
// examples/gate/before.js after a change that adds about 2% of work per request at depth 8
// (500 rounds of a multiply-add, ~4,000 instructions once V8 has optimised it: 250 rounds
// read +1.1% once steady): what the
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
    for (let i = 0; i < 500; i++) x = (x * 31 + i) | 0;
    sink ^= x;
    return storage.run(id, fn);
  },
  current: () => storage.getStore(),
};
