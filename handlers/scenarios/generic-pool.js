'use strict';
// The real generic-pool package (v3, promise API), 2 resources shared by every request:
// a request that finds none free waits, and gets one when another request calls
// release(), inside that other request. The resource is held for one macrotask, as a
// query would hold it. Reads: after `await pool.acquire()` (generic-pool), or in the
// .then() callback passed through the strategy's bind (generic-pool-bound).
const { immediate, firstWrong, withBound } = require('./reads');

const SIZE = 2;

function createPool() {
  const genericPool = require('generic-pool');
  let n = 0;
  return genericPool.createPool(
    { create: async () => ({ resource: n++ }), destroy: async () => {} },
    { max: SIZE, min: 0 },
  );
}

function create({ strategy }) {
  const { current } = strategy;
  const bind = strategy.bind || ((fn) => fn);
  const plain = createPool();
  const bound = createPool();
  return {
    'generic-pool': async (req) => {
      const resource = await plain.acquire();
      const reads = [['after await pool.acquire()', current(req)]];
      await immediate();
      plain.release(resource);
      return firstWrong(req, reads);
    },
    'generic-pool-bound': (req) =>
      bound.acquire().then(
        bind(async (resource) => {
          const reads = [['in .then() of pool.acquire()', current(req)]];
          await immediate();
          bound.release(resource);
          return firstWrong(req, reads);
        }),
      ),
  };
}

const CONTROL =
  "the resource arrives after a macrotask (or another request's release), by which time other requests " +
  'overwrote the module variable';

const SCENARIOS = [
  ...withBound(
    {
      name: 'generic-pool',
      describe:
        'generic-pool (v3, promises) with 2 resources shared by all requests, each held for a macrotask; the ' +
        'id after `await pool.acquire()`',
      control: CONTROL,
      // Kept by every context strategy measured (the await restores the awaiting context).
      explain: {},
    },
    {
      describe: "as generic-pool, the continuation passed to .then() through the strategy's bind",
      bound: 'the continuation was',
    },
  ),
];

module.exports = { create, SCENARIOS, SIZE };
