'use strict';
// The downstream service of HOP=http and of the undici integrity scenarios: a second
// local ctxbench process that answers every request with the trace id it received
// (W3C `traceparent`, else `x-request-id`, parsed as the main server parses them), so
// the caller can check that what it forwarded was its own request's id. Plain
// node:http with keep-alive; it carries no context of its own and does nothing else.
//
//   node handlers/downstream.js        PORT (default 0 = any free port), HOST 127.0.0.1
// prints one JSON line {"message":"ctxbench downstream listening","port":N} when ready.
const { serveStandalone } = require('../lib/standalone');
const http = require('node:http');
const { fromTraceparent, fromRequestId } = require('./trace');

// Several traceparent headers (a caller's own and an instrumentation's) arrive joined
// with ", ": each is answered, in order, so the caller sees every trace it forwarded.
function idsOf(headers) {
  const ids = String(headers.traceparent || '')
    .split(',')
    .map((v) => fromTraceparent(v.trim()))
    .filter(Boolean);
  if (ids.length) return ids;
  const rid = fromRequestId(headers['x-request-id']);
  return rid ? [rid] : [];
}

function createDownstream() {
  let requests = 0;
  const server = http.createServer((req, res) => {
    if (req.url === '/healthz') return res.end('ok\n');
    requests++;
    const body = idsOf(req.headers).join(',');
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  // Longer than the callers' keep-alive (undici's 4 s default), so the caller, not the
  // server, closes idle connections and never writes into one being closed.
  server.keepAliveTimeout = 10000;
  server.stats = () => ({ requests });
  return server;
}

if (require.main === module) serveStandalone(createDownstream(), 'downstream');

module.exports = { createDownstream, idsOf };
