'use strict';
const { ALS } = require('alscontext');

const store = new ALS();

module.exports = {
  // Wrapped: the package passes extra run() arguments as one array, which Express's
  // next() would take for an error.
  run: (id, fn) => store.run({ id }, () => fn()),
  current: () => store.get('id'),
  bind: (fn) => store.bind(fn),
};
