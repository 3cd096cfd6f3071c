'use strict';
// A worker_threads hand-off: one Worker, created at start-up and shared (as a worker
// pool would be), echoes each job; the request registers a callback for its job's
// answer, called from the Worker's 'message' listener. Reads in that callback
// (worker), or in the same callback passed through the strategy's bind (worker-bound).
// The worker is unref'd and idle until a worker scenario is requested.
const { firstWrong, withBound } = require('./reads');

const ECHO =
  "require('node:worker_threads').parentPort.on('message', (m) => " +
  "require('node:worker_threads').parentPort.postMessage(m));";

function create({ strategy }) {
  const { current } = strategy;
  const bind = strategy.bind || ((fn) => fn);
  let worker = null;
  const pending = new Map();
  let seq = 0;
  // At start-up, outside any request, as a worker pool is.
  const start = () => {
    const { Worker } = require('node:worker_threads');
    worker = new Worker(ECHO, { eval: true });
    worker.unref();
    worker.on('message', (n) => {
      const done = pending.get(n);
      pending.delete(n);
      if (done) done();
    });
  };
  start();
  const handOff = (wrap) => (req) =>
    new Promise((resolve) => {
      const n = seq++;
      pending.set(
        n,
        wrap(() => resolve(firstWrong(req, [["in the callback run for the worker's answer", current(req)]]))),
      );
      worker.postMessage(n);
    });
  return {
    worker: handOff((fn) => fn),
    'worker-bound': handOff(bind),
  };
}

const CONTROL =
  'the worker answers on a later turn of the event loop, by which time other requests overwrote the module variable';

const SCENARIOS = [
  ...withBound(
    {
      name: 'worker',
      describe:
        "worker_threads hand-off: a shared Worker created at start-up echoes each job; the request's callback " +
        "is called from the Worker's 'message' listener",
      control: CONTROL,
      explain: {
        '*':
          "the Worker's 'message' events are emitted in the context the Worker was created in (start-up, no " +
          'request): the callback the request registered is called from there; bind it when registering ' +
          '(worker-bound)',
      },
    },
    {
      describe: "as worker, the callback passed through the strategy's bind when registered",
      bound: 'the callback was',
    },
  ),
];

module.exports = { create, SCENARIOS };
