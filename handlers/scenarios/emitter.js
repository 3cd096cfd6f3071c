'use strict';
// Scenario 5, emitter: an EventEmitter created at start-up, its listener added at
// start-up (outside any request), emitted from inside the request after a macrotask;
// the listener reads the id. 'emitter-bound' registers the listener through the
// strategy's remedy: cls-hooked's ns.bindEmitter(emitter) when the strategy has it,
// else strategy.bind(listener) (AsyncResource.bind for als, context.bind for otel, the
// packages' own bind for alscontext*), else nothing (none, param).
const { EventEmitter } = require('node:events');
const { immediate, firstWrong } = require('./reads');

function create({ strategy }) {
  const { current } = strategy;
  const listener = (req, reply) => reply(firstWrong(req, [['in the start-up listener', current(req)]]));

  const plain = new EventEmitter();
  plain.on('read', listener);

  const bound = new EventEmitter();
  if (strategy.bindEmitter) {
    strategy.bindEmitter(bound);
    bound.on('read', listener);
  } else {
    bound.on('read', strategy.bind ? strategy.bind(listener) : listener);
  }

  const emitFrom = (emitter) => async (req) => {
    await immediate();
    return new Promise((resolve) => emitter.emit('read', req, resolve));
  };
  return { emitter: emitFrom(plain), 'emitter-bound': emitFrom(bound) };
}

module.exports = { create };
