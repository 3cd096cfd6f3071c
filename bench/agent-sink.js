'use strict';
// The local endpoint the APM agent strategies send to (SINK_URL): Sentry's envelope
// API (POST /api/<project>/envelope/, JSON lines, gzip or not) and the Datadog agent's
// trace API (PUT /v0.4/traces and /v0.5/traces, MessagePack). It decodes what it
// receives, so a run can say how many spans arrived and whether each client span sits in
// its own request's trace; anything else an agent asks for is answered 404 and counted
// by path (`unexpected`), so a run shows what it tried.
//
// The span check, per agent. A request's span carries `ctxbench.id` (the strategies set
// it on the span they open or find at run()), which names the request and its trace. A
// client span names the request it was made for by `?id=` in its URL (HOP=http and the
// undici scenarios add it). checked: client spans whose request the sink knows;
// foreignTrace: in another request's trace; detached: in a trace of no request. Spans
// that never reached the sink are not in these counts: compare `requestSpans` with the
// requests sent.
//
//   node bench/agent-sink.js     PORT (default 0), HOST 127.0.0.1; one JSON line when
//                                listening; GET /__counts answers the counts.
const http = require('node:http');
const zlib = require('node:zlib');
const { decode } = require('@msgpack/msgpack');

const KEEP_IDS = 50000;

function emptyAgentCounts() {
  return { posts: 0, spans: 0, requestSpans: 0, checked: 0, foreignTrace: 0, detached: 0, undecodable: 0 };
}

function createSink() {
  const counts = { sentry: emptyAgentCounts(), datadog: emptyAgentCounts(), unexpected: { requests: 0, paths: {} } };
  // request id -> its trace, per agent; the oldest forgotten first.
  const traces = { sentry: new Map(), datadog: new Map() };
  const requestTraces = { sentry: new Set(), datadog: new Set() };

  function see(agent, { traceId, attributes }) {
    const c = counts[agent];
    c.spans++;
    const own = attributes['ctxbench.id'];
    if (own) {
      c.requestSpans++;
      traces[agent].set(String(own), traceId);
      requestTraces[agent].add(traceId);
      if (traces[agent].size > KEEP_IDS) traces[agent].delete(traces[agent].keys().next().value);
      return;
    }
    const owner = ownerOf(attributes);
    const expected = owner && traces[agent].get(owner);
    if (!expected) return;
    c.checked++;
    if (traceId === expected) return;
    if (requestTraces[agent].has(traceId)) c.foreignTrace++;
    else c.detached++;
  }

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (d) => chunks.push(d));
    req.on('end', () => {
      const path = req.url.split('?')[0];
      let body = Buffer.concat(chunks);
      try {
        if (req.headers['content-encoding'] === 'gzip') body = zlib.gunzipSync(body);
        if (req.method === 'GET' && path === '/__counts') return json(res, 200, counts);
        if (req.method === 'GET' && path === '/healthz') return json(res, 200, { ok: true });
        if (req.method === 'POST' && /^\/api\/\d+\/envelope\/?$/.test(path)) {
          counts.sentry.posts++;
          for (const span of sentrySpans(body)) see('sentry', span);
          return json(res, 200, {});
        }
        if ((req.method === 'PUT' || req.method === 'POST') && /^\/v0\.[45]\/traces$/.test(path)) {
          counts.datadog.posts++;
          for (const span of datadogSpans(body, path)) see('datadog', span);
          return json(res, 200, { rate_by_service: {} });
        }
      } catch {
        const agent = path.startsWith('/api/') ? 'sentry' : 'datadog';
        counts[agent].undecodable++;
        return json(res, 400, { error: 'undecodable' });
      }
      counts.unexpected.requests++;
      const key = `${req.method} ${path}`;
      counts.unexpected.paths[key] = (counts.unexpected.paths[key] || 0) + 1;
      return json(res, 404, {});
    });
  });
  server.keepAliveTimeout = 10000;
  server.counts = () => counts;
  return server;
}

function json(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function ownerOf(attributes) {
  const url = attributes['url.full'] || attributes['http.url'];
  if (typeof url !== 'string' || !url.includes('id=')) return null;
  try {
    return new URL(url, 'http://x').searchParams.get('id');
  } catch {
    return null;
  }
}

// An envelope: a header line, then (item header line, payload line) pairs. Spans come as
// span items (v2: { items: [...] }, attributes as { value, type }) or inside
// transaction events (contexts.trace plus spans[], attributes under `data`).
function* sentrySpans(body) {
  const lines = body.toString('utf8').split('\n');
  for (let i = 1; i + 1 < lines.length; i += 2) {
    const header = JSON.parse(lines[i]);
    const payload = lines[i + 1] ? JSON.parse(lines[i + 1]) : null;
    if (!payload) continue;
    if (header.type === 'span') {
      for (const s of payload.items || [payload]) {
        const attributes = Object.fromEntries(Object.entries(s.attributes || {}).map(([k, v]) => [k, v && typeof v === 'object' && 'value' in v ? v.value : v]));
        yield { traceId: s.trace_id, attributes };
      }
    } else if (header.type === 'transaction') {
      const trace = payload.contexts?.trace || {};
      yield { traceId: trace.trace_id, attributes: trace.data || {} };
      for (const s of payload.spans || []) yield { traceId: s.trace_id, attributes: s.data || {} };
    }
  }
}

// v0.4: an array of traces, each an array of spans ({ trace_id, meta, … }, ids uint64).
// v0.5: [strings, traces], each span an array whose string fields index `strings`.
// The 128-bit trace id is `_dd.p.tid` (upper half, hex) before trace_id (lower half).
function* datadogSpans(body, path) {
  const decoded = decode(body, { useBigInt64: true });
  const v5 = path.startsWith('/v0.5');
  const strings = v5 ? decoded[0] : null;
  const str = (x) => (v5 ? strings[x] : x);
  for (const trace of v5 ? decoded[1] : decoded) {
    for (const raw of trace) {
      const span = v5 ? { trace_id: raw[3], meta: Object.fromEntries(Object.entries(raw[9] || {}).map(([k, v]) => [str(Number(k)), str(v)])) } : raw;
      const meta = span.meta || {};
      const low = BigInt.asUintN(64, BigInt(span.trace_id)).toString(16).padStart(16, '0');
      yield { traceId: `${meta['_dd.p.tid'] || ''}${low}`, attributes: meta };
    }
  }
}

if (require.main === module) {
  const port = Number(process.env.PORT || 0);
  const host = process.env.HOST || '127.0.0.1';
  const server = createSink();
  server.on('error', (err) => {
    process.stderr.write(`ctxbench: the agent sink cannot listen on ${host}:${port} (${err.code || err.message})\n`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    process.stdout.write(JSON.stringify({ message: 'ctxbench agent sink listening', port: server.address().port, pid: process.pid }) + '\n');
  });
  // The runner's pipe closing means the runner is gone, however it went.
  process.stdin.on('data', () => {});
  process.stdin.on('end', () => process.exit(0));
  process.once('SIGTERM', () => process.exit(0));
  process.once('SIGINT', () => process.exit(0));
}

module.exports = { createSink, sentrySpans, datadogSpans };
