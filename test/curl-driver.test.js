'use strict';
// Tier: quick (the curl driver's mapping on a real server and on stand-in scripts)
// The curl driver (bench/measure/drivers.js) and load/curl.sh: what a run JSON gets from them.
// Real servers on free ports; where the driver's input must be exact or broken, a
// stand-in curl.sh (a real script in a temp dir) prints it.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { curlDriver, parseCurlOutput, getDriver } = require('../bench/measure/drivers');
const { startServer } = require('./helpers/server');
const { tempDir } = require('./helpers/tmp');

const tmp = tempDir('ctxbench-curl-');
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

// A stand-in for load/curl.sh that prints `output` and exits with `code`.
function fakeCurl(name, output, code = 0) {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, `#!/bin/sh\ncat <<'EOF'\n${output}\nEOF\nexit ${code}\n`, { mode: 0o755 });
  return file;
}

let server;
test.before(async () => {
  server = await startServer({ STRATEGY: 'als', DEPTH: '2', HOP: 'immediate' });
});
test.after(() => server?.stop());

test('curl.sh counts only 2xx answers in req/s: a route that answers 400 has no throughput', async () => {
  // /depth/0 is a 400 for every request: 40 answered requests, none of them served.
  const r = await curlDriver({ url: server.url, path: '/depth/0', connections: 4, amount: 40 });
  assert.strictEqual(r.requests, 0);
  assert.strictEqual(r.rps, 0, 'failed requests are not throughput');
  assert.strictEqual(r.non2xx, 40);
  assert.strictEqual(r.errors, 40);
  assert.strictEqual(r.mismatches + r.lost, 0);
});

test('curl driver against a real server: requests, rps, latency and errors map to the sample fields', async () => {
  const r = await getDriver('curl')({ url: server.url, path: '/', connections: 5, amount: 60 });
  assert.strictEqual(r.requests, 60);
  assert.strictEqual(r.errors, 0);
  assert.strictEqual(r.non2xx, 0);
  assert.strictEqual(r.mismatches, 0);
  assert.strictEqual(r.lost, 0);
  assert.ok(r.durationS > 0);
  // rps is requests over the measured window (curl.sh rounds rps to 0.1 req/s and the
  // window to 1 ms, whose relative error is 0.0005 / durationS).
  assert.ok(
    Math.abs(r.rps - r.requests / r.durationS) <= 0.05 + (r.rps * 0.0005) / r.durationS,
    `${r.rps} vs ${r.requests}/${r.durationS}`,
  );
  for (const k of ['p50', 'p99', 'avg']) assert.ok(Number.isFinite(r.latency[k]) && r.latency[k] > 0, k);
  assert.ok(r.latency.p50 <= r.latency.p99);
  for (const k of ['p2_5', 'p97_5', 'stdev', 'max']) assert.strictEqual(r.latency[k], null, `curl.sh has no ${k}`);
  assert.strictEqual(r.loadgenCpu, null);
});

test('curl driver maps curl.sh fields exactly (ms stay ms, rps and requests are the 2xx ones)', async () => {
  const line = JSON.stringify({
    url: 'x',
    count: 100,
    ok: 90,
    concurrency: 4,
    errors: 10,
    non2xx: 6,
    mismatches: 2,
    lost: 1,
    kept: 87,
    latency: { avg: 12.5, p50: 10.25, p90: 20, p99: 31.75 },
    durationS: 3,
    rps: 30,
  });
  const r = await curlDriver(
    { url: 'http://127.0.0.1:1', connections: 4, amount: 100 },
    { script: fakeCurl('exact.sh', line) },
  );
  assert.deepStrictEqual(r, {
    rps: 30,
    requests: 90,
    durationS: 3,
    latency: { p2_5: null, p50: 10.25, p97_5: null, p99: 31.75, avg: 12.5, stdev: null, max: null },
    errors: 10,
    non2xx: 6,
    mismatches: 2,
    lost: 1,
    bytesPerSec: null,
    loadgenCpu: null,
  });
});

test('curl driver: garbage, empty or incomplete output is one rejected promise with one clear line', async () => {
  const cases = [
    [
      'garbage.sh',
      'curl: (7) something odd <html>',
      /^load\/curl\.sh printed no JSON result \(got "curl: \(7\) something odd <html>"\)$/,
    ],
    ['empty.sh', '', /^load\/curl\.sh printed no JSON result \(no output\)$/],
    [
      'partial.sh',
      '{"count": 10, "ok": 10}',
      /^load\/curl\.sh's result lacks errors, non2xx, mismatches, lost, durationS, rps, latency/,
    ],
  ];
  for (const [name, output, pattern] of cases) {
    await assert.rejects(
      curlDriver({ url: 'http://127.0.0.1:1', connections: 1, amount: 1 }, { script: fakeCurl(name, output) }),
      (err) => {
        assert.match(err.message, pattern, name);
        assert.doesNotMatch(err.message, /\n/);
        return true;
      },
    );
  }
  assert.ok(parseCurlOutput('null') instanceof Error);
});

test('curl driver: curl.sh failing is a rejection carrying its first stderr line', async () => {
  const file = path.join(tmp, 'dies.sh');
  fs.writeFileSync(
    file,
    '#!/bin/sh\necho "curl.sh: no response from http://x/ (refused)" >&2\necho second line >&2\nexit 1\n',
    { mode: 0o755 },
  );
  await assert.rejects(curlDriver({ url: 'http://x', connections: 1, amount: 1 }, { script: file }), {
    message: 'curl.sh: no response from http://x/ (refused)',
  });
  // The real script against a closed port says so in one line.
  await assert.rejects(
    curlDriver({ url: 'http://127.0.0.1:1', connections: 1, amount: 2 }),
    /^Error: curl\.sh: no response from http:\/\/127\.0\.0\.1:1\//,
  );
});
