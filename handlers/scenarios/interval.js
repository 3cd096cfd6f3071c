'use strict';
// A background job started inside a request (nodejs/node#46374): a lazily started
// queue worker (a setInterval every 2 ms, started by the first request that needs it,
// as caches and metric flushers often are). Requests queue a piece of work and wait for
// it; the job runs the work and the work reads the id. The interval keeps the context
// of the request that started it, forever. interval-bound queues the work through the
// strategy's bind. Each variant has its own job, started by its first request.
const { firstWrong, withBound } = require('./reads');

const TICK_MS = 2;

function createJob() {
  let queue = null;
  return (work) => {
    if (!queue) {
      const q = [];
      setInterval(() => {
        for (const fn of q.splice(0)) fn();
      }, TICK_MS).unref();
      queue = q;
    }
    queue.push(work);
  };
}

function create({ strategy }) {
  const { current } = strategy;
  const bind = strategy.bind || ((fn) => fn);
  const use = (enqueue, wrap) => (req) =>
    new Promise((resolve) =>
      enqueue(wrap(() => resolve(firstWrong(req, [['in the work run by the background interval', current(req)]])))),
    );
  return {
    interval: use(createJob(), (fn) => fn),
    'interval-bound': use(createJob(), bind),
  };
}

const CONTROL = 'the job runs the work on a later tick, by which time other requests overwrote the module variable';

const SCENARIOS = [
  ...withBound(
    {
      name: 'interval',
      describe:
        'background setInterval (2 ms) started lazily by the first request that queues work; the work reads ' +
        'the id when the job runs it',
      control: CONTROL,
      explain: {
        '*':
          'a timer keeps the context it was created in: the interval was started inside the first request, so ' +
          "every piece of work it runs sees that request's id (leaked) — start jobs outside requests and bind " +
          'the work you queue (interval-bound)',
      },
    },
    {
      describe: "as interval, the queued work passed through the strategy's bind",
      bound: 'the work was',
    },
  ),
];

module.exports = { create, SCENARIOS };
