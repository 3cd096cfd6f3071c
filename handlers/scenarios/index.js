'use strict';
// Integrity scenarios (`ctxbench integrity`): request patterns that are known to lose
// or leak request context, each reachable as GET/POST /scenario/:name in the real
// server, behind the real context middleware. Each scenario is (req) => Promise of the
// id the request reports (same response as GET /). They are created once, at start-up,
// outside any request: the shared emitter, pool and batch queues must belong to no
// request. Nothing here runs on the measured routes (GET /, /depth/:n).
const MODULES = [
  require('./chains'),
  require('./fanout'),
  require('./thenable'),
  require('./body'),
  require('./emitter'),
  require('./pool'),
  require('./batch'),
  require('./nested'),
];

// Real libraries and real I/O (issue 12): each module also declares its scenarios'
// catalogue entries (describe, remedy, needs: 'pg' | 'http', and why a cell fails),
// which bench/integrity/integrity.js adds to its own. Bench only: they load pg, undici, bluebird,
// … and start a Worker (about 11 MB of RSS together), so a server builds them only
// with CTXBENCH_LIBRARY_SCENARIOS=1, which `ctxbench integrity` sets; the servers a
// run measures stay without them.
const LIBRARY_MODULES = [
  require('./pg'),
  require('./mysql'),
  require('./redis'),
  require('./generic-pool'),
  require('./dataloader'),
  require('./bluebird'),
  require('./query-builder'),
  require('./undici'),
  require('./interval'),
  require('./worker'),
];
const LIBRARY_SCENARIOS = LIBRARY_MODULES.flatMap((m) => m.SCENARIOS);
// The Node upgrade's patterns (issue 37), catalogued the same way (with `requires`: the
// strategy's optional operations) and built under the same switch: upgrade.js installs a
// process-wide unhandledRejection handler, which a measured server must not have.
const UPGRADE_MODULES = [require('./upgrade')];
const UPGRADE_SCENARIOS = UPGRADE_MODULES.flatMap((m) => m.SCENARIOS);

// Client-side variations: the server runs the mixed-hop chain; what differs is how the
// client sends (keepalive: sequential and pipelined requests on kept-alive
// connections; soak: 100k requests with memory measured before and after).
const ALIASES = { keepalive: 'chain-mixed', soak: 'chain-mixed' };

// Bench only: a forced GC and the memory after it, for the soak. Offered only when the
// server runs with CTXBENCH_ALLOW_GC=1 AND node --expose-gc; never set it in production.
function gcTrigger(env) {
  if (env.CTXBENCH_ALLOW_GC !== '1' || typeof globalThis.gc !== 'function') return null;
  return () => {
    globalThis.gc();
    const m = process.memoryUsage();
    return { rssBytes: m.rss, heapUsedBytes: m.heapUsed, heapTotalBytes: m.heapTotal, externalBytes: m.external };
  };
}

function createScenarios({ strategy, config = {}, env = process.env }) {
  const table = new Map();
  const modules =
    env.CTXBENCH_LIBRARY_SCENARIOS === '1' ? [...MODULES, ...LIBRARY_MODULES, ...UPGRADE_MODULES] : MODULES;
  for (const mod of modules) {
    for (const [name, handler] of Object.entries(mod.create({ strategy, config }))) table.set(name, handler);
  }
  for (const [alias, target] of Object.entries(ALIASES)) table.set(alias, table.get(target));
  return {
    names: [...table.keys()],
    // name -> handler, or undefined for an unknown name.
    lookup: (name) => table.get(name),
    gc: gcTrigger(env),
  };
}

module.exports = { createScenarios, LIBRARY_SCENARIOS, UPGRADE_SCENARIOS };
