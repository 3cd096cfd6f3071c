'use strict';
// Tier: quick (one burst against a real server: sizing and refusals)
// One burst against a real server (app.js on a free port): sized by completed work,
// throughput over its exact window, refused when the server is not the process we
// started or not the strategy we asked for, and a server that does not drain is a
// warning on the sample.
const test = require('node:test');
const assert = require('node:assert');
const { startServer } = require('./helpers/server');
const { takeSample, burstAmount } = require('../bench/measure/sample');
const { measure } = require('../load/autocannon');
const { getJson } = require('../bench/measure/http-client');

const servers = {};
test.before(async () => {
  const [als, param] = await Promise.all([
    startServer({ STRATEGY: 'als', HOP: 'immediate' }),
    startServer({ STRATEGY: 'param', HOP: 'immediate' }),
  ]);
  Object.assign(servers, { als, param });
  for (const s of Object.values(servers)) s.nonce = (await getJson(`${s.url}/__stats`)).nonce;
});
test.after(() => Promise.all(Object.values(servers).map((s) => s.stop())));

const settings = { connections: 5, pipelining: 1, duration: 0.5, minPerConnection: 30 };
const als = { id: 'als', strategy: 'als' };
const server = (s, extra = {}) => ({ url: s.url, nonce: s.nonce, stats: true, ...extra });

test('burstAmount: at least minPerConnection per connection, else what the last rate does in a burst', () => {
  assert.strictEqual(burstAmount(settings, 10), 150, 'slow: the floor, 30 x 5');
  assert.strictEqual(burstAmount(settings, 1000), 500, 'fast: 1000 req/s x 0.5 s');
  assert.strictEqual(burstAmount(settings, null), null, 'no rate yet: a timed sizing burst first');
  assert.strictEqual(burstAmount({ ...settings, amount: 77 }, 1000), 77, '--amount wins');
  assert.strictEqual(
    burstAmount({ ...settings, pipelining: 10 }, 10),
    (30 + 9) * 5,
    'slack for the answers pipelining leaves uncounted',
  );
});

test('a burst sized from a known rate completes exactly its requests; rps is requests over the window', async () => {
  const s = await takeSample({ config: als, server: server(servers.als), driver: measure, settings, rate: 1 });
  assert.strictEqual(s.requests, 150, '30 per connection');
  assert.ok(s.windowMs > 0);
  assert.ok(Math.abs(s.rps - s.requests / (s.windowMs / 1000)) < 1e-9);
  assert.strictEqual(s.mismatches + s.lost, 0);
  assert.ok(s.cpuUsPerRequest > 0);
  assert.strictEqual(s.warnings, undefined);
});

test('a timed burst that completed too little is replaced by one sized to the floor', async () => {
  const calls = [];
  // The real driver; only the sizing burst is cut to one request per connection so it
  // cannot reach the floor.
  const driver = (o) => {
    calls.push(o);
    return measure(o.duration ? { ...o, duration: undefined, amount: o.connections } : o);
  };
  const s = await takeSample({ config: als, server: server(servers.als), driver, settings, rate: null });
  assert.strictEqual(calls.length, 2);
  assert.ok(calls[0].duration && !calls[0].amount, 'a timed sizing burst first');
  assert.ok(calls[1].amount >= 150, `then >= 30 x 5 requests, got ${calls[1].amount}`);
  assert.strictEqual(s.requests, calls[1].amount, 'the sample is the sized burst');
});

test('a server whose nonce changed (it restarted) is refused', async () => {
  await assert.rejects(
    takeSample({
      config: als,
      server: server(servers.als, { nonce: 'another-process' }),
      driver: measure,
      settings,
      rate: 1,
    }),
    /restarted \(its nonce changed\)/,
  );
});

test('a server that reports another strategy is refused', async () => {
  await assert.rejects(
    takeSample({ config: als, server: server(servers.param), driver: measure, settings, rate: 1 }),
    /reports strategy param, expected als/,
  );
});

test('a server still busy at the settle deadline is a warning on the sample', async () => {
  const s = await takeSample({
    config: als,
    server: server(servers.als),
    driver: measure,
    settings,
    rate: 1,
    settleTimeoutMs: 1,
  });
  assert.match(s.warnings.join('\n'), /still busy/);
});
