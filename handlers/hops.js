'use strict';
// One async hop between two levels of the chain. Each returns something to await.
// 'await' is a microtask only: a whole request can finish before the next one is even
// parsed, so it never interleaves requests. The macrotask hops are the ones under which
// a broken context leaks.
const { EventEmitter } = require('node:events');

const RESOLVED = Promise.resolve();

const HOPS = {
  await: () => RESOLVED,
  nexttick: () => new Promise((resolve) => process.nextTick(resolve)),
  immediate: () => new Promise((resolve) => setImmediate(resolve)),
  timeout: () => new Promise((resolve) => setTimeout(resolve, 0)),
  emitter: () => {
    const emitter = new EventEmitter();
    const arrived = new Promise((resolve) => emitter.once('hop', resolve));
    setImmediate(() => emitter.emit('hop'));
    return arrived;
  },
  // An object with then(), not a Promise: awaited through PromiseResolveThenableJob.
  thenable: () => ({ then: (resolve) => setImmediate(resolve) }),
};

const ROTATION = Object.values(HOPS);
// 'mixed' takes a different hop at each level, in a fixed rotation.
const mixedHop = (level) => ROTATION[level % ROTATION.length]();

// Real I/O hops: each level sends the id it read and gets back what the other side
// saw; the chain compares the two. 'pg': `SELECT $1::text` through one pg.Pool shared
// by the process (PG_POOL_SIZE clients, fewer than the requests in flight, so requests
// queue for a client); 'mysql': `SELECT ? AS id` through one mysql2 promise pool of as
// many connections, on MariaDB; 'redis': `ECHO id` through one ioredis client (Redis
// pipelines a client's commands on its one connection); 'http': a GET to the downstream
// service through one undici keep-alive Agent, the id forwarded as a W3C traceparent.
// All are built at start-up, outside any request, like a real service's pool and client.
const IO = ['pg', 'mysql', 'redis', 'http'];
// Hops that wait on a timer: a server using them is idle part of the time whatever its load.
const TIMERS = ['timeout', 'mixed'];

// 'sync' is plain recursion with no hop at all (how the study's code actually ran).
const names = ['await', 'sync', 'nexttick', 'immediate', 'timeout', 'emitter', 'thenable', 'mixed', ...IO];

// Any fixed, valid parent span id: the id travels in the trace-id part.
const PARENT_SPAN = '00f067aa0ba902b7';
const HEX_TRACE = /^(?!0{32})[0-9a-f]{32}$/;

// With an OpenTelemetry propagator installed (otel-selective, otel-full) the undici
// instrumentation writes the traceparent of the active span itself: a second one from
// here would only duplicate it. Without one, forward the id by hand, as a service does.
function forwardsByHand() {
  const { propagation } = require('@opentelemetry/api');
  return !propagation.fields().includes('traceparent');
}

function createPgHop({ pgUrl, pgPoolSize }) {
  const { Pool } = require('pg');
  const pool = new Pool({ connectionString: pgUrl, max: pgPoolSize });
  // An idle client's connection failing must not crash the server; the next query fails.
  pool.on('error', () => {});
  const hop = (level, id) => pool.query('SELECT $1::text AS id', [String(id)]).then((r) => r.rows[0].id);
  hop.close = () => pool.end();
  return hop;
}

function createMysqlHop({ mysqlUrl, pgPoolSize }) {
  const mysql = require('mysql2/promise');
  const pool = mysql.createPool({ uri: mysqlUrl, connectionLimit: pgPoolSize, waitForConnections: true });
  pool.pool.on('error', () => {});
  const hop = (level, id) => pool.query('SELECT ? AS id', [String(id)]).then(([rows]) => String(rows[0].id));
  hop.close = () => pool.end();
  return hop;
}

function createRedisHop({ redisUrl }) {
  const Redis = require('ioredis');
  const client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  const hop = (level, id) => client.echo(String(id));
  hop.close = () => client.quit().catch(() => {});
  return hop;
}

function createHttpHop({ downstreamUrl }) {
  const { Agent, request } = require('undici');
  const dispatcher = new Agent({ keepAliveTimeout: 4000, connections: 128 });
  const byHand = forwardsByHand();
  const hop = async (level, id) => {
    const text = String(id);
    const headers = {};
    if (byHand) {
      if (HEX_TRACE.test(text)) headers.traceparent = `00-${text}-${PARENT_SPAN}-01`;
      else headers['x-request-id'] = text;
    }
    // The id in the query too: the span check of otel-sdk.js finds the request a
    // client span was made for in its URL.
    const res = await request(`${downstreamUrl}/?id=${encodeURIComponent(text)}`, { dispatcher, headers });
    const body = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`downstream answered HTTP ${res.statusCode}`);
    // An instrumentation that injects a traceparent of its own beside ours (dd-trace's
    // undici integration does) adds it after the caller's headers, and the downstream
    // answers each one in order: the first is the id this level forwarded. The agent's
    // own trace is its business; this hop checks the strategy's context.
    if (byHand) return body.split(',')[0];
    // The instrumentation forwarded the active span's trace, not the id: this request's
    // own trace is the right answer.
    const { trace } = require('@opentelemetry/api');
    const own = trace.getActiveSpan()?.spanContext().traceId;
    return body === own ? text : body;
  };
  hop.close = () => dispatcher.close();
  return hop;
}

// (level, id) => Promise of the id the other side saw; null for the in-process hops.
function createIoHop(hop, config) {
  if (hop === 'pg') return createPgHop(config);
  if (hop === 'mysql') return createMysqlHop(config);
  if (hop === 'redis') return createRedisHop(config);
  if (hop === 'http') return createHttpHop(config);
  return null;
}

module.exports = { HOPS, mixedHop, names, IO, TIMERS, createIoHop, PARENT_SPAN };
