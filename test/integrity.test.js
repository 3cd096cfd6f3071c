'use strict';
// Tier: quick (the matrix's table checked against the registry, and none
// on a real server; the matrix itself is in test/all/integrity.test.js)
// Context integrity under concurrency (the matrix, every strategy x every hop on real
// servers: test/all/integrity.test.js). Here: the measured table (test/helpers/
// integrity-table.js) covers every registered strategy and hop, and `none` answers the
// all-zero id, every request counted as lost.
const test = require('node:test');
const assert = require('node:assert');
const strategies = require('../context');
const hops = require('../handlers/hops');
const { startServer, fireConcurrent, get } = require('./helpers/server');
const {
  TOTAL,
  CONCURRENCY,
  DEPTH,
  COLUMNS,
  EXPECTED,
  ALSCONTEXT_CLS_DEFECT,
  assertOutcome,
} = require('./helpers/integrity-table');

// `none` carries no context at all: it answers the all-zero id to everybody.
const NO_ID = '0'.repeat(32);

test('the tables cover every registered strategy (but none) and every hop', () => {
  // The real I/O hops (pg, http) need PostgreSQL and the downstream: test/all/io.test.js.
  assert.deepStrictEqual([...COLUMNS].sort(), hops.names.filter((h) => !hops.IO.includes(h)).sort());
  // The rows with an endpoint need their sink (and the APM agents their cache install):
  // test/all/agents.test.js, test/deployed-rows.test.js.
  const registered = strategies.names.filter(
    (s) => s !== 'none' && !strategies.info(s).testOnly && !strategies.info(s).sink,
  );
  assert.deepStrictEqual(Object.keys(EXPECTED).sort(), registered.sort());
  for (const row of Object.values(EXPECTED)) assert.strictEqual(row.length, COLUMNS.length);
  for (const hop of ALSCONTEXT_CLS_DEFECT.lostOnHops) {
    assert.strictEqual(EXPECTED[ALSCONTEXT_CLS_DEFECT.strategy][COLUMNS.indexOf(hop)], 'lost');
  }
  assert.ok(strategies.info('global').control, 'global is the registered control');
});

test('STRATEGY=none answers the all-zero id: every request counts as lost', { timeout: 600000 }, async (t) => {
  const server = await startServer({ STRATEGY: 'none', HOP: 'immediate', DEPTH: String(DEPTH) }, { timeoutMs: 300000 });
  t.after(() => server.stop());
  const one = await get(server.url + '/', { headers: { 'x-cloud-trace-context': `${'ab'.repeat(16)}/1;o=1` } });
  assert.strictEqual(one.body, NO_ID);
  assertOutcome('lost', await fireConcurrent(server.url + '/', { total: TOTAL, concurrency: CONCURRENCY }), 'none');
});
