'use strict';
// `ctxbench integrity`: does each strategy keep each request's id through the request
// patterns that are known to lose or leak context? Every strategy gets its own fresh
// server process (the real app.js, behind the real middleware; scenarios are routes of
// their own, /scenario/:name), every scenario gets `requests` requests with distinct
// ids at `concurrency` in flight, and every answer is classified kept / lost / leaked.
// The soak scenario runs in a second fresh process started with --expose-gc and
// CTXBENCH_ALLOW_GC=1, and compares memory after a forced GC before and after.
//
// Here: the run loop. The scenarios: bench/integrity/integrity-scenarios.js; the cells and why they
// fail: bench/integrity/integrity-cells.js, bench/integrity/integrity-explain.js; the servers:
// bench/integrity/integrity-servers.js; the soak: bench/integrity/integrity-soak.js.
const { saveRun } = require('../../lib/run-file');
const client = require('./integrity-client');
const { ensureAgent, runtimeProblem } = require('../../lib/agents');
const { sinkCounts, sinkOwners } = require('../services/services');
const scenarios = require('./integrity-scenarios');
const {
  verdictOf,
  agentOf,
  sampledParentFor,
  cellOf,
  naCell,
  notRun,
  missingOperations,
} = require('./integrity-cells');
const { explain, remedyOf } = require('./integrity-explain');
const { currentTarget, startFor, failServer } = require('./integrity-servers');
const { SOAK_GROWTH_LIMIT_PCT, measureSoak, runSoak } = require('./integrity-soak');

const { measureScenario } = scenarios;

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

// run: the JSON skeleton (settings, environment, …) with run.integrity = { cells: [], … }.
// Saved atomically after every cell; stop.requested (SIGINT) ends it after the current
// scenario, whose partial tally is kept and marked interrupted.
// serverEnv: given to every server (PG_URL, DOWNSTREAM_URL from bench/services/services.js).
async function runIntegrity(run, { out, targets, progress, stop = { requested: false }, serverEnv = {} }) {
  const settings = run.settings;
  const save = () => saveRun(out, run);
  const scenarioNames = settings.scenarios.filter((n) => n !== 'soak');
  const withSoak = settings.scenarios.includes('soak');
  run.status = 'running';
  save();
  await installAgents(settings.strategies, progress);
  const sinkUrl = serverEnv.SINK_URL || null;
  const ctx = { settings, result: run.integrity, save, progress, stop, serverEnv, sinkUrl };

  outer: for (const target of targets) {
    for (const strategy of settings.strategies) {
      if (stop.requested) break outer;
      if (skipUnsupported(ctx, target, strategy)) continue;
      if (scenarioNames.length) await runScenarios(ctx, target, strategy, scenarioNames);
      if (withSoak && !stop.requested) await runSoak(ctx, target, strategy);
    }
  }
  run.status = stop.requested ? 'interrupted' : 'complete';
  save();
  return run;
}

// The agents' packages say which runtimes they support (lib/agents.js): installed once
// before the first server, so each runtime's answer is known before it is asked.
async function installAgents(strategyNames, progress) {
  for (const agent of new Set(strategyNames.map(agentOf).filter(Boolean))) {
    await ensureAgent(agent, { log: (line) => progress?.log(line) });
  }
}

// A runtime the strategy's agent does not support: not run, and said; every scenario of
// this runtime reads "n/a" with the package's reason. -> whether it was skipped.
function skipUnsupported({ settings, result, save, progress }, target, strategy) {
  const unsupported = agentOf(strategy) && runtimeProblem(agentOf(strategy), target.version);
  if (!unsupported) return false;
  for (const name of settings.scenarios) result.cells.push(notRun({ target, strategy, name, why: unsupported }));
  save();
  progress?.tick(`${strategy}: n/a on ${target.label}`, settings.scenarios.length);
  progress?.log(`${target.label} ${strategy}: n/a (${unsupported})`);
  return true;
}

// Every scenario but the soak against one strategy's fresh server, then the agent's span
// check per scenario. The server is stopped however this ends (answer, error or Ctrl-C).
async function runScenarios(ctx, target, strategy, names) {
  const { settings, save, progress, stop, serverEnv, sinkUrl } = ctx;
  let server = null;
  try {
    progress?.status(`${target.label} ${strategy}: starting`);
    server = await startFor(target, strategy, settings, { soak: false, env: serverEnv });
    const checker = client.createChecker({ sampledParent: sampledParentFor(strategy) });
    const on = { target, strategy, server, checker, summary: [], ranges: [], agentCells: [] };
    for (const name of names) {
      if (stop.requested) break;
      if (!(await runScenario(ctx, on, name))) break;
    }
    if (on.agentCells.length) {
      // The agent's span check per scenario, from the requests each one named.
      progress?.status(`${target.label} ${strategy}: waiting for the agent's last spans`);
      const byScenario = await spansByScenario(sinkUrl, agentOf(strategy), on.checker, on.ranges);
      for (const cell of on.agentCells) cell.spans = byScenario[cell.scenario];
      save();
    }
    progress?.log(`${target.label} ${strategy}: ${on.summary.join(', ')}`);
  } catch (err) {
    failServer(ctx, target, strategy, 'scenarios', err);
    save();
  } finally {
    if (server) await server.stop();
  }
}

// One scenario on the strategy's running server (on: the server, its checker and what the
// strategy's scenarios gathered so far): its cell, saved. false: interrupted before its
// first request, so no scenario after it runs.
async function runScenario({ settings, result, save, progress, stop, sinkUrl }, on, name) {
  const { target, strategy, server, checker } = on;
  const missing = missingOperations(strategy, name);
  if (missing) {
    result.cells.push(naCell({ target, acf: server.first.acf, strategy, name, why: missing }));
    on.summary.push(`${name} n/a`);
    save();
    progress?.tick(`${strategy} ${name}: n/a`);
    return true;
  }
  progress?.status(`${target.label} ${strategy}: ${name}`);
  const spansBefore = await client.spanCounts(server.url);
  const sinkBefore = agentOf(strategy) && sinkUrl ? (await sinkCounts(sinkUrl))?.[agentOf(strategy)] : null;
  const first = checker.issuedCount;
  const tally = await measureScenario(server.url, name, settings, { checker, stop });
  on.ranges.push({ name, first, last: checker.issuedCount });
  if (tally.requests === 0) return false; // interrupted before the first request
  if (!server.alive())
    throw Object.assign(new Error(`server exited during ${name}`), { stderrTail: server.stderrTail() });
  const cell = cellOf({ target, strategy, name, tally, serverAcf: server.first.acf });
  const spans = client.spanDelta(spansBefore, await client.spanCounts(server.url));
  if (spans) cell.spans = spans;
  if (sinkBefore) {
    cell.sink = countsDelta(sinkBefore, (await sinkCounts(sinkUrl))?.[agentOf(strategy)]);
    on.agentCells.push(cell);
  }
  if (stop.requested) cell.interrupted = true;
  result.cells.push(cell);
  on.summary.push(`${name} ${cell.verdict}`);
  save();
  progress?.tick(`${strategy} ${name}: ${cell.verdict}`);
  return true;
}

module.exports = {
  SCENARIOS: scenarios.SCENARIOS,
  NAMES: scenarios.NAMES,
  GROUPS: scenarios.GROUPS,
  DEFAULTS: scenarios.DEFAULTS,
  QUICK: scenarios.QUICK,
  SOAK_GROWTH_LIMIT_PCT,
  expandScenarios: scenarios.expandScenarios,
  verdictOf,
  measureScenario,
  measureSoak,
  runIntegrity,
  startFor,
  currentTarget,
  explain,
  remedyOf,
};
