'use strict';
// The layering of docs/architecture.md, as `npm run lint` enforces it: a lower room never
// requires a higher one. Each rule is shown to fire on a planted upward require.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { ESLint } = require('eslint');

const ROOT = path.join(__dirname, '..');

async function layeringErrors(file, code) {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

test('upward requires are lint errors; the allowed directions are not', async () => {
  const cases = [
    ['report/sections/x.js', "require('../../bench/cli/aa');", /report\/ does not require bench\/cli\//],
    ['bench/x.js', "require('../report');", /bench\/ does not require report\/ or bench\/cli\//],
    ['bench/x.js', "require('./cli/run');", /bench\/ does not require report\/ or bench\/cli\//],
    ['context/x.js', "require('../bench/stats');", /the app does not require the benchmark/],
    ['handlers/x.js', "require('../load/autocannon');", /the app does not require the benchmark/],
  ];
  for (const [file, code, message] of cases) {
    const errors = await layeringErrors(file, code);
    assert.strictEqual(errors.length, 1, `${file}: ${code}`);
    assert.match(errors[0], message);
  }
  for (const [file, code] of [['bench/cli/x.js', "require('../../report');"], ['report/x.js', "require('../bench/analysis');"], ['bench/x.js', "require('../context');"]]) {
    assert.deepStrictEqual(await layeringErrors(file, code), [], `${file}: ${code} is allowed`);
  }
});
