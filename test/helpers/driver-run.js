'use strict';
// The driver tests' one run and one check (test/all/mysql.test.js, test/all/redis.test.js):
// `ctxbench integrity` with the planted promise-only strategy file beside als and the
// global control, `total` requests per cell with 100 in flight; then each cell against
// what its strategy must do there.
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli } = require('./cli');
const { PROMISE_ONLY } = require('./promise-only');

async function runDriverScenarios({ dir, scenarios, total, name }) {
  const file = path.join(dir, 'promise-only.js');
  fs.writeFileSync(file, PROMISE_ONLY);
  const out = path.join(dir, `${name}.json`);
  const r = await runCli(
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
      '--out',
      out,
      '--report',
      'none',
    ],
    { timeoutMs: 600000 },
  );
  assert.strictEqual(r.code, 0, r.stderr);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.strictEqual(run.status, 'complete');
  assert.strictEqual(run.integrity.cells.length, 3 * scenarios.length, 'every strategy in every scenario');
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

module.exports = { runDriverScenarios, checkCells };
