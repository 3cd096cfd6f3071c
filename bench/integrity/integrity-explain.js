'use strict';
// Why an integrity cell fails, and what the -bound scenarios applied: text tables, one line
// per (scenario, kind of strategy, outcome), read by bench/integrity/integrity-cells.js.
const { LIBRARY, UPGRADE } = require('./integrity-scenarios');

// ---- Why a cell fails: one line per (scenario, kind of strategy, outcome). ----------
// Kinds: the control (a module variable), param (the id in req), the async_hooks
// createHook strategies (cls-hooked, alscontext's CLS part), and the AsyncLocalStorage
// ones (als, alscontext-als, the OpenTelemetry context managers).
const FAMILY = {
  global: 'control',
  param: 'param',
  'cls-hooked': 'cls-hooked',
  alscontext: 'alscontext',
  'alscontext-als': 'als',
  als: 'als',
  otel: 'als',
  'otel-selective': 'als',
  'otel-full': 'als',
  'otel-sdk-otlp': 'als',
  'otel-sdk-otlp-10': 'als',
  'cls-rtracer': 'als',
  'express-http-context': 'als',
  'fastify-request-context': 'als',
  sentry: 'als',
  'sentry-errors': 'als',
  'sentry-10': 'als',
  datadog: 'als',
};

const CONTROL_WHY = {
  chains:
    'the hops between levels are macrotasks, so other requests run run() (and overwrite the one module ' +
    'variable) before the deepest level reads it',
  fanout:
    'each branch reads after its own macrotask, by which time other requests have overwritten the module variable',
  thenable: 'the thenables resolve on setImmediate; other requests overwrite the module variable meanwhile',
  body:
    'the body arrives 20 ms after the request started; every request that started since then overwrote the ' +
    'module variable',
  emitter: 'the request emits after a macrotask; other requests overwrote the module variable meanwhile',
  pool: 'the acquire callback runs after other requests started (and, for waiters, inside another request)',
  'batch-fn': 'the batch function runs after other requests started and reads whichever id was set last',
  batch:
    'the continuation runs after the batched query (a macrotask); other requests overwrote the module ' +
    'variable meanwhile',
  nested:
    'run(childId) overwrote the module variable and nothing restores the parent id after the child ends; ' +
    'other requests overwrite it too',
  keepalive:
    'the mixed chain crosses macrotasks; with requests in flight on every connection (and 10 pipelined on ' +
    'each raw socket), other requests overwrite the module variable',
  soak: 'the mixed chain crosses macrotasks; other requests overwrite the module variable',
};

const ALSCONTEXT_AWAIT =
  "alscontext's CLS gives each new async resource its trigger's store once run() has returned; the chain " +
  'awaits a module-level resolved promise (as code awaiting any cached promise does), which becomes the ' +
  'trigger and has no store, so from the second await on the id is gone (depth 1-2 keeps it)';

const EXPLAIN = {
  chains: { alscontext: ALSCONTEXT_AWAIT },
  keepalive: { alscontext: `the server side is the mixed chain, which has await hops: ${ALSCONTEXT_AWAIT}` },
  soak: { alscontext: `the server side is the mixed chain, which has await hops: ${ALSCONTEXT_AWAIT}` },
  body: {
    als:
      "'data' and 'end' are emitted from the socket's read callback (and the stream's nextTick queued there); " +
      "the socket was accepted before the request's context existed, so AsyncLocalStorage finds no store: bind " +
      'the listeners (body-bound)',
    'cls-hooked':
      "cls-hooked follows async_hooks resources, and the socket that emits 'data'/'end' was created before " +
      "the request's context; ns.bindEmitter(req) is the documented fix (body-bound)",
    alscontext:
      "its CLS follows async_hooks resources, and the socket that emits 'data'/'end' was created before the " +
      "request's context: bind the listeners (body-bound)",
  },
  'body-bound': {
    '*': 'the remedy was applied but the listeners still did not see the id',
  },
  'emitter-bound': {
    '*':
      'binding at registration pins the context active at registration, i.e. start-up, which holds no id: a ' +
      'start-up listener emitted synchronously from the request is right unbound; bind listeners registered ' +
      'inside a request instead',
  },
  pool: {
    '*':
      "a waiter's callback is called synchronously by release() inside another request, so it runs in that " +
      "request's context: bind the callback at acquire (pool-bound)",
  },
  'pool-bound': {
    datadog:
      "tracer.scope().bind(fn), dd-trace's bind, carries its span scope, not its baggage (a second " +
      "AsyncLocalStorage): the bound callback still ran in the releasing request's baggage; " +
      'AsyncResource.bind(fn) carries both',
    '*': 'the callback was bound at acquire but still did not see the id',
  },
  undici: {
    datadog:
      "dd-trace's undici instrumentation injected another request's traceparent into the outgoing request " +
      "(the downstream echoed a neighbour's trace): its client span was made in another request's scope. A " +
      'plain AsyncLocalStorage entered the same way keeps this scenario (measured with a strategy file), so ' +
      'the swap is in the instrumentation, not in enterWith',
  },
  'batch-fn': {
    param:
      'the batch function has only its keys: the one request it can name (the first key) is wrong for every ' +
      'other request of the batch',
    '*':
      'the batch function runs once per batch in the context of the request whose key opened the batch (it ' +
      "scheduled the dispatch), so every other request of the batch sees that request's id: no context can be " +
      'right here, pass what each key needs in the key',
  },
  batch: {
    '*': "the request's continuation after `await load()` ran in the batch's context instead of its own",
  },
  nested: {
    datadog:
      "tracer.setBaggageItem enters its store with enterWith, which has no end: the child's id stays for the " +
      "rest of the parent's turn, and the parent read it back (dd-trace documents that its baggage does not " +
      'follow the continuity of its spans)',
    'express-http-context':
      "express-http-context 2.x's middleware opens a store only when none is active (`if " +
      '(!asyncLocalStorage.getStore())`); inside a request one is, so the child\'s "own" context is the ' +
      "request's Map and set() overwrote the parent's id, which the parent then read back: what users ask " +
      'about in skonves/express-http-context#54 (nested contexts do not get their own copy, unlike ' +
      "cls-hooked's run)",
    alscontext:
      "the parent awaits the promise the child's async function returned, and alscontext's CLS takes the " +
      "store of a resource's trigger once run() has returned: the parent continues with the child's store",
  },
};

function groupOf(scenario) {
  return scenario.startsWith('chain-') ? 'chains' : scenario;
}

const LIBRARY_WHY = Object.fromEntries([...LIBRARY, ...UPGRADE].map((s) => [s.name, s]));

const CONTROL_BOUND = 'binding cannot help: there is no context to capture, bind is the identity for a module variable';

// One line for a failing cell (lost, leaked, errors); null for the others.
function explain(cell) {
  const { verdict, strategy, scenario } = cell;
  if (!['lost', 'leaked', 'errors'].includes(verdict)) return null;
  if (verdict === 'errors')
    return (
      `${cell.errors} of ` +
      `${cell.requests} requests failed (transport error or non-200 answer): see the examples in the JSON`
    );
  const family = FAMILY[strategy] || 'other';
  const group = groupOf(scenario);
  if (family === 'control') {
    const base = group.replace(/-bound$/, '');
    const why =
      (CONTROL_WHY[base] || LIBRARY_WHY[base]?.control) &&
      `a module-level variable holds the id of whichever request called run() last: ` +
        `${CONTROL_WHY[base] || LIBRARY_WHY[base].control}`;
    if (why) return base === group ? why : `${why}; ${CONTROL_BOUND}`;
  }
  const table = { ...LIBRARY_WHY[group]?.explain, ...EXPLAIN[group] };
  const why = table[strategy] || table[family] || table['*'];
  if (why) return why;
  const read = Object.keys(cell.failedReads || {})[0];
  const where = read ? ` (first wrong read: ${read})` : '';
  return verdict === 'lost'
    ? `the strategy returned no id of this request${where}; ctxbench has no recorded explanation for this combination`
    : `the strategy returned another request's id${where}; ctxbench has no recorded explanation for this combination`;
}

// What the -bound scenarios used, per strategy (mirrors handlers/scenarios/*.js: a
// strategy's bindEmitter for emitters and req, else its bind, else nothing). Where it
// is applied is the scenario's: body-bound on the data and end listeners (or req),
// emitter-bound on the start-up listener (or emitter), pool-bound on the callback at acquire.
const BIND = {
  als: 'AsyncResource.bind(fn)',
  'alscontext-als': "the package's ALS bind(fn)",
  alscontext: "the package's CLS bind(fn)",
  otel: 'context.bind(context.active(), fn)',
  'otel-selective': 'context.bind(context.active(), fn)',
  'otel-full': 'context.bind(context.active(), fn)',
  'otel-sdk-otlp': 'context.bind(context.active(), fn)',
  'otel-sdk-otlp-10': 'context.bind(context.active(), fn)',
  'cls-rtracer': "AsyncResource.bind(fn) (Node's; the library has none)",
  'express-http-context': "AsyncResource.bind(fn) (Node's; the library has none)",
  'fastify-request-context': "AsyncResource.bind(fn) (Node's; the library has none)",
  sentry: "AsyncResource.bind(fn) (Node's; the SDK has none)",
  'sentry-errors': "AsyncResource.bind(fn) (Node's; the SDK has none)",
  'sentry-10': "AsyncResource.bind(fn) (Node's; the SDK has none)",
  datadog: 'tracer.scope().bind(fn)',
};
const CLS_HOOKED = { body: 'ns.bindEmitter(req)', emitter: 'ns.bindEmitter(emitter)', pool: 'ns.bind(callback)' };

function remedyOf(strategy, kind) {
  if (strategy === 'none') return 'n/a (no context)';
  if (strategy === 'param') return 'none (the id travels in req)';
  if (strategy === 'global') return 'none possible (bind is the identity)';
  if (strategy === 'cls-hooked') return CLS_HOOKED[kind];
  return BIND[strategy] || 'strategy.bind(fn), when the module has one';
}

module.exports = { explain, remedyOf };
