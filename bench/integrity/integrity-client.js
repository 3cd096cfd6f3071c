'use strict';
// The client side of `ctxbench integrity`: many concurrent requests to one local
// server, each with its own trace id, and every answer classified
//   kept    the request's own id
//   leaked  another request's id (or the request's own child context's id, 'child-<id>')
//   lost    anything else: empty (no context), the 'none' placeholder, garbage
// Transport failures and non-200 answers are counted apart as errors.
// Three ways of sending: concurrent requests over keep-alive connections (GET or a POST
// whose body goes out in pieces), and raw pipelined requests written back to back.
const http = require('node:http');
const net = require('node:net');
const { randomBytes } = require('node:crypto');
const { getJson } = require('../measure/http-client');

const REQUEST_TIMEOUT_MS = 30000;
const CHILD = 'child-';
const FAILED_READ = 'x-ctxbench-failed-read';

// Issues distinct 32-hex trace ids (random per checker, so nothing from an earlier run
// can match) and classifies answers against every id issued so far. sampledParent: whether
// its requests carry the id as a sampled W3C traceparent too (see traceHeader).
function createChecker({ sampledParent = true } = {}) {
  const prefix = randomBytes(4).toString('hex');
  const issued = new Set();
  let n = 0;
  return {
    issue() {
      const id = prefix + (n++).toString(16).padStart(24, '0');
      issued.add(id);
      return id;
    },
    classify(own, body) {
      if (body === own) return 'kept';
      if (issued.has(body)) return 'leaked';
      if (typeof body === 'string' && body.startsWith(CHILD) && issued.has(body.slice(CHILD.length))) return 'leaked';
      return 'lost';
    },
    get issuedCount() {
      return issued.size;
    },
    // Ids are prefix + a counter: the n-th id issued names its scenario by where n falls.
    prefix,
    sampledParent,
    indexOf: (id) => (typeof id === 'string' && id.startsWith(prefix) ? parseInt(id.slice(prefix.length), 16) : -1),
  };
}

function emptyTally() {
  return { requests: 0, kept: 0, lost: 0, leaked: 0, errors: 0, failedReads: {}, examples: [] };
}

// Records one answer; keeps a few examples of wrong ones for the JSON.
function record(tally, checker, own, res) {
  tally.requests++;
  if (res.error || res.status !== 200) {
    tally.errors++;
    if (tally.examples.length < 3) tally.examples.push({ sent: own, error: res.error || `HTTP ${res.status}` });
    return;
  }
  const verdict = checker.classify(own, res.body);
  tally[verdict]++;
  if (verdict !== 'kept') {
    const label = res.failedRead || 'unlabelled';
    tally.failedReads[label] = (tally.failedReads[label] || 0) + 1;
    if (tally.examples.length < 3)
      tally.examples.push({ sent: own, got: res.body.slice(0, 80), verdict, read: res.failedRead || null });
  }
}

function mergeTallies(parts) {
  const total = emptyTally();
  for (const t of parts) {
    for (const k of ['requests', 'kept', 'lost', 'leaked', 'errors']) total[k] += t[k];
    for (const [label, n] of Object.entries(t.failedReads))
      total.failedReads[label] = (total.failedReads[label] || 0) + n;
    total.examples.push(...t.examples.slice(0, 3 - total.examples.length));
  }
  return total;
}

// The same id as a W3C traceparent too: the OpenTelemetry SDK strategies' server span
// then continues the request's own trace, so a span found in another request's trace
// (the span check, otel-sdk.js) is plainly that request's. Not to a head-sampled row
// (sampledParent false): a sampled parent would make its sampler trace every request.
const traceHeader = (id, sampledParent = true) => ({
  'x-cloud-trace-context': `${id}/1;o=1`,
  ...(sampledParent && { traceparent: `00-${id}-00f067aa0ba902b7-01` }),
});
const { setTimeout: sleep } = require('node:timers/promises');

// One request on agent; body: undefined for GET, else an array of pieces sent gapMs apart.
function request(url, { agent, id, method = 'GET', pieces, gapMs = 20, sampledParent = true }) {
  return new Promise((resolve) => {
    let settled = false;
    const done = (r) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const headers = { ...traceHeader(id, sampledParent), ...(pieces ? { 'content-type': 'text/plain' } : {}) };
    const req = http.request(url, { method, agent, headers, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () =>
        done({ status: res.statusCode, body, failedRead: res.headers[FAILED_READ], reused: req.reusedSocket }),
      );
      res.on('error', (err) => done({ error: err.code || err.message }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => done({ error: err.code || err.message }));
    if (!pieces) return req.end();
    (async () => {
      for (let i = 0; i < pieces.length - 1; i++) {
        req.write(pieces[i]);
        await sleep(gapMs);
      }
      req.end(pieces[pieces.length - 1]);
    })();
  });
}

// `total` requests to base+path, `concurrency` in flight (each worker sends its requests
// one after another on a kept-alive connection of its own). Returns a tally plus how
// many requests went out on a reused connection.
async function fire(base, path, { checker, total, concurrency, method = 'GET', pieces, gapMs, onProgress, stop }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const tally = emptyTally();
  let reused = 0;
  let next = 0;
  const worker = async () => {
    while (next < total && !stop?.requested) {
      next++;
      const id = checker.issue();
      const { sampledParent } = checker;
      const res = await request(base + path, { agent, id, method, pieces, gapMs, sampledParent });
      if (res.reused) reused++;
      record(tally, checker, id, res);
      if (onProgress && tally.requests % 1000 === 0) onProgress(tally.requests, total);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  } finally {
    agent.destroy();
  }
  return { ...tally, reusedConnections: reused };
}

// Parses as many complete HTTP/1.1 responses (content-length bodies) as buf holds.
function parseResponses(buf) {
  const out = [];
  let rest = buf;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const head = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(head[0].split(' ')[1]);
    const headers = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    if (headers['transfer-encoding']) throw new Error('pipelined answer is chunked; only content-length is supported');
    const length = Number(headers['content-length'] || 0);
    if (rest.length < end + 4 + length) break;
    out.push({
      status,
      body: rest.subarray(end + 4, end + 4 + length).toString('utf8'),
      failedRead: headers[FAILED_READ],
    });
    rest = rest.subarray(end + 4 + length);
  }
  return { responses: out, rest };
}

// Writes `pipeline` requests back to back on one raw socket, reads the answers (in
// order), repeats until `count` requests went out on it.
function pipelinedSocket({ host, port, path, count, pipeline, checker, tally, stop }) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(REQUEST_TIMEOUT_MS);
    let sent = 0;
    let pending = [];
    let buf = Buffer.alloc(0);
    const sendBatch = () => {
      const n = Math.min(pipeline, count - sent);
      if (n <= 0 || stop?.requested) return socket.end();
      let text = '';
      for (let i = 0; i < n; i++) {
        const id = checker.issue();
        pending.push(id);
        const headers = Object.entries(traceHeader(id, checker.sampledParent)).map(([k, v]) => `${k}: ${v}\r\n`);
        text += `GET ${path} HTTP/1.1\r\nhost: ${host}:${port}\r\n${headers.join('')}\r\n`;
      }
      sent += n;
      socket.write(text);
    };
    const fail = (error) => {
      for (const id of pending) record(tally, checker, id, { error });
      pending = [];
      socket.destroy();
    };
    socket.on('connect', sendBatch);
    socket.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      let parsed;
      try {
        parsed = parseResponses(buf);
      } catch (err) {
        return fail(err.message);
      }
      buf = parsed.rest;
      for (const res of parsed.responses) record(tally, checker, pending.shift(), res);
      if (pending.length === 0) sendBatch();
    });
    socket.on('timeout', () => fail('timeout'));
    socket.on('error', (err) => fail(err.code || err.message));
    socket.on('close', () => {
      if (pending.length) fail('connection closed');
      resolve();
    });
  });
}

// total requests over ceil(concurrency / pipeline) raw sockets, `pipeline` in flight on
// each: about `concurrency` requests in flight overall.
async function firePipelined(base, path, { checker, total, concurrency, pipeline = 10, stop }) {
  const { hostname: host, port } = new URL(base);
  const sockets = Math.max(1, Math.ceil(concurrency / pipeline));
  const tally = emptyTally();
  const per = Array.from({ length: sockets }, (_, i) => Math.floor(total / sockets) + (i < total % sockets ? 1 : 0));
  await Promise.all(
    per.map((count) => pipelinedSocket({ host, port: Number(port), path, count, pipeline, checker, tally, stop })),
  );
  return { ...tally, sockets, pipeline };
}

// A small POST without a body, answered with JSON (the soak's /__gc).
function postJson(url) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', timeout: REQUEST_TIMEOUT_MS, headers: { connection: 'close' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`${url} answered HTTP ${res.statusCode}`));
          try {
            resolve(JSON.parse(body));
          } catch {
            reject(new Error(`${url} did not answer JSON`));
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url}`)));
    req.on('error', reject);
    req.end();
  });
}

// The OpenTelemetry span check of a server (/__stats), or null for strategies without
// one. A scenario's figures are the difference of two readings around it.
async function spanCounts(base) {
  const stats = await getJson(`${base}/__stats`).catch(() => null);
  if (!stats || typeof stats.spansChecked !== 'number') return null;
  return { checked: stats.spansChecked, foreignTrace: stats.spansForeignTrace, detached: stats.spansDetached };
}

function spanDelta(before, after) {
  if (!before || !after) return null;
  return {
    checked: after.checked - before.checked,
    foreignTrace: after.foreignTrace - before.foreignTrace,
    detached: after.detached - before.detached,
  };
}

module.exports = {
  spanCounts,
  spanDelta,
  createChecker,
  emptyTally,
  mergeTallies,
  record,
  fire,
  firePipelined,
  parseResponses,
  postJson,
};
