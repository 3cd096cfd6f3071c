'use strict';
// Scenario 2, fanout: Promise.all of 10 branches, each reading the id after its own
// macrotask (setImmediate or a 0-2 ms timer, so branches finish among other requests'
// work). The request answers with the id only if every branch read it.
const { immediate, timeout, firstWrong } = require('./reads');

const BRANCHES = 10;

function create({ strategy }) {
  const { current } = strategy;
  const branch = async (req, i) => {
    await (i % 2 === 0 ? immediate() : timeout(i % 3));
    return [`branch ${i}`, current(req)];
  };
  return {
    fanout: async (req) => {
      const reads = await Promise.all(Array.from({ length: BRANCHES }, (_, i) => branch(req, i)));
      return firstWrong(req, reads);
    },
  };
}

module.exports = { create, BRANCHES };
