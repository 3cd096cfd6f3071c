'use strict';
// Tier: all (needs redis-server: the Redis driver scenarios against a real Redis, and Ctrl-C during them)
// The Redis driver scenarios (handlers/scenarios/redis.js) against a real redis-server that
// `ctxbench integrity` starts itself (bench/services/redis.js) and removes: 200 requests, 100 in
// flight, each with its own id, every answer checked. A planted strategy that follows the
// id through promises only (v8 promise hooks) shows what the scenarios tell apart: ioredis
// and node-redis hand their results back through promises (a callback too: ioredis calls
// it from its command's promise), so promise-following is enough there; a pub/sub message
// arrives on a plain socket callback, which only a bound listener per request survives.
// Without redis-server, the one line that skips them: test/redis.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const { assertServerGone } = require('../helpers/cli');
const {
  skipWithoutServer,
  runDriverScenarios,
  interruptDriverScenarios,
  checkCells,
} = require('../helpers/driver-run');
const { tempDir } = require('../helpers/tmp');

const dir = tempDir('ctxbench-redis-test-');
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

const SCENARIOS = [
  'ioredis-callback',
  'ioredis-callback-bound',
  'ioredis-promise',
  'ioredis-multi',
  'ioredis-multi-bound',
  'ioredis-pubsub',
  'ioredis-pubsub-bound',
  'redis-promise',
  'redis-multi',
];
// What each strategy must do in each scenario ('leaks': most answers carry another id).
const EXPECTED = {
  als: { 'ioredis-pubsub': 'lost', '*': 'kept' },
  'promise-only': { 'ioredis-pubsub': 'not kept', 'ioredis-pubsub-bound': 'not kept', '*': 'kept' },
  global: { '*': 'leaks' },
};
const TOTAL = 200;

test(
  'ctxbench integrity: ioredis and node-redis against a real Redis it starts and removes; ' +
    'a promise-only strategy loses the id only where a plain callback runs',
  { timeout: 600000 },
  async (t) => {
    if (skipWithoutServer(t, 'redis')) return;
    const run = await runDriverScenarios({ dir, scenarios: SCENARIOS, total: TOTAL, name: 'redis' });
    assert.match(run.learned.redis.server, /^redis-server \d+\.\d+/, 'the server version the scenarios ran against');
    checkCells(run.integrity.cells, EXPECTED, TOTAL);
    assertServerGone(run.learned.redis, 'redis-server');
  },
);

test(
  'Ctrl-C during the Redis scenarios: exit 130, the run kept, no redis-server left and its folder gone',
  { timeout: 600000 },
  async (t) => {
    if (skipWithoutServer(t, 'redis')) return;
    const run = await interruptDriverScenarios({ dir, scenarios: SCENARIOS, strategies: ['als', 'global'] });
    assertServerGone(run.learned.redis, 'redis-server');
  },
);
