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
const systemTools = require('../../lib/system-tools');
const { runCli, runCliInterrupted, assertServerGone } = require('../helpers/cli');
const { runDriverScenarios, checkCells } = require('../helpers/driver-run');
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
    if (!systemTools.find('mariadb')) return t.skip(`${systemTools.hint('mariadb')} (.ci/run installs it)`);
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
    if (!systemTools.find('mariadb')) return t.skip(`${systemTools.hint('mariadb')} (.ci/run installs it)`);
    const out = path.join(dir, 'int.json');
    // The session saves the run JSON once its services answer: the server is up.
    const r = await runCliInterrupted(
      [
        'integrity',
        '--strategies',
        'als',
        '--scenarios',
        SCENARIOS.join(','),
        '--requests',
        '2000',
        '--concurrency',
        '100',
        '--out',
        out,
        '--report',
        'none',
      ],
      { timeoutMs: 600000, when: () => fs.existsSync(out) },
    );
    assert.ok(r.sent, r.stderr);
    assert.strictEqual(r.code, 130, r.stderr);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(run.status, 'interrupted');
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
    if (!systemTools.find('mariadb')) return t.skip(`${systemTools.hint('mariadb')} (.ci/run installs it)`);
    const server =
      `${JSON.stringify(process.execPath)} ` +
      `${JSON.stringify(path.join(__dirname, '..', '..', 'examples', 'orders', 'server.js'))}`;
    const out = path.join(dir, 'orders.json');
    const r = await runCli([
      'app',
      '--with',
      'mariadb',
      '--baseline',
      server,
      '--candidate',
      `CONTEXT=als ${server}`,
      '--names',
      'param,als',
      '--path',
      '/orders/7',
      '--health',
      '/healthz',
      '--id-header',
      'x-request-id',
      '--probe',
      '--blocks',
      '3',
      '--windows',
      '1',
      '--window',
      '0.5',
      '--warmup',
      '0.5',
      '--out',
      out,
      '--report',
      'none',
    ]);
    assert.strictEqual(r.code, 0, r.stderr);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    for (const arm of ['baseline', 'candidate']) {
      const ids = run.app.ids[arm];
      assert.ok(
        ids.checked && ids.kept > 0 && ids.kept === ids.requests && ids.mismatches === 0 && ids.lost === 0,
        `${arm}: ${JSON.stringify(ids)}`,
      );
    }
    // The driver's work is counted: mysql2 answers each of the four queries through
    // process.nextTick (23 TickObjects per request measured on Node 24), at least one each.
    for (const side of run.probe.sides)
      assert.ok(side.perRequest.byType.TickObject >= 4, `${side.name}: ${JSON.stringify(side.perRequest)}`);
    assertServerGone(run.learned.mysql, 'mariadbd');
  },
);
