'use strict';
// Duet measurement: a strategy and its baseline under load at the same time, on one CPU.
//
// Why: a warm server here runs markedly slower for seconds at a time. Bursts taken one
// after the other straddle those episodes; two servers loaded at once on one pinned CPU
// live through the same ones, so the ratio of their CPU time per request in the same
// second barely moves (Bulej et al., "Duet Benchmarking", ICPE 2020; the figures:
// docs/method.md, "Duet: a strategy and its baseline at the same time").
//
// A group (the baseline and one other arm of analysis/comparable.js) is started fresh,
// loaded with the same connections per server from this process (the load generator, on
// the other CPU), and read every window: each server's requests and CPU µs from
// /__stats, this process's own CPU. Windows while both servers still get cheaper are the
// warm-up; then `windows` windows are measured. A window counts only when both servers
// were busy for the whole of it and the load generator was not the bottleneck
// (judgeWindow). The ratio's unit is the group (a pair of fresh processes): analysis/summary.js
// averages the window log ratios per block and takes the interval over blocks.
const { getJson } = require('./http-client');
const { wakeups, wakeupsPerRequest } = require('../processes/proc-cpu');
const { checkIdentity, cpuPerRequest, eluBetween } = require('./sample');
const { CLIENT_BOUND_CPU } = require('../../analysis/summary');
const { STEADY_FALL } = require('./warmup');

// A window counts when the load generator used less than this share of a core (the
// client-bound mark of analysis/summary.js) ...
const LOADGEN_LIMIT = CLIENT_BOUND_CPU;
// ... and every server of a group of n used at least BUSY_SHARE / n of the server CPU:
// two servers that are both always runnable split it about evenly (docs/investigations.md,
// "Figures that code comments carried"); one that waited for requests for part of the
// window gets visibly less and the other more, and its requests were no longer served in
// the same regime.
const BUSY_SHARE = 0.8;
// The pinned CPU must have been saturated: the group's servers used at least this much
// of it together (when both are busy they use nearly all of it: docs/investigations.md,
// "Figures that code comments carried").
const SATURATED = 0.9;
const MAX_WARMUP_WINDOWS = 8;

const { setTimeout: sleep } = require('node:timers/promises');
const { PLAN_DEFAULTS } = require('../../lib/settings');

// One reading of every member (in the given order: the poll order is one of the positions
// swapped between blocks) and of this process's CPU.
async function poll(servers) {
  const stats = await Promise.all(servers.map((s) => getJson(`${s.url}/__stats`)));
  const cpu = process.cpuUsage();
  return {
    atUs: Number(process.hrtime.bigint() / 1000n),
    loadgenUs: cpu.user + cpu.system,
    stats,
    wakeups: stats.map((s) => wakeups(s.pid)),
  };
}

// Two readings -> one window: per member, requests served, CPU µs, CPU µs per request and
// its share of one core; the load generator's share of one core.
function windowBetween(before, after) {
  const wallUs = after.atUs - before.atUs;
  const members = after.stats.map((s, i) => {
    const cpuUs = s.cpuUs - before.stats[i].cpuUs;
    const requests = s.requests - before.stats[i].requests;
    return {
      requests,
      cpuUs,
      cpuUsPerRequest: cpuPerRequest(before.stats[i], s),
      share: wallUs > 0 ? cpuUs / wallUs : null,
      elu: eluBetween(before.stats[i], s),
      wakeupsPerRequest: wakeupsPerRequest(before.wakeups?.[i], after.wakeups?.[i], requests),
    };
  });
  return {
    wallMs: wallUs / 1000,
    loadgenCpu: wallUs > 0 ? (after.loadgenUs - before.loadgenUs) / wallUs : null,
    members,
  };
}

// whyDropped(window) -> null when the window counts, else { kind, text }: the kind as
// data (what the run warns about, once per kind), the text with this window's figures
// (kept on the window as `dropped`).
function whyDropped(w, { loadgenLimit = LOADGEN_LIMIT, busyShare = BUSY_SHARE, saturated = SATURATED } = {}) {
  const n = w.members.length;
  const idle = w.members.findIndex((m) => !(m.requests > 0));
  if (idle >= 0) return { kind: 'idle', text: `server ${idle + 1} served no request` };
  if (!(w.loadgenCpu < loadgenLimit))
    return { kind: 'loadgen', text: `load generator at ${Math.round(w.loadgenCpu * 100)}% of a core` };
  const total = w.members.reduce((a, m) => a + m.share, 0);
  if (total < saturated)
    return { kind: 'unsaturated', text: `server CPU not saturated (${Math.round(total * 100)}% used)` };
  const starved = w.members.findIndex((m) => m.share < busyShare / n);
  if (starved >= 0)
    return {
      kind: 'starved',
      text: `server ${starved + 1} not busy throughout (${Math.round(w.members[starved].share * 100)}% of the CPU)`,
    };
  return null;
}

// judgeWindow(window) -> null when the window counts, else why it was dropped (the text).
function judgeWindow(w, options) {
  return whyDropped(w, options)?.text ?? null;
}

// What the run warns about, once per kind of dropped window.
const DROP_WARNINGS = {
  idle: 'a server served no request',
  loadgen: `the load generator at ${Math.round(LOADGEN_LIMIT * 100)}% of a core or more`,
  unsaturated: 'server CPU not saturated',
  starved: 'a server not busy throughout',
};

// Warm-up on windows: more while any member's cost per request has not settled, judged on
// half-windows. Settled = the last window within WARM_BAND of the cheapest one before it:
// not more than 5% below (still getting faster, bench/measure/warmup.js's STEADY_FALL) and not
// more than 10% above. The upper bound matters here: V8 compiles on a background thread
// of the same process, so a half-window in which it tiers up reads dearer, and judging by
// the fall alone stopped warm-ups at such a window and measured windows that were still
// getting cheaper (docs/method.md, "Duet: a strategy and its baseline at the same time",
// Warm-up). At least MIN_WARMUP_WINDOWS, at most MAX_WARMUP_WINDOWS (a strategy whose cost
// keeps rising, like cls-hooked's growing context map, never settles in this sense).
const MIN_WARMUP_WINDOWS = 4;
const WARM_BAND = [1 - STEADY_FALL, 1.1];

function stillWarming(windows, { min = MIN_WARMUP_WINDOWS, max = MAX_WARMUP_WINDOWS, band = WARM_BAND } = {}) {
  if (windows.length < min) return true;
  if (windows.length >= max) return false;
  const n = windows[0].members.length;
  for (let i = 0; i < n; i++) {
    const costs = windows.map((w) => w.members[i].cpuUsPerRequest);
    if (!costs.every((c) => c > 0)) return false;
    const last = costs.at(-1);
    const best = Math.min(...costs.slice(0, -1));
    if (last < best * band[0] || last > best * band[1]) return true;
  }
  return false;
}

// The measured windows of a duet or a pair: one reading every windowS, each window judged
// (whyDropped -> null when it counts) and told to onWindow as soon as it is, until `wanted`
// count, `maxWindows` were taken, the signal aborts, or enough() says the rest cannot
// count. Appends to `taken` (so a caller stopped mid-way keeps what was taken) and returns
// the last reading.
async function takeWindows({
  taken,
  previous,
  read,
  between,
  whyDropped: why,
  wanted,
  maxWindows,
  windowS,
  signal,
  onWindow,
  enough = () => false,
}) {
  let last = previous;
  while (!signal?.aborted && taken.filter((w) => w.counted).length < wanted && taken.length < maxWindows && !enough()) {
    await sleep(windowS * 1000);
    const current = await read();
    const w = between(last, current);
    const dropped = why(w);
    const judged = {
      ...w,
      window: taken.length,
      counted: dropped === null,
      ...(dropped && { dropped: dropped.text, dropKind: dropped.kind }),
    };
    taken.push(judged);
    onWindow?.(judged);
    last = current;
  }
  return last;
}

// Runs one group under load. servers: [{ url, nonce, stats }] in poll/start order;
// configs: theirs, same order. load: { path, connections, pipelining }; driver: the
// closed-loop driver (takes a signal). Resolves to { warmup: [window], windows: [window
// + counted/dropped], loads: [driver result per member] }. A window of `windowS` s;
// warm-up windows are half as long (they only have to show the cost levelling off).
// onWindow(window) is told of each measured window as soon as it is judged, so that the
// caller can keep it before the group ends (a run killed mid-group loses none of them).
async function measureGroup({
  servers,
  configs,
  driver,
  load,
  windowS = PLAN_DEFAULTS.window,
  windows: wanted = PLAN_DEFAULTS.windows,
  maxWindows = wanted * 3,
  signal,
  onWindow,
}) {
  const first = await poll(servers);
  first.stats.forEach((s, i) => checkIdentity(s, configs[i], servers[i]));
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort, { once: true });
  // Long enough for any warm-up and every window; aborted as soon as they are taken.
  const duration = Math.ceil(MAX_WARMUP_WINDOWS * windowS + maxWindows * windowS + 10);
  const loads = servers.map((s, i) =>
    driver({
      url: s.url,
      path: configs[i].path || '/',
      connections: load.connections,
      pipelining: load.pipelining,
      duration,
      signal: controller.signal,
    }),
  );
  // A load that fails (server died) ends the group at once.
  let failure = null;
  const settled = Promise.allSettled(loads).then((rs) => {
    failure = rs.find((r) => r.status === 'rejected')?.reason ?? null;
    controller.abort();
  });
  const warmup = [];
  const taken = [];
  try {
    // The first reading after the loads have started: the load generator's start-up and
    // the probes are outside every window.
    await sleep(100);
    let previous = await poll(servers);
    while (!controller.signal.aborted && stillWarming(warmup)) {
      await sleep((windowS * 1000) / 2);
      const current = await poll(servers);
      warmup.push(windowBetween(previous, current));
      previous = current;
    }
    await takeWindows({
      taken,
      previous,
      read: () => poll(servers),
      between: windowBetween,
      whyDropped,
      wanted,
      maxWindows,
      windowS,
      signal: controller.signal,
      onWindow,
    });
    const last = await poll(servers);
    last.stats.forEach((s, i) => checkIdentity(s, configs[i], servers[i]));
  } finally {
    controller.abort();
    signal?.removeEventListener('abort', abort);
    await settled;
  }
  if (failure) throw failure;
  return { warmup, windows: taken, loads: await Promise.all(loads) };
}

// The group's windows as samples of the non-baseline member (index `of`, partner index
// `partner`): one sample per window, without `rps` (a window is not a solo burst: the
// solo summaries never see it).
function windowSamples(result, { of, partner, partnerId, block, group }) {
  return result.windows.map((w) => ({
    kind: 'window',
    block,
    group,
    window: w.window,
    partner: partnerId,
    wallMs: Math.round(w.wallMs * 10) / 10,
    requests: w.members[of].requests,
    cpuUsPerRequest: w.members[of].cpuUsPerRequest,
    share: w.members[of].share,
    elu: w.members[of].elu,
    wakeupsPerRequest: w.members[of].wakeupsPerRequest,
    partnerWakeupsPerRequest: w.members[partner].wakeupsPerRequest,
    partnerRequests: w.members[partner].requests,
    partnerCpuUsPerRequest: w.members[partner].cpuUsPerRequest,
    partnerShare: w.members[partner].share,
    loadgenCpu: w.loadgenCpu,
    counted: w.counted,
    ...(w.dropped && { dropped: w.dropped }),
  }));
}

// Positions rotated between blocks (the process is the unit, so whatever the first-started,
// first-loaded or first-polled server gets by its position must land on every arm in
// turn): block b starts, loads and polls the group rotated by b.
function positionsFor(block, members) {
  const k = block % members.length;
  return [...members.slice(k), ...members.slice(0, k)];
}

module.exports = {
  measureGroup,
  takeWindows,
  windowBetween,
  judgeWindow,
  whyDropped,
  DROP_WARNINGS,
  stillWarming,
  MIN_WARMUP_WINDOWS,
  MAX_WARMUP_WINDOWS,
  windowSamples,
  positionsFor,
  LOADGEN_LIMIT,
  BUSY_SHARE,
  SATURATED,
};
