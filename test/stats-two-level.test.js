'use strict';
// Tier: quick (the two-level interval against a worked example)
// The two-level (block = server process) interval of analysis/stats.js, against a worked
// example by hand, and the rules that withhold a verdict.
const test = require('node:test');
const assert = require('node:assert');
const summary = require('../analysis/summary');
const { ratioVerdictText } = require('../report/verdict-text');
const { formatPct } = require('../lib/format');
const { makeRun2 } = require('./helpers/run2');

const close = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} not within ${tol} of ${b}`);

// Worked example. Log ratios per adjacent pair, 3 blocks of 2 pairs:
//   block 0: -0.1, -0.2  (mean -0.15)   block 1: -0.1, 0.0 (mean -0.05)   block 2: -0.3, -0.1 (mean -0.20)
// Block means -0.15, -0.05, -0.20; grand mean -0.4/3 = -0.133333; estimate exp(-0.133333) = 0.875173.
// Deviations -0.016667, 0.083333, -0.066667; squares sum 0.0116667; sd² = 0.0058333;
// se = sqrt(0.0058333 / 3) = 0.0440959; t(0.975, df 2) = 4.302653 (R: qt(0.975, 2));
// half = 0.189727; log CI [-0.323060, 0.056394] -> [0.723920, 1.058014].
// t = -0.133333 / 0.0440959 = -3.02372; for df 2 the two-sided p is 1 - |t| / sqrt(2 + t²) = 0.094180.
// ANOVA: SSB = 2 × 0.0116667 = 0.0233333 (df 2, MSB 0.0116667); SSW = 0.005 + 0.005 + 0.02 = 0.03
// (df 3, MSW 0.01); F = 1.166667; for df1 = 2, P(F > f) = (1 + 2f/3)^(-3/2) = 0.421875.
// Components: within = MSW = 0.01; between = (MSB - MSW) / 2 = 0.000833333.
function worked() {
  const d = [
    [-0.1, -0.2],
    [-0.1, 0.0],
    [-0.3, -0.1],
  ];
  const base = { id: 'b', strategy: 'none', samples: [] };
  const cfg = { id: 'x', strategy: 'als', samples: [] };
  let seq = 0;
  d.forEach((ds, block) =>
    ds.forEach((x) => {
      const b = { block, seq: seq++, pairSeq: null, rps: 1000, cpuUsPerRequest: 100 };
      base.samples.push(b);
      cfg.samples.push({
        block,
        seq: seq++,
        pairSeq: b.seq,
        rps: 1000 * Math.exp(x),
        cpuUsPerRequest: 100 / Math.exp(x),
      });
    }),
  );
  return { base, cfg };
}

test('two-level ratio matches the worked example by hand', () => {
  const { base, cfg } = worked();
  const s = summary.summarize(cfg, base);
  const r = s.ratio;
  close(r.estimate, 0.875173, 1e-6, 'estimate');
  close(r.ci95[0], 0.72392, 1e-5, 'ci lo');
  close(r.ci95[1], 1.058014, 1e-5, 'ci hi');
  close(r.pValue, 0.09418, 1e-5, 'p');
  assert.strictEqual(r.blocks, 3);
  assert.strictEqual(r.n, 6);
  close(r.components.withinBlocks, 0.01, 1e-12, 'within');
  close(r.components.betweenBlocks, 0.000833333, 1e-8, 'between');
  close(r.components.F, 1.166667, 1e-6, 'F');
  close(r.components.p, 0.421875, 1e-6, 'ANOVA p');
  assert.strictEqual(ratioVerdictText(r), 'no significant difference');
  // CPU per request moved exactly opposite: same story, no disagreement.
  close(s.cpuRatio.estimate, 1 / 0.875173, 1e-6, 'cpu ratio');
  assert.strictEqual(s.disagree, false);
});

test('pairs follow pairSeq, not position or round', () => {
  const { base, cfg } = worked();
  base.samples.reverse();
  for (const x of cfg.samples) x.round = 0; // a round-based pairing would collapse these
  close(summary.summarize(cfg, base).ratio.estimate, 0.875173, 1e-6, 'estimate');
});

test('synthetic schema-2 runs: the interval covers the true ratio and blocks are the unit', () => {
  let covered = 0;
  const trials = 40;
  for (let seed = 1; seed <= trials; seed++) {
    const run = makeRun2({ seed, blocks: 4, rounds: 5, strategies: { als: 0.8 }, blockSd: 0.03 });
    const r = summary.summarize(run.configs[1], run.configs[0]).ratio;
    assert.strictEqual(r.blocks, 4);
    if (r.ci95[0] <= 0.8 && 0.8 <= r.ci95[1]) covered++;
  }
  // Nominal 95%; a block-blind interval (df = pairs - 1, se over pairs) covers far less here.
  assert.ok(covered >= 34, `covered ${covered}/${trials}`);
});

test('throughput and CPU ratios that tell different stories are flagged', () => {
  const run = makeRun2({ seed: 3, strategies: { als: 0.8 }, extra: { als: { cpuUsPerRequest: 100 } } });
  const s = summary.summarize(run.configs[1], run.configs[0]);
  assert.strictEqual(s.disagree, true);
});

test('a strategy that lost ids gets no cost verdict; the global control and none still do', () => {
  const run = makeRun2({
    seed: 2,
    strategies: { als: 0.8, global: 0.95 },
    extra: { als: { lost: 3 }, global: { mismatches: 9 } },
  });
  const [base, als, glob] = run.configs;
  const a = summary.summarize(als, base);
  assert.strictEqual(a.broken, true);
  assert.strictEqual(ratioVerdictText(a.ratio), 'context broken, cost not comparable');
  assert.strictEqual(ratioVerdictText(a.cpuRatio), 'context broken, cost not comparable');
  const g = summary.summarize(glob, base);
  assert.strictEqual(g.broken, false);
  assert.match(ratioVerdictText(g.ratio), /slower, significant/);
  for (const s of base.samples) s.lost = 5;
  assert.strictEqual(summary.summarize(base, null).broken, false);
});

test('a client-bound config gets a warning instead of a verdict', () => {
  const run = makeRun2({ seed: 4, strategies: { als: 0.8 }, extra: { als: { loadgenCpu: 0.9 } } });
  const s = summary.summarize(run.configs[1], run.configs[0]);
  assert.strictEqual(s.clientBound, true);
  assert.match(ratioVerdictText(s.ratio), /client-bound/);
  assert.doesNotMatch(ratioVerdictText(s.ratio), /slower|faster/);
});

test('the rps figure and its interval are of the same statistic', () => {
  const run = makeRun2({ seed: 5 });
  const s = summary.summarize(run.configs[0], null);
  assert.ok(s.rps.ci95[0] < s.rps.estimate && s.rps.estimate < s.rps.ci95[1]);
  assert.strictEqual(s.rps.statistic, 'block-geomeans', 'the geometric mean over blocks of per-block geometric means');
});

test('formatPct is signed on request and never prints a tiny change as 0.0', () => {
  assert.strictEqual(formatPct(-7), '7.0');
  assert.strictEqual(formatPct(-7, { sign: true }), '-7.0');
  assert.strictEqual(formatPct(0.01, { sign: true }), '+0.01');
  assert.strictEqual(formatPct(null), '—');
});

test('pairs follow the recorded pairSeq, whether the baseline burst came before or after, never a nearer burst', () => {
  // Order in one block: B0 X1 X2 B3 — X1 was paired with B0 (before), X2 with B3 (after).
  const base = {
    samples: [
      { block: 0, seq: 0, pairSeq: null, rps: 1000 },
      { block: 0, seq: 3, pairSeq: null, rps: 500 },
    ],
  };
  const cfg = {
    samples: [
      { block: 0, seq: 1, pairSeq: 0, rps: 900 },
      { block: 0, seq: 2, pairSeq: 3, rps: 450 },
      { block: 0, seq: 4, pairSeq: 9, rps: 1 },
    ],
  };
  const ps = summary.samplePairs(cfg.samples, base.samples);
  assert.deepStrictEqual(
    ps.map((p) => [p.sample.seq, p.base.seq, p.unit]),
    [
      [1, 0, 0],
      [2, 3, 0],
    ],
    'a pairSeq with no baseline sample pairs with nothing',
  );
  const d = summary.pairs(cfg.samples, base.samples).map((p) => p.d);
  close(d[0], Math.log(0.9), 1e-12, 'X1/B0');
  close(d[1], Math.log(0.9), 1e-12, 'X2/B3');
});

test('blockLogMeans: the mean log of a key per block, skipping samples without a positive value', () => {
  const { blockLogMeans } = summary;
  const e = Math.E;
  const samples = [
    { block: 0, rps: e, cpuUsPerRequest: e ** 2 },
    { block: 0, rps: e ** 3, cpuUsPerRequest: 0 },
    { block: 1, rps: 0, cpuUsPerRequest: e ** 4 },
    { block: 1, rps: e ** 5, cpuUsPerRequest: null },
  ];
  const rounded = (m, want) =>
    assert.deepStrictEqual(
      [...m].map(([b, x]) => [b, Math.round(x * 1e9) / 1e9]),
      want,
    );
  rounded(blockLogMeans(samples, 'rps'), [
    [0, 2],
    [1, 5],
  ]);
  rounded(blockLogMeans(samples, 'cpuUsPerRequest'), [
    [0, 2],
    [1, 4],
  ]);
  // Schema 1: the round is the block.
  rounded(
    blockLogMeans([
      { round: 3, rps: e },
      { round: 3, rps: e ** 3 },
    ]),
    [[3, 2]],
  );
});

test(
  'sameRunRatio: two configs of a schema-2 run (another Node version, ' +
    'the other ACF mode) are compared per block of processes, a schema-1 run per round',
  () => {
    const run = makeRun2({ blocks: 4, rounds: 6, strategies: { als: 0.9 } });
    const [none, als] = run.configs;
    const r = summary.sameRunRatio(als.samples, none.samples);
    assert.strictEqual(r.unit, 'block');
    assert.strictEqual(r.n, 4, 'one difference per block, not one per round');
    assert.ok(r.estimate > 0.8 && r.estimate < 1, String(r.estimate));
    const schema1 = (c) => c.samples.map(({ round, rps }) => ({ round, rps }));
    assert.strictEqual(summary.sameRunRatio(schema1(als), schema1(none)).n, 24, 'schema 1: each round its own unit');
  },
);
