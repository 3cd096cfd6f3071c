'use strict';
// bluebird promises (cls-hooked#6, petkaantonov/bluebird#1680). bluebird calls .then()
// callbacks of an already settled promise from its own queue, drained by one
// setImmediate per turn of the event loop, not from native promise jobs; callbacks of a
// promise settled later from a timer or I/O callback run synchronously there. Reads:
// inside .then() of an already resolved Bluebird promise, called first thing in the
// request, and inside .then() after Bluebird.delay(1) (bluebird), or the same callbacks
// passed through the strategy's bind (bluebird-bound).
const { firstWrong, withBound } = require('./reads');

function create({ strategy }) {
  const { current } = strategy;
  const bind = strategy.bind || ((fn) => fn);
  const Bluebird = require('bluebird');
  const chain = (wrap) => (req) => {
    const reads = [];
    return Bluebird.resolve()
      .then(wrap(() => reads.push(['in .then() of an already resolved bluebird promise', current(req)])))
      .then(wrap(() => Bluebird.delay(1)))
      .then(wrap(() => reads.push(['in a bluebird .then() after Bluebird.delay(1)', current(req)])))
      .then(() => firstWrong(req, reads));
  };
  return {
    bluebird: chain((fn) => fn),
    'bluebird-bound': chain(bind),
  };
}

const CONTROL = 'the callbacks run after a timer, by which time other requests overwrote the module variable';

const SCENARIOS = [
  ...withBound(
    {
      name: 'bluebird',
      describe:
        'bluebird: Bluebird.resolve().then(…), then Bluebird.delay(1).then(…); reads inside the .then() callbacks',
      control: CONTROL,
      explain: {
        '*':
          'requests that arrive in the same turn of the event loop share one bluebird queue drain (a ' +
          'setImmediate scheduled by the first of them), so .then() callbacks of an already resolved promise ' +
          "run in the first request's context: bind the callbacks (bluebird-bound)",
      },
    },
    {
      describe: "as bluebird, every .then() callback passed through the strategy's bind",
      bound: 'the callbacks were',
    },
  ),
];

module.exports = { create, SCENARIOS };
