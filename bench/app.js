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
const autocannon = require('autocannon');
const { startApp, AppStartError } = require('./app-process');
const { treeCpuUs } = require('./proc-cpu');
const { judgeWindow } = require('./duet');
const { cpus } = require('../lib/cpus');

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

const newCounts = () => ({ responses: 0, non2xx: 0, kept: 0, mismatches: 0, lost: 0, errors: 0 });

// Both sides under load for durationS at once; resolves per side { counts }. pathsBySide:
// a side's own paths where it has them (the reference server of --predict), else `paths`.
async function loadBoth(servers, { paths, pathsBySide = [], idHeader, connections, durationS }) {
  return Promise.all(
    servers.map(async (s, i) => {
      const counts = newCounts();
      const result = await autocannon({ url: s.url, connections, pipelining: 1, duration: durationS, requests: requestsFor(pathsBySide[i] ?? paths, idHeader, counts) });
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
    return { requests: counts[i].responses, cpuUs, cpuUsPerRequest: counts[i].responses > 0 ? cpuUs / counts[i].responses : null, share: cpuUs / wallUs };
  });
  return { wallMs: wallUs / 1000, loadgenCpu: (lg.user + lg.system) / wallUs, members, counts };
}

// measureApp({ sides: [{ name, command }, { name, command }], settings, pinned, stop,
// onProgress }) -> configs [baseline, candidate] with their samples and processes. A side
// may bring its own paths, health and env (the reference server of --predict).
// settings: { health, paths, idHeader, connections, blocks, windows, window, warmup,
// startupTimeout }. A side that fails to start ends the block (its error on the config).
// onBlock(configs) after every block: the caller saves, so a second Ctrl-C loses nothing.
async function measureApp({ sides, settings, pinned, stop = { requested: false }, onProgress = () => {}, onBlock = () => {} }) {
  const configs = sides.map((side, i) => ({
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
  const [base, cand] = configs;
  const load = { paths: settings.paths, pathsBySide: sides.map((side) => side.paths), idHeader: settings.idHeader, connections: settings.connections };
  for (let block = 0; block < settings.blocks && !stop.requested; block++) {
    // The position (who starts and is polled first) alternates between blocks.
    const order = block % 2 ? [1, 0] : [0, 1];
    const servers = [];
    let starting = null;
    try {
      for (const i of order) {
        starting = i;
        const s = await startApp({ name: configs[i].name, command: configs[i].command, health: sides[i].health ?? settings.health, cpu: pinned ? cpus().server : null, timeoutMs: settings.startupTimeout * 1000, env: sides[i].env });
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
          kind: 'window', block, group: block, window: w, partner: base.id, wallMs: Math.round(win.wallMs * 10) / 10,
          requests: c.requests, cpuUsPerRequest: c.cpuUsPerRequest, share: c.share,
          partnerRequests: b.requests, partnerCpuUsPerRequest: b.cpuUsPerRequest, partnerShare: b.share,
          loadgenCpu: win.loadgenCpu, counted: !dropped, ...(dropped && { dropped }),
        });
        // The id check of every answer, per side (analysis/summary.js summarize sums these).
        win.counts.forEach((k, i) => configs[i].samples.push({ kind: 'duet', block, window: w, requests: k.responses, errors: k.errors, non2xx: k.non2xx, mismatches: k.mismatches, lost: k.lost, kept: k.kept }));
        onProgress({ block, window: w, counted, dropped, ratio: b.cpuUsPerRequest && c.cpuUsPerRequest ? b.cpuUsPerRequest / c.cpuUsPerRequest : null });
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
        failure = new AppStartError(`${configs[i].name}: \`${configs[i].command}\` exited (${how}) under load in block ${block + 1}${tail ? `: ${tail}` : ''}`);
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

module.exports = { measureApp, requestsFor, measureWindow };
