'use strict';
// `ctxbench integrity`: does each strategy keep each request's id through the request
// patterns that are known to lose or leak context? Every strategy gets its own fresh
// server process (the real app.js, behind the real middleware; scenarios are routes of
// their own, /scenario/:name), every scenario gets `requests` requests with distinct
// ids at `concurrency` in flight, and every answer is classified kept / lost / leaked.
// The soak scenario runs in a second fresh process started with --expose-gc and
// CTXBENCH_ALLOW_GC=1, and compares memory after a forced GC before and after.
const { saveRun } = require('../lib/run-file');
const { signedPctText } = require('../lib/format');
const strategies = require('../context');
const { startServer } = require('./server-process');
const client = require('./integrity-client');
const { ensureAgent, runtimeProblem } = require('../lib/agents');
const { sinkCounts, sinkOwners } = require('./services');

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
  ...require('../handlers/scenarios').LIBRARY_SCENARIOS.map(({ name, describe, remedy, needs }) => ({
    name,
    describe,
    remedy,
    needs,
  })),
  // The Node upgrade's patterns (handlers/scenarios/upgrade.js); `requires`: the optional
  // strategy operations they use (n/a without them).
  ...require('../handlers/scenarios').UPGRADE_SCENARIOS.map(({ name, describe, requires }) => ({
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
const LIBRARY = require('../handlers/scenarios').LIBRARY_SCENARIOS;
const UPGRADE = require('../handlers/scenarios').UPGRADE_SCENARIOS;
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
const SOAK_GROWTH_LIMIT_PCT = 20;
const SERVER_DEPTH = 8;

// 'chains' and 'all' expand; names stay in catalogue order, each once.
function expandScenarios(list) {
  const wanted = new Set(list.flatMap((n) => GROUPS[n] || [n]));
  return NAMES.filter((n) => wanted.has(n));
}

// One cell's verdict. Strategies that carry no context are n/a whatever came back.
function verdictOf(strategy, tally) {
  if (tally.requests === 0) return 'none';
  const info = infoOf(strategy);
  if (info && info.carriesContext === false) return 'n/a';
  if (tally.leaked > 0) return 'leaked';
  if (tally.lost > 0) return 'lost';
  if (tally.errors > 0) return 'errors';
  return 'kept';
}

function infoOf(strategy) {
  try {
    return strategies.info(strategy);
  } catch {
    return null;
  }
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

// The soak: warm up, GC, measure, send soakRequests, GC, measure.
async function measureSoak(url, settings, { checker, stop, onProgress }) {
  const path = '/scenario/soak';
  // Warm up long enough for the heap to reach its working size under this concurrency
  // (docs/investigations.md, "Figures that code comments carried"), so the soak's growth is growth.
  const warmup = Math.min(
    5000,
    Math.max(Math.min(2000, settings.soakRequests), Math.round(settings.soakRequests / 20)),
  );
  await client.fire(url, path, { checker, total: warmup, concurrency: settings.concurrency, stop });
  const before = await client.postJson(`${url}/__gc`);
  const started = Date.now();
  const tally = await client.fire(url, path, {
    checker,
    total: settings.soakRequests,
    concurrency: settings.concurrency,
    stop,
    onProgress,
  });
  const seconds = (Date.now() - started) / 1000;
  const after = await client.postJson(`${url}/__gc`);
  const pct = (a, b) => (b > 0 ? (100 * (a - b)) / b : null);
  const growth = {
    rssPct: pct(after.rssBytes, before.rssBytes),
    heapUsedPct: pct(after.heapUsedBytes, before.heapUsedBytes),
  };
  const flags = [];
  if (growth.heapUsedPct > SOAK_GROWTH_LIMIT_PCT) flags.push(`heap used +${growth.heapUsedPct.toFixed(0)}%`);
  if (growth.rssPct > SOAK_GROWTH_LIMIT_PCT) flags.push(`RSS +${growth.rssPct.toFixed(0)}%`);
  return {
    tally,
    warmup,
    seconds,
    before,
    after,
    growth,
    limitPct: SOAK_GROWTH_LIMIT_PCT,
    flagged: flags.length > 0,
    flags,
  };
}

function cellOf({ target, strategy, name, tally, serverAcf }) {
  const verdict = verdictOf(strategy, tally);
  const spec = byName.get(name);
  const { examples, failedReads, parts, reusedConnections, ...counts } = tally;
  const cell = {
    node: target.label,
    nodeVersion: target.version,
    acf: serverAcf,
    strategy,
    scenario: name,
    ...pick(counts, ['requests', 'kept', 'lost', 'leaked', 'errors']),
    verdict,
    failedReads,
    examples,
    remedy: spec.remedy ? remedyOf(strategy, spec.remedy) : null,
    explanation: null,
  };
  if (reusedConnections !== undefined) cell.reusedConnections = reusedConnections;
  if (parts)
    cell.parts = Object.fromEntries(
      Object.entries(parts).map(([k, t]) => [
        k,
        pick(t, ['requests', 'kept', 'lost', 'leaked', 'errors', 'reusedConnections', 'sockets', 'pipeline']),
      ]),
    );
  cell.explanation = explain(cell);
  return cell;
}

// A cell for a runtime the strategy's package does not support: nothing was sent.
function notRun({ target, strategy, name, why }) {
  return {
    node: target.label,
    nodeVersion: target.version,
    acf: target.expectAcf ?? null,
    strategy,
    scenario: name,
    requests: 0,
    verdict: 'n/a',
    unsupported: true,
    explanation: why,
    remedy: null,
  };
}

// A scenario that needs an optional operation of the strategy interface (enter, exit) the
// strategy does not have: "n/a" with why, nothing sent. null when it has them all.
// A strategy that carries no context is n/a everywhere already, and needs no reason here.
function missingOperations(strategy, name) {
  if (infoOf(strategy)?.carriesContext === false) return null;
  const missing = (byName.get(name).requires || []).filter((op) => !(infoOf(strategy)?.operations || []).includes(op));
  if (!missing.length) return null;
  return (
    `the pattern is AsyncLocalStorage's enterWith/exit, and the strategy's module has no ` +
    `${missing.map((op) => `${op}()`).join(' or ')} (its library offers none, or ctxbench does not wrap it)`
  );
}

// What the sink received while one scenario ran. Agents flush on their own timers
// (dd-trace every 100 ms under the span check, Sentry as each request's spans end), so a
// scenario's last spans may be counted in the next one's; the run's totals are
// run.agentSink. The span check is not taken from these deltas but per request named
// (spansByScenario), which does not depend on when the agent flushed.
const SINK_DELTA = ['posts', 'spans', 'requestSpans', 'undecodable'];
function countsDelta(before, after) {
  if (!before || !after) return null;
  return Object.fromEntries(SINK_DELTA.map((k) => [k, (after[k] || 0) - (before[k] || 0)]));
}

// Waits until the sink has received everything the agent will send for a server's
// requests: its span count unchanged over two reads 300 ms apart (at most 10 s, a hang
// guard), then the span check of each scenario from the requests each one named:
// { scenario: { checked, foreignTrace, detached } }. ranges: [{ name, first, last }], the
// checker's ids first..last-1 went to that scenario.
async function spansByScenario(sinkUrl, agent, checker, ranges) {
  let last = -1;
  for (const deadline = Date.now() + 10000; Date.now() < deadline;) {
    const spans = (await sinkCounts(sinkUrl))?.[agent]?.spans ?? 0;
    if (spans === last) break;
    last = spans;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  const owners = (await sinkOwners(sinkUrl, checker.prefix)) || {};
  const out = Object.fromEntries(ranges.map((r) => [r.name, { checked: 0, foreignTrace: 0, detached: 0 }]));
  for (const [owner, o] of Object.entries(owners)) {
    if (o.agent !== agent) continue;
    const n = checker.indexOf(owner);
    const range = ranges.find((r) => n >= r.first && n < r.last);
    if (!range) continue;
    for (const k of ['checked', 'foreignTrace', 'detached']) out[range.name][k] += o[k];
  }
  return out;
}

function pick(obj, keys) {
  return Object.fromEntries(keys.filter((k) => obj[k] !== undefined).map((k) => [k, obj[k]]));
}

// This process's own node, as a target (what resolveNodeTargets gives without --node).
function currentTarget() {
  const major = process.versions.node.split('.')[0];
  return { label: `node${major}`, major, version: process.version, path: process.execPath, args: [], expectAcf: null };
}

// A fresh server for one strategy; soak: with --expose-gc and /__gc. env: extra
// variables (tests plant a strategy with CTXBENCH_EXTRA_STRATEGY).
async function startFor(target, strategy, settings, { soak, env = {} }) {
  const server = await startServer(
    { strategy, depth: SERVER_DEPTH, hop: 'await', framework: settings.framework },
    {
      nodePath: target.path,
      nodeArgs: [...(target.args || []), ...(soak ? ['--expose-gc'] : [])],
      env: { ...env, CTXBENCH_ALLOW_GC: soak ? '1' : '0', CTXBENCH_LIBRARY_SCENARIOS: '1', CTXBENCH_SPAN_CHECK: '1' },
    },
  );
  if (target.expectAcf !== null && target.expectAcf !== undefined && server.first.acf !== target.expectAcf) {
    await server.stop();
    throw new Error(
      `asked for AsyncContextFrame ${target.expectAcf ? 'on' : 'off'} but the server reports it ` +
        `${server.first.acf ? 'on' : 'off'}`,
    );
  }
  return server;
}

// run: the JSON skeleton (settings, environment, …) with run.integrity = { cells: [], … }.
// Saved atomically after every cell; stop.requested (SIGINT) ends it after the current
// scenario, whose partial tally is kept and marked interrupted.
// serverEnv: given to every server (PG_URL, DOWNSTREAM_URL from bench/services.js).
async function runIntegrity(run, { out, targets, progress, stop = { requested: false }, serverEnv = {} }) {
  const settings = run.settings;
  const result = run.integrity;
  const save = () => saveRun(out, run);
  const scenarioNames = settings.scenarios.filter((n) => n !== 'soak');
  const withSoak = settings.scenarios.includes('soak');
  run.status = 'running';
  save();

  const failServer = (target, strategy, purpose, err) => {
    const message = String(err.message).split('\n')[0];
    result.errors.push({ node: target.label, strategy, purpose, message, stderrTail: err.stderrTail || '' });
    progress?.log(`${target.label} ${strategy}: ${purpose} server failed: ${message}`);
  };

  // The agents' packages say which runtimes they support (lib/agents.js): installed once
  // before the first server, so each runtime's answer is known before it is asked.
  const agentOf = (strategy) => infoOf(strategy)?.agent || null;
  for (const agent of new Set(settings.strategies.map(agentOf).filter(Boolean))) {
    await ensureAgent(agent, { log: (line) => progress?.log(line) });
  }
  const sinkUrl = serverEnv.SINK_URL || null;

  outer: for (const target of targets) {
    for (const strategy of settings.strategies) {
      if (stop.requested) break outer;
      const unsupported = agentOf(strategy) && runtimeProblem(agentOf(strategy), target.version);
      if (unsupported) {
        // Not run, and said: every scenario of this runtime reads "n/a" with the package's reason.
        for (const name of settings.scenarios) result.cells.push(notRun({ target, strategy, name, why: unsupported }));
        save();
        progress?.tick(`${strategy}: n/a on ${target.label}`, settings.scenarios.length);
        progress?.log(`${target.label} ${strategy}: n/a (${unsupported})`);
        continue;
      }
      if (scenarioNames.length) {
        let server = null;
        try {
          progress?.status(`${target.label} ${strategy}: starting`);
          server = await startFor(target, strategy, settings, { soak: false, env: serverEnv });
          const checker = client.createChecker();
          const summary = [];
          const ranges = [];
          const agentCells = [];
          for (const name of scenarioNames) {
            if (stop.requested) break;
            const missing = missingOperations(strategy, name);
            if (missing) {
              result.cells.push({
                node: target.label,
                nodeVersion: target.version,
                acf: server.first.acf,
                strategy,
                scenario: name,
                requests: 0,
                verdict: 'n/a',
                explanation: missing,
                remedy: null,
              });
              summary.push(`${name} n/a`);
              save();
              progress?.tick(`${strategy} ${name}: n/a`);
              continue;
            }
            progress?.status(`${target.label} ${strategy}: ${name}`);
            const spansBefore = await client.spanCounts(server.url);
            const sinkBefore = agentOf(strategy) && sinkUrl ? (await sinkCounts(sinkUrl))?.[agentOf(strategy)] : null;
            const first = checker.issuedCount;
            const tally = await measureScenario(server.url, name, settings, { checker, stop });
            ranges.push({ name, first, last: checker.issuedCount });
            if (tally.requests === 0) break; // interrupted before the first request
            if (!server.alive())
              throw Object.assign(new Error(`server exited during ${name}`), { stderrTail: server.stderrTail() });
            const cell = cellOf({ target, strategy, name, tally, serverAcf: server.first.acf });
            const spans = client.spanDelta(spansBefore, await client.spanCounts(server.url));
            if (spans) cell.spans = spans;
            if (sinkBefore) {
              cell.sink = countsDelta(sinkBefore, (await sinkCounts(sinkUrl))?.[agentOf(strategy)]);
              agentCells.push(cell);
            }
            if (stop.requested) cell.interrupted = true;
            result.cells.push(cell);
            summary.push(`${name} ${cell.verdict}`);
            save();
            progress?.tick(`${strategy} ${name}: ${cell.verdict}`);
          }
          if (agentCells.length) {
            // The agent's span check per scenario, from the requests each one named.
            progress?.status(`${target.label} ${strategy}: waiting for the agent's last spans`);
            const byScenario = await spansByScenario(sinkUrl, agentOf(strategy), checker, ranges);
            for (const cell of agentCells) cell.spans = byScenario[cell.scenario];
            save();
          }
          progress?.log(`${target.label} ${strategy}: ${summary.join(', ')}`);
        } catch (err) {
          failServer(target, strategy, 'scenarios', err);
          save();
        } finally {
          if (server) await server.stop();
        }
      }
      if (withSoak && !stop.requested) {
        let server = null;
        try {
          progress?.status(`${target.label} ${strategy}: soak (${settings.soakRequests} requests)`);
          server = await startFor(target, strategy, settings, { soak: true, env: serverEnv });
          const checker = client.createChecker();
          const onProgress = (done, total) => progress?.status(`${target.label} ${strategy}: soak ${done}/${total}`);
          const soak = await measureSoak(server.url, settings, { checker, stop, onProgress });
          const cell = cellOf({ target, strategy, name: 'soak', tally: soak.tally, serverAcf: server.first.acf });
          if (stop.requested) cell.interrupted = true;
          result.cells.push(cell);
          const memory = pick(soak, ['warmup', 'seconds', 'before', 'after', 'growth', 'limitPct', 'flagged', 'flags']);
          result.soak.push({
            node: target.label,
            nodeVersion: target.version,
            acf: server.first.acf,
            strategy,
            requests: soak.tally.requests,
            verdict: cell.verdict,
            ...memory,
            interrupted: Boolean(stop.requested),
          });
          save();
          progress?.tick(`${strategy} soak: ${soak.flagged ? `FLAGGED ${soak.flags.join(', ')}` : 'ok'}`);
          progress?.log(
            `${target.label} ${strategy}: soak ${soak.tally.requests} requests, heap ` +
              `${fmtPct(soak.growth.heapUsedPct)}, RSS ` +
              `${fmtPct(soak.growth.rssPct)}${soak.flagged ? ' FLAGGED' : ''}`,
          );
        } catch (err) {
          failServer(target, strategy, 'soak', err);
          save();
        } finally {
          if (server) await server.stop();
        }
      }
    }
  }
  run.status = stop.requested ? 'interrupted' : 'complete';
  save();
  return run;
}

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
  'cls-rtracer': 'als',
  'express-http-context': 'als',
  'fastify-request-context': 'als',
  sentry: 'als',
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
  'cls-rtracer': "AsyncResource.bind(fn) (Node's; the library has none)",
  'express-http-context': "AsyncResource.bind(fn) (Node's; the library has none)",
  'fastify-request-context': "AsyncResource.bind(fn) (Node's; the library has none)",
  sentry: "AsyncResource.bind(fn) (Node's; the SDK has none)",
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

const fmtPct = (x) => signedPctText(x, '?');

module.exports = {
  SCENARIOS,
  NAMES,
  GROUPS,
  DEFAULTS,
  QUICK,
  SOAK_GROWTH_LIMIT_PCT,
  expandScenarios,
  verdictOf,
  measureScenario,
  measureSoak,
  runIntegrity,
  startFor,
  currentTarget,
  explain,
  remedyOf,
};
