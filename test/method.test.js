'use strict';
// The method commands' analyses and report sections, on synthetic runs with known
// answers (never on live timing).
const test = require('node:test');
const { mulberry32, normalFrom } = require('./helpers/random');
const assert = require('node:assert');
const calibrate = require('../bench/cli/calibrate');
const aa = require('../bench/cli/aa');
const sections = {
  calibrate: require('../report/sections/calibrate'),
  aa: require('../report/sections/aa'),
  overhead: require('../report/sections/overhead'),
};

// Seeded randomness, so the synthetic noise is repeatable.
const rng = mulberry32;
const normal = (uniform) => normalFrom(uniform)();

// A server whose requests cost baseUs + burnUs of CPU, at saturation, with drift that
// every config shares within a round and a little independent noise.
function calibrationRun({ burns, rounds, baseUs = 100, seenFactor = 1, seed = 1 }) {
  const rand = rng(seed);
  const drift = Array.from({ length: rounds }, () => 1 + 0.15 * normal(rand));
  const configs = burns.map((burnUs) => ({
    id: `burn${burnUs}`,
    burnUs,
    samples: drift.map((d, round) => {
      const costUs = (baseUs + burnUs * seenFactor) * d * (1 + 0.01 * normal(rand));
      return { round, rps: 1e6 / costUs, cpuUsPerRequest: baseUs + burnUs * seenFactor, burnUsPerRequest: burnUs };
    }),
  }));
  return { settings: { strategy: 'none', depth: 1, hop: 'sync', rounds, duration: 2, connections: 100, pipelining: 10 }, configs };
}

test('calibrate: a harness that sees the true cost passes, with a linear fit of slope ~1', () => {
  const run = calibrationRun({ burns: [0, 25, 50, 100, 200], rounds: 8 });
  const result = calibrate.analyze(run);
  assert.strictEqual(result.pass, true);
  for (const level of result.levels) {
    assert.ok(Math.abs(level.seenRatio - 1) < 0.1, `burn ${level.burnUs}: seen ÷ measured ${level.seenRatio}`);
    assert.ok(Math.abs(level.cpuRatio - 1) < 1e-9);
  }
  assert.ok(Math.abs(result.fit.slope - 1) < 0.1, `slope ${result.fit.slope}`);
  assert.ok(result.fit.r2 > 0.99);
  assert.deepStrictEqual(result.levels.filter((l) => l.checked).map((l) => l.burnUs), [100, 200]);
});

test('calibrate: a harness that sees 30% more than the server measured fails', () => {
  const result = calibrate.analyze(calibrationRun({ burns: [0, 100, 200], rounds: 8, seenFactor: 1.3 }));
  assert.strictEqual(result.pass, false);
  assert.ok(result.levels.every((l) => l.seenRatio > 1.2));
});

function aaRun({ trials, roundsPerTrial, difference = 1, seed = 7 }) {
  const rand = rng(seed);
  const rounds = trials * roundsPerTrial;
  const drift = Array.from({ length: rounds }, () => 10000 * (1 + 0.2 * normal(rand)));
  const samples = (factor) => drift.map((d, round) => ({ round, rps: d * factor * (1 + 0.03 * normal(rand)) }));
  return { settings: { trials, roundsPerTrial, strategy: 'none', depth: 8, hop: 'await', duration: 1 }, configs: [{ id: 'A', samples: samples(1) }, { id: 'B', samples: samples(difference) }] };
}

test('aa: identical configurations are rarely called different; a real 10% difference always is', () => {
  // 200 simulated comparisons: a calibrated 5% test gives 10 ± 3 false positives.
  const same = aa.analyze(aaRun({ trials: 200, roundsPerTrial: 4 }));
  assert.strictEqual(same.completedTrials, 200);
  assert.ok(same.falsePositiveRate >= 0.01 && same.falsePositiveRate <= 0.1, `false-positive rate ${same.falsePositiveRate}`);
  assert.strictEqual(same.overall.verdict, 'no significant difference');
  const different = aa.analyze(aaRun({ trials: 20, roundsPerTrial: 4, difference: 0.9 }));
  assert.ok(different.significant >= 15, `${different.significant} of 20 found the planted difference`);
  assert.strictEqual(different.pass, false, 'an A/A run that finds differences fails');
  assert.match(different.overall.verdict, /10\.\d% slower, significant/);
});

test('method sections render their verdicts', () => {
  const env = { cpuModel: 'cpu', cores: 2, node: 'v20', date: '2026-11-21T00:00:00Z', commit: 'abc', taskset: true };
  const cal = calibrationRun({ burns: [0, 100, 200], rounds: 6 });
  const calMd = sections.calibrate.render({ ...cal, kind: 'calibrate', environment: env, calibrate: calibrate.analyze(cal) }, { file: 'results/calibrate.json' });
  assert.match(calMd, /^## Method: calibration/);
  assert.match(calMd, /\| 100 \|/);
  assert.match(calMd, /✅ Within ±10% at 100 and 200 µs/);

  const a = aaRun({ trials: 5, roundsPerTrial: 4 });
  const aaMd = sections.aa.render({ ...a, kind: 'aa', environment: env, aa: aa.analyze(a) }, {});
  assert.match(aaMd, /^## Method: A\/A false-positive rate/);
  assert.match(aaMd, /of 5\*\* comparisons were called significant/);

  const ovMd = sections.overhead.render({
    kind: 'overhead', environment: env, settings: { rounds: 4, duration: 2, connections: 100, pipelining: 10 },
    overhead: { required: 0.9, pass: false, ratio: { estimate: 0.85, ci95: [0.8, 0.9] }, sides: { floor: { rps: { median: 8500, ci95: [8000, 9000] } }, hello: { rps: { median: 10000, ci95: [9500, 10500] } } } },
  }, {});
  assert.match(ovMd, /reaches \*\*85\.0%\*\*/);
  assert.match(ovMd, /❌ not met/);

  const incomplete = sections.calibrate.render({ kind: 'calibrate', status: 'interrupted', environment: env, settings: {} }, {});
  assert.match(incomplete, /No analysis/);
});
