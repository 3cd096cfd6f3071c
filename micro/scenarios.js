'use strict';
// The micro scenarios, built for ONE loaded strategy. They widen the vitest-bench study
// of AsyncLocalStorage (seeds/002): its four scenarios, plus run() alone and current()
// alone. Every scenario checks what it read, so a strategy that loses (or leaks) the
// context cannot look fast by doing nothing: a read that is not the value the scenario
// put in the context counts as a failure, reported next to the timing.
//
// The same code runs for every strategy, including `none`: it performs the same reads and
// the same comparisons (against the constant it returns), but it reads nothing by design,
// so its reads are reported as unchecked. `param` reads the id from the request object
// every level receives, so each context a scenario opens comes with its own request.
const crypto = require('node:crypto');

// Batch sizes. SYNC_OPS / ASYNC_OPS follow the study (100 get/set, 100 awaited
// operations per sample); run() and current() alone are timed in batches of ALONE_OPS
// calls so that the clock's own cost is spread thin, and reported per call.
const SYNC_OPS = 100;
const ASYNC_OPS = 100;
const ALONE_OPS = 1000;

// Span-like records as a tracer makes them: 128-bit trace id, 64-bit span id, hex.
function newTraceId() {
  return crypto.randomBytes(16).toString('hex');
}
function newSpanId() {
  return crypto.randomBytes(8).toString('hex');
}
function rootSpan() {
  return { traceId: newTraceId(), spanId: newSpanId(), parentId: null };
}
// `parent` is what current() returned: a span record, or whatever `none` returns.
function childSpan(parent) {
  const traceId = parent && typeof parent === 'object' ? parent.traceId : String(parent);
  const parentId = parent && typeof parent === 'object' ? parent.spanId : null;
  return { traceId, spanId: newSpanId(), parentId };
}

// Pre-made roots for the scenarios that measure context operations rather than id
// generation (sync, async, run, current). They rotate so that every sample opens a
// context holding a value different from the previous sample's: a strategy that kept a
// stale value would be caught.
const POOL_SIZE = 1024;
const POOL = Array.from({ length: POOL_SIZE }, rootSpan);

const immediate = () => new Promise((resolve) => setImmediate(resolve));

// Where run() alone puts its results (see build()): exported, so nothing can prove them dead.
const sink = new Array(ALONE_OPS);

// Scenario metadata, in the order they run and are reported.
const SCENARIOS = [
  {
    key: 'sync',
    title: 'Sync operations (100 current() reads inside one run())',
    unit: 'batch',
    ops: SYNC_OPS,
    async: false,
  },
  {
    key: 'async',
    title: 'Async operations (100 awaited setImmediate hops inside one run(), current() after each)',
    unit: 'batch',
    ops: ASYNC_OPS,
    async: true,
  },
  { key: 'nested2', title: 'Nested contexts, depth 2 (root + 1 child span)', unit: 'request', depth: 2, async: true },
  { key: 'nested5', title: 'Nested contexts, depth 5 (root + 4 child spans)', unit: 'request', depth: 5, async: true },
  {
    key: 'realworld',
    title: 'Real-world handler (validate, DB query across setImmediate, logic, format: 4 traced operations)',
    unit: 'request',
    async: true,
  },
  { key: 'run', title: 'run() alone (per call)', unit: 'call', ops: ALONE_OPS, async: false, perCall: true },
  {
    key: 'current',
    title: 'current() alone (per call, inside one context)',
    unit: 'call',
    ops: ALONE_OPS,
    async: false,
    perCall: true,
  },
];

// The scenario families below each take `ops`: { run, current, within, check, nextRoot, now }
// from build(), and take what they use into their own constants, as the tasks read them.

// 1. Sync: one context, 100 reads.
// 2. Async: one context, 100 awaited macrotask hops, a read after each.
function contextTasks({ within, check, current, nextRoot }, counters) {
  const cSync = counters.sync;
  function sync() {
    const span = nextRoot();
    const req = { traceId: span };
    within(span, () => {
      for (let i = 0; i < SYNC_OPS; i++) check(cSync, current(req), span);
    });
  }

  const cAsync = counters.async;
  function async_() {
    const span = nextRoot();
    const req = { traceId: span };
    return within(span, async () => {
      for (let i = 0; i < ASYNC_OPS; i++) {
        await immediate();
        check(cAsync, current(req), span);
      }
    });
  }
  return { sync, async: async_ };
}

// 3. Nested: a run inside a run down to `depth`, each level a new span with ids
//    generated as a tracer would. Each level reads its own span on entry, the
//    innermost one checks it reads its own, and every level reads again after its
//    child has returned (the context must be restored, not left at the child's).
function nested({ within, check, current }, depth, counter) {
  function level(parent, n) {
    const span = n === 1 ? rootSpan() : childSpan(parent);
    const req = { traceId: span };
    return within(span, async () => {
      check(counter, current(req), span);
      if (n < depth) {
        await level(current(req), n + 1);
        check(counter, current(req), span);
      }
      return span.spanId;
    });
  }
  return () => level(null, 1);
}

// 4. Real-world handler: four traced operations inside the request's context. A
//    traced operation reads the parent span, opens a child span with a new id, reads
//    it inside, and the handler reads its own span again after each operation.
function realworldTask({ within, check, current }, counters) {
  const cReal = counters.realworld;
  function traced(req, fn) {
    const parent = current(req);
    const span = childSpan(parent);
    const childReq = { traceId: span, body: req.body };
    return within(span, async () => {
      const result = await fn(childReq);
      check(cReal, current(childReq), span);
      return result;
    });
  }
  const validate = (r) => {
    const b = r.body;
    if (typeof b.user !== 'string' || !Number.isInteger(b.amount) || b.amount <= 0) throw new Error('invalid');
    return true;
  };
  const dbQuery = async (r) => {
    await immediate(); // the driver's round trip: a macrotask hop
    return [
      { id: 1, user: r.body.user, balance: 100 },
      { id: 2, user: r.body.user, balance: 250 },
    ];
  };
  const logic = (rows, amount) => {
    let total = 0;
    for (const row of rows) total += row.balance;
    return { total, ok: total >= amount, fee: Math.round(amount * 0.015 * 100) / 100 };
  };
  return function realworld() {
    const span = rootSpan();
    const req = { traceId: span, body: { user: 'alice', amount: 120 } };
    return within(span, async () => {
      await traced(req, (r) => validate(r));
      check(cReal, current(req), span);
      const rows = await traced(req, (r) => dbQuery(r));
      check(cReal, current(req), span);
      const outcome = await traced(req, (r) => logic(rows, r.body.amount));
      check(cReal, current(req), span);
      const body = await traced(req, (r) => JSON.stringify({ traceId: current(r).traceId, ...outcome }));
      check(cReal, current(req), span);
      return body;
    });
  };
}

// 5. run() alone: ALONE_OPS calls of run(id, noop). The check: noop really ran.
//    Every call's result goes to a different slot of `sink`, an array the module
//    exports: with `none`, run() inlines to nothing, and a loop whose results nobody
//    can see is folded away by the optimiser (it timed ~1 ns a call, the loop alone).
//    Stores to an escaped array at changing indices cannot be dropped.
// 6. current() alone: ALONE_OPS reads inside one context; only the reads are timed.
function aloneTasks({ run, current, within, check, nextRoot, now }, counters) {
  const cRun = counters.run;
  let calls = 0;
  const noop = () => calls++;
  function runAlone() {
    const span = nextRoot();
    const before = calls;
    const t0 = now();
    for (let i = 0; i < ALONE_OPS; i++) sink[i] = run(span, noop);
    const elapsed = now() - t0;
    cRun.reads += ALONE_OPS;
    cRun.failures += ALONE_OPS - (calls - before);
    return { overriddenDuration: elapsed / ALONE_OPS, overriddenIterationCost: elapsed };
  }

  const cCur = counters.current;
  function currentAlone() {
    const span = nextRoot();
    const req = { traceId: span };
    let elapsed = 0;
    within(span, () => {
      const t0 = now();
      for (let i = 0; i < ALONE_OPS; i++) check(cCur, current(req), span);
      elapsed = now() - t0;
    });
    return { overriddenDuration: elapsed / ALONE_OPS, overriddenIterationCost: elapsed };
  }
  return { run: runAlone, current: currentAlone };
}

// build(strategy, now) -> { counters, tasks: { [key]: fn } }
//   strategy: { run(id, fn), current(req) }; now: () => ms (the bench clock).
//   Each fn is one tinybench iteration. perCall tasks time their own batch and return
//   { overriddenDuration (ms per call), overriddenIterationCost (ms for the batch) }.
//   counters[key] = { reads, failures } accumulates over warm-up and measurement.
function build(strategy, now) {
  const { run, current } = strategy;
  const counters = Object.fromEntries(SCENARIOS.map((s) => [s.key, { reads: 0, failures: 0 }]));
  let k = 0;
  const nextRoot = () => POOL[k++ & (POOL_SIZE - 1)];

  // run() whatever the strategy's run returns (cls-hooked returns its context object,
  // not fn's result): take fn's result from inside, identically for every strategy.
  function within(id, fn) {
    let out;
    run(id, () => {
      out = fn();
    });
    return out;
  }

  // A strategy that carries no context (`none`) answers the same constant everywhere;
  // it is compared with that constant, so it does exactly the same work as the others.
  const fixed = strategy.carriesContext === false;
  const constant = fixed ? current({}) : undefined;
  const check = fixed
    ? (counter, value) => {
        counter.reads++;
        if (value !== constant) counter.failures++;
      }
    : (counter, value, expected) => {
        counter.reads++;
        if (value !== expected) counter.failures++;
      };

  const ops = { run, current, within, check, nextRoot, now };
  const { sync, async } = contextTasks(ops, counters);
  const alone = aloneTasks(ops, counters);
  const tasks = {
    sync,
    async,
    nested2: nested(ops, 2, counters.nested2),
    nested5: nested(ops, 5, counters.nested5),
    realworld: realworldTask(ops, counters),
    run: alone.run,
    current: alone.current,
  };
  return { counters, tasks };
}

module.exports = { SCENARIOS, SYNC_OPS, ASYNC_OPS, ALONE_OPS, build, rootSpan, childSpan, sink };
