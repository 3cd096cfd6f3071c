'use strict';
// Deliberately broken: one variable shared by every request in flight. Any request
// that resumes after another has started reads the newer request's id. It exists so
// that the integrity checks are seen to fail when context really leaks.
let currentId;

module.exports = {
  run(id, fn) {
    currentId = id;
    return fn();
  },
  current: () => currentId,
  bind: (fn) => fn,
  enter(id) {
    currentId = id;
  },
  exit(fn) {
    const outer = currentId;
    currentId = undefined;
    try {
      return fn();
    } finally {
      currentId = outer;
    }
  },
};
