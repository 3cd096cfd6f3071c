'use strict';
// A planted strategy for the driver tests: the id follows promises only (v8 promise
// hooks: an await or a .then() continuation runs with the id of the code that created its
// promise), so a plain callback (a socket event, a pool's nextTick) runs with whatever id
// was set last. Written to a file and loaded with --strategy-file.
const PROMISE_ONLY = `'use strict';
const { promiseHooks } = require('node:v8');
const ids = new WeakMap();
let current;
const saved = [];
promiseHooks.createHook({
  init(promise) { if (current !== undefined) ids.set(promise, current); },
  before(promise) { saved.push(current); current = ids.get(promise); },
  after() { current = saved.pop(); },
});
module.exports = {
  name: 'promise-only',
  describe: 'TEST: the id follows promises only (v8 promise hooks), not plain callbacks',
  run(id, fn) { const prev = current; current = id; try { return fn(); } finally { current = prev; } },
  current: () => current,
};
`;

module.exports = { PROMISE_ONLY };
