'use strict';
// The integrity suite's scenarios (bench/integrity/integrity.js runs them): the catalogue in report
// order, its groups, the counts sent, and how each scenario's requests are sent.
const client = require('./integrity-client');
const { LIBRARY_SCENARIOS: LIBRARY, UPGRADE_SCENARIOS: UPGRADE } = require('../../handlers/scenarios');

// Every scenario, in report order. `client` says how it is sent (default: concurrent GETs).
const SCENARIOS = [
  {
    name: 'chain-await',
    group: 'chains',
    describe: 'call chain of 8 levels, `await` of a resolved promise between levels (microtasks only)',
  },
  { name: 'chain-nexttick', group: 'chains', describe: 'call chain of 8 levels, process.nextTick between levels' },
  { name: 'chain-immediate', group: 'chains', describe: 'call chain of 8 levels, setImmediate between levels' },
  { name: 'chain-timeout', group: 'chains', describe: 'call chain of 8 levels, setTimeout(0) between levels' },
  {
    name: 'chain-mixed',
    group: 'chains',
    describe:
      'call chain of 8 levels, a different hop at each level (await, nextTick, setImmediate, setTimeout, ' +
      'emitter, thenable)',
  },
  { name: 'fanout', describe: 'Promise.all of 10 branches, each reading the id after its own macrotask' },
  {
    name: 'thenable',
    describe:
      'custom thenables (objects with then()): awaited, and returned from an async function after an await; ' +
      'read inside then() and after',
  },
  {
    name: 'body',
    client: 'body',
    describe: 'POST body sent in 3 pieces 20 ms apart; read in data and end listeners registered inside the request',
  },
  {
    name: 'body-bound',
    client: 'body',
    remedy: 'body',
    describe: "as body, with the strategy's remedy (bindEmitter(req) or bind(listener))",
  },
  {
    name: 'emitter',
    describe: 'EventEmitter and listener created at start-up, emitted from inside the request after a macrotask',
  },
  {
    name: 'emitter-bound',
    remedy: 'emitter',
    describe: "as emitter, the start-up listener registered through the strategy's remedy",
  },
  {
    name: 'pool',
    describe: "callback pool of 2 shared by all requests: a waiter's callback is fired by another request's release()",
  },
  { name: 'pool-bound', remedy: 'pool', describe: "as pool, the callback bound with the strategy's remedy at acquire" },
  {
    name: 'batch-fn',
    describe: 'DataLoader-style shared queue (one batch per event-loop turn): the id seen by the batch function',
  },
  { name: 'batch', describe: "same queue: the id after `await loader.load(key)`, in the request's own continuation" },
  {
    name: 'nested',
    describe: 'child context opened with run(childId, …) inside the request; the parent id read after it ended',
  },
  // Real libraries and real I/O: declared next to their code (handlers/scenarios/*.js).
  ...LIBRARY.map(({ name, describe, remedy, needs }) => ({
    name,
    describe,
    remedy,
    needs,
  })),
  // The Node upgrade's patterns (handlers/scenarios/upgrade.js); `requires`: the optional
  // strategy operations they use (n/a without them).
  ...UPGRADE.map(({ name, describe, requires }) => ({
    name,
    describe,
    requires,
  })),
  {
    name: 'keepalive',
    client: 'keepalive',
    describe:
      'mixed chain; half the requests one after another on kept-alive connections, half pipelined 10 deep on ' +
      'raw sockets',
  },
  {
    name: 'soak',
    client: 'soak',
    describe: 'mixed chain, --soak-requests requests; memory after a forced GC before and after',
  },
];
const NAMES = SCENARIOS.map((s) => s.name);
// upgrade: the patterns whose answer moved between runtimes, with thenable, whose
// adoption job AsyncContextFrame changed too.
const GROUPS = {
  chains: NAMES.filter((n) => n.startsWith('chain-')),
  libraries: LIBRARY.map((s) => s.name),
  upgrade: ['thenable', ...UPGRADE.map((s) => s.name)],
  all: NAMES,
};
const byName = new Map(SCENARIOS.map((s) => [s.name, s]));

const DEFAULTS = { requests: 2000, concurrency: 200, soakRequests: 100000, pipeline: 10, gapMs: 20, pieces: 3 };
const QUICK = { requests: 400, soakRequests: 5000 };

// 'chains' and 'all' expand; names stay in catalogue order, each once.
function expandScenarios(list) {
  const wanted = new Set(list.flatMap((n) => GROUPS[n] || [n]));
  return NAMES.filter((n) => wanted.has(n));
}

// Sends one scenario's requests to a running server; resolves its tally.
async function measureScenario(url, name, settings, { checker, stop }) {
  const path = `/scenario/${name}`;
  const common = { checker, concurrency: settings.concurrency, stop };
  const spec = byName.get(name);
  if (spec.client === 'body') {
    const pieces = Array.from({ length: DEFAULTS.pieces }, (_, i) => `piece ${i + 1} of the body;`);
    return client.fire(url, path, {
      ...common,
      total: settings.requests,
      method: 'POST',
      pieces,
      gapMs: DEFAULTS.gapMs,
    });
  }
  if (spec.client === 'keepalive') {
    // Sequential: at least 5 requests one after another on each kept-alive connection.
    const half = Math.ceil(settings.requests / 2);
    const connections = Math.max(1, Math.min(settings.concurrency, Math.floor(half / 5)));
    const sequential = await client.fire(url, path, { ...common, total: half, concurrency: connections });
    const pipelined = await client.firePipelined(url, path, {
      ...common,
      total: settings.requests - half,
      pipeline: DEFAULTS.pipeline,
    });
    return { ...client.mergeTallies([sequential, pipelined]), parts: { sequential, pipelined } };
  }
  return client.fire(url, path, { ...common, total: settings.requests });
}

module.exports = {
  SCENARIOS,
  NAMES,
  GROUPS,
  DEFAULTS,
  QUICK,
  LIBRARY,
  UPGRADE,
  byName,
  expandScenarios,
  measureScenario,
};
