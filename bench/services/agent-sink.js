'use strict';
// The local endpoint the strategies with one send to (SINK_URL): Sentry's envelope API
// (POST /api/<project>/envelope/, JSON lines, gzip or not), the Datadog agent's trace API
// (PUT /v0.4/traces and /v0.5/traces, MessagePack) and an OTLP/HTTP receiver (POST
// /v1/traces, /v1/metrics, /v1/logs). It decodes what the agents send, so a run can say
// how many spans arrived and whether each client span sits in its own request's trace;
// OTLP it answers as a collector does and only counts (posts and bytes per signal, under
// `otlp`). Anything else is answered 404 and counted by path (`unexpected`), so a run
// shows what was tried.
//
// The span check, per agent. A request's span carries `ctxbench.id` (the strategies set
// it on the span they open or find at run()), which names the request and its trace. A
// client span names the request it was made for (handlers/scenarios/reads.js
// requestNamedBy: `?id=` in a URL, `ctxbench:<id>` in a query's SQL comment or a Redis
// key). checked: client spans whose request the sink knows; foreignTrace: in another
// request's trace; detached: in a trace of no request. Spans that never reached the sink
// are not in these counts: compare `requestSpans` with the requests sent. The same three
// counts per request named (GET /__owners?prefix=P: the requests whose id starts with P)
// let `ctxbench integrity` give each scenario its own, whenever the agent flushed them.
//
//   node bench/services/agent-sink.js     PORT (default 0), HOST 127.0.0.1; one JSON line when
//                                listening; GET /__counts answers the counts.
const { serveStandalone } = require('../../lib/standalone');
const http = require('node:http');
const zlib = require('node:zlib');
const { decode } = require('@msgpack/msgpack');
const { requestNamedBy } = require('../../handlers/scenarios/reads');

const KEEP_IDS = 50000;

const OTLP_SIGNALS = ['traces', 'metrics', 'logs'];

function emptyAgentCounts() {
  return { posts: 0, spans: 0, requestSpans: 0, checked: 0, foreignTrace: 0, detached: 0, undecodable: 0 };
}

// The span book behind the sink: the counts, the owners, and see(agent, span) that files
// each decoded span (createSink's server feeds it).
function spanBook() {
  const counts = {
    sentry: emptyAgentCounts(),
    datadog: emptyAgentCounts(),
    otlp: Object.fromEntries(OTLP_SIGNALS.map((signal) => [signal, { posts: 0, bytes: 0 }])),
    unexpected: { requests: 0, paths: {} },
  };
  // request id -> its trace, per agent; the oldest forgotten first.
  const traces = { sentry: new Map(), datadog: new Map() };
  const requestTraces = { sentry: new Set(), datadog: new Set() };
  // request named -> { agent, checked, foreignTrace, detached }; the oldest forgotten first.
  const owners = new Map();
  const tallyOwner = (agent, owner, outcome) => {
    if (!owners.has(owner)) owners.set(owner, { agent, checked: 0, foreignTrace: 0, detached: 0 });
    const o = owners.get(owner);
    o.checked++;
    if (outcome) o[outcome]++;
    if (owners.size > KEEP_IDS) owners.delete(owners.keys().next().value);
  };

  // Client spans whose request span has not arrived yet (Sentry sends a segment's spans
  // with its root last; an agent may flush a client span before its request's): judged
  // when it does.
  const pending = { sentry: new Map(), datadog: new Map() };

  function judge(agent, owner, traceId) {
    const c = counts[agent];
    const expected = traces[agent].get(owner);
    c.checked++;
    const outcome = traceId === expected ? null : requestTraces[agent].has(traceId) ? 'foreignTrace' : 'detached';
    if (outcome) c[outcome]++;
    tallyOwner(agent, owner, outcome);
  }

  function see(agent, { traceId, attributes }) {
    const c = counts[agent];
    c.spans++;
    const own = attributes['ctxbench.id'];
    if (own) {
      c.requestSpans++;
      traces[agent].set(String(own), traceId);
      requestTraces[agent].add(traceId);
      if (traces[agent].size > KEEP_IDS) traces[agent].delete(traces[agent].keys().next().value);
      const waiting = pending[agent].get(String(own));
      if (waiting) {
        pending[agent].delete(String(own));
        for (const t of waiting) judge(agent, String(own), t);
      }
      return;
    }
    const owner = requestNamedBy(attributes);
    if (!owner) return;
    if (traces[agent].has(owner)) return judge(agent, owner, traceId);
    if (!pending[agent].has(owner)) pending[agent].set(owner, []);
    pending[agent].get(owner).push(traceId);
    if (pending[agent].size > KEEP_IDS) pending[agent].delete(pending[agent].keys().next().value);
  }

  return { counts, owners, see };
}

function createSink() {
  const book = spanBook();
  const { counts } = book;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (d) => chunks.push(d));
    req.on('end', () => answer(book, req, res, chunks));
  });
  server.keepAliveTimeout = 10000;
  server.counts = () => counts;
  return server;
}

// One request to the sink, once its body is in: the counts, a payload decoded into the
// book, an OTLP export counted, or 404 counted by path.
function answer({ counts, owners, see }, req, res, chunks) {
  const path = req.url.split('?')[0];
  let body = Buffer.concat(chunks);
  const signal = req.method === 'POST' && /^\/v1\/(traces|metrics|logs)$/.exec(path)?.[1];
  if (signal) return otlp(counts, signal, req, res, body.length);
  try {
    if (req.headers['content-encoding'] === 'gzip') body = zlib.gunzipSync(body);
    if (req.method === 'GET' && path === '/__counts') return json(res, 200, counts);
    if (req.method === 'GET' && path === '/__owners') {
      const prefix = new URL(req.url, 'http://x').searchParams.get('prefix') || '';
      return json(
        res,
        200,
        Object.fromEntries([...owners].filter(([owner]) => prefix && owner.startsWith(prefix))),
      );
    }
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
}

// An OTLP/HTTP export, answered as a collector does: 200 and an empty Export*ServiceResponse,
// which is zero bytes in protobuf and `{}` in JSON. Not decoded: counted (bytes as sent,
// compressed or not). Another content type: 415, as a collector answers, counted unexpected.
function otlp(counts, signal, req, res, bytes) {
  const type = String(req.headers['content-type'] || '').split(';')[0].trim();
  if (type !== 'application/json' && type !== 'application/x-protobuf') {
    counts.unexpected.requests++;
    const key = `POST /v1/${signal} (${type.slice(0, 60) || 'no content-type'})`;
    counts.unexpected.paths[key] = (counts.unexpected.paths[key] || 0) + 1;
    return json(res, 415, {});
  }
  counts.otlp[signal].posts++;
  counts.otlp[signal].bytes += bytes;
  if (type === 'application/json') return json(res, 200, {});
  res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': 0 });
  return res.end();
}

function json(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
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
        const attributes = Object.fromEntries(
          Object.entries(s.attributes || {}).map(([k, v]) => [
            k,
            v && typeof v === 'object' && 'value' in v ? v.value : v,
          ]),
        );
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
      const span = v5
        ? {
            trace_id: raw[3],
            resource: str(raw[2]),
            meta: Object.fromEntries(Object.entries(raw[9] || {}).map(([k, v]) => [str(Number(k)), str(v)])),
          }
        : raw;
      const meta = span.meta || {};
      const low = BigInt.asUintN(64, BigInt(span.trace_id)).toString(16).padStart(16, '0');
      // The resource is where dd-trace puts a query's text (a SQL comment names the request).
      yield { traceId: `${meta['_dd.p.tid'] || ''}${low}`, attributes: { ...meta, 'dd.resource': span.resource } };
    }
  }
}

if (require.main === module) serveStandalone(createSink(), 'agent sink');

module.exports = { createSink, sentrySpans, datadogSpans };
