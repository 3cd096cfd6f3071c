'use strict';
// One async hop between two levels of the chain. Each returns something to await.
// 'await' is a microtask only: a whole request can finish before the next one is even
// parsed, so it never interleaves requests. The macrotask hops are the ones under which
// a broken context leaks.
const { EventEmitter } = require('node:events');

const RESOLVED = Promise.resolve();

const HOPS = {
  await: () => RESOLVED,
  nexttick: () => new Promise((resolve) => process.nextTick(resolve)),
  immediate: () => new Promise((resolve) => setImmediate(resolve)),
  timeout: () => new Promise((resolve) => setTimeout(resolve, 0)),
  emitter: () => {
    const emitter = new EventEmitter();
    const arrived = new Promise((resolve) => emitter.once('hop', resolve));
    setImmediate(() => emitter.emit('hop'));
    return arrived;
  },
  // An object with then(), not a Promise: awaited through PromiseResolveThenableJob.
  thenable: () => ({ then: (resolve) => setImmediate(resolve) }),
};

const ROTATION = Object.values(HOPS);
// 'mixed' takes a different hop at each level, in a fixed rotation.
const mixedHop = (level) => ROTATION[level % ROTATION.length]();

// 'sync' is plain recursion with no hop at all (how the study's code actually ran).
const names = ['await', 'sync', 'nexttick', 'immediate', 'timeout', 'emitter', 'thenable', 'mixed'];

module.exports = { HOPS, mixedHop, names };
