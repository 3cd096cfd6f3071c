'use strict';
// Shared by the scenarios: the hops they cross and how a request reports its reads.

const immediate = () => new Promise((resolve) => setImmediate(resolve));
const timeout = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A scenario reads the context at several points; the request answers with ONE id: the
// first read that is not the id the request came in with (req.traceId, set on entry),
// else that id. So a single wrong read anywhere fails the whole request, and the client
// still classifies what comes back itself (own id, another request's id, or neither).
// The label of the failing read is left on req for the route's x-ctxbench-failed-read.
// reads: [[label, id], ...]
function firstWrong(req, reads) {
  for (const [label, id] of reads) {
    if (id !== req.traceId) {
      req.ctxbenchFailedRead = label;
      return id;
    }
  }
  return reads[0][1];
}

// A library scenario as users write it, and its `-bound` twin with the callbacks passed
// through the strategy's bind (remedy 'pool'), which needs what the plain one needs and
// has the same control explanation. twin: { describe, bound: 'the callbacks were' (what
// was bound, for the explanation of a strategy that still fails), explain? }.
function withBound(plain, { bound, explain = {}, ...twin }) {
  return [plain, {
    name: `${plain.name}-bound`,
    ...(plain.needs && { needs: plain.needs }),
    remedy: 'pool',
    control: plain.control,
    ...twin,
    explain: { ...explain, '*': `${bound} bound but still did not see the id` },
  }];
}

// The span check (is each client span in the trace of the request it was made for) needs
// every client span to name that request. A URL says it in `?id=` (undici, HOP=http); a
// Redis key or channel as `ctxbench:<id>`; a query as a second column named
// `ctxbench_<id>` (named): an identifier, because agents keep identifiers in the query
// text they record but drop comments and mask literals (Sentry 11 does both). Only a
// 32-hex id goes into SQL text, so no request header ever does.
const HEX_ID = /^[0-9a-f]{32}$/;
const NAMED = /\bctxbench[:_](?:reply:)?([0-9a-f]{32})\b/;
const named = (sql, req) => (HEX_ID.test(req.traceId) ? `${sql}, 0 AS ctxbench_${req.traceId}` : sql);

// The request a client span names, from its attributes (OpenTelemetry's, Sentry's, or
// dd-trace's meta with its resource added), or null.
function requestNamedBy(attributes) {
  const values = attributes['db.postgresql.values'];
  if (Array.isArray(values) && values.length) return String(values[0]);
  const url = attributes['url.full'] || attributes['http.url'];
  if (typeof url === 'string' && url.includes('id=')) {
    try {
      return new URL(url, 'http://x').searchParams.get('id');
    } catch {
      return null;
    }
  }
  for (const value of Object.values(attributes)) {
    const hit = typeof value === 'string' && NAMED.exec(value);
    if (hit) return hit[1];
  }
  return null;
}

module.exports = { immediate, timeout, firstWrong, withBound, named, requestNamedBy };
