'use strict';
// Load drivers by name. Each takes { url, path, connections, pipelining, duration,
// amount } and resolves to one sample's load-side fields (docs/run-json.md).
const { execFile } = require('node:child_process');
const path = require('node:path');

const CURL_SH = path.resolve(__dirname, '..', 'load', 'curl.sh');

// The App Engine study's method: xargs -P <connections> curl, a fixed number of requests.
function curlDriver({ url, path: route = '/', connections, amount }) {
  const n = amount || 1000;
  const started = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  return new Promise((resolve, reject) => {
    execFile(CURL_SH, [url + route, String(n), String(connections), '--json'], { maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(stderr.trim().split('\n')[0] || err.message));
      const r = JSON.parse(stdout);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cpu = process.cpuUsage(cpu0);
      resolve({
        rps: r.count / seconds,
        latency: { p2_5: null, p50: r.p50Ms, p97_5: null, p99: r.p99Ms, avg: r.meanMs, stdev: null, max: r.maxMs ?? null },
        requests: r.count,
        errors: r.errors,
        non2xx: r.non2xx ?? 0,
        mismatches: r.mismatches,
        lost: r.lost,
        bytesPerSec: null,
        // curl runs in other processes; this is only the runner's own share.
        loadgenCpu: (cpu.user + cpu.system) / 1e6 / seconds,
      });
    });
  });
}

const DRIVERS = ['autocannon', 'curl'];

function getDriver(name) {
  if (name === 'autocannon') return require('../load/autocannon').measure;
  if (name === 'curl') return curlDriver;
  throw new Error(`unknown driver ${name}`);
}

module.exports = { DRIVERS, getDriver };
