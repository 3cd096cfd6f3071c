'use strict';
// Tier: quick (the lint's layering rules on planted requires: nothing started)
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
    ['report/sections/x.js', "require('../../bench/cli/aa');", /report\/ requires only analysis\/ and lib\//],
    ['report/sections/x.js', "require('../../bench/stats');", /report\/ requires only analysis\/ and lib\//],
    ['report/x.js', "require('../micro');", /report\/ requires only analysis\/ and lib\//],
    ['report/sections/x.js', "require('../../handlers/scenarios');", /report\/ requires only analysis\/ and lib\//],
    ['report/x.js', "require('../context');", /report\/ requires only analysis\/ and lib\//],
    ['report/sections/x.js', "require('../../analysis/stats');", /report\/ does not compute/],
    ['report/x.js', "require('../analysis/summary');", /report\/ does not compute/],
    ['bench/x.js', "require('../report');", /bench\/ does not require report\/ or bench\/cli\//],
    ['bench/x.js', "require('./cli/run');", /bench\/ does not require report\/ or bench\/cli\//],
    // bench/'s folders (docs/architecture.md) are one room: the rule holds in each of them.
    ['bench/services/x.js', "require('../../report');", /bench\/ does not require report\/ or bench\/cli\//],
    ['bench/run/x.js', "require('../cli/run');", /bench\/ does not require report\/ or bench\/cli\//],
    ['micro/x.js', "require('../bench/matrix');", /micro\/ does not require bench\/ or report\//],
    [
      'analysis/x.js',
      "require('../bench/runner');",
      /analysis\/ does not require bench\/, report\/, micro\/ or load\//,
    ],
    [
      'analysis/x.js',
      "require('../micro/scenarios');",
      /analysis\/ does not require bench\/, report\/, micro\/ or load\//,
    ],
    [
      'analysis/x.js',
      "require('../load/open-loop');",
      /analysis\/ does not require bench\/, report\/, micro\/ or load\//,
    ],
    ['load/x.js', "require('../analysis/stats');", /load\/ requires only lib\//],
    ['load/x.js', "require('../bench/node-versions');", /load\/ requires only lib\//],
    ['load/x.js', "require('../servers/config');", /load\/ requires only lib\//],
    ['load/x.js', "require('../context');", /load\/ requires only lib\//],
    [
      'bench/cli/x.js',
      "number('depth', v, { min: 1, max: 9 });",
      /declare the flag with its bounds in lib\/settings\.js/,
    ],
    ['lib/x.js', "require('../context');", /lib\/ requires only lib\//],
    ['context/x.js', "require('../analysis/stats');", /the app does not require the benchmark/],
    ['handlers/x.js', "require('../load/autocannon');", /the app does not require the benchmark/],
    ['app.js', "require('./bench/runner');", /the app does not require the benchmark/],
  ];
  for (const [file, code, message] of cases) {
    const errors = await layeringErrors(file, code);
    assert.strictEqual(errors.length, 1, `${file}: ${code}`);
    assert.match(errors[0], message);
  }
  const allowed = [
    ['bench/cli/x.js', "require('../../report');"],
    ['report/x.js', "require('../analysis');"],
    ['report/x.js', "require('../lib/format');"],
    ['bench/x.js', "require('../context');"],
    ['bench/x.js', "require('../analysis/summary');"],
    ['bench/run/x.js', "require('../measure/sample');"],
    ['bench/rates/x.js', "require('../../analysis/summary');"],
    ['micro/x.js', "require('../analysis/micro');"],
    ['analysis/x.js', "require('../lib/histogram');"],
    ['analysis/x.js', "require('../context');"],
    ['lib/x.js', "require('./format');"],
    ['load/x.js', "require('../lib/settings');"],
    ['bench/cli/x.js', "setting('depth', v);"],
  ];
  for (const [file, code] of allowed) {
    assert.deepStrictEqual(await layeringErrors(file, code), [], `${file}: ${code} is allowed`);
  }
});

test('the plan is frozen: writing into settings outside lib/plan.js is a lint error, in every room', async () => {
  const writes = [
    ['bench/run/session.js', 'function f(settings) { settings.capacity = 1; }'],
    ['bench/cli/run.js', 'function f(settings) { settings.blocks ??= 3; }'],
    ['bench/methods/x.js', 'function f(run) { run.settings.capacity = {}; }'],
    ['bench/x.js', 'function f(plan) { plan.blocks++; }'],
    ['report/x.js', 'function f(settings) { delete settings.depth; }'],
    ['analysis/x.js', 'function f(settings) { Object.assign(settings, { a: 1 }); }'],
    ['bench/cli/x.js', 'function f(run) { Object.assign(run.settings, { a: 1 }); }'],
  ];
  for (const [file, code] of writes) {
    const errors = await layeringErrors(file, code);
    assert.strictEqual(errors.length, 1, `${file}: ${code}: ${errors}`);
    assert.match(errors[0], /the plan \(settings\) is frozen once resolved/);
  }
  // Reading it, and recording what was learned, are not writes into the plan.
  for (const [file, code] of [
    ['bench/x.js', 'function f(run, settings) { run.learned.capacity = settings.blocks; }'],
    ['bench/cli/x.js', 'function f(settings) { return { ...settings, blocks: 4 }; }'],
  ]) {
    assert.deepStrictEqual(await layeringErrors(file, code), [], `${file}: ${code} is allowed`);
  }
});

test('analysis/ returns codes: a sentence of four words or more there is a lint error (an Error aside)', async () => {
  const prose = /analysis\/ returns codes and numbers: a sentence belongs in report\//;
  const sentences = [
    "const why = 'the model has no reference level';",
    'const why = (n) => `${n} fitted point(s) without a probe count`;',
    "function f(r) { return { ...r, verdict: 'no significant difference here' }; }",
  ];
  for (const code of sentences) {
    const errors = await layeringErrors('analysis/x.js', code);
    assert.strictEqual(errors.length, 1, `${code}: ${errors}`);
    assert.match(errors[0], prose);
  }
  // Codes, an Error's message and comments are not sentences; nor is a sentence in report/.
  for (const [file, code] of [
    ['analysis/x.js', "const why = { code: 'too-few-points', reason: 'too few samples' };"],
    ['analysis/x.js', "function f(n) { throw new Error(`not a model study: ${n} has no fit or role`); }"],
    ['analysis/x.js', "function f() { return new RangeError('the margin must be above zero'); }"],
    ['analysis/x.js', '// the model has no reference level for this runtime\nconst a = 1;'],
    ['report/x.js', "const why = 'the model has no reference level';"],
  ]) {
    assert.deepStrictEqual(await layeringErrors(file, code), [], `${file}: ${code} is allowed`);
  }
});
