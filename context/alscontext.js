'use strict';
const { CLS } = require('alscontext');

const store = new CLS();

module.exports = {
  run: (id, fn) => store.run({ id }, fn),
  current: () => store.get('id'),
  bind: (fn) => store.bind(fn),
};
