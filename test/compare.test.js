'use strict';
// bench/compare.js on synthetic run JSON (seeded noise, no live timing).
const test = require('node:test');
const random = require('./helpers/random');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { compare, formatCompare } = require('../bench/compare');

// Standard normal draws from a seed.
function rng(seed) {
  return random.rng(seed).normal;
}

function makeRun(seed, rounds = 8) {
  const normal = rng(seed);
  const configs = [];
  for (const [strategy, base] of [['none', 12000], ['als', 11000], ['cls-hooked', 6000]]) {
    configs.push({
      id: `express/${strategy}/d8/await/node20`, framework: 'express', strategy, depth: 8, hop: 'await', node: 'v20.20.2', acf: false,
      samples: Array.from({ length: rounds }, (_, round) => ({ round, rps: base * Math.exp(0.04 * normal()), mismatches: 0, lost: 0 })),
      error: null,
    });
  }
  return { schema: 1, kind: 'run', title: 'synthetic', configs };
}

function slower(run, factor) {
  const copy = structuredClone(run);
  for (const c of copy.configs) for (const s of c.samples) s.rps *= factor;
  return copy;
}

test('a run compared with itself shows no significant change and passes', () => {
  const run = makeRun(1);
  const result = compare(run, run, { maxRegression: 5 });
  assert.strictEqual(result.failed, false);
  assert.strictEqual(result.regressions.length, 0);
  assert.strictEqual(result.rows.length, 3);
  for (const r of result.rows) {
    assert.strictEqual(r.status, 'compared');
    assert.ok(Math.abs(r.estimate - 1) < 1e-12);
    assert.strictEqual(r.verdict, 'no significant difference');
  }
  assert.match(formatCompare(result), /^OK: /m);
});

test('a planted 20% slower copy fails with --max-regression 5 and passes with 50', () => {
  const a = makeRun(2);
  const b = slower(a, 0.8);
  const strict = compare(a, b, { maxRegression: 5 });
  assert.strictEqual(strict.failed, true);
  assert.strictEqual(strict.regressions.length, 3);
  for (const r of strict.rows) {
    assert.ok(Math.abs(r.changePct + 20) < 1e-9, `change ${r.changePct}`);
    assert.ok(r.pValue < 0.05);
    assert.strictEqual(r.verdict, '20.0% slower, significant');
  }
  const text = formatCompare(strict);
  assert.match(text, /^FAIL: 3 config\(s\)/m);
  assert.match(text, /REGRESSION/);

  const lenient = compare(a, b, { maxRegression: 50 });
  assert.strictEqual(lenient.failed, false);
  assert.match(formatCompare(lenient), /^OK: /m);
});

test('independent noisy runs of the same code are compared with Welch, unpaired', () => {
  const result = compare(makeRun(3), makeRun(4), { maxRegression: 5 });
  assert.strictEqual(result.failed, false);
  for (const r of result.rows) assert.ok(r.ci95[0] < 1 && r.ci95[1] > 0.9, `CI ${r.ci95}`);
});

test('configs in only one file, or without samples, are listed, not failed; files load from paths', () => {
  const a = makeRun(5);
  const b = slower(a, 0.5);
  b.configs = b.configs.filter((c) => c.strategy !== 'cls-hooked');
  b.configs.find((c) => c.strategy === 'als').samples = [];
  b.configs.find((c) => c.strategy === 'als').error = { message: 'server exited with code 1' };
  b.configs.push({ id: 'express/otel/d8/await/node20', samples: [{ round: 0, rps: 1 }] });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-compare-'));
  const pa = path.join(dir, 'a.json');
  const pb = path.join(dir, 'b.json');
  fs.writeFileSync(pa, JSON.stringify(a));
  fs.writeFileSync(pb, JSON.stringify(b));
  const result = compare(pa, pb, { maxRegression: 5 });
  const status = Object.fromEntries(result.rows.map((r) => [r.id, r.status]));
  assert.deepStrictEqual(status, {
    'express/none/d8/await/node20': 'compared',
    'express/als/d8/await/node20': 'no-data',
    'express/cls-hooked/d8/await/node20': 'only-in-a',
    'express/otel/d8/await/node20': 'only-in-b',
  });
  assert.deepStrictEqual(result.regressions.map((r) => r.id), ['express/none/d8/await/node20']);
  const text = formatCompare(result);
  assert.match(text, /only in the first file/);
  assert.match(text, /only in the second file/);
  assert.match(text, /server exited with code 1/);
  fs.writeFileSync(pb, '{ not json');
  assert.throws(() => compare(pa, pb), (err) => err.message.startsWith(`${pb}: not valid JSON`));
  fs.rmSync(dir, { recursive: true, force: true });
});
