'use strict';
// Tier: all (more real load on the drivers: progress over 2.5 s,
// non-2xx, curl.sh's 300 requests on als and on the control)
// The load drivers against real servers (app.js on free ports), beyond the quick tier's
// test/load.test.js: autocannon's progress reports and non-2xx answers, and curl.sh
// keeping every id of als and catching the deliberately broken `global`. Only structure
// and correctness are asserted, never timing or throughput.
const test = require('node:test');
const assert = require('node:assert');
const { serversFor } = require('../helpers/server');
const { assertShape, curlSh } = require('../helpers/load-drivers');
const { measure } = require('../../load/autocannon');

const servers = serversFor({
  als: { STRATEGY: 'als', HOP: 'immediate' },
  global: { STRATEGY: 'global', HOP: 'immediate' },
});

test('measure(): onProgress reports the phase and the counts so far', async () => {
  const calls = [];
  await measure({ url: servers.als.url, connections: 5, duration: 1.5, warmup: 1, onProgress: (p) => calls.push(p) });
  assert.ok(calls.length >= 1, 'called at least once');
  for (const p of calls) {
    assert.ok(p.phase === 'warmup' || p.phase === 'measure', `phase ${p.phase}`);
    for (const key of ['elapsedS', 'requests', 'rps', 'errors', 'mismatches', 'lost']) {
      assert.ok(Number.isFinite(p[key]), `${key} is a number`);
    }
    assert.strictEqual(p.mismatches, 0);
  }
});

test('measure(): non-2xx answers are counted as non2xx, not as lost', async () => {
  const r = await measure({ url: servers.als.url, path: '/depth/0', connections: 5, duration: 1 });
  assertShape(r);
  assert.strictEqual(r.non2xx, r.requests);
  assert.strictEqual(r.lost, 0);
  assert.strictEqual(r.mismatches, 0);
});

test('curl.sh: als keeps every id (N=300 P=20 --json)', async () => {
  const { code, stdout, stderr } = await curlSh([servers.als.url + '/', '300', '20', '--json']);
  assert.strictEqual(code, 0, stderr);
  const r = JSON.parse(stdout);
  assert.strictEqual(r.count, 300);
  assert.strictEqual(r.errors, 0);
  assert.strictEqual(r.mismatches, 0);
  assert.strictEqual(r.lost, 0);
  for (const key of ['avg', 'p50', 'p90', 'p99']) assert.ok(Number.isFinite(r.latency[key]), `latency.${key}`);
  assert.ok(r.latency.p50 <= r.latency.p90 && r.latency.p90 <= r.latency.p99);
});

test('curl.sh: the global control is caught leaking', async () => {
  const { code, stdout, stderr } = await curlSh([servers.global.url + '/', '300', '20', '--json']);
  assert.strictEqual(code, 0, stderr);
  const r = JSON.parse(stdout);
  assert.strictEqual(r.count, 300);
  assert.ok(r.mismatches > 0, `global must leak, got ${r.mismatches} mismatches`);
});
