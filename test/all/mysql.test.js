'use strict';
// Tier: all (needs MariaDB: the MySQL driver scenarios against a real mariadbd, and Ctrl-C during them)
// The MySQL driver scenarios (handlers/scenarios/mysql.js) against a real MariaDB that
// `ctxbench integrity` starts itself (bench/services/mariadb.js) and removes: 200 requests, 100 in
// flight, each with its own id, every answer checked. A planted strategy that follows the
// id through promises only (v8 promise hooks) loses it in every mysql2 callback and keeps
// it in the promise API: the scenarios test what they claim.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { assertServerGone } = require('../helpers/cli');
const { assertIdsKept, runExampleApp } = require('../helpers/app-services');
const {
  skipWithoutServer,
  runDriverScenarios,
  interruptDriverScenarios,
  checkCells,
} = require('../helpers/driver-run');
const { tempDir } = require('../helpers/tmp');

const dir = tempDir('ctxbench-mysql-test-');
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

const SCENARIOS = ['mysql-callback', 'mysql-callback-bound', 'mysql-query', 'mysql-query-bound', 'mysql-promise'];
const EXPECTED = {
  // mysql2's pool calls a waiting getConnection() back from another request's release().
  als: { 'mysql-callback': 'leaks', 'mysql-query': 'leaks', '*': 'kept' },
  'promise-only': { 'mysql-promise': 'kept', '*': 'not kept' },
  global: { '*': 'leaks' },
};
const TOTAL = 200;

test(
  'ctxbench integrity: mysql2 against a real MariaDB it starts and removes; ' +
    'a promise-only strategy loses the id in every callback and keeps it in the promise API',
  { timeout: 600000 },
  async (t) => {
    if (skipWithoutServer(t, 'mariadb')) return;
    const run = await runDriverScenarios({ dir, scenarios: SCENARIOS, total: TOTAL, name: 'mysql' });
    assert.match(run.learned.mysql.server, /^MariaDB \d+\.\d+/, 'the server version the scenarios ran against');
    checkCells(run.integrity.cells, EXPECTED, TOTAL);
    for (const c of run.integrity.cells.filter((x) => x.strategy === 'als' && x.verdict !== 'kept'))
      assert.match(c.explanation, /release\(\)/, c.scenario);
    assertServerGone(run.learned.mysql, 'mariadbd');
  },
);

test(
  'Ctrl-C during the MySQL scenarios: exit 130, the run kept, no mariadbd left and its folder gone',
  { timeout: 600000 },
  async (t) => {
    if (skipWithoutServer(t, 'mariadb')) return;
    const run = await interruptDriverScenarios({ dir, scenarios: SCENARIOS, strategies: ['als'] });
    assertServerGone(run.learned.mysql, 'mariadbd');
  },
);

// The second example service (examples/orders): four mysql2 queries per request against the
// MariaDB `ctxbench app --with mariadb` starts for the run and removes after it; both sides
// keep every id (the ALS one through the driver's promise API), and the probe counts the
// driver's resources in a process that still reaches the database.
test(
  'ctxbench app --with mariadb: examples/orders, plain and with ALS, ' +
    'every id kept, the probe counted, no mariadbd left',
  { timeout: 600000 },
  async (t) => {
    if (skipWithoutServer(t, 'mariadb')) return;
    const { run } = await runExampleApp({
      example: 'orders',
      context: 'als',
      service: 'mariadb',
      out: path.join(dir, 'orders.json'),
      extra: ['--path', '/orders/7', '--probe'],
    });
    for (const arm of ['baseline', 'candidate']) assertIdsKept(run.app.ids[arm], arm);
    // The driver's work is counted: mysql2 answers each of the four queries through
    // process.nextTick (23 TickObjects per request measured on Node 24), at least one each.
    for (const side of run.probe.sides)
      assert.ok(side.perRequest.byType.TickObject >= 4, `${side.name}: ${JSON.stringify(side.perRequest)}`);
    assertServerGone(run.learned.mysql, 'mariadbd');
  },
);
