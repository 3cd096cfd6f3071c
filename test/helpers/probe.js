'use strict';
// The async-resource probe's tests (test/probe.test.js, test/all/probe.test.js): a probe folder
// removed after its test, and a service started with the probe hook through NODE_OPTIONS, 400
// requests counted after 100 of warm-up (10 in flight), the service stopped. Compared to 2
// decimals (test/probe.test.js says why).
const fs = require('node:fs');
const path = require('node:path');
const { startApp } = require('../../bench/app/app-process');
const { probeEnv, countResources, makeDir } = require('../../bench/probes/probe');

// A service whose per-request work is known (IMMEDIATES setImmediate per request).
const FIXTURE = path.join(__dirname, '..', 'fixtures', 'probe-app.js');
const round = (x) => Math.round(x * 100) / 100;

// A folder for the probe's counts, removed after test t.
function probeDir(t) {
  const dir = makeDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function probe(t, command, { route = '/', health = '/', env = {} } = {}) {
  const dir = probeDir(t);
  const app = await startApp({ name: 'probe', command, health, env: { ...env, ...probeEnv(dir) } });
  try {
    return await countResources({ url: `${app.url}${route}`, dir, requests: 400, concurrency: 10, warmup: 100 });
  } finally {
    await app.stop();
  }
}

module.exports = { FIXTURE, round, probeDir, probe };
