'use strict';
const { ALS } = require('alscontext');

const store = new ALS();

module.exports = {
  run: (id, fn) => store.run({ id }, fn),
  current: () => store.get('id'),
  bind: (fn) => store.bind(fn),
};
