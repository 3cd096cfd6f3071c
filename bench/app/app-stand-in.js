'use strict';
// `ctxbench app --instance`: each side as a stand-in of an instance class (bench/processes/cgroup.js:
// its own cgroup with the class's CPU quota and memory limit; its request limit the
// connections), measured as `ctxbench run --instance` measures ctxbench's own server. What
// its two paths share: the ladder of rates (bench/app/app-ladder.js) and the autoscaler's
// operating point (bench/app/app-target.js). A team's service has no /__stats: its CPU is its
// process tree's, from /proc, and its requests are the answers it gave.
const { startApp, AppStartError } = require('./app-process');
const { treeCpuUs } = require('../processes/proc-cpu');
const { cpus } = require('../../lib/cpus');
const { Cgroup } = require('../processes/cgroup');
const { warmByThroughput } = require('../measure/warmup');
const { session } = require('../run/session');
const { analyzeApp } = require('../../analysis');
const { withEnv, loadBoth, probeSides } = require('./app-sides');

const WARM_BURST_S = 1;

// A started side inside its own group; stopping it removes the group. setup: what both
// paths measure with (standInSession's shape: sides, settings, layout, pinned, stop, loadPids).
async function startStandIn({ settings, layout, pinned }, side, label) {
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

// A block's fresh stand-in of each member, in the members' order, into `servers` (the
// caller stops them, a failure's too); sideOf(config) -> its side.
async function startPair(setup, members, sideOf, block, servers) {
  for (const c of members) {
    const side = sideOf(c);
    const server = await startStandIn(setup, side, `b${block}-${side.name}`);
    servers.push(server);
    c.processes.push({ block, pid: server.pid, port: server.port, cgroup: server.cgroup.name });
  }
}

// Closed-loop bursts on both sides at once until their req/s stops rising, kept on each
// member's process: -> [req/s per burst, the mean of the two].
async function warmPair(servers, members, settings) {
  const warm = await warmByThroughput(async () => {
    const counts = await loadBoth(servers, {
      paths: settings.paths,
      idHeader: null,
      connections: settings.connections,
      durationS: WARM_BURST_S,
    });
    return counts.reduce((a, c) => a + c.responses, 0) / counts.length / WARM_BURST_S;
  });
  for (const c of members) c.processes.at(-1).closedLoopWarmup = warm;
  return warm;
}

// What every pair of a block is sent with (bench/measure/pair-windows.js measurePair): the one
// --path, open loop at the request limit, the id check where --id-header asks for it.
const pairCommon = ({ settings, stop, loadPids }, servers) => ({
  servers,
  configs: servers.map(() => ({ path: settings.paths[0] })),
  load: { connections: settings.connections, timeout: 10, idHeader: settings.idHeader ?? false },
  windowS: settings.window,
  signal: stop.signal,
  loadPids,
});

// The session of a stand-in path, saved after every window (kind "app", method "pair"):
// measure(r, setup, { save, progress }) -> { configs }, then --probe. setup: the sides with
// the URLs of what --with started, the plan, the cgroups' layout, the pinning, the stop
// flag, the pids --with started on the load CPU (the pair's load-CPU rule counts them).
// What a failure measured stays on the run (err.configs); a side that died marks it failed.
function standInSession({ common, settings, commands, layout, probe }, { title, progress, measure }) {
  return session({
    kind: 'app',
    title,
    ...common,
    progress,
    analyze: analyzeApp,
    async measure(r, { save, progress, stop, pinned, serverEnv, loadPids }) {
      const setup = { sides: withEnv(commands, serverEnv), settings, layout, pinned, stop, loadPids };
      try {
        const measured = await measure(r, setup, { save, progress });
        r.configs = measured.configs;
        if (probe && !stop.requested) r.probe = await probeSides(setup.sides, settings, progress);
      } catch (err) {
        if (err.configs) r.configs = err.configs;
        if (err instanceof AppStartError) r.status = 'failed';
        throw err;
      }
    },
  });
}

module.exports = { startStandIn, startPair, warmPair, pairCommon, standInSession };
