'use strict';
// Scenario 8, nested: a child context opened inside the request with
// strategy.run(childId, …) (a sub-operation with its own id), crossing macrotasks
// inside; after it ends (and another macrotask) the request reads its own id again.
// The child id is 'child-<parent id>': the client counts it coming back as a leak.
const { immediate, firstWrong } = require('./reads');

function create({ strategy }) {
  const { current } = strategy;
  return {
    nested: async (req) => {
      await strategy.run(`child-${req.traceId}`, async () => {
        await immediate();
        current(req);
        await immediate();
      });
      await immediate();
      return firstWrong(req, [['after the child context ended', current(req)]]);
    },
  };
}

module.exports = { create };
