'use strict';
const cls = require('cls-hooked');

const ns = cls.createNamespace('ctxbench');

module.exports = {
  // The study's middleware: run a fresh context, set the id, continue inside it.
  run(id, fn) {
    return ns.run(() => {
      ns.set('id', id);
      return fn();
    });
  },
  current: () => ns.get('id'),
  bind: (fn) => ns.bind(fn),
  bindEmitter: (emitter) => ns.bindEmitter(emitter),
};
