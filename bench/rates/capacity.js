'use strict';
// Rates for rate mode. `--rate 2000` is absolute; `--load 25%,50%,75%` is a fraction of
// the BASELINE's capacity, measured here first: the baseline configuration of each group
// (same framework, depth, hop, Node; analysis/comparable.js) runs closed-loop at saturation
// for a few bursts and its median throughput is its capacity. Every strategy of the group
// is then driven at the same absolute rate, so "50% load" means the same arrival rate for the
// baseline and the strategy under test, a slower one nearer its own saturation (the cost felt).
const { groupConfigs, groupKey, armOf } = require('../../analysis/comparable');
const { median } = require('../../analysis/stats');
const { startServer } = require('../processes/server-process');
const { UsageError } = require('../../lib/cli');
const { boundsOf } = require('../../lib/settings');
const { onInterrupt } = require('../run/progress');
const { deriveConfig } = require('../run/matrix');
const { cpus } = require('../../lib/cpus');
const { getDriver } = require('../measure/drivers');
const { burstOrEmpty } = require('../measure/warmup');
const { pinSelf } = require('../run/session');
const { Cgroup, standInLayout } = require('../processes/cgroup');
const { startServices } = require('../services/services');
const pair = require('../measure/pair-windows');
const { percentiles, newHistogram, HELD_MIN } = require('../../lib/histogram');

const BURSTS = 3;
// A stand-in warms its JIT on a quarter of a CPU (four times the wall time): after 1 s of warm-up,
// three bursts on F1 stand-ins still rose by half or more (docs/investigations.md, "Figures that
// code comments carried"). Bursts go on until the last BURSTS are within SETTLED of their median
// (at most MAX_BURSTS); the capacity is the median of those.
const SETTLED = 0.1;
const MAX_BURSTS = 10;

// burst() -> req/s, called until the last BURSTS agree -> { rps, bursts, settled }.
async function settledBursts(burst) {
  const bursts = [];
  const last = () => bursts.slice(-BURSTS);
  const agree = () =>
    bursts.length >= BURSTS && last().every((x) => Math.abs(x - median(last())) <= SETTLED * median(last()));
  while (bursts.length < MAX_BURSTS && !agree()) bursts.push(await burst());
  return { rps: Math.round(median(last())), bursts: bursts.map(Math.round), settled: agree() };
}
const BURSTS_RULE =
  `bursts until the last ${BURSTS} are within ${SETTLED * 100}% of their median (at most ${MAX_BURSTS}), the ` +
  `median of those`;

// The open-loop knee: where a ladder of rates judged against an SLO is anchored. On F1
// stand-ins a saturated server batches and spends a fraction of the CPU a request it spends
// at a fixed rate, so its closed-loop capacity is far above the rate it can serve within
// the SLO (docs/deploy.md, "Capacity within an SLO: a study-page figure"; the figures:
// docs/investigations.md, "Figures that code comments carried"): a ladder of fractions of
// the closed-loop capacity put most of its rungs past what the stand-ins can serve, and
// left each block's SLO crossing between two far-apart rungs. So the twins that measured
// the closed-loop capacity are then sent the pair's open-loop schedule at rising rates
// (from KNEE_FROM of it, KNEE_STEP apart, KNEE_WINDOWS windows each), until both keep the
// SLO at no rate KNEE_OVER steps in a row (one stall of the quota is not the knee);
// the knee is the last rate at which both kept it. It anchors the ladder; the capacity
// published is each block's own crossing (analysis/capacity.js).
const KNEE_FROM = 0.1;
const KNEE_STEP = 1.25;
const KNEE_OVER = 2;
const KNEE_WINDOWS = 2;
const KNEE_MAX = 1.5;
const KNEE_RULE =
  `the open-loop knee: two baseline processes sent the pair's schedule at rising rates (from ` +
  `${KNEE_FROM * 100}% of the closed-loop capacity, ×${KNEE_STEP} a step, ${KNEE_WINDOWS} windows each), the ` +
  `last rate at which both kept the SLO before ${KNEE_OVER} steps in a row where one did not`;

// One side of a knee step: its percentiles over the step's windows and whether it kept
// the rate.
function kneeSide(windows, i) {
  const h = newHistogram();
  let due = 0;
  let sent = 0;
  for (const w of windows) {
    h.add(w.members[i].latency);
    due += w.members[i].due || 0;
    sent += w.members[i].sent || 0;
  }
  return { p: percentiles(h), held: due > 0 && sent >= HELD_MIN * due };
}

// kneeSearch(closedLoopRps, step) -> { rps, censored: null | 'below' (over the SLO from
// the first rate) | 'above' (kept it to KNEE_MAX of the closed loop), steps }. step(rate)
// -> { ok, … } measures one rate (both twins within the SLO and on schedule: ok).
async function kneeSearch(closedLoopRps, step, { signal } = {}) {
  const steps = [];
  let rate = Math.max(1, Math.round(KNEE_FROM * closedLoopRps));
  let last = null;
  let over = 0;
  while (!signal?.aborted && over < KNEE_OVER && rate <= KNEE_MAX * closedLoopRps) {
    const result = await step(rate);
    steps.push({ rate, ...result });
    if (result.ok) {
      last = rate;
      over = 0;
    } else over++;
    rate = Math.round(rate * KNEE_STEP);
  }
  // Ended by KNEE_MAX with the last rate within the SLO: the knee is at least that.
  const censored = last === null ? 'below' : steps.at(-1).ok ? 'above' : null;
  return { rps: last ?? steps[0]?.rate ?? null, censored, steps };
}

// openLoopKnee({ servers, configs, closedLoopRps, slo, load, windowS, signal, log }): the
// knee of two started baseline processes (as a pair's; configs theirs), each step a pair
// at the rate -> kneeSearch's answer, steps with each side's percentile and whether it
// kept the rate, and the rule.
async function openLoopKnee({ servers, configs, closedLoopRps, slo, load, windowS = 1, signal, log = () => {} }) {
  const knee = await kneeSearch(
    closedLoopRps,
    async (rate) => {
      const result = await pair.measurePair({
        servers,
        configs,
        rate,
        load,
        windowS,
        windows: KNEE_WINDOWS,
        maxWindows: KNEE_WINDOWS,
        signal,
      });
      const sides = servers.map((_, i) => kneeSide(result.windows, i));
      const ok = sides.every((x) => x.held && Number.isFinite(x.p[slo.key]) && x.p[slo.key] <= slo.boundMs);
      log(
        `  ${rate} req/s each: ${slo.key} ` +
          `${sides.map((x) => (Number.isFinite(x.p[slo.key]) ? `${x.p[slo.key]} ms` : '—')).join(' and ')}` +
          `${sides.every((x) => x.held) ? '' : ' (a rate not kept)'}: ${ok ? 'within' : 'over'} ${slo.text}`,
      );
      return { ok, p: sides.map((x) => x.p[slo.key]), held: sides.map((x) => x.held) };
    },
    { signal },
  );
  return { ...knee, method: KNEE_RULE };
}

// '25%,50%,75%' -> [0.25, 0.5, 0.75]. One clear line on a bad value. max: the highest
// fraction (1 of a closed-loop capacity; above 1 of an open-loop knee, which a ladder
// crosses).
function parseLoads(value, { max = 1 } = {}) {
  if (value === undefined) return undefined;
  const items = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!items.length) throw new UsageError('--load needs at least one value, such as 25%,50%,75%');
  return items.map((item) => {
    const m = /^(\d+(?:\.\d+)?)%$/.exec(item);
    const pct = m ? Number(m[1]) : NaN;
    if (!(pct > 0 && pct <= max * 100))
      throw new UsageError(
        `--load ${item} is not valid; expected a percentage of the baseline's capacity from 1% to ` +
          `${max * 100}%, such as 50%`,
      );
    return pct / 100;
  });
}

// '2000' or '1000,2000' -> [1000, 2000], each within --rate's bounds (lib/settings.js).
function parseRates(value) {
  if (value === undefined) return undefined;
  const items = String(value).split(',').map((s) => s.trim()).filter(Boolean);
  if (!items.length) throw new UsageError('--rate needs at least one value, such as 2000');
  const { min, max } = boundsOf('rate');
  return items.map((item) => {
    const n = Number(item);
    if (!(/^\d+(\.\d+)?$/.test(item) && n >= min && n <= max))
      throw new UsageError(`--rate ${item} is not valid; expected requests per second from ${min} to ${max}`);
    return n;
  });
}

const loadLabel = (f) => `${Math.round(f * 1000) / 10}%`;
// The baseline config of every group: [{ group, config }]. Throws when a group has none.
function baselines(configs, baselineArm) {
  return [...groupConfigs(configs)].map(([group, members]) => {
    const config = members.find((c) => armOf(c) === baselineArm);
    if (!config)
      throw new UsageError(
        `--load needs the baseline strategy ${baselineArm} in every group (missing beside ${members[0].id}); ` +
          `add it to --strategies or give --rate`,
      );
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
    log(
      `measuring the capacity of ${config.id} (closed ` +
        `loop${twins > 1 ? ', beside a second baseline process as in a pair' : ''}, bursts of ` +
        `${settings.duration} s until the last ${BURSTS} agree)`,
    );
    const servers = [];
    try {
      for (let i = 0; i < twins; i++) {
        const server = await launch(config);
        servers.push(server);
        onServer(server);
      }
      const options = (server) => ({
        url: server.url,
        path: config.path || '/',
        connections: settings.connections,
        pipelining: settings.pipelining,
      });
      const burst = async (duration) => {
        const results = await Promise.all(servers.map((server) => driver({ ...options(server), duration })));
        return results.reduce((a, r) => a + r.rps, 0) / results.length;
      };
      if (settings.warmup > 0) await burstOrEmpty(burst(settings.warmup), 0);
      const { rps, bursts, settled } = await settledBursts(() => burstOrEmpty(burst(settings.duration), 0));
      if (rps === 0)
        throw new Error(
          `the capacity of ${config.id} read 0 req/s (bursts of ${settings.duration} s: ${bursts.join(', ')})`,
        );
      if (!settled)
        log(
          `the capacity of ${config.id} did not settle in ${MAX_BURSTS} bursts (${bursts.join(', ')} req/s): ` +
            `the median of the last ${BURSTS} stands`,
        );
      const knee = twins > 1 && settings.slo ? await kneeOf(servers, [config, config], rps, settings, log) : null;
      groups.push({ group, baseline: config.id, rps, bursts, settled, ...(knee && { knee }) });
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }
  return {
    method:
      `closed loop (autocannon, ${settings.connections} connections, pipelining ` +
      `${settings.pipelining}` +
      (twins > 1 ? ', two baseline processes at once on the server CPU: the capacity of each server of a pair' : '') +
      `), ` +
      `${BURSTS_RULE}, bursts of ${settings.duration} s after ${settings.warmup} s of warm-up, fresh server(s) ` +
      `per baseline${groups.some((g) => g.knee) ? `; then ${KNEE_RULE}, the 100% of the ladder` : ''}`,
    bursts: BURSTS,
    ...(twins > 1 && { servers: twins }),
    groups,
  };
}

// The knee of a pair's twins against settings.slo, logged as it goes.
async function kneeOf(servers, configs, closedLoopRps, settings, log) {
  log(`finding the open-loop knee against ${settings.slo.text} (two baseline processes, rising rates)`);
  const knee = await openLoopKnee({
    servers,
    configs,
    closedLoopRps,
    slo: settings.slo,
    load: {
      connections: settings.connections,
      timeout: settings.timeout ?? 10,
      ...(settings.idHeader !== undefined && { idHeader: settings.idHeader }),
    },
    windowS: settings.window ?? 1,
    log,
  });
  if (knee.censored === 'below')
    log(`over ${settings.slo.text} from the first rate tried (${knee.rps} req/s): the ladder is anchored there`);
  else
    log(
      `knee: ${knee.rps} req/s per ` +
        `process` +
        `${knee.censored === 'above' ? ` (within ${settings.slo.text} at every rate tried: at least this)` : ''}; ` +
        `the ladder's rates are fractions of it`,
    );
  return knee;
}

// What a ladder's 100% is: the open-loop knee when one was found, else the closed-loop
// capacity.
const ladderAnchor = (capacity) => capacity?.knee?.rps ?? capacity?.rps ?? null;

// Default launcher: a local server (as the runner starts it), as an instance stand-in
// (its own cgroup, removed when it stops) with `instance`, or the deployed target.
function defaultLaunch({ cpu = null, instance = null, env = {} } = {}) {
  return async (config) => {
    if (config.target) return { url: config.target, stop: async () => {} };
    const cgroup = instance ? new Cgroup(standInLayout(), `capacity-${config.strategy}`).create(instance) : null;
    try {
      const server = await startServer(config, {
        nodePath: config.launch?.nodePath,
        nodeArgs: config.launch?.nodeArgs,
        cpu,
        cgroup,
        env,
      });
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
      for (const rate of rates)
        out.push(
          deriveConfig(config, { id: `${config.id}/r${rate}`, variant: variant(config, `r${rate}`), rate, load: null }),
        );
    } else {
      const g = capacity.groups.find((x) => x.group === groupKey(config));
      const anchor = ladderAnchor(g);
      for (const load of loads) {
        const rate = Math.max(1, Math.round(load * anchor));
        const pct = Math.round(load * 1000) / 10;
        out.push(
          deriveConfig(config, {
            id: `${config.id}/load${pct}`,
            variant: variant(config, `load${pct}`),
            rate,
            load,
            capacityRps: anchor,
          }),
        );
      }
    }
  }
  return out;
}

// run.js's one call: with settings.rates or settings.loads, measures capacity when needed
// and returns { configs expanded by rate, capacity } (the run records the capacity in
// `learned`); otherwise { configs unchanged, capacity: null }.
// services: { need, pgUrl } as the session takes them: a baseline waiting on PostgreSQL,
// MariaDB, Redis or a downstream needs them for its capacity too (started here for the
// probe and stopped after it; the session starts its own for the run).
async function rateConfigs(
  configs,
  settings,
  { remote = false, taskset = false, services = null, log = (line) => process.stderr.write(`${line}\n`) } = {},
) {
  if (!settings.rates && !settings.loads) return { configs, capacity: null };
  let capacity = null;
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
      capacity = await measureCapacity(configs, settings, {
        driver: getDriver('autocannon'),
        launch: defaultLaunch({
          cpu: pinned ? cpus().server : null,
          instance: settings.instance ?? null,
          env: started?.env ?? {},
        }),
        log,
        onServer: (s) => current.add(s),
      });
    } finally {
      await started?.stop();
      stop.release();
    }
  }
  return { configs: expandRates(configs, { rates: settings.rates, loads: settings.loads, capacity }), capacity };
}

module.exports = {
  rateConfigs,
  parseLoads,
  parseRates,
  measureCapacity,
  expandRates,
  defaultLaunch,
  baselines,
  loadLabel,
  settledBursts,
  kneeSearch,
  openLoopKnee,
  kneeOf,
  ladderAnchor,
  BURSTS,
  BURSTS_RULE,
  KNEE_RULE,
};
