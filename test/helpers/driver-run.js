'use strict';
// The driver tests' runs and one check (test/all/mysql.test.js, test/all/redis.test.js): the
// skip without the service's server; `ctxbench integrity` with the planted promise-only
// strategy file beside als and the global control, `total` requests per cell with 100 in
// flight; the same interrupted; then each cell against what its strategy must do there.
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const systemTools = require('../../lib/system-tools');
const { runCliJson, runCliInterrupted } = require('./cli');
const { PROMISE_ONLY } = require('./promise-only');

// Skips test t, saying what to install, where the service's server (a systemTools name:
// mariadb, redis) is missing; true when it did.
function skipWithoutServer(t, tool) {
  if (systemTools.find(tool)) return false;
  t.skip(`${systemTools.hint(tool)} (.ci/run installs it)`);
  return true;
}

async function runDriverScenarios({ dir, scenarios, total, name }) {
  const file = path.join(dir, 'promise-only.js');
  fs.writeFileSync(file, PROMISE_ONLY);
  const { run } = await runCliJson(
    [
      'integrity',
      '--strategy-file',
      file,
      '--strategies',
      'als,global',
      '--scenarios',
      scenarios.join(','),
      '--requests',
      String(total),
      '--concurrency',
      '100',
    ],
    path.join(dir, `${name}.json`),
    { timeoutMs: 600000 },
  );
  assert.strictEqual(run.status, 'complete');
  assert.strictEqual(run.integrity.cells.length, 3 * scenarios.length, 'every strategy in every scenario');
  return run;
}

// Ctrl-C during the scenarios (2,000 requests a cell), sent once the session has saved the run
// JSON, which it does once its services answer (the server is up): exit 130 and the run kept
// as interrupted, which it resolves with.
async function interruptDriverScenarios({ dir, scenarios, strategies }) {
  const out = path.join(dir, 'int.json');
  const r = await runCliInterrupted(
    [
      'integrity',
      '--strategies',
      strategies.join(','),
      '--scenarios',
      scenarios.join(','),
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
  return run;
}

// expected: { strategy: { scenario | '*': 'kept' | 'lost' | 'leaks' | 'not kept' } };
// 'leaks' and 'not kept' by a majority, the others by every answer.
function checkCells(cells, expected, total) {
  for (const c of cells) {
    const detail =
      `${c.strategy} ${c.scenario}: ` +
      `${JSON.stringify({ kept: c.kept, lost: c.lost, leaked: c.leaked, errors: c.errors })}`;
    assert.strictEqual(c.errors, 0, detail);
    assert.strictEqual(c.kept + c.lost + c.leaked, total, detail);
    const want = expected[c.strategy][c.scenario] ?? expected[c.strategy]['*'];
    if (want === 'kept') assert.strictEqual(c.kept, total, detail);
    else if (want === 'lost') assert.strictEqual(c.lost, total, detail);
    else if (want === 'not kept') assert.ok(c.kept < total / 2, detail);
    else if (want === 'leaks') assert.ok(c.leaked > total / 2, detail);
    else throw new Error(`unknown expectation ${want}`);
  }
}

module.exports = { skipWithoutServer, runDriverScenarios, interruptDriverScenarios, checkCells };
