'use strict';
// A second worked example for `ctxbench app`, of another shape than examples/app: an
// Express service that waits on a real database. Each request to /orders/:customer awaits
// four queries in turn through a mysql2 promise pool (the customer, their last orders,
// the lines of the newest one, a stock check per line, batched) and logs at the end, so
// most of its async resources are the driver's, not the handler's own. With CONTEXT=als a
// middleware keeps the request id and a per-request logger in AsyncLocalStorage, as a
// team's logging wrapper does; with CONTEXT=sentry, Sentry traces every request, its
// mysql2 instrumentation included (examples/app/instrument-sentry.js); without either the
// id is passed down as an argument. The answer echoes the X-Request-Id it was sent.
//
// MYSQL_URL names the server (mysql://user@host:port); `ctxbench app --with mariadb`
// starts a fresh MariaDB and sets it. The schema and its rows are made at start-up, so
// two processes started at once (a baseline and a candidate) make the same ones.
//
//   npx ctxbench app --with mariadb --baseline "node examples/orders/server.js" \
//     --candidate "CONTEXT=als node examples/orders/server.js" \
//     --path /orders/7 --health /healthz --id-header x-request-id
const CONTEXTS = ['param', 'als', 'sentry'];
const context = process.env.CONTEXT || 'param';
if (!CONTEXTS.includes(context)) {
  process.stderr.write(`CONTEXT=${context} is not one of ${CONTEXTS.join(', ')}\n`);
  process.exit(1);
}
if (!process.env.MYSQL_URL) {
  process.stderr.write('MYSQL_URL is not set (mysql://user@host:port): run it under `ctxbench app --with mariadb`\n');
  process.exit(1);
}
// Sentry before anything else: it instruments http, Express and mysql2 as they are required.
const Sentry = context === 'sentry' ? require('../app/instrument-sentry') : null;
const { AsyncLocalStorage } = require('node:async_hooks');
const express = require('express');
const mysql = require('mysql2/promise');

const CUSTOMERS = 100;
const PRODUCTS = 50;
const storage = new AsyncLocalStorage();
const lines = [];
const log = (fields, msg) => {
  lines.push({ ...fields, msg });
  if (lines.length > 1000) lines.length = 0;
};

const pool = mysql.createPool({ uri: process.env.MYSQL_URL, connectionLimit: 10, waitForConnections: true });

async function schema() {
  await pool.query('CREATE DATABASE IF NOT EXISTS orders_example');
  await pool.query('CREATE TABLE IF NOT EXISTS orders_example.customers (id INT PRIMARY KEY, name VARCHAR(40))');
  await pool.query(
    'CREATE TABLE IF NOT EXISTS orders_example.orders (id INT PRIMARY KEY, customer INT, placed INT, KEY ' +
      '(customer, placed))',
  );
  await pool.query(
    'CREATE TABLE IF NOT EXISTS orders_example.lines (id INT PRIMARY KEY, order_id INT, product INT, qty INT, ' +
      'KEY (order_id))',
  );
  await pool.query('CREATE TABLE IF NOT EXISTS orders_example.stock (product INT PRIMARY KEY, qty INT)');
  const rows = (n, f) => Array.from({ length: n }, (_, i) => f(i));
  await pool.query('INSERT IGNORE INTO orders_example.customers VALUES ?', [
    rows(CUSTOMERS, (i) => [i, `customer ${i}`]),
  ]);
  await pool.query('INSERT IGNORE INTO orders_example.orders VALUES ?', [
    rows(CUSTOMERS * 5, (i) => [i, i % CUSTOMERS, i]),
  ]);
  await pool.query('INSERT IGNORE INTO orders_example.lines VALUES ?', [
    rows(CUSTOMERS * 5 * 3, (i) => [i, Math.floor(i / 3), i % PRODUCTS, 1 + (i % 4)]),
  ]);
  await pool.query('INSERT IGNORE INTO orders_example.stock VALUES ?', [rows(PRODUCTS, (i) => [i, 100 + i])]);
}

// The request's id: from the argument (param), the store (als) or Sentry's scope.
function idOf(passed) {
  if (context === 'als') return storage.getStore()?.id;
  if (Sentry) return Sentry.getIsolationScope().getUser()?.id;
  return passed;
}

async function order(customer, id) {
  const [[who]] = await pool.execute('SELECT id, name FROM orders_example.customers WHERE id = ?', [customer]);
  const [orders] = await pool.execute(
    'SELECT id, placed FROM orders_example.orders WHERE customer = ? ORDER BY placed DESC LIMIT 3',
    [customer],
  );
  const [items] = await pool.execute('SELECT product, qty FROM orders_example.lines WHERE order_id = ?', [
    orders[0].id,
  ]);
  const [stock] = await pool.query('SELECT product, qty FROM orders_example.stock WHERE product IN (?)', [
    items.map((x) => x.product),
  ]);
  const own = idOf(id);
  log({ id: own, customer: who.id }, 'order read');
  return {
    id: own,
    customer: who.name,
    order: orders[0].id,
    lines: items.length,
    inStock: stock.every((s) => s.qty > 0),
  };
}

const app = express();
app.get('/healthz', (_req, res) => res.send('ok'));
if (context === 'als') {
  app.use((req, _res, next) => {
    const id = req.get('x-request-id') || '-';
    storage.run({ id, log: (msg) => log({ id }, msg) }, next);
  });
}
if (Sentry) {
  app.use((req, _res, next) => {
    Sentry.getIsolationScope().setUser({ id: req.get('x-request-id') || '-' });
    next();
  });
}
app.get('/orders/:customer', async (req, res) => {
  const customer = Number(req.params.customer) % CUSTOMERS;
  const result = await order(customer, context === 'param' ? req.get('x-request-id') || '-' : undefined);
  res.set('x-request-id', result.id).json(result);
});
if (Sentry) Sentry.setupExpressErrorHandler(app);

schema().then(
  () => app.listen(Number(process.env.PORT || 3000), '127.0.0.1'),
  (err) => {
    process.stderr.write(`could not prepare the example's tables: ${err.message}\n`);
    process.exit(1);
  },
);
