'use strict';
// `ctxbench app`: two start commands of the user's own service (say, without and with its
// tracing middleware) measured in duet, as `npm run bench` measures a strategy against
// its baseline: per block a fresh process of each, both pinned to the server CPU and
// driven at the same time from the other CPU; per window, each side's CPU per request
// (its process tree, from /proc: the service needs no ctxbench endpoint). The ratio of the
// two per window, averaged per block, interval over blocks (analysis/summary.js duetRatios).
// With --id-header, every request carries its own id in that header and every answer is
// checked for it. --predict measures its reference server beside the service this way too.
const { startApp } = require('./app-process');
const { treeCpuUs } = require('../processes/proc-cpu');
const { judgeWindow } = require('../measure/duet-windows');
const { cpus } = require('../../lib/cpus');
const { sideConfigs, loadBoth, sideFailure } = require('./app-sides');

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
  const load = {
    paths: settings.paths,
    pathsBySide: sides.map((side) => side.paths),
    idHeader: settings.idHeader,
    connections: settings.connections,
  };
  for (let block = 0; block < settings.blocks && !stop.requested; block++) {
    const servers = [];
    try {
      await startSides({ sides, configs, settings, pinned, block, servers });
      try {
        await measureBlock(servers, configs, { load, settings, block, stop, onProgress });
      } catch (err) {
        // Which side failed: one that died under load (its CPU can no longer be read, its
        // connections fail). Anything else is ctxbench's own error.
        throw await sideFailure(err, { servers, members: configs, configs, block, at: 'under load ' });
      }
    } finally {
      await Promise.all(servers.filter(Boolean).map((s) => s.stop()));
    }
    onBlock(configs);
  }
  return configs;
}

// A block's fresh process of each side, into `servers` (by side). A side that fails to
// start ends the block: its error on its config, the configs on the error.
async function startSides({ sides, configs, settings, pinned, block, servers }) {
  // The position (who starts and is polled first) alternates between blocks.
  for (const i of block % 2 ? [1, 0] : [0, 1]) {
    let s;
    try {
      s = await startApp({
        name: configs[i].name,
        command: configs[i].command,
        health: sides[i].health ?? settings.health,
        cpu: pinned ? cpus().server : null,
        timeoutMs: settings.startupTimeout * 1000,
        env: sides[i].env,
      });
    } catch (err) {
      configs[i].error = { message: err.message };
      throw Object.assign(err, { configs });
    }
    servers[i] = s;
    configs[i].processes.push({ block, pid: s.pid, port: s.port });
  }
}

// A block's unmeasured warm-up (start-up, JIT, connection pools), then its windows until
// settings.windows of them counted, or three times as many were taken.
async function measureBlock(servers, configs, { load, settings, block, stop, onProgress }) {
  if (settings.warmup > 0) await loadBoth(servers, { ...load, durationS: settings.warmup });
  let counted = 0;
  for (let w = 0; counted < settings.windows && w < settings.windows * 3 && !stop.requested; w++) {
    const win = await measureWindow(servers, { ...load, durationS: settings.window });
    const dropped = judgeWindow(win);
    if (!dropped) counted++;
    recordWindow(configs, win, { block, window: w, dropped });
    const [b, c] = win.members;
    onProgress({
      block,
      window: w,
      counted,
      dropped,
      ratio: b.cpuUsPerRequest && c.cpuUsPerRequest ? b.cpuUsPerRequest / c.cpuUsPerRequest : null,
    });
  }
}

// A window on the records: the pair's CPU per request on the candidate's, and each side's
// id check of every answer on its own (analysis/summary.js summarize sums these).
function recordWindow(configs, win, { block, window, dropped }) {
  const [base, cand] = configs;
  const [b, c] = win.members;
  cand.samples.push({
    kind: 'window',
    block,
    group: block,
    window,
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
  win.counts.forEach((k, i) =>
    configs[i].samples.push({
      kind: 'duet',
      block,
      window,
      requests: k.responses,
      errors: k.errors,
      non2xx: k.non2xx,
      mismatches: k.mismatches,
      lost: k.lost,
      kept: k.kept,
    }),
  );
}

module.exports = { measureApp, measureWindow };
