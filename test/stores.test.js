'use strict';
// Tier: quick (STORES=N on real servers under 200 concurrent requests)
// STORES=N: N extra AsyncLocalStorage instances live for every request. Every id must
// survive under 200 concurrent requests with and without them, the server must refuse a
// bad value in one line, and (where AsyncLocalStorage rides on async_hooks, so the live
// values can be seen on the async resource) all N must really be entered with the
// request's own value at the deepest level of the chain.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { startServer, runToExit, get, fireConcurrent } = require('./helpers/server');
const { detectAsyncContextFrame } = require('../lib/runtime');

const PLANTED = path.join(__dirname, 'fixtures', 'count-stores.js');

for (const stores of [0, 100]) {
  test(`STORES=${stores}: als keeps every id under 200 concurrent requests`, async (t) => {
    const server = await startServer({ STRATEGY: 'als', STORES: String(stores), HOP: 'immediate', DEPTH: '8' });
    t.after(() => server.stop());
    const stats = JSON.parse((await get(`${server.url}/__stats`)).body);
    assert.strictEqual(stats.stores, stores);
    const counts = await fireConcurrent(server.url, { total: 1000, concurrency: 200 });
    assert.deepStrictEqual(counts, { kept: 1000, leaked: 0, lost: 0, errors: 0 });
  });
}

const ACF_SKIP =
  detectAsyncContextFrame() && 'this node runs AsyncContextFrame: store values are not visible on the async resource';

test(
  "STORES=100: every extra store is live at the deepest level, holding the request's own id",
  { skip: ACF_SKIP },
  async (t) => {
    const server = await startServer({
      STRATEGY: 'test-extra',
      CTXBENCH_EXTRA_STRATEGY: PLANTED,
      EXPECT_STORES: '100',
      STORES: '100',
      HOP: 'immediate',
      DEPTH: '8',
    });
    t.after(() => server.stop());
    const counts = await fireConcurrent(server.url, { total: 600, concurrency: 200 });
    assert.deepStrictEqual(counts, { kept: 600, leaked: 0, lost: 0, errors: 0 });
  },
);

test('STORES out of range or not a number stops start-up with one line', async () => {
  for (const value of ['-1', '1001', 'many']) {
    const r = await runToExit({ STORES: value });
    assert.strictEqual(r.code, 1, value);
    assert.match(
      r.stderr.trim(),
      new RegExp(`^[^\\n]*STORES="${value}" is not valid; expected an integer from 0 to 1000[^\\n]*$`),
    );
  }
});

test('a config with `stores` gets its own id and a server started with that many stores', async (t) => {
  const { expandConfigs } = require('../bench/run/matrix');
  const { startServer: startBenchServer } = require('../bench/processes/server-process');
  const target = { label: 'nodeX', version: process.version, path: process.execPath, args: [] };
  const settings = {
    configs: [
      { framework: 'express', strategy: 'als', stores: 0 },
      { framework: 'express', strategy: 'als', stores: 10 },
    ],
    depths: [8],
    hops: ['immediate'],
  };
  const [zero, ten] = expandConfigs(settings, [target]);
  assert.notStrictEqual(zero.id, ten.id);
  assert.strictEqual(ten.stores, 10);
  const server = await startBenchServer(ten, { nodePath: target.path });
  t.after(() => server.stop());
  assert.strictEqual(server.first.stores, 10);
});
