'use strict';
// Tier: quick (the agents' refusal without a sink, the sink's decoding and the span
// naming, all without the agents; the real agents are in test/all/agents.test.js)
// The APM agent strategies (context/sentry.js, context/datadog.js) without the agents
// themselves: a strategy without its sink is refused in one line, ctxbench's local sink
// (bench/services/agent-sink.js) decodes what each agent sends and checks each client span's trace,
// and a client span names its request. With the real agents (installed on first use into
// the cache), the id check, the span check and nothing leaving loopback:
// test/all/agents.test.js.
const test = require('node:test');
const assert = require('node:assert');
const { encode } = require('@msgpack/msgpack');
const { createSink } = require('../bench/services/agent-sink');
const { loadConfig } = require('../servers/config');
const { listen } = require('./helpers/server');

test('an agent strategy needs SINK_URL, on loopback: one line otherwise', () => {
  assert.throws(() => loadConfig({ STRATEGY: 'sentry' }), /^Error: STRATEGY=sentry needs SINK_URL/);
  assert.throws(() => loadConfig({ STRATEGY: 'datadog' }), /STRATEGY=datadog needs SINK_URL/);
  assert.throws(
    () => loadConfig({ STRATEGY: 'datadog', SINK_URL: 'http://10.1.2.3:8126' }),
    /SINK_URL="http:\/\/10\.1\.2\.3:8126" is not valid; expected http:\/\/127\.0\.0\.1:port/,
  );
  assert.strictEqual(loadConfig({ STRATEGY: 'sentry', SINK_URL: 'http://127.0.0.1:9/' }).sinkUrl, 'http://127.0.0.1:9');
  assert.strictEqual(loadConfig({ STRATEGY: 'als' }).sinkUrl, null);
});

test(
  'the sink decodes a Sentry envelope and a dd-trace msgpack payload, ' + 'and sorts each client span by its trace',
  async () => {
    const sink = createSink();
    const url = await listen(sink);
    try {
      // Sentry: request a in trace A, request b in trace B; a's client span in A (right),
      // b's client span in A (another request's trace), one more of b's in trace Z (none's).
      const span = (trace, attributes) => ({
        trace_id: trace,
        span_id: '1',
        attributes: Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, { value: v, type: 'string' }])),
      });
      const items = [
        span('A', { 'ctxbench.id': 'a' }),
        span('B', { 'ctxbench.id': 'b' }),
        span('A', { 'url.full': 'http://d/x?id=a' }),
        span('A', { 'url.full': 'http://d/x?id=b' }),
        span('Z', { 'url.full': 'http://d/x?id=b' }),
      ];
      const envelope = [
        JSON.stringify({}),
        JSON.stringify({ type: 'span', item_count: items.length }),
        JSON.stringify({ version: 2, items }),
      ].join('\n');
      assert.strictEqual((await fetch(`${url}/api/1/envelope/`, { method: 'POST', body: envelope })).status, 200);
      // Queries and commands name their request as `ctxbench:<32-hex id>` (a SQL comment, a
      // Redis key): request e's query in its own trace E, its Redis command in B (b's).
      // Request g's query arrives before its request span (Sentry sends a segment's root last):
      // judged when the request span comes.
      const e = 'e'.repeat(32);
      const g = 'a'.repeat(32);
      const named = [
        span('E', { 'ctxbench.id': e }),
        span('E', { 'db.query.text': `SELECT $1::text AS id, ? AS ctxbench_${e}` }),
        span('B', { 'db.statement': `set ctxbench:${e} ?` }),
        span('G', { 'db.query.text': `SELECT ? AS id, ? AS ctxbench_${g}` }),
        span('G', { 'ctxbench.id': g }),
      ];
      const second = [
        JSON.stringify({}),
        JSON.stringify({ type: 'span', item_count: named.length }),
        JSON.stringify({ version: 2, items: named }),
      ].join('\n');
      assert.strictEqual((await fetch(`${url}/api/1/envelope/`, { method: 'POST', body: second })).status, 200);
      // dd-trace v0.4: one trace of request c (128-bit id: _dd.p.tid + trace_id), its client span
      // in it; a query of request f (named in its resource, where dd-trace puts the SQL) in c's.
      const f = 'f'.repeat(32);
      const dd = [
        [
          {
            trace_id: 0x10n,
            span_id: 1n,
            parent_id: 0n,
            meta: { '_dd.p.tid': 'ffff000000000000', 'ctxbench.id': 'c' },
          },
          {
            trace_id: 0x10n,
            span_id: 2n,
            parent_id: 1n,
            meta: { '_dd.p.tid': 'ffff000000000000', 'http.url': 'http://d/x?id=c' },
          },
          { trace_id: 0x11n, span_id: 3n, parent_id: 0n, meta: { 'http.url': 'http://d/x?id=c' } },
          { trace_id: 0x12n, span_id: 4n, parent_id: 0n, meta: { 'ctxbench.id': f } },
          {
            trace_id: 0x10n,
            span_id: 5n,
            parent_id: 1n,
            resource: `SELECT ? AS id, ? AS ctxbench_${f}`,
            meta: { '_dd.p.tid': 'ffff000000000000' },
          },
        ],
      ];
      assert.strictEqual(
        (
          await fetch(`${url}/v0.4/traces`, {
            method: 'PUT',
            body: encode(dd, { useBigInt64: true }),
            headers: { 'content-type': 'application/msgpack' },
          })
        ).status,
        200,
      );
      assert.strictEqual((await fetch(`${url}/info`)).status, 404);
      const counts = await (await fetch(`${url}/__counts`)).json();
      assert.deepStrictEqual(counts.sentry, {
        posts: 2,
        spans: 10,
        requestSpans: 4,
        checked: 6,
        foreignTrace: 2,
        detached: 1,
        undecodable: 0,
      });
      assert.deepStrictEqual(counts.datadog, {
        posts: 1,
        spans: 5,
        requestSpans: 2,
        checked: 3,
        foreignTrace: 1,
        detached: 1,
        undecodable: 0,
      });
      assert.deepStrictEqual(counts.unexpected, { requests: 1, paths: { 'GET /info': 1 } });
      // Per request named, for the ids a run issued (their prefix): how ctxbench integrity
      // gives each scenario its own span check, whenever the agent flushed.
      const owners = await (await fetch(`${url}/__owners?prefix=${'e'.repeat(8)}`)).json();
      assert.deepStrictEqual(owners, { [e]: { agent: 'sentry', checked: 2, foreignTrace: 1, detached: 0 } });
      assert.deepStrictEqual(await (await fetch(`${url}/__owners`)).json(), {}, 'no prefix, no list');
    } finally {
      sink.close();
    }
  },
);

test(
  "a client span names its request: a URL's ?id=, " +
    "a Redis key or channel, a query's ctxbench_<id> column; nothing else",
  () => {
    const { requestNamedBy, named } = require('../handlers/scenarios/reads');
    const id = 'ab'.repeat(16);
    assert.strictEqual(named('SELECT ? AS id', { traceId: id }), `SELECT ? AS id, 0 AS ctxbench_${id}`);
    assert.strictEqual(
      named('SELECT ? AS id', { traceId: "x'; DROP TABLE t; --" }),
      'SELECT ? AS id',
      'only a 32-hex id goes into SQL text',
    );
    for (const attributes of [
      { 'url.full': `http://127.0.0.1:1/?id=${id}` },
      { 'db.statement': `SELECT $1::text AS id, $2 AS ctxbench_${id}` }, // OpenTelemetry's pg, mysql2
      { 'db.query.text': `SELECT ? AS id, ? AS ctxbench_${id}` }, // Sentry's, literals masked
      { 'db.statement': `set ctxbench:${id} ?` }, // ioredis, node-redis
      { 'redis.raw_command': `PUBLISH ctxbench:reply:${id} x` }, // dd-trace's meta
      { 'db.postgresql.values': [id] },
    ])
      assert.strictEqual(requestNamedBy(attributes), id, JSON.stringify(attributes));
    for (const attributes of [
      { 'db.statement': 'SELECT 1' },
      { 'db.statement': `set ctxbench:${id.slice(2)} ?` },
      { 'url.full': 'http://h/x' },
    ])
      assert.strictEqual(requestNamedBy(attributes), null, JSON.stringify(attributes));
  },
);
