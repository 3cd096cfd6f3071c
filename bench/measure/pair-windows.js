'use strict';
// The pair at a fixed rate: a baseline and a candidate process, both fresh, on the server
// CPU, each sent its own open-loop schedule at the same rate at the same time from the
// load CPU (load/open-loop.js startSchedule: one schedule, both targets, the order of an
// instant's two sends alternating). Why: below saturation the duet's premise (both servers
// always runnable, splitting the CPU) does not hold, and one after the other the CPU per
// request at a fixed rate moved widely between blocks, with how many requests one wake-up
// serves (docs/method.md, "The pair at a fixed rate"). Two servers on the same schedule at
// once live through the same slow seconds and the same batching.
//
// Per window (~1 s): each server's requests and CPU µs from /__stats (the process's own
// CPU, as the duet reads it), its answers' latencies from their intended send times, the
// generator's own lateness, and the load CPU's busy share. A window counts for the CPU
// ratio when both servers kept their schedule and the load CPU was not saturated
// (whyDropped); its latencies are the servers' only when the generator's lateness was
// small against them (analysis/pair.js, per block). The unit is the pair of processes:
// analysis averages the window log ratios per block, t-interval over blocks.
const hdr = require('hdr-histogram-js');
const { getJson } = require('./http-client');
const { checkIdentity, cpuPerRequest, eluBetween } = require('./sample');
const { stillWarming, takeWindows } = require('./duet-windows');
const { treeCpuUs, wakeups, wakeupsPerRequest } = require('../processes/proc-cpu');
const { groupDelta } = require('../processes/cgroup');
const { startSchedule, probe } = require('../../load/open-loop');
const { percentiles } = require('../../lib/histogram');
const { scheduleState } = require('../../analysis/pair');
const { normalizeOptions } = require('../../load/autocannon');
const { CLIENT_BOUND_CPU } = require('../../analysis/summary');

const { setTimeout: sleep } = require('node:timers/promises');
const { PLAN_DEFAULTS } = require('../../lib/settings');

// A window counts only while the load CPU (the generator, and PostgreSQL, MariaDB, Redis
// and the downstream service beside it) was busy less than this share of the time: above
// it the schedule's sends and the answers' timestamps wait for the CPU. Read as the CPU
// time of those processes (precise, as getrusage and schedstat account it), not from
// /proc/stat: its per-CPU times are sampled at the 10-ms tick, and the generator's
// wake-ups, timed to the schedule, fall between ticks, so /proc/stat reads it far less busy
// than it is (scripts/generator-ceiling.js; docs/how-it-measures.md, "The load generator
// is part of the measurement").
const LOAD_CPU_LIMIT = CLIENT_BOUND_CPU;
// Warm-up half-windows: at least MIN (the cost per request must settle, as in the duet,
// and the first seconds of a fresh server may not keep the rate), at most MAX.
const MIN_WARMUP_WINDOWS = 4;
const MAX_WARMUP_WINDOWS = 12;
// After the last window, how long the answers still in flight are awaited (ms).
const DRAIN_MS = 10000;

// A member's own account: a ctxbench server's /__stats, or what a server that has none
// (a team's service, `ctxbench app --instance`) brings as readStats(): its CPU µs from
// /proc, with no request count (the window's answers stand for it) and no identity.
const statsOf = (s) => (s.readStats ? s.readStats() : getJson(`${s.url}/__stats`));

// One reading of every member (in the given order: the poll order is a position swapped
// between blocks), the schedule's cut and the load CPU.
async function poll(servers, schedule, loadPids) {
  const stats = await Promise.all(servers.map(statsOf));
  // An instance stand-in's own accounting (bench/processes/cgroup.js): CPU, CFS throttling, memory.
  const groups = servers.map((s) => s.cgroup?.read() ?? null);
  return {
    stats,
    groups, // A ctxbench server names its own pid; a team's service started through a command may
    // be a wrapper's child, whose wrapper never wakes: no figure rather than a wrong one.
    wakeups: stats.map((s) => wakeups(s.pid)),
    cut: schedule ? await schedule.cut() : null,
    servicesUs: servicesCpuUs(loadPids),
  };
}

// CPU µs used so far by the services on the load CPU (each process and its children).
function servicesCpuUs(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      total += treeCpuUs(pid);
    } catch {
      // a service that has gone takes its time with it
    }
  }
  return total;
}

// Two readings -> one window: per member its requests, CPU µs and CPU µs per request
// (/__stats), what its schedule did (due, sent, answered, errors, backlog, in flight) and
// its latencies; the generator's lateness and CPU; the load CPU's busy share.
function windowBetween(before, after) {
  const cut = after.cut;
  const loadgenCpu = cut.wallMs > 0 ? cut.cpuUs / 1000 / cut.wallMs : null;
  const services = cut.wallMs > 0 ? (after.servicesUs - before.servicesUs) / 1000 / cut.wallMs : 0;
  return {
    wallMs: cut.wallMs,
    loadgenCpu,
    loadCpu: loadgenCpu === null ? null : loadgenCpu + services,
    lateness: cut.lateness,
    members: after.stats.map((s, i) => {
      const t = cut.targets[i];
      const counted = Number.isFinite(s.requests);
      const requests = counted ? s.requests - before.stats[i].requests : t.answered;
      const cpuUs = s.cpuUs - before.stats[i].cpuUs;
      return {
        requests,
        instance: groupDelta(before.groups?.[i], after.groups?.[i], requests),
        cpuUs,
        cpuUsPerRequest: counted ? cpuPerRequest(before.stats[i], s) : requests > 0 ? cpuUs / requests : null,
        // A planted cost (BURN_US) as the server timed it, per request of the window.
        burnUsPerRequest:
          s.requests > before.stats[i].requests && Number.isFinite(s.burnUs)
            ? (s.burnUs - before.stats[i].burnUs) / (s.requests - before.stats[i].requests)
            : null,
        elu: eluBetween(before.stats[i], s),
        wakeupsPerRequest: wakeupsPerRequest(before.wakeups?.[i], after.wakeups?.[i], requests),
        rssMB: Number.isFinite(s.rssBytes) ? s.rssBytes / 2 ** 20 : null,
        due: t.due,
        sent: t.sent,
        answered: t.answered,
        errors: t.errors + t.non2xx,
        mismatches: t.mismatches,
        lost: t.lost,
        backlog: t.backlog,
        inFlight: t.inFlight,
        // Send to answer on a connection, per answer: requests in flight at the instance are
        // this × the rate (an autoscaler's concurrency target is on them).
        busyUs: Number.isFinite(t.busyUs) ? t.busyUs : null,
        busyUsPerRequest: t.answered > 0 && Number.isFinite(t.busyUs) ? t.busyUs / t.answered : null,
        latency: t.latency,
      };
    }),
  };
}

// whyDropped(window) -> null when the window counts for the CPU ratio, else { kind, text }.
// A server kept its schedule in a window when it sent at least 99% of its due requests
// and at most its due ones by the same share and a request (analysis/pair.js
// scheduleState: a server that falls behind fills its connections and the requests due
// after that wait in the generator's queue; one that sends more is draining that queue)
// and none was answered with an error or a non-2xx; a moment's queue for a connection is
// not falling behind (an instance's request limit is such a queue by design). The duet's fair-share rule does not
// apply below saturation: both servers are idle part of every window.
function whyDropped(w, { loadCpuLimit = LOAD_CPU_LIMIT } = {}) {
  const idle = w.members.findIndex((m) => !(m.requests > 0));
  if (idle >= 0) return { kind: 'idle', text: `server ${idle + 1} served no request` };
  const behind = w.members.findIndex((m) => scheduleState(m) === 'behind');
  if (behind >= 0) {
    const m = w.members[behind];
    return {
      kind: 'behind',
      text:
        `server ${behind + 1} fell behind its schedule (${m.sent} of ${m.due} due sent, ${m.backlog} waiting ` +
        `for a connection)`,
    };
  }
  // Draining a queue it built before runs a server above the schedule's rate (more requests
  // a wake-up, less CPU each): counted, such windows alone made dd-trace at HOP=pg in the
  // io study read far cheaper than it is (docs/how-it-measures.md, "The pair at a fixed rate").
  const ahead = w.members.findIndex((m) => scheduleState(m) === 'catching-up');
  if (ahead >= 0) {
    const m = w.members[ahead];
    return {
      kind: 'catching-up',
      text:
        `server ${ahead + 1} was catching up on requests it fell behind on (${m.sent} sent for ${m.due} due, ` +
        `${m.backlog} still waiting)`,
    };
  }
  const failing = w.members.findIndex((m) => m.errors > 0);
  if (failing >= 0)
    return {
      kind: 'errors',
      text: `server ${failing + 1} answered ${w.members[failing].errors} request(s) with an error`,
    };
  if (Number.isFinite(w.loadCpu) && !(w.loadCpu < loadCpuLimit))
    return { kind: 'loadgen', text: `load CPU busy ${Math.round(w.loadCpu * 100)}% of the time` };
  return null;
}

// What the run warns about, once per kind of dropped window.
const DROP_WARNINGS = {
  idle: 'a server served no request',
  behind: 'a server fell behind its schedule (the rate is more than it can serve there)',
  'catching-up': 'a server was catching up on requests it had fallen behind on (above the rate)',
  errors: 'a server answered with errors',
  loadgen: `the load CPU busy ${Math.round(LOAD_CPU_LIMIT * 100)}% of the time or more`,
};

const encode = (h) => hdr.encodeIntoCompressedBase64(h);

// Warm-up, its half-windows pushed on `warmup`: until both servers' cost per request has
// settled (the duet's rule) and the last half-window was kept by both. -> the last reading.
async function warmUp(servers, schedule, loadPids, warmup, { windowS, signal, warmupWindows }) {
  let previous = await poll(servers, schedule, loadPids);
  while (!signal?.aborted) {
    await sleep((windowS * 1000) / 2);
    const current = await poll(servers, schedule, loadPids);
    const w = windowBetween(previous, current);
    previous = current;
    warmup.push(w);
    const kept = whyDropped(w) === null;
    // A rate a server cannot keep will not be kept by warming longer: measure it as it is.
    const behind =
      warmup.length >= warmupWindows.min && warmup.slice(-2).every((x) => whyDropped(x)?.kind === 'behind');
    if (warmup.length >= warmupWindows.max || behind || (kept && !stillWarming(warmup, warmupWindows))) break;
  }
  return previous;
}

// Runs one pair at `rate` requests/s each (or `rates`, one per server, each its own).
// servers: [{ url, nonce }] in poll order;
// warmupWindows: { min, max } half-windows before the first measured one;
// configs: theirs. load: { path, connections, timeout }. loadPids: the services sharing
// the load CPU with the generator (their CPU counts in its busy share). Resolves to { warmup: [window], windows:
// [window + counted/dropped], totals: [{ due, answered, ... } per member], lateness: {p50,p99} }; onWindow(window) is
// told of each measured window as it is judged, so a run stopped mid-pair keeps them.
async function measurePair({
  servers,
  configs,
  rate,
  rates,
  load,
  windowS = PLAN_DEFAULTS.window,
  windows: wanted = PLAN_DEFAULTS.windows,
  maxWindows = wanted * 3,
  signal,
  onWindow,
  loadPids = [],
  warmupWindows = { min: MIN_WARMUP_WINDOWS, max: MAX_WARMUP_WINDOWS },
}) {
  const identify = (stats) => stats.forEach((s, i) => servers[i].readStats || checkIdentity(s, configs[i], servers[i]));
  identify(await Promise.all(servers.map(statsOf)));
  const timeout = load.timeout ?? 10;
  let schedule = null;
  const warmup = [];
  const taken = [];
  try {
    await Promise.all(servers.map((s, i) => probe(normalizeOptions({ url: s.url, path: configs[i].path || '/' }))));
    schedule = await startSchedule({
      targets: servers.map((s, i) => ({
        url: s.url,
        path: configs[i].path || '/',
        ...(load.idHeader !== undefined && { idHeader: load.idHeader }),
      })),
      rate: rates ? Math.max(...rates) : rate,
      ...(rates && { rates }),
      connections: load.connections,
      timeout,
    });
    const previous = await warmUp(servers, schedule, loadPids, warmup, { windowS, signal, warmupWindows });
    // Until enough windows count, or as many in a row fell behind (the rate is not kept
    // there, which is the answer), or the cap.
    const fellBehind = () =>
      taken.length >= wanted &&
      taken.slice(-wanted).every((w) => w.dropKind === 'behind' || w.dropKind === 'catching-up');
    await takeWindows({
      taken,
      previous,
      read: () => poll(servers, schedule, loadPids),
      between: windowBetween,
      whyDropped,
      wanted,
      maxWindows,
      windowS,
      signal,
      onWindow,
      enough: fellBehind,
    });
    identify(await Promise.all(servers.map(statsOf)));
  } finally {
    if (schedule) {
      try {
        await schedule.stop();
        await Promise.race([schedule.done, sleep(DRAIN_MS)]);
        await schedule.refresh();
      } finally {
        await schedule.close();
      }
    }
  }
  return { warmup, windows: taken, totals: schedule.counts.map((c) => ({ ...c })) };
}

// The pair's windows as samples of the candidate (index `of`, partner index `partner`):
// one sample per window, kind 'window' like the duet's, with the pair's own fields: the
// rate, both servers' schedules and latencies (hdr-histogram-js, compressed base64, so
// analysis merges them exactly), the generator's lateness and the load CPU.
function windowSamples(windows, { of, partner, partnerId, block, group, rate, partnerRate }) {
  return windows.map((w) => {
    const me = w.members[of];
    const other = w.members[partner];
    const lateness = percentiles(w.lateness);
    return {
      kind: 'window',
      method: 'pair',
      block,
      group,
      window: w.window,
      partner: partnerId,
      rate,
      ...(partnerRate !== undefined && partnerRate !== rate && { partnerRate }),
      wallMs: Math.round(w.wallMs * 10) / 10,
      requests: me.requests,
      cpuUsPerRequest: me.cpuUsPerRequest,
      ...(me.burnUsPerRequest > 0 && { burnUsPerRequest: me.burnUsPerRequest }),
      elu: me.elu,
      wakeupsPerRequest: me.wakeupsPerRequest,
      partnerWakeupsPerRequest: other.wakeupsPerRequest,
      ...(Number.isFinite(me.busyUsPerRequest) && {
        busyUsPerRequest: round3(me.busyUsPerRequest),
        partnerBusyUsPerRequest: round3(other.busyUsPerRequest),
      }),
      rssMB: Number.isFinite(me.rssMB) ? Math.round(me.rssMB * 10) / 10 : null,
      ...(me.instance && { instance: me.instance, partnerInstance: other.instance }),
      schedule: scheduleOf(me),
      histogram: encode(me.latency),
      latency: shortPercentiles(me.latency),
      partnerRequests: other.requests,
      partnerCpuUsPerRequest: other.cpuUsPerRequest,
      partnerSchedule: scheduleOf(other),
      partnerHistogram: encode(other.latency),
      partnerLatency: shortPercentiles(other.latency),
      lateness: { p50: lateness.p50, p99: lateness.p99, max: lateness.max },
      latenessHistogram: encode(w.lateness),
      loadgenCpu: round3(w.loadgenCpu),
      loadCpu: round3(w.loadCpu),
      mismatches: me.mismatches,
      lost: me.lost,
      errors: me.errors,
      counted: w.counted,
      ...(w.dropped && { dropped: w.dropped }),
    };
  });
}

const round3 = (x) => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : null);
const scheduleOf = (m) => ({
  due: m.due,
  sent: m.sent,
  answered: m.answered,
  errors: m.errors,
  backlog: m.backlog,
  inFlight: m.inFlight,
});
function shortPercentiles(h) {
  const p = percentiles(h);
  return { p50: p.p50, p90: p.p90, p99: p.p99, p99_9: p.p99_9, count: p.count };
}

module.exports = {
  measurePair,
  windowBetween,
  whyDropped,
  windowSamples,
  DROP_WARNINGS,
  LOAD_CPU_LIMIT,
  MIN_WARMUP_WINDOWS,
  MAX_WARMUP_WINDOWS,
};
