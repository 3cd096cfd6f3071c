'use strict';
const { CLS } = require('alscontext');

const store = new CLS();

module.exports = {
  // Wrapped: the package passes extra run() arguments as one array, which Express's
  // next() would take for an error.
  run: (id, fn) => store.run({ id }, () => fn()),
  current: () => store.get('id'),
  bind: (fn) => store.bind(fn),
};
