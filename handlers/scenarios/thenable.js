'use strict';
// Scenario 3, thenable: objects with then() rather than Promises, as query builders
// (knex, mongoose) return; they start their work inside then(). One is awaited
// directly, another is returned from an async function after an earlier await (the
// engine then adopts it through a PromiseResolveThenableJob). Reads: inside each
// then(), and after each await.
const { immediate, firstWrong } = require('./reads');

function create({ strategy }) {
  const { current } = strategy;
  const thenable = (req, reads, label) => ({
    then(resolve) {
      reads.push([`inside then() of the ${label} thenable`, current(req)]);
      setImmediate(resolve);
    },
  });
  const returnsThenable = async (req, reads) => {
    await immediate();
    return thenable(req, reads, 'returned');
  };
  return {
    thenable: async (req) => {
      const reads = [];
      await thenable(req, reads, 'awaited');
      reads.push(['after awaiting a thenable', current(req)]);
      await returnsThenable(req, reads);
      reads.push(['after an async function returned a thenable', current(req)]);
      return firstWrong(req, reads);
    },
  };
}

module.exports = { create };
