'use strict';
// Scenario 6, pool: a callback-style resource pool of size 2 shared by every request
// (the shape of mysql's or generic-pool's callback API). A free resource is handed over
// on the next macrotask; a waiter's callback is fired synchronously by whichever
// request releases a resource, i.e. from inside that other request. The callback reads
// the id. 'pool-bound' wraps the callback with strategy.bind at acquire (ns.bind for
// cls-hooked, AsyncResource.bind for als, …); strategies without bind pass it as is.
const { firstWrong } = require('./reads');

const SIZE = 2;

function createPool(size) {
  const free = Array.from({ length: size }, (_, i) => ({ resource: i }));
  const waiters = [];
  return {
    acquire(callback) {
      const resource = free.pop();
      if (resource) setImmediate(callback, resource);
      else waiters.push(callback);
    },
    release(resource) {
      const waiter = waiters.shift();
      if (waiter) waiter(resource);
      else free.push(resource);
    },
  };
}

function create({ strategy }) {
  const { current } = strategy;
  const bind = strategy.bind || ((fn) => fn);
  const use = (pool, wrap) => (req) =>
    new Promise((resolve) => {
      pool.acquire(
        wrap((resource) => {
          const id = current(req);
          // Hold it for one macrotask, as a query would, then hand it on.
          setImmediate(() => {
            pool.release(resource);
            resolve(firstWrong(req, [['in the acquire callback', id]]));
          });
        }),
      );
    });
  return {
    pool: use(createPool(SIZE), (fn) => fn),
    'pool-bound': use(createPool(SIZE), bind),
  };
}

module.exports = { create, createPool, SIZE };
