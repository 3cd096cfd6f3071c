'use strict';
// STORES=N: N more AsyncLocalStorage instances, live for the whole request, as a real
// service carries them (OpenTelemetry, a logger, an APM agent, a request-context
// library). Each is entered per request with its own value, nested the way Node core's
// benchmark/async_hooks/async-local-storage-propagate-* nests its storageCount stores,
// before the strategy's own context opens; nothing reads them, so what they cost is
// what keeping them alive costs (under async_hooks: a copy per store at every new async
// resource).
const { AsyncLocalStorage } = require('node:async_hooks');

// -> (value, fn) => fn() run inside all N stores, or null when N is 0 (the request path
// then stays exactly as without STORES).
function makeStores(count) {
  if (!count) return null;
  const stores = Array.from({ length: count }, () => new AsyncLocalStorage());
  const enter = (value, fn, i) => (i === count ? fn() : stores[i].run(value, enter, value, fn, i + 1));
  return (value, fn) => enter(value, fn, 0);
}

module.exports = { makeStores };
