'use strict';
// Tier: quick (the rows as teams deploy them: the registry, the sink's OTLP
// receiver, one real OpenTelemetry server on a local sink)
// The rows named by what they run (issue 75): otel-sdk-otlp, otel-sdk-otlp-10, sentry-errors,
// sentry-10 beside sentry and datadog. The registry lists them with their configuration,
// ctxbench's local sink answers OTLP/HTTP as a collector does and counts it, a row with an
// endpoint is refused without SINK_URL, and the integrity client sends a head-sampled row no
// sampled parent. With the real Sentry agent: test/all/agents.test.js.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const strategies = require('../context');
const { createSink } = require('../bench/services/agent-sink');
const { needsOf } = require('../bench/services/services');
const { sampledParentFor } = require('../bench/integrity/integrity-cells');
const client = require('../bench/integrity/integrity-client');
const { loadConfig } = require('../servers/config');
const { runToExit, startServer, fireConcurrent, listen } = require('./helpers/server');

test('the registry lists each row with what it runs, and which need the sink', () => {
  const rows = {
    'otel-sdk-otlp': [/NodeSDK/, /auto-instrumentations-node/, /parent-based always-on/, /OTLP http\/protobuf/],
    'otel-sdk-otlp-10': [/parentbased_traceidratio/, /OTEL_TRACES_SAMPLER_ARG=0\.1/],
    sentry: [/tracing every request/, /tracesSampleRate 1\b/],
    'sentry-errors': [/errors only/, /no tracesSampleRate or tracesSampler/, /request isolation on/],
    'sentry-10': [/tracesSampleRate 0\.1/],
    datadog: [/tracing on, its network features off/],
  };
  for (const [name, words] of Object.entries(rows)) {
    assert.ok(strategies.names.includes(name), name);
    const info = strategies.info(name);
    for (const w of words) assert.match(info.describe, w, name);
    assert.ok(info.describe.length <= 240, `${name}: a describe says its configuration in a few words`);
  }
  const sinks = Object.fromEntries(Object.keys(rows).map((n) => [n, strategies.info(n).sink]));
  assert.deepStrictEqual(sinks, {
    'otel-sdk-otlp': 'otlp',
    'otel-sdk-otlp-10': 'otlp',
    sentry: 'sentry',
    'sentry-errors': 'sentry',
    'sentry-10': 'sentry',
    datadog: 'datadog',
  });
  // The OTLP rows run OpenTelemetry from node_modules, not an agent installed into the cache.
  assert.strictEqual(strategies.info('otel-sdk-otlp').agent, undefined);
  assert.strictEqual(strategies.info('sentry-errors').agent, 'sentry');
  // Every run that has one of them starts the sink; one without, none.
  assert.strictEqual(needsOf(['await'], ['als', 'otel-sdk-otlp']).sink, true);
  assert.strictEqual(needsOf(['await'], ['als', 'otel-full']).sink, false);
});

test('a row with an endpoint needs SINK_URL: the server is refused in one line', async () => {
  for (const name of ['otel-sdk-otlp', 'otel-sdk-otlp-10', 'sentry-errors', 'sentry-10'])
    assert.throws(() => loadConfig({ STRATEGY: name }), new RegExp(`^Error: STRATEGY=${name} needs SINK_URL`));
  assert.strictEqual(
    loadConfig({ STRATEGY: 'otel-sdk-otlp', SINK_URL: 'http://127.0.0.1:9' }).sinkUrl,
    'http://127.0.0.1:9',
  );
  const env = { ...process.env, STRATEGY: 'otel-sdk-otlp', HOST: '127.0.0.1' };
  delete env.SINK_URL;
  const { code, stdout, stderr } = await runToExit(env);
  assert.strictEqual(code, 1, stderr);
  assert.strictEqual(stdout, '');
  const lines = stderr.split('\n').filter(Boolean);
  assert.strictEqual(lines.length, 1, stderr);
  assert.match(lines[0], /STRATEGY=otel-sdk-otlp needs SINK_URL \(http:\/\/127\.0\.0\.1:port/);
});

test('the sink answers OTLP/HTTP as a collector does (200, empty body), counts posts and bytes', async () => {
  const sink = createSink();
  const url = await listen(sink);
  try {
    const post = (path, type, body) =>
      fetch(`${url}${path}`, { method: 'POST', body, headers: { 'content-type': type } });
    const proto = Buffer.from([0x0a, 0x03, 0x01, 0x02, 0x03]);
    for (const signal of ['traces', 'metrics', 'logs']) {
      const res = await post(`/v1/${signal}`, 'application/x-protobuf', proto);
      assert.strictEqual(res.status, 200, signal);
      assert.strictEqual(res.headers.get('content-type'), 'application/x-protobuf', signal);
      assert.strictEqual((await res.arrayBuffer()).byteLength, 0, `${signal}: an empty Export*ServiceResponse`);
    }
    const asJson = await post('/v1/traces', 'application/json', '{"resourceSpans":[]}');
    assert.strictEqual(asJson.status, 200);
    assert.deepStrictEqual(await asJson.json(), {});
    assert.strictEqual((await post('/v1/logs', 'text/plain', 'x')).status, 415);
    assert.strictEqual((await fetch(`${url}/v1/traces`)).status, 404, 'GET is no export');
    const counts = await (await fetch(`${url}/__counts`)).json();
    assert.deepStrictEqual(counts.otlp, {
      traces: { posts: 2, bytes: proto.length + 20 },
      metrics: { posts: 1, bytes: proto.length },
      logs: { posts: 1, bytes: proto.length },
    });
    assert.deepStrictEqual(counts.unexpected, {
      requests: 2,
      paths: { 'POST /v1/logs (text/plain)': 1, 'GET /v1/traces': 1 },
    });
    assert.strictEqual(counts.sentry.posts + counts.datadog.posts, 0, "the agents' counts keep their shape");
  } finally {
    sink.close();
  }
});

test('the integrity client sends a head-sampled row no sampled parent; every other row its traceparent', async () => {
  assert.strictEqual(sampledParentFor('otel-sdk-otlp-10'), false);
  assert.strictEqual(sampledParentFor('sentry-10'), false);
  assert.strictEqual(sampledParentFor('otel-sdk-otlp'), true);
  assert.strictEqual(sampledParentFor('sentry'), true);
  const seen = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    res.end(req.headers['x-cloud-trace-context'].split('/')[0]);
  });
  const url = await listen(server);
  try {
    for (const sampledParent of [true, false]) {
      const checker = client.createChecker({ sampledParent });
      await client.fire(url, '/', { checker, total: 2, concurrency: 1 });
      await client.firePipelined(url, '/', { checker, total: 2, concurrency: 2, pipeline: 2 });
    }
  } finally {
    server.close();
  }
  assert.strictEqual(seen.length, 8);
  const withParent = seen.map((h) => /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/.test(h.traceparent || ''));
  assert.deepStrictEqual(withParent, [true, true, true, true, false, false, false, false]);
});

// The row runs what the SDK chooses from its defaults, whatever the shell holds: an inherited
// protocol and sampler are dropped (else this would export JSON, or nothing).
test('otel-sdk-otlp: every id kept, traces reach the sink over OTLP http/protobuf', { timeout: 60000 }, async (t) => {
  const sink = createSink();
  const types = new Set();
  sink.on('request', (req) => req.url.startsWith('/v1/') && types.add(req.headers['content-type']));
  const sinkUrl = await listen(sink);
  t.after(() => sink.close());
  const server = await startServer({
    STRATEGY: 'otel-sdk-otlp',
    SINK_URL: sinkUrl,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_TRACES_SAMPLER: 'always_off',
  });
  t.after(() => server.stop());
  // Enough spans to fill a batch of 512 (several per request), so the exporter sends before
  // its 5 s timer would.
  const counts = await fireConcurrent(`${server.url}/`, { total: 200, concurrency: 20 });
  assert.deepStrictEqual(counts, { kept: 200, leaked: 0, lost: 0, errors: 0 });
  let traces;
  for (const deadline = Date.now() + 15000; Date.now() < deadline; ) {
    traces = sink.counts().otlp.traces;
    if (traces.posts > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.ok(traces.posts > 0 && traces.bytes > 0, JSON.stringify(sink.counts()));
  assert.deepStrictEqual([...types], ['application/x-protobuf']);
  assert.deepStrictEqual(sink.counts().unexpected, { requests: 0, paths: {} }, 'protobuf only, nothing else asked');
});
