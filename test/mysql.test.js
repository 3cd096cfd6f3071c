'use strict';
// The MySQL driver scenarios (handlers/scenarios/mysql.js) against a real MariaDB that
// `ctxbench integrity` starts itself (bench/mariadb.js) and removes: 200 requests, 100 in
// flight, each with its own id, every answer checked. A planted strategy that follows the
// id through promises only (v8 promise hooks) loses it in every mysql2 callback and keeps
// it in the promise API: the scenarios test what they claim.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const systemTools = require('../lib/system-tools');
const { runCli, runCliInterrupted, assertServerGone } = require('./helpers/cli');
const { PROMISE_ONLY } = require('./helpers/promise-only');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-mysql-test-'));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

const SCENARIOS = ['mysql-callback', 'mysql-callback-bound', 'mysql-query', 'mysql-query-bound', 'mysql-promise'];
const EXPECTED = {
  // mysql2's pool calls a waiting getConnection() back from another request's release().
  als: { 'mysql-callback': 'leaks', 'mysql-query': 'leaks', '*': 'kept' },
  'promise-only': { 'mysql-promise': 'kept', '*': 'not kept' },
  global: { '*': 'leaks' },
};
const TOTAL = 200;


test('ctxbench integrity: mysql2 against a real MariaDB it starts and removes; a promise-only strategy loses the id in every callback and keeps it in the promise API', { timeout: 600000 }, async (t) => {
  if (!systemTools.find('mariadb')) return t.skip(`${systemTools.hint('mariadb')} (.ci/run installs it)`);
  const file = path.join(dir, 'promise-only.js');
  fs.writeFileSync(file, PROMISE_ONLY);
  const out = path.join(dir, 'mysql.json');
  const r = await runCli(['integrity', '--strategy-file', file, '--strategies', 'als,global', '--scenarios', SCENARIOS.join(','),
    '--requests', String(TOTAL), '--concurrency', '100', '--out', out, '--report', 'none'], { timeoutMs: 600000 });
  assert.strictEqual(r.code, 0, r.stderr);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.strictEqual(run.status, 'complete');
  assert.match(run.settings.mysql.server, /^MariaDB \d+\.\d+/, 'the server version the scenarios ran against');
  assert.strictEqual(run.integrity.cells.length, 3 * SCENARIOS.length);
  for (const c of run.integrity.cells) {
    const detail = `${c.strategy} ${c.scenario}: ${JSON.stringify({ kept: c.kept, lost: c.lost, leaked: c.leaked, errors: c.errors })}`;
    assert.strictEqual(c.errors, 0, detail);
    assert.strictEqual(c.kept + c.lost + c.leaked, TOTAL, detail);
    const want = EXPECTED[c.strategy][c.scenario] ?? EXPECTED[c.strategy]['*'];
    if (want === 'kept') assert.strictEqual(c.kept, TOTAL, detail);
    else if (want === 'not kept') assert.ok(c.kept < TOTAL / 2, detail);
    else assert.ok(c.leaked > TOTAL / 2, detail);
    if (c.strategy === 'als' && want !== 'kept') assert.match(c.explanation, /release\(\)/, detail);
  }
  assertServerGone(run.settings.mysql, 'mariadbd');
});

test('Ctrl-C during the MySQL scenarios: exit 130, the run kept, no mariadbd left and its folder gone', { timeout: 600000 }, async (t) => {
  if (!systemTools.find('mariadb')) return t.skip(`${systemTools.hint('mariadb')} (.ci/run installs it)`);
  const out = path.join(dir, 'int.json');
  // The session saves the run JSON once its services answer: the server is up.
  const r = await runCliInterrupted(['integrity', '--strategies', 'als', '--scenarios', SCENARIOS.join(','), '--requests', '2000', '--concurrency', '100', '--out', out, '--report', 'none'], { timeoutMs: 600000, when: () => fs.existsSync(out) });
  assert.ok(r.sent, r.stderr);
  assert.strictEqual(r.code, 130, r.stderr);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.strictEqual(run.status, 'interrupted');
  assertServerGone(run.settings.mysql, 'mariadbd');
});
