'use strict';
// The Node upgrade (issue 37 item 4): patterns whose answer moved between runtimes, when
// AsyncLocalStorage went from async_hooks (Node 20; 22 and 24 with the flag off) to
// AsyncContextFrame (a flag on 22, the default from 24). Each reads the id where a team
// reported that the new runtime answered differently; `ctxbench integrity --preset
// upgrade` runs them on every runtime and the page shows where the answers differ.
//
// exit-enter and enter-in-callback use enterWith-style operations, which the strategy
// interface has as optional enter(id) and exit(fn) (context/*.js); a strategy without
// them is "n/a" there (the catalogue's `requires`, bench/integrity/integrity.js).
const { AsyncResource } = require('node:async_hooks');
const { immediate, firstWrong } = require('./reads');
const { createPool, SIZE } = require('./pool');

const childOf = (req) => `child-${req.traceId}`;

// A read that must see the child context it was created in: the child counts as right
// (the request's own id), the parent's id as the child lost ('' is read as lost).
const expectChild = (req, seen) => (seen === childOf(req) ? req.traceId : seen === req.traceId ? '' : seen);

// unhandledRejection: one process-wide handler (as services install one to log the
// request that failed), registered once, outside any request. A rejection it does not
// know stays fatal, as without a handler.
const pending = new WeakMap();
let handlerInstalled = false;
function onUnhandled(current) {
  if (handlerInstalled) return;
  handlerInstalled = true;
  process.on('unhandledRejection', (reason) => {
    const waiter = reason && pending.get(reason);
    if (!waiter) throw reason;
    pending.delete(reason);
    waiter.resolve(current(waiter.req));
  });
}

function create({ strategy }) {
  const { current } = strategy;
  onUnhandled(current);
  const ops = (...names) => {
    const missing = names.filter((n) => typeof strategy[n] !== 'function');
    if (missing.length) throw new Error(`the strategy has no ${missing.map((n) => `${n}()`).join(' or ')}`);
  };
  const asyncResourceBound = createPool(SIZE);
  return {
    // nodejs/node#62290: exit(), then enterWith() inside it; what the rest of the request
    // sees once exit() returned.
    'exit-enter': async (req) => {
      ops('enter', 'exit');
      strategy.exit(() => strategy.enter(childOf(req)));
      const reads = [['right after exit() returned', current(req)]];
      await immediate();
      reads.push(['after a macrotask', current(req)]);
      return firstWrong(req, reads);
    },
    // enterWith inside a callback the request awaits: does the caller continue in the
    // callee's context? (Measured: not for AsyncLocalStorage on any runtime here; an
    // enterWith earlier in the same turn, as exit-enter's, is another matter.)
    'enter-in-callback': async (req) => {
      ops('enter');
      const reads = [];
      const entersLater = async () => {
        await immediate();
        strategy.enter(childOf(req));
      };
      await entersLater();
      reads.push(['after awaiting an async function that called enter(child)', current(req)]);
      await Promise.resolve().then(() => strategy.enter(childOf(req)));
      reads.push(['after awaiting a then() callback that called enter(child)', current(req)]);
      return firstWrong(req, reads);
    },
    // Node's own AsyncResource.bind (not the strategy's bind) on a pool's callback: a
    // waiter is called back from inside another request's release().
    'asyncresource-bind': (req) =>
      new Promise((resolve) => {
        asyncResourceBound.acquire(
          AsyncResource.bind((resource) => {
            const id = current(req);
            setImmediate(() => {
              asyncResourceBound.release(resource);
              resolve(firstWrong(req, [['in the callback bound with AsyncResource.bind', id]]));
            });
          }),
        );
      }),
    // A promise rejected after a macrotask, never handled: the process's
    // unhandledRejection handler reads the id of the request that rejected it.
    'unhandled-rejection': async (req) => {
      await immediate();
      const seen = await new Promise((resolve) => {
        const reason = new Error('ctxbench: an unhandled rejection, on purpose');
        pending.set(reason, { req, resolve });
        Promise.reject(reason);
      });
      return firstWrong(req, [['in the unhandledRejection handler', seen]]);
    },
    // Timers created inside a child run(): they fire after run() returned and must see
    // the child; the request itself sees its own id again.
    'timer-in-run': timerInRun(strategy, current),
  };
}

// timer-in-run's request handler, built at start-up: its closure reads `strategy` and
// `current` from this scope as the others read them from create's.
function timerInRun(strategy, current) {
  return async (req) => {
    const fired = await new Promise((resolve) => {
      const reads = [];
      const read = (label) => {
        reads.push([label, expectChild(req, current(req))]);
        if (reads.length === 3) resolve(reads);
      };
      strategy.run(childOf(req), () => {
        setTimeout(() => read('in a setTimeout created inside run(child)'), 1);
        setImmediate(() => read('in a setImmediate created inside run(child)'));
        let ticks = 0;
        const interval = setInterval(() => {
          if (++ticks < 2) return;
          clearInterval(interval);
          read('in the second tick of a setInterval created inside run(child)');
        }, 1);
      });
    });
    return firstWrong(req, [...fired, ['after run(child) returned and its timers fired', current(req)]]);
  };
}

// Measured (Node 20 and 24): in the handler executionAsyncId() is the rejected promise's
// and no `before` hook ran for it.
const HOOKS_ONLY =
  "Node runs the unhandledRejection handler in the rejected promise's async context by setting the current " +
  'async id and resource, without emitting a `before` hook: AsyncLocalStorage reads that resource and finds ' +
  "the request's store, while cls-hooked's createHook sets its active context only in `before` hooks and has " +
  'none there';

const SCENARIOS = [
  {
    name: 'exit-enter',
    requires: ['enter', 'exit'],
    describe:
      'exit(), then enter(child id) inside it (nodejs/node#62290); the request reads its own id once exit() ' +
      'returned, and after a macrotask',
    control: 'exit() cleared the module variable and enter() set the child id, which nothing restores',
    explain: {
      '*':
        'the child id entered inside exit() was still there after exit() returned: on async_hooks (Node 20; 22, ' +
        '24 and 26 with AsyncContextFrame off) exit() disables the store and enterWith() re-enables it on the ' +
        'current resource, so the entered store outlives exit(); with AsyncContextFrame exit() restores the ' +
        'frame it replaced (the answer that moved in nodejs/node#62290)',
    },
  },
  {
    name: 'enter-in-callback',
    requires: ['enter'],
    describe:
      'enter(child id) inside an async function and inside a then() callback the request awaits; the caller ' +
      'reads its own id after each await',
    control: "enter() set the module variable to the child id and nothing restores the request's",
    explain: {
      '*':
        "the caller continued in the child id its callee entered: the await's continuation ran in the context " +
        'the callee left behind, not in the one the caller awaited in',
    },
  },
  {
    name: 'asyncresource-bind',
    describe:
      "as pool, the waiter's callback bound with Node's AsyncResource.bind (not the strategy's bind) at acquire",
    control: 'AsyncResource.bind captures an async context, and a module variable is not one',
    explain: {
      '*':
        "AsyncResource.bind captured the acquiring request's async context, but the strategy's store did not " +
        "follow it: the callback ran in the releasing request's",
    },
  },
  {
    name: 'unhandled-rejection',
    describe:
      "a promise rejected after a macrotask and never handled; the process's unhandledRejection handler reads " +
      'the id of the request that rejected it',
    control:
      'the handler runs after the microtask queue drained, by which time other requests overwrote the module variable',
    explain: {
      'cls-hooked': HOOKS_ONLY,
      '*': 'the unhandledRejection handler did not see the id of the request whose promise was rejected',
    },
  },
  {
    name: 'timer-in-run',
    describe:
      'setTimeout, setInterval (second tick) and setImmediate created inside a child run(child id); each must ' +
      'see the child after run() returned, and the request its own id',
    control: 'the timers fire after other requests overwrote the module variable',
    explain: {
      param:
        'param has no contexts to nest: run(child) leaves req as it was, so the timers read the parent id ' +
        '(counted as lost: the child is gone)',
      datadog:
        'the timers saw the child; the parent did not get its own id back: tracer.setBaggageItem enters its ' +
        "store with enterWith, which has no end, so the child's id stayed for the rest of the parent's turn " +
        '(as in nested)',
      'express-http-context':
        "the timers saw the child; the parent did not get its own id back: express-http-context's middleware " +
        "reuses the store already active, so the child's set() overwrote the parent's id in the request's Map " +
        '(as in nested)',
      '*':
        'a timer created inside run(child), or the request after run(child) returned, did not see the id it ' +
        'should (the failed read names which)',
    },
  },
];

module.exports = { create, SCENARIOS };
