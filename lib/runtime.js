'use strict';
// Facts about the running process that a benchmark must record rather than assume.
const { AsyncLocalStorage, executionAsyncResource } = require('node:async_hooks');

// Which AsyncLocalStorage implementation is active, found by behaviour rather than by
// version: the async_hooks-based one stores the value on the current async resource,
// AsyncContextFrame does not. The probe storage is disabled afterwards so that, under
// async_hooks, it leaves no promise hook behind to slow the strategy being measured.
function detectAsyncContextFrame() {
  const storage = new AsyncLocalStorage();
  const marker = {};
  let onResource = false;
  storage.run(marker, () => {
    const resource = executionAsyncResource();
    onResource = Object.getOwnPropertySymbols(resource).some((s) => resource[s] === marker);
  });
  storage.disable();
  return !onResource;
}

module.exports = { detectAsyncContextFrame };
