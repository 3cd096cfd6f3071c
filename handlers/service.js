'use strict';
// What every framework's server wires in: the context entry, the chain, the stats.
// Frameworks differ only in routing; nothing here knows which strategy runs.
const { randomBytes } = require('node:crypto');
const { performance } = require('node:perf_hooks');
const strategies = require('../context');
const { makeChain } = require('./chain');
const { makeLogger } = require('./log');
const { makeBurner } = require('./burn');
const { traceIdOf } = require('./trace');
const { detectAsyncContextFrame } = require('../lib/runtime');
const { MAX_DEPTH } = require('../servers/config');
const { createScenarios } = require('./scenarios');
const { makeStores } = require('./stores');

const DEPTH_PARAM = /^\d{1,4}$/;
// The 400 body of /depth/:n, built from the bound the servers' config checks DEPTH against.
const BAD_DEPTH = `depth must be an integer from 1 to ${MAX_DEPTH}\n`;

function createService(config) {
  const acf = detectAsyncContextFrame();
  const strategy = strategies.load(config.strategy, config);
  // Strategy-specific figures for /__stats (the OpenTelemetry ones: spans exported, dropped).
  const strategyStats = typeof strategy.stats === 'function' ? strategy.stats : undefined;
  const chain = makeChain({
    strategy,
    hop: config.hop,
    log: makeLogger(config.log, config.project),
    config,
  });
  const counters = { requests: 0, burnNs: 0n };
  const burn = makeBurner(config.burnUs, counters);
  const nonce = randomBytes(8).toString('hex');
  const startElu = performance.eventLoopUtilization();
  // Built at start-up, outside any request (their shared emitters, pools and queues).
  const scenarios = createScenarios({ strategy, config });
  const stores = makeStores(config.stores);
  const open = stores ? (id, next, req) => stores(id, () => strategy.run(id, next, req)) : strategy.run;

  return {
    config,
    strategy,
    badDepth: BAD_DEPTH,

    // Middleware body: opens the request's context and continues inside it. req goes
    // along for strategies that enter through a library's own middleware (cls-rtracer).
    enter(req, next) {
      const id = traceIdOf(req.headers);
      req.traceId = id;
      return open(id, next, req);
    },

    // Runs the chain; resolves to the id read at the deepest level.
    run(req, depth) {
      counters.requests++;
      if (burn) burn();
      return chain(req, depth);
    },

    // '/depth/:n' -> n, or undefined when n is not an integer in 1..MAX_DEPTH.
    parseDepth(text) {
      if (!DEPTH_PARAM.test(text)) return undefined;
      const n = Number(text);
      return n >= 1 && n <= MAX_DEPTH ? n : undefined;
    },

    // Integrity scenarios (GET/POST /scenario/:name): name -> (req) => Promise of the
    // id, or undefined for an unknown name. Routed apart from the measured routes.
    scenario: scenarios.lookup,

    // Bench only (soak): forced GC -> memory; null unless CTXBENCH_ALLOW_GC=1 with
    // node --expose-gc, and then the servers do not even register /__gc.
    gc: scenarios.gc,

    stats: statsOf({ config, acf, nonce, counters, startElu, strategyStats }),
  };
}

// The /__stats handler: the process's figures since start-up (not on the measured path).
function statsOf({ config, acf, nonce, counters, startElu, strategyStats }) {
  return function stats() {
    const cpu = process.cpuUsage();
    const mem = process.memoryUsage();
    const elu = performance.eventLoopUtilization(startElu);
    return {
      strategy: config.strategy,
      depth: config.depth,
      hop: config.hop,
      framework: config.framework,
      stores: config.stores || 0,
      log: config.log,
      pid: process.pid,
      nonce,
      node: process.version,
      acf,
      requests: counters.requests,
      cpuUs: cpu.user + cpu.system,
      burnUs: Number(counters.burnNs / 1000n),
      rssBytes: mem.rss,
      heapUsedBytes: mem.heapUsed,
      elu: elu.utilization,
      // Milliseconds since start: the runner takes the share of one window from two readings.
      eluIdleMs: elu.idle,
      eluActiveMs: elu.active,
      ...(strategyStats && strategyStats()),
    };
  };
}

module.exports = { createService };
