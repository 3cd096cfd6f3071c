'use strict';
// Rates for rate mode. `--rate 2000` is absolute; `--load 25%,50%,75%` is a fraction of
// the BASELINE's capacity, measured here first: the baseline configuration of each group
// (same framework, depth, hop, Node; analysis/comparable.js) runs closed-loop at saturation
// for a few bursts and its median throughput is its capacity. Every strategy of the group
// is then driven at the same absolute rate, so "50% load" means the same arrival rate for
// the baseline and for the strategy under test, and a slower strategy is simply nearer
// its own saturation (which is the cost a team feels).
const { groupConfigs, groupKey, armOf } = require('../analysis/comparable');
const { median } = require('../analysis/stats');
const { startServer } = require('./server-process');
const { UsageError } = require('../lib/cli');
const { onInterrupt } = require('./progress');
const { deriveConfig } = require('./matrix');
const { cpus } = require('../lib/cpus');
const { getDriver } = require('./drivers');
const { pinSelf } = require('./session');
const { Cgroup, standInLayout } = require('./cgroup');
const { startServices } = require('./services');

const BURSTS = 3;
// A stand-in warms its JIT on a quarter of a CPU: four times the wall time. Measured on F1
// stand-ins after 1 s of warm-up, three bursts read 2,088, 2,018 and 4,788 req/s (and 2,153,
// 3,281, 4,025 in the next run), so the ladder of rates "up to 100%" moved by half between
// runs. Bursts go on until the last BURSTS are within SETTLED of their median (at most
// MAX_BURSTS), and the capacity is the median of those.
const SETTLED = 0.1;
const MAX_BURSTS = 10;

// burst() -> req/s, called until the last BURSTS agree -> { rps, bursts, settled }.
async function settledBursts(burst) {
  const bursts = [];
  const last = () => bursts.slice(-BURSTS);
  const agree = () => bursts.length >= BURSTS && last().every((x) => Math.abs(x - median(last())) <= SETTLED * median(last()));
  while (bursts.length < MAX_BURSTS && !agree()) bursts.push(await burst());
  return { rps: Math.round(median(last())), bursts: bursts.map(Math.round), settled: agree() };
}
const BURSTS_RULE = `bursts until the last ${BURSTS} are within ${SETTLED * 100}% of their median (at most ${MAX_BURSTS}), the median of those`;

// '25%,50%,75%' -> [0.25, 0.5, 0.75]. One clear line on a bad value.
function parseLoads(value) {
  if (value === undefined) return undefined;
  const items = String(value).split(',').map((s) => s.trim()).filter(Boolean);
  if (!items.length) throw new UsageError('--load needs at least one value, such as 25%,50%,75%');
  return items.map((item) => {
    const m = /^(\d+(?:\.\d+)?)%$/.exec(item);
    const pct = m ? Number(m[1]) : NaN;
    if (!(pct > 0 && pct <= 100)) throw new UsageError(`--load ${item} is not valid; expected a percentage of the baseline's capacity from 1% to 100%, such as 50%`);
    return pct / 100;
  });
}

// '2000' or '1000,2000' -> [1000, 2000].
function parseRates(value) {
  if (value === undefined) return undefined;
  const items = String(value).split(',').map((s) => s.trim()).filter(Boolean);
  if (!items.length) throw new UsageError('--rate needs at least one value, such as 2000');
  return items.map((item) => {
    const n = Number(item);
    if (!(/^\d+(\.\d+)?$/.test(item) && n >= 1 && n <= 1e6)) throw new UsageError(`--rate ${item} is not valid; expected requests per second from 1 to 1000000`);
    return n;
  });
}

const loadLabel = (f) => `${Math.round(f * 1000) / 10}%`;

// The baseline config of every group: [{ group, config }]. Throws when a group has none.
function baselines(configs, baselineArm) {
  return [...groupConfigs(configs)].map(([group, members]) => {
    const config = members.find((c) => armOf(c) === baselineArm);
    if (!config) throw new UsageError(`--load needs the baseline strategy ${baselineArm} in every group (missing beside ${members[0].id}); add it to --strategies or give --rate`);
    return { group, config };
  });
}

// Measures each group's baseline capacity closed-loop. Resolves to the record kept in the
// run JSON: { method, bursts, groups: [{ group, baseline, rps, bursts: [rps…] }] }.
// driver: the closed-loop measure(); launch(config) -> { url, stop } (a started server,
// or a deployed target). With settings.method 'pair' the capacity is that of a server of a
// pair: two baseline processes loaded at once on the server CPU, each one's share (the
// mean of their req/s), since a pair's two servers share that CPU at every rate.
async function measureCapacity(configs, settings, { driver, launch, log = () => {}, onServer = () => {} }) {
  const groups = [];
  const twins = settings.method === 'pair' ? 2 : 1;
  for (const { group, config } of baselines(configs, settings.baseline)) {
    log(`measuring the capacity of ${config.id} (closed loop${twins > 1 ? ', beside a second baseline process as in a pair' : ''}, bursts of ${settings.duration} s until the last ${BURSTS} agree)`);
    const servers = [];
    try {
      for (let i = 0; i < twins; i++) {
        const server = await launch(config);
        servers.push(server);
        onServer(server);
      }
      const options = (server) => ({ url: server.url, path: config.path || '/', connections: settings.connections, pipelining: settings.pipelining });
      const burst = async (duration) => {
        const results = await Promise.all(servers.map((server) => driver({ ...options(server), duration })));
        return results.reduce((a, r) => a + r.rps, 0) / results.length;
      };
      if (settings.warmup > 0) await burst(settings.warmup);
      const { rps, bursts, settled } = await settledBursts(() => burst(settings.duration));
      if (!settled) log(`the capacity of ${config.id} did not settle in ${MAX_BURSTS} bursts (${bursts.join(', ')} req/s): the median of the last ${BURSTS} stands`);
      groups.push({ group, baseline: config.id, rps, bursts, settled });
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }
  return {
    method: `closed loop (autocannon, ${settings.connections} connections, pipelining ${settings.pipelining}${twins > 1 ? ', two baseline processes at once on the server CPU: the capacity of each server of a pair' : ''}), ${BURSTS_RULE}, bursts of ${settings.duration} s after ${settings.warmup} s of warm-up, fresh server(s) per baseline`,
    bursts: BURSTS,
    ...(twins > 1 && { servers: twins }),
    groups,
  };
}

// Default launcher: a local server (as the runner starts it), as an instance stand-in
// (its own cgroup, removed when it stops) with `instance`, or the deployed target.
function defaultLaunch({ cpu = null, instance = null, env = {} } = {}) {
  return async (config) => {
    if (config.target) return { url: config.target, stop: async () => {} };
    const cgroup = instance ? new Cgroup(standInLayout(), `capacity-${config.strategy}`).create(instance) : null;
    try {
      const server = await startServer(config, { nodePath: config.launch?.nodePath, nodeArgs: config.launch?.nodeArgs, cpu, cgroup, env });
      return cgroup ? { ...server, stop: () => server.stop().finally(() => cgroup.remove()) } : server;
    } catch (err) {
      cgroup?.remove();
      throw err;
    }
  };
}

const variant = (config, label) => (config.variant ? `${config.variant}/${label}` : label);

// One config per (config, rate): the rate is part of the group (`variant`), so a strategy
// is compared with its baseline at the same load only.
function expandRates(configs, { rates, loads, capacity }) {
  const out = [];
  for (const config of configs) {
    if (rates) {
      for (const rate of rates) out.push(deriveConfig(config, { id: `${config.id}/r${rate}`, variant: variant(config, `r${rate}`), rate, load: null }));
    } else {
      const g = capacity.groups.find((x) => x.group === groupKey(config));
      for (const load of loads) {
        const rate = Math.max(1, Math.round(load * g.rps));
        const pct = Math.round(load * 1000) / 10;
        out.push(deriveConfig(config, { id: `${config.id}/load${pct}`, variant: variant(config, `load${pct}`), rate, load, capacityRps: g.rps }));
      }
    }
  }
  return out;
}

// run.js's one call: with settings.rates or settings.loads, measures capacity when needed
// (recorded in settings.capacity) and returns the configs expanded by rate; otherwise the
// configs unchanged.
// services: { need, pgUrl } as the session takes them: a baseline waiting on PostgreSQL,
// MariaDB, Redis or a downstream needs them for its capacity too (started here for the
// probe and stopped after it; the session starts its own for the run).
async function rateConfigs(configs, settings, { remote = false, taskset = false, services = null, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (!settings.rates && !settings.loads) return configs;
  if (settings.loads) {
    const pinned = !remote && taskset && pinSelf();
    // Nothing is measured yet: Ctrl-C stops the servers and services it started and quits (130).
    const current = new Set();
    const stop = onInterrupt({ log }, 'capacity burst', {
      quit: () => {
        log('interrupted while measuring the baseline capacity: nothing was measured');
        Promise.allSettled([...current].map((x) => x.stop())).finally(() => process.exit(130));
      },
    });
    const needed = !remote && services?.need && Object.values(services.need).some(Boolean);
    let started = null;
    try {
      if (needed) {
        started = await startServices({ need: services.need, pgUrl: services.pgUrl ?? null, pinned });
        current.add(started);
      }
      settings.capacity = await measureCapacity(configs, settings, { driver: getDriver('autocannon'), launch: defaultLaunch({ cpu: pinned ? cpus().server : null, instance: settings.instance ?? null, env: started?.env ?? {} }), log, onServer: (s) => current.add(s) });
    } finally {
      await started?.stop();
      stop.release();
    }
  }
  return expandRates(configs, { rates: settings.rates, loads: settings.loads, capacity: settings.capacity });
}

module.exports = {
  rateConfigs, parseLoads, parseRates, measureCapacity, expandRates, defaultLaunch, baselines, loadLabel, settledBursts, BURSTS, BURSTS_RULE };
