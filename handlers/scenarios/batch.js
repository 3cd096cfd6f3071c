'use strict';
// Scenario 7, batch: a DataLoader-style queue shared by every request. load(key)
// queues the key; the first key of a batch schedules the dispatch for the end of the
// current event-loop turn (setImmediate, like DataLoader with that batchScheduleFn:
// its default process.nextTick schedule would never gather two HTTP requests, each of
// which arrives in its own I/O callback); the batch function is then called once for
// all the keys. Two reads, two scenarios, two queues:
//   batch-fn  the id the batch function sees (one id for the whole batch);
//   batch     the id after `await loader.load(key)`, in the request's own continuation.
const { immediate, firstWrong } = require('./reads');

function createLoader(batchFn) {
  let queue = null;
  const dispatch = () => {
    const batch = queue;
    queue = null;
    batchFn(batch.map((item) => item.key)).then(
      (values) => batch.forEach((item, i) => item.resolve(values[i])),
      (err) => batch.forEach((item) => item.reject(err)),
    );
  };
  return {
    load(key) {
      if (!queue) {
        queue = [];
        setImmediate(dispatch);
      }
      return new Promise((resolve, reject) => queue.push({ key, resolve, reject }));
    },
  };
}

function create({ strategy }) {
  const { current } = strategy;
  // Keys are the requests themselves, so that 'param' can read too: the only request
  // a batch function could name is one of its keys.
  const batchFn = async (reqs) => {
    const seen = current(reqs[0]);
    await immediate(); // the batched query
    return reqs.map(() => seen);
  };
  const forFn = createLoader(batchFn);
  const forContinuation = createLoader(batchFn);
  return {
    'batch-fn': async (req) => firstWrong(req, [['in the batch function', await forFn.load(req)]]),
    batch: async (req) => {
      await forContinuation.load(req);
      return firstWrong(req, [['after await load()', current(req)]]);
    },
  };
}

module.exports = { create, createLoader };
