'use strict';
// Tier: quick (the regression gate on synthetic runs, and compare's exit codes end to end)
// analysis/compare.js on synthetic run JSON (seeded noise, no live timing).
const test = require('node:test');
const random = require('./helpers/random');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { compare } = require('../analysis/compare');
const { compareText } = require('../report/compare-text');
const { verdictText } = require('../report/verdict-text');
const { loadRun } = require('../lib/run-file');
const { tempDir } = require('./helpers/tmp');

// Standard normal draws from a seed.
function rng(seed) {
  return random.rng(seed).normal;
}

function makeRun(seed, rounds = 8) {
  const normal = rng(seed);
  const configs = [];
  for (const [strategy, base] of [
    ['none', 12000],
    ['als', 11000],
    ['cls-hooked', 6000],
  ]) {
    configs.push({
      id: `express/${strategy}/d8/await/node20`,
      framework: 'express',
      strategy,
      depth: 8,
      hop: 'await',
      node: 'v20.20.2',
      acf: false,
      samples: Array.from({ length: rounds }, (_, round) => ({
        round,
        rps: base * Math.exp(0.04 * normal()),
        mismatches: 0,
        lost: 0,
      })),
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

// A duet run whose arms all cost `factor` times more CPU per request beside their baseline.
function costlier(run, factor) {
  const copy = structuredClone(run);
  for (const c of copy.configs) for (const s of c.samples) if (s.kind === 'window') s.cpuUsPerRequest *= factor;
  return copy;
}

test('a run compared with itself passes the gate (exit 0)', () => {
  const run = makeRun(1, 12);
  const result = compare(run, run);
  assert.strictEqual(result.maxRegression, 5, 'default threshold is 5%, not 0');
  assert.strictEqual(result.exitCode, 0);
  assert.strictEqual(result.rows.length, 3);
  for (const r of result.rows) {
    assert.strictEqual(r.status, 'compared');
    assert.ok(Math.abs(r.estimate - 1) < 1e-12);
    assert.strictEqual(verdictText(r.judgement), 'no significant difference');
    assert.strictEqual(r.outcome, 'ok');
  }
  assert.match(compareText(result), /^OK \(exit 0\)/m);
});

test('a planted 20% slower copy fails with --max-regression 5 and passes with 50', () => {
  const a = makeRun(2);
  const b = slower(a, 0.8);
  const strict = compare(a, b, { maxRegression: 5 });
  assert.strictEqual(strict.exitCode, 1);
  assert.strictEqual(strict.regressions.length, 3);
  for (const r of strict.rows) {
    assert.ok(Math.abs(r.changePct + 20) < 1e-9, `change ${r.changePct}`);
    assert.ok(r.pRegression < 0.05);
    assert.strictEqual(verdictText(r.judgement), '20.0% slower, significant');
  }
  const text = compareText(strict);
  assert.match(text, /^FAIL \(exit 1\): 3 config\(s\)/m);

  const lenient = compare(a, b, { maxRegression: 50 });
  assert.strictEqual(lenient.exitCode, 0);
});

test('the CLI exits 1 when every rps of b is halved, 2 when it cannot tell, 0 on the same run, 3 on bad input', () => {
  const { execFileSync } = require('node:child_process');
  const dir = tempDir('ctxbench-gate-');
  const write = (name, run) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, JSON.stringify(run));
    return p;
  };
  const exit = (a, b, extra = []) => {
    try {
      execFileSync(process.execPath, [path.join(__dirname, '..', 'bin', 'ctxbench.js'), 'compare', a, b, ...extra], {
        stdio: 'pipe',
      });
      return { code: 0, out: '' };
    } catch (err) {
      return { code: err.status, out: String(err.stdout) };
    }
  };
  try {
    // A real default run (test/fixtures/results/default.json) against itself with every rps
    // halved (issue 10: printed OK, exit 0).
    const base = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'results', 'default.json'), 'utf8'));
    const pa = write('a.json', base);
    // A duet run is gated on its ratios: every arm's CPU per request doubled in its windows.
    const half = base.settings?.method === 'duet' ? costlier(base, 2) : slower(base, 0.5);
    assert.strictEqual(exit(pa, write('half.json', half), ['--max-regression', '5']).code, 1);
    const quiet = write('quiet.json', makeRun(8, 12));
    assert.strictEqual(exit(quiet, quiet).code, 0);
    // Two rounds of very noisy runs: the interval cannot rule out a 5% slowdown.
    const noisy = (seed) => {
      const normal = rng(seed);
      const run = makeRun(seed, 2);
      for (const c of run.configs) for (const s of c.samples) s.rps *= Math.exp(0.3 * normal());
      return run;
    };
    const r = exit(write('n1.json', noisy(11)), write('n2.json', noisy(12)));
    assert.strictEqual(r.code, 2);
    assert.match(r.out, /INCONCLUSIVE \(exit 2\)/);
    assert.match(r.out, /rounds per run would settle it|estimate at the threshold/);
    // Bad input is not "slower": one line, exit 3.
    const missing = exit(pa, path.join(dir, 'no-such.json'));
    assert.strictEqual(missing.code, 3);
    assert.strictEqual(exit(pa, quiet, ['--max-regression', 'x']).code, 3);
    assert.strictEqual(exit(pa, quiet, ['--bogus']).code, 3);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('independent runs of the same code: unpaired Welch test on per-round units (schema 1)', () => {
  const a = makeRun(3);
  const b = makeRun(4);
  const result = compare(a, b, { maxRegression: 5 });
  const stats = require('../analysis/stats');
  for (const r of result.rows) {
    assert.strictEqual(r.unit, 'round');
    const ca = a.configs.find((c) => c.id === r.id);
    const cb = b.configs.find((c) => c.id === r.id);
    // Welch, unpaired: the same numbers as a Welch test on the two runs' log rps, and
    // different from the paired test a matching of rounds would give.
    const w = stats.welch(
      cb.samples.map((s) => Math.log(s.rps)),
      ca.samples.map((s) => Math.log(s.rps)),
    );
    assert.ok(Math.abs(r.pValue - w.pValue) < 1e-12, 'Welch p');
    assert.ok(Math.abs(r.welch.df - w.df) < 1e-9, 'Welch–Satterthwaite df');
    const paired = stats.oneSample(cb.samples.map((s, i) => Math.log(s.rps) - Math.log(ca.samples[i].rps)));
    assert.notStrictEqual(r.pValue, paired.pValue);
    assert.ok(r.ci95[0] < 1 && r.ci95[1] > 0.9, `CI ${r.ci95}`);
  }
});

test('schema-2 runs are compared per block, and Holm keeps many identical configs from failing', () => {
  const { makeRun2 } = require('./helpers/run2');
  const strategies = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`s${i}`, 1]));
  const a = makeRun2({ seed: 21, blocks: 5, strategies });
  const b = makeRun2({ seed: 22, blocks: 5, strategies });
  const result = compare(a, b, { maxRegression: 5 });
  for (const r of result.rows) assert.strictEqual(r.unit, 'block');
  assert.strictEqual(result.regressions.length, 0);
  const { holm } = require('../analysis/compare');
  assert.deepStrictEqual(holm([0.01, 0.04, 0.03, null]), [0.03, 0.06, 0.06, null]);
});

test('configs in only one file are listed; a config with no data in b is inconclusive; files load from paths', () => {
  const a = makeRun(5);
  const b = slower(a, 0.5);
  b.configs = b.configs.filter((c) => c.strategy !== 'cls-hooked');
  b.configs.find((c) => c.strategy === 'als').samples = [];
  b.configs.find((c) => c.strategy === 'als').error = { message: 'server exited with code 1' };
  b.configs.push({ id: 'express/otel/d8/await/node20', samples: [{ round: 0, rps: 1 }] });
  const dir = tempDir('ctxbench-compare-');
  const pa = path.join(dir, 'a.json');
  const pb = path.join(dir, 'b.json');
  fs.writeFileSync(pa, JSON.stringify(a));
  fs.writeFileSync(pb, JSON.stringify(b));
  const result = compare(loadRun(pa), loadRun(pb), { maxRegression: 5 });
  const status = Object.fromEntries(result.rows.map((r) => [r.id, r.status]));
  assert.deepStrictEqual(status, {
    'express/none/d8/await/node20': 'compared',
    'express/als/d8/await/node20': 'no-data',
    'express/cls-hooked/d8/await/node20': 'only-in-a',
    'express/otel/d8/await/node20': 'only-in-b',
  });
  assert.deepStrictEqual(
    result.regressions.map((r) => r.id),
    ['express/none/d8/await/node20'],
  );
  assert.deepStrictEqual(
    result.inconclusive.map((r) => r.id),
    ['express/als/d8/await/node20'],
  );
  const text = compareText(result);
  assert.match(text, /only in the first file/);
  assert.match(text, /only in the second file/);
  assert.match(text, /server exited with code 1/);
  fs.writeFileSync(pb, '{ not json');
  assert.throws(
    () => loadRun(pb, 'second run'),
    (err) => err.message.startsWith(`${pb}: not valid JSON`),
  );
  fs.rmSync(dir, { recursive: true, force: true });
});

// A duet run (bench/measure/duet-windows.js): per block, counted windows of each arm beside a fresh
// baseline process, plus a 0.5-s solo burst per config whose req/s is noisy.
function duetRun(seed, { alsCost = 1.05, soloNoise = 0.3 } = {}) {
  const normal = rng(seed);
  const configs = [
    ['none', 1],
    ['als', alsCost],
    ['cls-hooked', 2.3],
  ].map(([strategy, cost]) => {
    const samples = [];
    for (let block = 0; block < 5; block++) {
      samples.push({
        kind: 'solo',
        block,
        rps: (10000 / cost) * Math.exp(soloNoise * normal()),
        mismatches: 0,
        lost: 0,
      });
      if (strategy === 'none') continue;
      const processEffect = Math.exp(0.01 * normal());
      for (let window = 0; window < 3; window++) {
        const base = 50 * Math.exp(0.01 * normal());
        samples.push({
          kind: 'window',
          block,
          window,
          counted: true,
          cpuUsPerRequest: base * cost * processEffect,
          partnerCpuUsPerRequest: base,
          requests: 1000,
          partnerRequests: 1000,
        });
      }
    }
    return {
      id: `express/${strategy}/d8/immediate/node24`,
      framework: 'express',
      strategy,
      depth: 8,
      hop: 'immediate',
      samples,
      error: null,
    };
  });
  return { schema: 2, kind: 'run', title: 'synthetic duet', settings: { method: 'duet', baseline: 'none' }, configs };
}

test('duet runs are gated on each ratio to the baseline, not on their solo bursts', () => {
  const a = duetRun(11);
  const same = compare(a, duetRun(12));
  assert.strictEqual(same.exitCode, 0, compareText(same));
  assert.strictEqual(same.rows.find((r) => r.id.includes('/none/')).status, 'baseline');
  const als = same.rows.find((r) => r.id.includes('/als/'));
  assert.ok(Math.abs(als.a.median - 1 / 1.05) < 0.02, `als reads ${als.a.median} of none`);
  assert.match(compareText(same), /% of none/);

  // als 10% costlier relative to none in b: caught at 5%, whatever the solo bursts say.
  const b = duetRun(13, { alsCost: 1.05 * 1.1 });
  const gated = compare(a, b, { maxRegression: 5 });
  assert.strictEqual(gated.exitCode, 1, compareText(gated));
  assert.deepStrictEqual(
    gated.regressions.map((r) => r.id),
    ['express/als/d8/immediate/node24'],
  );
  assert.ok(Math.abs(gated.regressions[0].changePct + 100 * (1 - 1 / 1.1)) < 2);

  assert.throws(() => compare(a, makeRun(3)), /cannot compare a duet run with a sequential run/);
});
