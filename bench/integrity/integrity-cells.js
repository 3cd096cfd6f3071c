'use strict';
// The integrity suite's cells (one strategy × one scenario on one runtime): the verdict, and
// the record the report reads; bench/integrity/integrity-explain.js says why a cell failed.
const strategies = require('../../context');
const { byName } = require('./integrity-scenarios');
const { explain, remedyOf } = require('./integrity-explain');

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

// The APM agent a strategy runs under (lib/agents.js), or null.
const agentOf = (strategy) => infoOf(strategy)?.agent || null;

// Whether the client sends a strategy's requests a sampled W3C parent: not to a head-sampled
// row (the registry's sampleRate below 1), whose sampler would then trace every request;
// most requests reach a service without one.
const sampledParentFor = (strategy) => !((infoOf(strategy)?.sampleRate ?? 1) < 1);

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

// A cell where nothing was sent: "n/a", and why.
function naCell({ target, acf, strategy, name, why, unsupported }) {
  return {
    node: target.label,
    nodeVersion: target.version,
    acf,
    strategy,
    scenario: name,
    requests: 0,
    verdict: 'n/a',
    ...(unsupported ? { unsupported: true } : {}),
    explanation: why,
    remedy: null,
  };
}

// A cell for a runtime the strategy's package does not support: nothing was sent.
function notRun({ target, strategy, name, why }) {
  return naCell({ target, acf: target.expectAcf ?? null, strategy, name, why, unsupported: true });
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

function pick(obj, keys) {
  return Object.fromEntries(keys.filter((k) => obj[k] !== undefined).map((k) => [k, obj[k]]));
}

module.exports = { verdictOf, infoOf, agentOf, sampledParentFor, cellOf, naCell, notRun, missingOperations, pick };
