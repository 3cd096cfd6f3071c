'use strict';
// Tier: quick (the request-context libraries through the integrity scenarios on real servers, a few seconds)
// The request-context libraries people use now (cls-rtracer, express-http-context,
// @fastify/request-context), each in a real server behind the registry, through the
// integrity scenarios at 200 in flight: they keep ids through chains and fan-out, and
// the integrity report shows where each one differs from plain AsyncLocalStorage and why.
const { test } = require('node:test');
const assert = require('node:assert');
const integrity = require('../bench/integrity/integrity');
const client = require('../bench/integrity/integrity-client');
const { runToExit } = require('./helpers/server');

const SETTINGS = { requests: 400, concurrency: 200 };
const TARGET = integrity.currentTarget();

async function verdicts(strategy, framework, names) {
  const server = await integrity.startFor(TARGET, strategy, { ...SETTINGS, framework }, { soak: false });
  try {
    const checker = client.createChecker();
    const out = {};
    for (const name of names) {
      const tally = await integrity.measureScenario(server.url, name, SETTINGS, { checker });
      const verdict = integrity.verdictOf(strategy, tally);
      out[name] = { verdict, tally, explanation: integrity.explain({ ...tally, verdict, strategy, scenario: name }) };
    }
    return out;
  } finally {
    await server.stop();
  }
}

const CASES = [
  { strategy: 'cls-rtracer', framework: 'express', nested: 'kept', body: 'kept' },
  { strategy: 'cls-rtracer', framework: 'fastify', nested: 'kept', body: 'lost' },
  { strategy: 'express-http-context', framework: 'express', nested: 'leaked', body: 'lost' },
  { strategy: 'fastify-request-context', framework: 'fastify', nested: 'kept', body: 'lost' },
];

for (const c of CASES) {
  test(
    `${c.strategy} on ${c.framework}: keeps every id through ` +
      `chains and fan-out; nested ${c.nested}, body ${c.body}`,
    async () => {
      const v = await verdicts(c.strategy, c.framework, ['chain-mixed', 'fanout', 'keepalive', 'nested', 'body']);
      for (const name of ['chain-mixed', 'fanout', 'keepalive']) {
        assert.strictEqual(v[name].verdict, 'kept', `${name}: ${JSON.stringify(v[name].tally)}`);
        assert.strictEqual(v[name].tally.kept, SETTINGS.requests);
      }
      assert.strictEqual(v.nested.verdict, c.nested, JSON.stringify(v.nested.tally));
      assert.strictEqual(v.body.verdict, c.body, JSON.stringify(v.body.tally));
      if (c.nested === 'leaked') {
        // The report's explanation names the cause users run into: an active store is reused.
        assert.match(v.nested.explanation, /opens a store only when none is active/);
        assert.match(v.nested.explanation, /overwrote the parent's id/);
      }
    },
  );
}

test('fastify-request-context on another framework stops start-up with one line', async () => {
  for (const framework of ['express', 'http']) {
    const r = await runToExit({ STRATEGY: 'fastify-request-context', FRAMEWORK: framework });
    assert.strictEqual(r.code, 1);
    assert.strictEqual(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`runs only with FRAMEWORK=fastify .*not FRAMEWORK=${framework}`));
  }
});
