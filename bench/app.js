'use strict';
// `ctxbench app`: two start commands of the user's own service (say, without and with its
// tracing middleware) measured in duet, as `npm run bench` measures a strategy against
// its baseline: per block a fresh process of each, both pinned to the server CPU and
// driven at the same time from the other CPU; per window, each side's CPU per request
// (its process tree, from /proc: the service needs no ctxbench endpoint). The ratio of the
// two per window, averaged per block, interval over blocks (analysis/summary.js duetRatios).
// With --id-header, every request carries its own id in that header and every answer is
// checked for it.
const { randomBytes } = require('node:crypto');
const { autocannon } = require('../load/autocannon'); // required lazily there
const { startApp, AppStartError } = require('./app-process');
const { treeCpuUs } = require('./proc-cpu');
const { judgeWindow } = require('./duet-windows');
const { cpus } = require('../lib/cpus');
const { settledBursts, kneeOf, ladderAnchor, BURSTS_RULE, KNEE_RULE } = require('./capacity');
const { Cgroup, oomOf, oomText } = require('./cgroup');
const pair = require('./pair-windows');
const { warmByThroughput } = require('./warmup');
const { HELD_MIN } = require('../lib/histogram');
const { measureAtTarget, pairSample, windowKeeper } = require('./at-target');

// The requests of one side for one load: every path in turn; with an id header, a fresh
// id per request and the answer's header checked against it (autocannon's documented
// setupRequest/onResponse; one request in flight per connection, so the context a
// response sees is its own request's).
function requestsFor(paths, idHeader, counts) {
  const prefix = randomBytes(6).toString('hex');
  const wanted = idHeader ? idHeader.toLowerCase() : null;
  let n = 0;
  return paths.map((path) => ({
    method: 'GET',
    path,
    setupRequest(req, context) {
      if (!wanted) return req;
      const id = `${prefix}-${(n++).toString(16)}`;
      context.id = id;
      return { ...req, headers: { ...req.headers, [idHeader]: id } };
    },
    onResponse(status, _body, context, headers) {
      counts.responses++;
      if (status < 200 || status >= 300) counts.non2xx++;
      if (!wanted) return;
      const key = Object.keys(headers || {}).find((k) => k.toLowerCase() === wanted);
      const got = key ? String(headers[key]) : null;
      if (got === context.id) counts.kept++;
      else if (got && got.startsWith(prefix)) counts.mismatches++;
      else counts.lost++;
    },
  }));
}

// The two sides' configurations (duet and the operating point): the baseline's, the candidate's.
const sideConfigs = (sides) =>
  sides.map((side, i) => ({
    id: `app/${side.name}`,
    arm: i === 0 ? 'baseline' : 'candidate',
    strategy: side.name,
    name: side.name,
    command: side.command,
    userSupplied: true,
    processes: [],
    samples: [],
    error: null,
  }));

const newCounts = () => ({ responses: 0, non2xx: 0, kept: 0, mismatches: 0, lost: 0, errors: 0 });

// Both sides under load for durationS at once; resolves per side { counts }. pathsBySide:
// a side's own paths where it has them (the reference server of --predict), else `paths`.
async function loadBoth(servers, { paths, pathsBySide = [], idHeader, connections, durationS }) {
  return Promise.all(
    servers.map(async (s, i) => {
      const counts = newCounts();
      const result = await autocannon({
        url: s.url,
        connections,
        pipelining: 1,
        duration: durationS,
        requests: requestsFor(pathsBySide[i] ?? paths, idHeader, counts),
      });
      counts.errors = (result.errors || 0) + (result.timeouts || 0);
      return counts;
    }),
  );
}

// One window: CPU of both process trees and of this process around one load of windowS.
async function measureWindow(servers, load) {
  const cpu0 = servers.map((s) => treeCpuUs(s.pid));
  const lg0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const counts = await loadBoth(servers, load);
  const wallUs = Number(process.hrtime.bigint() - t0) / 1000;
  const cpu1 = servers.map((s) => treeCpuUs(s.pid));
  const lg = process.cpuUsage(lg0);
  const members = servers.map((_, i) => {
    const cpuUs = cpu1[i] - cpu0[i];
    return {
      requests: counts[i].responses,
      cpuUs,
      cpuUsPerRequest: counts[i].responses > 0 ? cpuUs / counts[i].responses : null,
      share: cpuUs / wallUs,
    };
  });
  return { wallMs: wallUs / 1000, loadgenCpu: (lg.user + lg.system) / wallUs, members, counts };
}

// measureApp({ sides: [{ name, command }, { name, command }], settings, pinned, stop,
// onProgress }) -> configs [baseline, candidate] with their samples and processes. A side
// may bring its own paths, health and env (the reference server of --predict).
// settings: { health, paths, idHeader, connections, blocks, windows, window, warmup,
// startupTimeout }. A side that fails to start ends the block (its error on the config).
// onBlock(configs) after every block: the caller saves, so a second Ctrl-C loses nothing.
async function measureApp({
  sides,
  settings,
  pinned,
  stop = { requested: false },
  onProgress = () => {},
  onBlock = () => {},
}) {
  const configs = sideConfigs(sides);
  const [base, cand] = configs;
  const load = {
    paths: settings.paths,
    pathsBySide: sides.map((side) => side.paths),
    idHeader: settings.idHeader,
    connections: settings.connections,
  };
  for (let block = 0; block < settings.blocks && !stop.requested; block++) {
    // The position (who starts and is polled first) alternates between blocks.
    const order = block % 2 ? [1, 0] : [0, 1];
    const servers = [];
    let starting = null;
    try {
      for (const i of order) {
        starting = i;
        const s = await startApp({
          name: configs[i].name,
          command: configs[i].command,
          health: sides[i].health ?? settings.health,
          cpu: pinned ? cpus().server : null,
          timeoutMs: settings.startupTimeout * 1000,
          env: sides[i].env,
        });
        servers[i] = s;
        configs[i].processes.push({ block, pid: s.pid, port: s.port });
      }
      starting = null;
      // Unmeasured: start-up, JIT warm-up, connection pools.
      if (settings.warmup > 0) await loadBoth(servers, { ...load, durationS: settings.warmup });
      let counted = 0;
      for (let w = 0; counted < settings.windows && w < settings.windows * 3 && !stop.requested; w++) {
        const win = await measureWindow(servers, { ...load, durationS: settings.window });
        const dropped = judgeWindow(win);
        if (!dropped) counted++;
        const [b, c] = win.members;
        cand.samples.push({
          kind: 'window',
          block,
          group: block,
          window: w,
          partner: base.id,
          wallMs: Math.round(win.wallMs * 10) / 10,
          requests: c.requests,
          cpuUsPerRequest: c.cpuUsPerRequest,
          share: c.share,
          partnerRequests: b.requests,
          partnerCpuUsPerRequest: b.cpuUsPerRequest,
          partnerShare: b.share,
          loadgenCpu: win.loadgenCpu,
          counted: !dropped,
          ...(dropped && { dropped }),
        });
        // The id check of every answer, per side (analysis/summary.js summarize sums these).
        win.counts.forEach((k, i) =>
          configs[i].samples.push({
            kind: 'duet',
            block,
            window: w,
            requests: k.responses,
            errors: k.errors,
            non2xx: k.non2xx,
            mismatches: k.mismatches,
            lost: k.lost,
            kept: k.kept,
          }),
        );
        onProgress({
          block,
          window: w,
          counted,
          dropped,
          ratio: b.cpuUsPerRequest && c.cpuUsPerRequest ? b.cpuUsPerRequest / c.cpuUsPerRequest : null,
        });
      }
    } catch (err) {
      // Which side failed: the one being started, or one that died under load (its CPU
      // can no longer be read, its connections fail). Anything else is ctxbench's own error.
      // A process that just died may not have reported its exit yet: give it a moment.
      if (starting === null) await new Promise((resolve) => setTimeout(resolve, 500));
      const dead = servers.findIndex((s) => s && !s.alive());
      const i = starting ?? (dead >= 0 ? dead : null);
      if (i === null) throw err;
      let failure = err;
      if (starting === null) {
        const exit = servers[i].exitInfo();
        const how = exit?.signal ? `killed by ${exit.signal}` : `exit code ${exit?.code}`;
        const tail = servers[i].stderrTail();
        failure = new AppStartError(
          `${configs[i].name}: \`${configs[i].command}\` exited (${how}) under load in block ` +
            `${block + 1}${tail ? `: ${tail}` : ''}`,
        );
      }
      configs[i].error = { message: failure.message };
      throw Object.assign(failure, { configs });
    } finally {
      await Promise.all(servers.filter(Boolean).map((s) => s.stop()));
    }
    onBlock(configs);
  }
  return configs;
}

// --instance: each side as a stand-in of an instance class (bench/cgroup.js: its own
// cgroup with the class's CPU quota and memory limit; its request limit the connections),
// measured as `ctxbench run --instance` measures ctxbench's own server: the baseline
// stand-in's closed-loop capacity first (two baseline processes at once, as a pair's two
// servers share the server CPU), then per block and rate a fresh process of each side,
// both sent the same open-loop schedule at once (the pair at a fixed rate, bench/pair-windows.js),
// the positions swapped between blocks. A team's service has no /__stats: its CPU is its
// process tree's, from /proc, and its requests are the answers it gave.
const CAPACITY_BURST_S = 2;
const WARM_BURST_S = 1;
const pctLabel = (load) => `load${Math.round(load * 1000) / 10}`;

// A started side inside its own group; stopping it removes the group.
async function startStandIn({ side, settings, layout, pinned, label }) {
  const cgroup = new Cgroup(layout, label).create(settings.instance);
  try {
    const app = await startApp({
      name: side.name,
      command: side.command,
      health: settings.health,
      cpu: pinned ? cpus().server : null,
      timeoutMs: settings.startupTimeout * 1000,
      env: side.env,
      cgroup,
    });
    return {
      ...app,
      cgroup,
      readStats: async () => ({ cpuUs: treeCpuUs(app.pid), requests: null }),
      stop: () => app.stop().finally(() => cgroup.remove()),
    };
  } catch (err) {
    cgroup.remove();
    throw err;
  }
}

// The baseline stand-in's closed-loop capacity and open-loop knee (the ladder's 100%):
// { rps, bursts, settled, knee, method }.
async function standInCapacity({ side, settings, layout, pinned, log = () => {} }) {
  const servers = [];
  try {
    for (let i = 0; i < 2; i++)
      servers.push(await startStandIn({ side, settings, layout, pinned, label: `capacity-${side.name}` }));
    const load = { paths: settings.paths, idHeader: null, connections: settings.connections };
    if (settings.warmup > 0) await loadBoth(servers, { ...load, durationS: settings.warmup });
    const { rps, bursts, settled } = await settledBursts(async () => {
      const counts = await loadBoth(servers, { ...load, durationS: CAPACITY_BURST_S });
      return counts.reduce((a, c) => a + c.responses, 0) / counts.length / CAPACITY_BURST_S;
    });
    const knee = await kneeOf(
      servers,
      servers.map(() => ({ path: settings.paths[0] })),
      rps,
      { ...settings, idHeader: settings.idHeader ?? false },
      log,
    );
    return {
      rps,
      bursts,
      settled,
      knee,
      method:
        `closed loop (autocannon, ${settings.connections} connections: the instance's request limit), two ` +
        `baseline stand-ins at once on the server CPU, ${BURSTS_RULE}, bursts of ${CAPACITY_BURST_S} s after ` +
        `${settings.warmup} s of warm-up; then ${KNEE_RULE}, the 100% of the ladder`,
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

// Closed-loop bursts on both sides at once until their req/s stops rising: -> [req/s per
// burst, the mean of the two].
function warmClosedLoop(servers, settings) {
  return warmByThroughput(async () => {
    const counts = await loadBoth(servers, {
      paths: settings.paths,
      idHeader: null,
      connections: settings.connections,
      durationS: WARM_BURST_S,
    });
    return counts.reduce((a, c) => a + c.responses, 0) / counts.length / WARM_BURST_S;
  });
}

// The configurations of an --instance run: per rate, the baseline and the candidate.
function instanceConfigs(sides, capacityRps, loads) {
  return loads.flatMap((load) =>
    sides.map((side, i) => ({
      id: `app/${side.name}/${pctLabel(load)}`,
      arm: i === 0 ? 'baseline' : 'candidate',
      strategy: side.name,
      name: side.name,
      command: side.command,
      userSupplied: true,
      group: pctLabel(load),
      load,
      rate: Math.max(1, Math.round(load * capacityRps)),
      processes: [],
      samples: [],
      error: null,
    })),
  );
}

// measureAppOnInstance({ sides, settings, layout, pinned, stop, loadPids, log, onCapacity, onPair, onSample })
// -> configs. settings: app's, with instance, loads, connections (the request limit).
// loadPids: what --with started on the load CPU (the pair's load-CPU rule counts them). A
// side that dies under load ends the run with its reason (an OOM kill named as such).
async function measureAppOnInstance({
  sides,
  settings,
  layout,
  pinned,
  stop = { requested: false },
  loadPids = [],
  log = () => {},
  onCapacity = () => {},
  onPair = () => {},
  onSample = () => {},
}) {
  const capacity = await standInCapacity({ side: sides[0], settings, layout, pinned, log });
  const configs = instanceConfigs(sides, ladderAnchor(capacity), settings.loads);
  onCapacity(capacity, configs);
  let group = 0;
  // Per block a fresh process of each side, started once, warmed closed loop, then sent
  // every rate of the ladder lowest first (bench/methods/pair.js ladderBlock says why).
  const loads = [...settings.loads].sort((x, y) => x - y);
  for (let block = 0; block < settings.blocks && !stop.requested; block++) {
    const [base0, cand0] = configs.filter((c) => c.load === loads[0]);
    const order = block % 2 ? [cand0, base0] : [base0, cand0];
    const servers = [];
    const seq = group++;
    let members = order;
    try {
      for (const c of order) {
        const side = sides[c === base0 ? 0 : 1];
        const server = await startStandIn({ side, settings, layout, pinned, label: `b${block}-${side.name}` });
        servers.push(server);
        c.processes.push({ block, pid: server.pid, port: server.port, cgroup: server.cgroup.name });
      }
      const warm = await warmClosedLoop(servers, settings);
      for (const c of order) c.processes.at(-1).closedLoopWarmup = warm;
      for (const load of loads) {
        if (stop.requested) break;
        const [base, cand] = configs.filter((c) => c.load === load);
        members = order.map((c) => (c === base0 ? base : cand));
        const of = members.indexOf(cand);
        const partner = members.indexOf(base);
        const result = await pair.measurePair({
          servers,
          configs: members.map(() => ({ path: settings.paths[0] })),
          rate: cand.rate,
          load: { connections: settings.connections, timeout: 10, idHeader: settings.idHeader ?? false },
          windowS: settings.window,
          windows: settings.windows,
          signal: stop.signal,
          loadPids,
          onWindow: windowKeeper({ save: onSample }, cand, {
            of,
            partner,
            partnerId: base.id,
            block,
            group: seq,
            rate: cand.rate,
          }),
        });
        const counted = result.windows.filter((w) => w.counted).length;
        members.forEach((c, i) =>
          c.samples.push(pairSample(result, members, i, { block, group: seq, rate: cand.rate, ladder: true })),
        );
        onPair({ block, load, rate: cand.rate, counted });
        if (result.totals.every((t) => t.due > 0 && t.sent < HELD_MIN * t.due)) {
          for (const rest of loads.filter((x) => x > load))
            onPair({ block, load: rest, rate: null, counted: 0, skipped: true });
          break;
        }
      }
    } catch (err) {
      throw await sideFailure(err, { servers, members, configs, block, at: `at ${members[0].rate} req/s ` });
    } finally {
      await Promise.all(servers.map((x) => x.stop()));
    }
  }
  return { capacity, configs };
}

// A side that died under load -> the AppStartError that ends the run with its reason (an OOM
// kill named as such), carrying what was measured; any other error as it came. members: the
// configs in the servers' order; at: where it died (a rate), before "in block N".
async function sideFailure(err, { servers, members, configs, block, at = '' }) {
  if (err instanceof AppStartError) return Object.assign(err, { configs });
  // Whose process died, and why: the kernel's OOM killer is named as such.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const i = servers.findIndex((x) => !x.alive());
  if (i < 0) return err;
  const c = members[i];
  const oom = oomOf(servers[i].cgroup);
  const exit = servers[i].exitInfo();
  const tail = servers[i].stderrTail();
  const why = oom ? oomText(oom) : exit?.signal ? `killed by ${exit.signal}` : `exit code ${exit?.code}`;
  c.error = {
    message:
      `${c.name}: \`${c.command}\` ${oom ? 'was ' : 'exited ('}${why}${oom ? '' : ')'} ${at}` +
      `in block ${block + 1}${tail ? `: ${tail}` : ''}`,
    ...(oom && { oom }),
  };
  return Object.assign(new AppStartError(c.error.message), { configs });
}

// --instance at the autoscaler's operating point (--target-cpu): per block a fresh process
// of each side as a stand-in, in positions swapped between blocks, warmed closed loop, then
// measured there as `deploy` measures its yamls (bench/at-target.js): the rate at which the
// baseline uses its target share of the quota, and the candidate there or at its own.
// points: the run's operating points, each block's appended as it starts; io: { status(text),
// save(), warn(text), onStart(configs), onBlock({ block, point }) }. -> { configs, points }.
async function measureAppAtTarget({
  sides,
  settings,
  layout,
  pinned,
  stop = { requested: false },
  loadPids = [],
  points = [],
  io,
}) {
  const configs = sideConfigs(sides);
  const [base, cand] = configs;
  io.onStart?.(configs);
  for (let block = 0; block < settings.blocks && !stop.requested; block++) {
    const members = block % 2 ? [cand, base] : [base, cand];
    const servers = [];
    try {
      for (const c of members) {
        const side = sides[configs.indexOf(c)];
        const server = await startStandIn({ side, settings, layout, pinned, label: `b${block}-${side.name}` });
        servers.push(server);
        c.processes.push({ block, pid: server.pid, port: server.port, cgroup: server.cgroup.name });
      }
      io.status(`block ${block + 1}: ${cand.name} with ${base.name}, warming closed loop`);
      const warm = await warmClosedLoop(servers, settings);
      for (const c of members) c.processes.at(-1).closedLoopWarmup = warm;
      const point = await measureAtTarget({
        common: {
          servers,
          configs: members.map(() => ({ path: settings.paths[0] })),
          load: { connections: settings.connections, timeout: 10, idHeader: settings.idHeader ?? false },
          windowS: settings.window,
          signal: stop.signal,
          loadPids,
        },
        members,
        base,
        other: cand,
        label: cand.name,
        warm,
        settings,
        block,
        group: block,
        found: points,
        io: { ...io, refresh: () => {}, stopped: () => stop.requested },
      });
      io.onBlock({ block, point });
    } catch (err) {
      throw await sideFailure(err, { servers, members, configs, block });
    } finally {
      await Promise.all(servers.map((x) => x.stop()));
    }
  }
  return { configs, points };
}

module.exports = { measureApp, measureAppOnInstance, measureAppAtTarget, requestsFor, measureWindow };
