'use strict';
// Async resources per request, counted (not assumed) in a probe process: a server started
// with bench/probes/probe-hook.js loaded (probeEnv), never one that is measured. Two requests
// labelled for the hook, sent alone, frame `requests` plain ones sent at `concurrency` in
// flight; the hook's counts at the two labels, divided by the requests between them
// (the plain ones and the second label), are the async resources one request creates
// under that load, by type (PROMISE, TickObject, Immediate, Timeout, …).
//
// What it counts: every async_hooks `init` in the process that served the requests (the
// one that wrote the labels' files), including the framework's and the runtime's own
// resources per request. One process: a service that spreads requests over workers
// (cluster) is counted in whichever worker answered the labels, and says nothing of the others.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { autocannon } = require('../../load/autocannon'); // required lazily there

const HOOK = path.join(__dirname, 'probe-hook.js');
const WAIT_MS = 10000;

// The environment a probe server starts with: the hook preloaded through NODE_OPTIONS (so
// it reaches the node a team's `npm start` runs), its counts written under dir.
function probeEnv(dir, env = process.env) {
  // Quoted: NODE_OPTIONS splits on spaces outside double quotes, and a path may have some.
  return {
    NODE_OPTIONS: `${env.NODE_OPTIONS ? `${env.NODE_OPTIONS} ` : ''}--require ${JSON.stringify(HOOK)}`,
    CTXBENCH_PROBE_DIR: dir,
  };
}

const makeDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-probe-'));

async function labelled(url, label, dir, waitMs) {
  const res = await fetch(url, { headers: { 'x-ctxbench-probe': label } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`probe request ${label}: HTTP ${res.status}`);
  // The hook writes when the response finishes, which can be a moment after the client has
  // it; the wait is a hang guard, not a measurement.
  const deadline = Date.now() + waitMs;
  for (;;) {
    const file = fs.readdirSync(dir).find((f) => f.endsWith(`-${label}.json`));
    if (file) return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    if (Date.now() > deadline)
      throw new Error(
        `the probe hook wrote no counts for request ${label}: is ${HOOK} loaded in the process that serves ` +
          `${url} (NODE_OPTIONS)?`,
      );
    await new Promise((resolve) => setImmediate(resolve));
  }
}

// url: the probe server's route (e.g. http://127.0.0.1:PORT/depth/8); dir: the one given
// to probeEnv. Resolves { requests, concurrency, perRequest: { total, byType }, pid, runtime:
// { node, execPath, execArgv, acf } } (the runtime that served).
async function countResources({ url, dir, requests = 1000, concurrency = 10, warmup = 200, waitMs = WAIT_MS }) {
  if (warmup > 0) await autocannon({ url, connections: concurrency, amount: warmup });
  const a = await labelled(url, 'a', dir, waitMs);
  const load = await autocannon({ url, connections: concurrency, amount: requests });
  if (load.non2xx || load.errors) throw new Error(`probe load: ${load.non2xx} non-2xx answers, ${load.errors} errors`);
  const b = await labelled(url, 'b', dir, waitMs);
  if (a.pid !== b.pid)
    throw new Error(`the labelled requests were served by two processes (${a.pid}, ${b.pid}): a probe counts one`);
  const between = b.served - a.served;
  const types = new Set([...Object.keys(a.byType), ...Object.keys(b.byType)]);
  const byType = Object.fromEntries(
    [...types]
      .map((t) => [t, ((b.byType[t] || 0) - (a.byType[t] || 0)) / between])
      .filter(([, n]) => n > 0)
      .sort((x, y) => y[1] - x[1]),
  );
  return {
    requests: between,
    concurrency,
    perRequest: { total: (b.total - a.total) / between, byType },
    pid: b.pid,
    ...(b.runtime && { runtime: b.runtime }),
  };
}

module.exports = { probeEnv, countResources, makeDir, HOOK };
