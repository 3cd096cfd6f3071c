'use strict';
// One measured burst against one server process, and what makes it trustworthy: the
// server is the one we started (nonce, strategy) before and after, the burst holds
// enough completed work, and the server has drained before the next burst starts.
const { getJson } = require('./http-client');
const { groupDelta } = require('../processes/cgroup');

// A server counts as idle when, over SETTLE_STEP_MS, it started no request and used
// less than SETTLE_CPU of a core.
const SETTLE_STEP_MS = 100;
const SETTLE_CPU = 0.2;
const SETTLE_TIMEOUT_MS = 30000;

const { setTimeout: sleep } = require('node:timers/promises');

// When a burst ends, the requests still in flight are not dropped by the server: it
// runs them to the end. Every server shares the server CPU, so the next burst must not
// start until the last one's server has drained, or it would measure two servers at
// once. Returns false when the server was still busy at the deadline.
async function settle(url, { timeoutMs = SETTLE_TIMEOUT_MS } = {}) {
  const deadline = Date.now() + timeoutMs;
  let previous = await getJson(`${url}/__stats`);
  while (Date.now() < deadline) {
    await sleep(SETTLE_STEP_MS);
    const current = await getJson(`${url}/__stats`);
    const cpu = (current.cpuUs - previous.cpuUs) / 1000 / SETTLE_STEP_MS;
    if (current.requests === previous.requests && cpu < SETTLE_CPU) return true;
    previous = current;
  }
  return false;
}

// Event-loop utilization between two /__stats readings: the share of the window the loop
// was running JavaScript rather than waiting (null for servers that do not report it).
function eluBetween(before, after) {
  if (!before || !after || !Number.isFinite(before.eluActiveMs) || !Number.isFinite(after.eluActiveMs)) return null;
  const active = after.eluActiveMs - before.eluActiveMs;
  const idle = after.eluIdleMs - before.eluIdleMs;
  return active + idle > 0 ? active / (active + idle) : null;
}

// The one CPU-per-request of the tree: server CPU µs (user + system, /__stats) between two
// readings of the same process, per request it served in between; null when it served none.
function cpuPerRequest(before, after) {
  const served = after.requests - before.requests;
  return served > 0 ? (after.cpuUs - before.cpuUs) / served : null;
}

// The server must still be the process we started (same nonce) serving the strategy we
// asked for; anything else is refused rather than measured.
function checkIdentity(stats, config, server) {
  if (server.nonce && stats.nonce !== server.nonce)
    throw new Error(`${server.url} restarted (its nonce changed): not the process this block started`);
  if (config.strategy && stats.strategy !== config.strategy)
    throw new Error(`${server.url} now reports strategy ${stats.strategy}, expected ${config.strategy}`);
}

// Requests one burst must complete: settings.minPerConnection per connection at least,
// otherwise what the last `rate` (req/s) would complete in settings.duration.
//
// Why bursts are sized by work, not by time: a fixed-time burst counts whole requests
// finished inside a fixed window. When each connection completes only 2-4 requests
// (depth 256, 100 connections, 1 s) the count can only move in steps of ~connections,
// so req/s clusters at 199/297/397. A burst of a fixed number of requests instead
// measures the time that many requests took: a continuous quantity with no steps, and
// with >= 30 requests per connection the ramp-down at the end (connections finishing
// one by one) is a small part of the window.
// With pipelining p, autocannon closes a connection once its share was SENT, so up to
// p-1 answers per connection go uncounted: the floor is asked for with that slack.
const RATE_FIELDS = ['rate', 'scheduled', 'sent', 'heldRate', 'histogram', 'sendLag', 'clientLag', 'engine'];

function burstAmount(settings, rate) {
  if (settings.amount) return settings.amount;
  const floor = (settings.minPerConnection + (settings.pipelining ?? 1) - 1) * settings.connections;
  if (!(rate > 0)) return null;
  return Math.max(floor, Math.ceil(rate * settings.duration));
}

// Takes one measured burst. server: { url, nonce, stats (has /__stats) }; rate: the
// config's last known req/s in this process (null: unknown, so a timed burst is taken
// first and, when it completed too little, replaced by one sized from its rate).
// Resolves to the sample (without block/round/seq/pairSeq, which the caller adds).
async function takeSample({
  config,
  server,
  driver,
  settings,
  rate = null,
  signal,
  settleTimeoutMs = SETTLE_TIMEOUT_MS,
}) {
  const url = server.url;
  const floor = settings.minPerConnection * settings.connections;
  const before = server.stats ? await getJson(`${url}/__stats`) : null;
  if (before) checkIdentity(before, config, server);
  // An instance stand-in's own accounting over the burst (bench/processes/cgroup.js).
  const groupBefore = server.cgroup?.read() ?? null;
  const load = { url, path: config.path || '/', connections: settings.connections, pipelining: settings.pipelining };
  // Rate mode (open loop): the schedule, not a count, defines the burst.
  const openLoop = config.rate > 0;
  let amount = openLoop ? null : burstAmount(settings, rate);
  let m = await driver(
    openLoop
      ? { ...load, duration: settings.duration, rate: config.rate }
      : amount
        ? { ...load, amount }
        : { ...load, duration: settings.duration },
  );
  let statsBefore = before;
  if (!openLoop && !amount && m.requests < floor && !signal?.aborted) {
    // The timed burst was the unmeasured sizing step; the sample is the next one.
    if (server.stats) {
      await settle(url);
      statsBefore = await getJson(`${url}/__stats`);
    }
    amount = Math.max(floor, Math.ceil(m.rps * settings.duration));
    m = await driver({ ...load, amount });
  }
  const after = server.stats ? await getJson(`${url}/__stats`) : null;
  if (after) checkIdentity(after, config, server);
  const instance = groupDelta(groupBefore, server.cgroup?.read() ?? null, after ? after.requests - before.requests : 0);
  const settled = server.stats ? await settle(url, { timeoutMs: settleTimeoutMs }) : true;
  const served = after ? after.requests - statsBefore.requests : 0;
  // curl's driver reports no window of its own: its rps is requests over its own span.
  const windowMs = m.durationS ? m.durationS * 1000 : (m.requests / m.rps) * 1000;
  const warnings = [];
  if (!settled)
    warnings.push(
      `server still busy ${settleTimeoutMs / 1000} s after the burst: the next burst may have shared the CPU with it`,
    );
  if (!openLoop && m.requests < floor)
    warnings.push(
      `only ${m.requests} completed requests (${(m.requests / settings.connections).toFixed(1)} per ` +
        `connection, wanted ${settings.minPerConnection})`,
    );
  return {
    rps: m.requests / (windowMs / 1000),
    windowMs,
    latency: m.latency,
    requests: m.requests,
    errors: m.errors,
    non2xx: m.non2xx,
    mismatches: m.mismatches,
    lost: m.lost,
    cpuUsPerRequest: after ? cpuPerRequest(statsBefore, after) : null,
    burnUsPerRequest: served > 0 ? (after.burnUs - statsBefore.burnUs) / served : null,
    rssMB: after ? after.rssBytes / 2 ** 20 : null,
    ...(instance && { instance }),
    elu: eluBetween(statsBefore, after),
    bytesPerSec: m.bytesPerSec,
    loadgenCpu: m.loadgenCpu,
    // The curl driver: the load CPU's busy share over the burst (xargs and its curls).
    ...(Number.isFinite(m.loadCpu) && { loadCpu: m.loadCpu }),
    // Rate mode only: the held-rate check and the exact histogram (analysis/latency.js).
    ...Object.fromEntries(RATE_FIELDS.filter((k) => m[k] !== undefined).map((k) => [k, m[k]])),
    ...(warnings.length && { warnings }),
  };
}

module.exports = { takeSample, settle, checkIdentity, cpuPerRequest, eluBetween, burstAmount, SETTLE_TIMEOUT_MS };
