'use strict';
// Real PostgreSQL through a busy pg.Pool (2 clients, shared by every request, far fewer
// than the requests in flight): each request checks a client out, runs
// `SELECT $1::text` with its own id and reads the context where the driver calls back.
// A waiting request gets its client when another request releases one, i.e. from
// inside that other request (brianc/node-pg-pool#108, brianc/node-postgres#2533,
// skonves/express-http-context#15). The row must also be the request's own id: a
// driver that mixed up answers would show here too.
//   pg-callback        pool.connect(cb) and client.query(text, values, cb)
//   pg-callback-bound  the same callbacks wrapped with the strategy's bind
//   pg-promise         await pool.connect(), await client.query()
//   pg-promise-bound   the continuations handed to .then() through bind
// Needs PG_URL (ctxbench integrity starts a PostgreSQL, or takes --pg-url).
const { firstWrong, withBound, named } = require('./reads');

const SIZE = 2;
const SQL = 'SELECT $1::text AS id';

// The pool of a server without PG_URL: every checkout fails with one clear reason.
const unconfigured = {
  connect(cb) {
    const err = new Error('PG_URL is not set: the pg scenarios need a PostgreSQL (ctxbench integrity starts one)');
    if (cb) return setImmediate(cb, err);
    return Promise.reject(err);
  },
};

function createPool(config) {
  if (!config.pgUrl) return unconfigured;
  const { Pool } = require('pg');
  const pool = new Pool({ connectionString: config.pgUrl, max: SIZE });
  pool.on('error', () => {});
  return pool;
}

function create({ strategy, config = {} }) {
  const { current } = strategy;
  const bind = strategy.bind || ((fn) => fn);
  const same = (fn) => fn;

  const callbackStyle = (pool, wrap) => (req) =>
    new Promise((resolve, reject) => {
      pool.connect(
        wrap((err, client, release) => {
          if (err) return reject(err);
          const reads = [['in the pool.connect callback', current(req)]];
          client.query(
            named(SQL, req),
            [req.traceId],
            wrap((qerr, res) => {
              release(qerr);
              if (qerr) return reject(qerr);
              reads.push(
                ['in the client.query callback', current(req)],
                ['the row the query returned', res.rows[0].id],
              );
              resolve(firstWrong(req, reads));
            }),
          );
        }),
      );
    });

  const promiseStyle = (pool) => async (req) => {
    const client = await pool.connect();
    try {
      const reads = [['after await pool.connect()', current(req)]];
      const res = await client.query(named(SQL, req), [req.traceId]);
      reads.push(['after await client.query()', current(req)], ['the row the query returned', res.rows[0].id]);
      return firstWrong(req, reads);
    } finally {
      client.release();
    }
  };

  const promiseBound = (pool) => (req) =>
    pool.connect().then(
      bind((client) => {
        const reads = [['in .then() of pool.connect()', current(req)]];
        return client.query(named(SQL, req), [req.traceId]).then(
          bind((res) => {
            client.release();
            reads.push(['in .then() of client.query()', current(req)], ['the row the query returned', res.rows[0].id]);
            return firstWrong(req, reads);
          }),
          (err) => {
            client.release();
            throw err;
          },
        );
      }),
    );

  return {
    'pg-callback': callbackStyle(createPool(config), same),
    'pg-callback-bound': callbackStyle(createPool(config), bind),
    'pg-promise': promiseStyle(createPool(config)),
    'pg-promise-bound': promiseBound(createPool(config)),
  };
}

const WAITER =
  'pg-pool hands a released client to the oldest waiting connect() by calling its callback from release(), ' +
  "synchronously inside the request that released it, so the callback runs in that other request's context: " +
  'bind the callbacks (pg-callback-bound). The OpenTelemetry pg instrumentation binds them itself, which is ' +
  'why otel-selective, otel-full and the otel-sdk-otlp rows keep the id here';
// Sentry's pg instrumentation runs the callback in the caller's context (sentry keeps the
// id here), but Sentry installs its tracing integrations only with tracing on.
const SENTRY_ERRORS =
  `${WAITER}; sentry and sentry-10 keep it through Sentry's pg instrumentation, which errors-only Sentry ` +
  'does not install (its tracing integrations come only with tracing on)';

const SCENARIOS = [
  ...withBound(
    {
      name: 'pg-callback',
      needs: 'pg',
      describe:
        'real PostgreSQL, pg.Pool of 2 shared by all requests: pool.connect(cb) then client.query(text, ' +
        'values, cb); reads in both callbacks',
      control:
        'the callbacks run after the query round trip, by which time other requests overwrote the module variable',
      explain: { '*': WAITER, 'sentry-errors': SENTRY_ERRORS },
    },
    {
      describe: "as pg-callback, both callbacks wrapped with the strategy's bind",
      bound: 'the callbacks were',
    },
  ),
  ...withBound(
    {
      name: 'pg-promise',
      needs: 'pg',
      describe: 'same pool, promise style: await pool.connect(), await client.query(); reads after each await',
      control:
        'the continuations run after the query round trip, by which time other requests overwrote the module variable',
      // Kept by every context strategy measured: the continuation of an await runs in the
      // context that awaited, whoever resolves the promise.
      explain: {},
    },
    {
      describe: "as pg-promise, the continuations passed to .then() through the strategy's bind",
      bound: 'the continuations were',
    },
  ),
];

module.exports = { create, SCENARIOS, SIZE };
