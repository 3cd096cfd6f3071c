'use strict';
// Tier: quick (the OpenTelemetry strategies' spans on real servers, exported to memory)
// The platformatic scenarios: otel-selective and otel-full on Fastify and Express.
const test = require('node:test');
const assert = require('node:assert');
const { spawn } = require('node:child_process');
const { ROOT, startServer, runToExit, get, traceId, fireConcurrent } = require('./helpers/server');

const CASES = [
  ['otel-selective', 'fastify'],
  ['otel-selective', 'express'],
  ['otel-full', 'fastify'],
  ['otel-full', 'express'],
];
// A short batch delay so that exported spans show up in /__stats within the test.
const FAST_BATCH = { OTEL_BSP_SCHEDULE_DELAY: '100' };

const traceparent = (id) => `00-${id}-00f067aa0ba902b7-01`;

async function statsWhen(url, predicate, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stats = JSON.parse((await get(url + '/__stats')).body);
    if (predicate(stats) || Date.now() > deadline) return stats;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

for (const [strategy, framework] of CASES) {
  test(`${strategy} on ${framework}: traceparent in, same trace id out; spans exported to memory`, async (t) => {
    const server = await startServer({ STRATEGY: strategy, FRAMEWORK: framework, HOP: 'immediate', ...FAST_BATCH });
    t.after(() => server.stop());

    const ids = Array.from({ length: 20 }, (_, i) => traceId(i, 'abc'));
    const answers = await Promise.all(
      ids.map((id, i) => get(`${server.url}/depth/${1 + (i % 6)}`, { headers: { traceparent: traceparent(id) } })),
    );
    answers.forEach((res, i) => {
      assert.strictEqual(res.status, 200);
      assert.strictEqual(res.body, ids[i]);
      assert.strictEqual(res.headers['x-trace-id'], ids[i]);
    });

    // Interleaving requests (macrotask hops) keep their own ids under the SDK too.
    const counts = await fireConcurrent(server.url + '/', { total: 400, concurrency: 100 });
    assert.deepStrictEqual(counts, { kept: 400, leaked: 0, lost: 0, errors: 0 });

    const stats = await statsWhen(server.url, (s) => s.spansExported >= 420);
    assert.strictEqual(stats.strategy, strategy);
    assert.strictEqual(stats.framework, framework);
    assert.strictEqual(stats.otelExporter, 'memory');
    assert.ok(stats.spansExported >= 420, `at least one span per request exported, got ${stats.spansExported}`);
    assert.strictEqual(stats.spansDropped, 0);
    assert.ok(stats.spansEnded >= stats.spansExported);
  });
}

// In-process: the server span of a request carries the trace id of its traceparent, and
// that is the id the chain answers with. The client call is made with tracing
// suppressed so the http instrumentation does not replace the test's traceparent.
const SPAN_PROBE = `
const { loadConfig } = require('./servers/config');
const { createService } = require('./handlers/service');
const config = loadConfig({ ...process.env, PORT: '0' });
const service = createService(config);
const server = require('./servers').load(config.framework).createServer(service);
const otel = require('./context/otel-sdk');
const { context } = require('@opentelemetry/api');
const { core } = require('@opentelemetry/sdk-node');
const http = require('node:http');
server.listen(0, '127.0.0.1', () => {
  const headers = { traceparent: process.env.PROBE_TRACEPARENT };
  context.with(core.suppressTracing(context.active()), () => {
    http.get({ host: '127.0.0.1', port: server.address().port, path: '/depth/3', headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => setTimeout(async () => {
        await otel.forceFlush();
        const spans = otel.recentSpans().map((s) => ({ name: s.name, kind: s.kind, traceId: s.spanContext().traceId }));
        process.stdout.write(JSON.stringify({ body, spans }));
        process.exit(0);
      }, 50));
    });
  });
});
`;

function probe(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', SPAN_PROBE], {
      cwd: ROOT,
      env: { ...process.env, HOP: 'immediate', OTEL_EXPORTER: 'memory', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`span probe exited with ${code}: ${err}`));
      resolve(JSON.parse(out));
    });
  });
}

test("each request gets a SERVER span whose trace id is the traceparent's, and the chain echoes it", async () => {
  const SERVER = 1; // SpanKind.SERVER
  const CLIENT = 2;
  for (const [strategy, framework] of CASES) {
    const id = traceId(7, 'feed');
    const { body, spans } = await probe({
      STRATEGY: strategy,
      FRAMEWORK: framework,
      PROBE_TRACEPARENT: traceparent(id),
    });
    assert.strictEqual(body, id, `${strategy}/${framework}: chain answer`);
    const server = spans.filter((s) => s.kind === SERVER);
    assert.strictEqual(server.length, 1, `${strategy}/${framework}: one server span, got ${JSON.stringify(spans)}`);
    assert.strictEqual(server[0].traceId, id, `${strategy}/${framework}: server span trace id`);
    // Server-side spans only: otel-full also traces the dns.lookup that listen() makes.
    const serverSide = spans.filter((s) => s.kind !== CLIENT);
    assert.ok(serverSide.length >= 2, `${strategy}/${framework}: framework spans under the server span`);
    assert.ok(
      serverSide.every((s) => s.traceId === id),
      `${strategy}/${framework}: every span in the request's trace`,
    );
  }
});

test('OTEL_EXPORTER=none creates spans and exports none; otlp-unreachable exports none either', async (t) => {
  for (const exporter of ['none', 'otlp-unreachable']) {
    const server = await startServer({
      STRATEGY: 'otel-selective',
      FRAMEWORK: 'fastify',
      OTEL_EXPORTER: exporter,
      ...FAST_BATCH,
    });
    t.after(() => server.stop());
    const id = traceId(1, 'beef');
    const res = await get(server.url + '/', { headers: { traceparent: traceparent(id) } });
    assert.strictEqual(res.body, id);
    const stats = await statsWhen(server.url, (s) => s.spansEnded > 0);
    assert.strictEqual(stats.otelExporter, exporter);
    assert.ok(stats.spansEnded > 0, `${exporter}: spans are still created`);
    assert.strictEqual(stats.spansExported, 0, `${exporter}: nothing exported`);
    await server.stop();
  }
});

test('other strategies report no span fields', async (t) => {
  const server = await startServer({ STRATEGY: 'als', FRAMEWORK: 'fastify' });
  t.after(() => server.stop());
  const stats = JSON.parse((await get(server.url + '/__stats')).body);
  assert.strictEqual(stats.spansExported, undefined);
  assert.strictEqual(stats.spansDropped, undefined);
});

test('OTEL_EXPORTER=bogus stops start-up with exit 1 and one line', async () => {
  const { code, stdout, stderr } = await runToExit({
    STRATEGY: 'otel-full',
    FRAMEWORK: 'fastify',
    OTEL_EXPORTER: 'bogus',
  });
  assert.strictEqual(code, 1);
  assert.strictEqual(stdout, '');
  const lines = stderr.split('\n').filter(Boolean);
  assert.strictEqual(lines.length, 1, stderr);
  assert.match(lines[0], /OTEL_EXPORTER="bogus"/);
  assert.match(lines[0], /memory, none, otlp-unreachable/);
});
