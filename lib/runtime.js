'use strict';
// Facts about the running process that a benchmark must record rather than assume.
const { AsyncLocalStorage, executionAsyncResource } = require('node:async_hooks');

// Which AsyncLocalStorage implementation is active, found by behaviour rather than by
// version: the async_hooks-based one stores the value on the current async resource,
// AsyncContextFrame does not. Node 20 and 22 put it directly under a symbol of the
// resource; Node 24 and later, run with --no-async-context-frame, one level down (under
// a per-resource context object), so the search looks through symbol-keyed properties
// up to two levels deep. The probe storage is disabled afterwards so that, under
// async_hooks, it leaves no promise hook behind to slow the strategy being measured.
function holds(object, marker, depth) {
  if (object === null || (typeof object !== 'object' && typeof object !== 'function')) return false;
  for (const key of Object.getOwnPropertySymbols(object)) {
    let value;
    try {
      value = object[key];
    } catch {
      continue;
    }
    if (value === marker) return true;
    if (depth > 0 && holds(value, marker, depth - 1)) return true;
  }
  return false;
}

function detectAsyncContextFrame() {
  const storage = new AsyncLocalStorage();
  const marker = {};
  let onResource = false;
  storage.run(marker, () => {
    onResource = holds(executionAsyncResource(), marker, 2);
  });
  storage.disable();
  return !onResource;
}

module.exports = { detectAsyncContextFrame };
