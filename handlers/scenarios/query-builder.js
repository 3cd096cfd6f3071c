'use strict';
// A query builder in the knex/mongoose style: select(…).where(…) returns a builder that
// is a thenable, not a Promise, and starts its query inside then() (here a real
// `SELECT $1::text` through a pg.Pool of 2, callback API, so the driver's callback
// resolves it). Reads: after `await builder` (query-builder), or in the onFulfilled
// passed to builder.then() through the strategy's bind (query-builder-bound); plus the
// row returned. Needs PG_URL.
const { firstWrong, withBound, named } = require('./reads');

const SIZE = 2;

function createBuilder(config) {
  let pool = null;
  if (config.pgUrl) {
    const { Pool } = require('pg');
    pool = new Pool({ connectionString: config.pgUrl, max: SIZE });
    pool.on('error', () => {});
  }
  return (column) => {
    const state = { column, value: null };
    const builder = {
      where(value) {
        state.value = value;
        return builder;
      },
      then(onFulfilled, onRejected) {
        if (!pool)
          return onRejected(
            new Error(
              'PG_URL is not set: the query-builder scenarios need a PostgreSQL (ctxbench integrity starts one)',
            ),
          );
        pool.query(named(`SELECT $1::text AS ${state.column}`, { traceId: state.value }), [state.value], (err, res) =>
          err ? onRejected(err) : onFulfilled(res.rows[0][state.column]),
        );
        return undefined;
      },
    };
    return builder;
  };
}

function create({ strategy, config = {} }) {
  const { current } = strategy;
  const bind = strategy.bind || ((fn) => fn);
  const plain = createBuilder(config);
  const bound = createBuilder(config);
  return {
    'query-builder': async (req) => {
      const row = await plain('id').where(req.traceId);
      return firstWrong(req, [
        ['after await of the query builder', current(req)],
        ['the row the query returned', row],
      ]);
    },
    'query-builder-bound': (req) =>
      new Promise((resolve, reject) => {
        bound('id')
          .where(req.traceId)
          .then(
            bind((row) =>
              resolve(
                firstWrong(req, [
                  ['in the onFulfilled passed to then()', current(req)],
                  ['the row the query returned', row],
                ]),
              ),
            ),
            reject,
          );
      }),
  };
}

const CONTROL =
  'the query answers after a round trip to PostgreSQL, by which time other requests overwrote the module variable';

const SCENARIOS = [
  ...withBound(
    {
      name: 'query-builder',
      needs: 'pg',
      describe:
        'knex-style thenable builder whose then() runs SELECT $1::text through a pg.Pool of 2 (callback API); ' +
        'the id after `await builder`',
      control: CONTROL,
      // Kept by every context strategy measured: the driver's callback resolves the
      // promise that `await` made, and the continuation runs in the awaiting context.
      explain: {},
    },
    {
      describe: "as query-builder, the onFulfilled passed to builder.then() through the strategy's bind",
      bound: 'the onFulfilled was',
    },
  ),
];

module.exports = { create, SCENARIOS };
