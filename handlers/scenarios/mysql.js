'use strict';
// A real MariaDB through mysql2, a pool of 2 connections shared by every request (far
// fewer than the requests in flight), as services share theirs: each request runs
// `SELECT ? AS id` with its own id and reads the context where the driver calls back; the
// row must be the request's own id too (skonves/express-http-context#15, nodejs/help#3186:
// MySQL driver callbacks lose the context or return another request's).
//   mysql-callback        pool.getConnection(cb), then connection.query(sql, values, cb)
//   mysql-query           pool.query(sql, values, cb): the pool checks a connection out itself
//   mysql-promise         the promise API: await pool.getConnection(), await connection.query()
// The -bound twins pass the callbacks through the strategy's bind. Needs MYSQL_URL
// (ctxbench integrity starts a MariaDB and sets it).
const { firstWrong, withBound, named } = require('./reads');

const SIZE = 2;
const SQL = 'SELECT ? AS id';
const NAMES = ['mysql-callback', 'mysql-callback-bound', 'mysql-query', 'mysql-query-bound', 'mysql-promise'];

// Without MYSQL_URL every scenario fails with the reason.
function unavailable() {
  const missing = () =>
    Promise.reject(
      new Error(
        'MYSQL_URL is not set: the MySQL scenarios need a MySQL or MariaDB server (ctxbench integrity starts one)',
      ),
    );
  return Object.fromEntries(NAMES.map((n) => [n, missing]));
}

function create({ strategy, config = {} }) {
  const { current } = strategy;
  const bind = strategy.bind || ((fn) => fn);
  const same = (fn) => fn;
  if (!config.mysqlUrl) return unavailable();
  const mysql = require('mysql2');
  // One pool per style, each opened at start-up outside any request.
  const open = () => {
    const pool = mysql.createPool({ uri: config.mysqlUrl, connectionLimit: SIZE, waitForConnections: true });
    pool.on('error', () => {});
    return pool;
  };

  const callbackStyle = (pool, wrap) => (req) =>
    new Promise((resolve, reject) => {
      pool.getConnection(
        wrap((err, connection) => {
          if (err) return reject(err);
          const reads = [['in the pool.getConnection callback', current(req)]];
          connection.query(
            named(SQL, req),
            [req.traceId],
            wrap((qerr, rows) => {
              connection.release();
              if (qerr) return reject(qerr);
              reads.push(
                ['in the connection.query callback', current(req)],
                ['the row the query returned', rows[0].id],
              );
              resolve(firstWrong(req, reads));
            }),
          );
        }),
      );
    });

  const queryStyle = (pool, wrap) => (req) =>
    new Promise((resolve, reject) => {
      pool.query(
        named(SQL, req),
        [req.traceId],
        wrap((err, rows) => {
          if (err) return reject(err);
          resolve(
            firstWrong(req, [
              ['in the pool.query callback', current(req)],
              ['the row the query returned', rows[0].id],
            ]),
          );
        }),
      );
    });

  const promiseStyle = (pool) => async (req) => {
    const connection = await pool.getConnection();
    try {
      const reads = [['after await pool.getConnection()', current(req)]];
      const [rows] = await connection.query(named(SQL, req), [req.traceId]);
      reads.push(['after await connection.query()', current(req)], ['the row the query returned', rows[0].id]);
      return firstWrong(req, reads);
    } finally {
      connection.release();
    }
  };

  return {
    'mysql-callback': callbackStyle(open(), same),
    'mysql-callback-bound': callbackStyle(open(), bind),
    'mysql-query': queryStyle(open(), same),
    'mysql-query-bound': queryStyle(open(), bind),
    'mysql-promise': promiseStyle(open().promise()),
  };
}

const AFTER_ROUND_TRIP =
  'the callbacks run after the query round trip, by which time other requests overwrote the module variable';
// mysql2/lib/base/pool.js _handleSuccessfulRelease: a released connection goes to the oldest
// waiting getConnection() through process.nextTick inside release(), i.e. inside the
// request that released it.
const WAITER =
  "mysql2's pool hands a released connection to the oldest waiting getConnection() from release() (a " +
  'process.nextTick inside the request that released it), so the callback, and the query made on that ' +
  "connection, run in that other request's context: bind the callbacks (the -bound twin); the promise API " +
  'keeps the id, because an await resumes in the context that awaited';
// Sentry's mysql2 instrumentation runs the callback in the caller's context (sentry keeps
// the id here), but Sentry installs its tracing integrations only with tracing on.
const SENTRY_ERRORS =
  `${WAITER}; sentry and sentry-10 keep it through Sentry's mysql2 instrumentation, which errors-only ` +
  'Sentry does not install (its tracing integrations come only with tracing on)';

const SCENARIOS = [
  ...withBound(
    {
      name: 'mysql-callback',
      needs: 'mysql',
      describe:
        'real MariaDB, mysql2 pool of 2 shared by all requests: pool.getConnection(cb) then ' +
        'connection.query(sql, values, cb); reads in both callbacks and the row',
      control: AFTER_ROUND_TRIP,
      explain: { '*': WAITER, 'sentry-errors': SENTRY_ERRORS },
    },
    { describe: "as mysql-callback, both callbacks wrapped with the strategy's bind", bound: 'the callbacks were' },
  ),
  ...withBound(
    {
      name: 'mysql-query',
      needs: 'mysql',
      describe:
        'the same kind of pool, pool.query(sql, values, cb): the pool checks a connection out and back ' +
        'itself; reads in the callback and the row',
      control: AFTER_ROUND_TRIP,
      explain: { '*': WAITER, 'sentry-errors': SENTRY_ERRORS },
    },
    { describe: "as mysql-query, the callback wrapped with the strategy's bind", bound: 'the callback was' },
  ),
  {
    name: 'mysql-promise',
    needs: 'mysql',
    describe:
      'the promise API of the same kind of pool: await pool.getConnection(), await connection.query(); reads ' +
      'after each await and the row',
    control: AFTER_ROUND_TRIP,
    explain: {},
  },
];

module.exports = { create, SCENARIOS, SIZE };
