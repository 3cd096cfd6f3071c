'use strict';
// The real `dataloader` package, one loader shared by every request (as a per-process
// cache or a loader created at start-up would be; per-request loaders are the
// documented pattern and need no scenario). Its default schedule (after the current
// promise jobs) never gathers two HTTP requests, so batchScheduleFn waits 2 ms, as
// services that batch across requests configure it. Reads:
//   dataloader-fn     the id the batch function sees (one call for the whole batch)
//   dataloader        the id after `await loader.load(key)`
//   dataloader-bound  the id in the .then() callback passed through the strategy's bind
const { immediate, firstWrong, withBound } = require('./reads');

const BATCH_WAIT_MS = 2;

function create({ strategy }) {
  const { current } = strategy;
  const bind = strategy.bind || ((fn) => fn);
  const DataLoader = require('dataloader');
  // Keys are the requests themselves, so that 'param' can read too: the only request a
  // batch function can name is one of its keys.
  const batchFn = async (reqs) => {
    const seen = current(reqs[0]);
    await immediate(); // the batched query
    return reqs.map(() => seen);
  };
  const make = () => new DataLoader(batchFn, { cache: false, batchScheduleFn: (cb) => setTimeout(cb, BATCH_WAIT_MS) });
  const forFn = make();
  const forContinuation = make();
  const forBound = make();
  return {
    'dataloader-fn': async (req) => firstWrong(req, [['in the batch function', await forFn.load(req)]]),
    dataloader: async (req) => {
      await forContinuation.load(req);
      return firstWrong(req, [['after await loader.load()', current(req)]]);
    },
    'dataloader-bound': (req) =>
      forBound.load(req).then(bind(() => firstWrong(req, [['in .then() of loader.load()', current(req)]]))),
  };
}

const CONTROL = 'the batch is dispatched 2 ms later, by which time other requests overwrote the module variable';

const SCENARIOS = [
  {
    name: 'dataloader-fn',
    describe:
      'the dataloader package, one loader shared by all requests (batchScheduleFn 2 ms): the id seen by the ' +
      'batch function',
    control: CONTROL,
    explain: {
      param:
        'the batch function has only its keys: the one request it can name (the first key) is wrong for every ' +
        'other request of the batch',
      '*':
        'the batch function runs once per batch in the context of the request whose load() scheduled the batch, ' +
        "so every other request of the batch sees that request's id: no context can be right here, pass what " +
        'each key needs in the key',
    },
  },
  ...withBound(
    {
      name: 'dataloader',
      describe: "same package and schedule: the id after `await loader.load(key)`, in the request's own continuation",
      control: CONTROL,
      // Kept by every context strategy measured (the await restores the awaiting context).
      explain: {},
    },
    {
      describe: "as dataloader, the continuation passed to .then() through the strategy's bind",
      bound: 'the continuation was',
    },
  ),
];

module.exports = { create, SCENARIOS };
