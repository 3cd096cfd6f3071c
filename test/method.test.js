'use strict';
// Tier: quick (the method commands' analyses and sections on synthetic runs)
// The method commands' analyses and report sections, on synthetic runs with known
// answers (never on live timing).
const test = require('node:test');
const assert = require('node:assert');
const { rng } = require('./helpers/random');
const calibrate = require('../bench/cli/calibrate');
const aa = require('../bench/cli/aa');
const { pairs } = require('../analysis/pairing');
const { ratioVerdictText } = require('../report/verdict-text');
const sections = {
  calibrate: require('../report/sections/calibrate'),
  aa: require('../report/sections/aa'),
};

const ENV = { cpuModel: 'cpu', cores: 2, node: 'v20', date: '2026-11-21T00:00:00Z', commit: 'abc', taskset: true };

// A sample as the earlier design recorded it: no block, seq or pairSeq.
const schema1 = (s) => Object.fromEntries(Object.entries(s).filter(([k]) => !['block', 'seq', 'pairSeq'].includes(k)));

// A server whose requests cost baseUs + burnUs × seenFactor, at saturation. Schema 2:
// `blocks` blocks of `rounds` rounds; in each round the burn levels of a point sit
// next to a burn0 burst (pairSeq). Every block has its own process level, every round
// its drift, shared by the pair. noise: independent per-burst noise (fraction).
function calibrationRun({
  at = [{ depth: 1, hop: 'sync' }],
  burns = [0, 100, 200],
  blocks = 6,
  rounds = 4,
  baseUs = 100,
  seenFactor = 1,
  noise = 0.005,
  seed = 1,
}) {
  const { normal } = rng(seed);
  const configs = at.flatMap(({ depth, hop }) =>
    burns.map((burnUs) => ({
      id: `d${depth}/${hop}/burn${burnUs}`,
      group: `calibrate/d${depth}/${hop}`,
      arm: `burn${burnUs}`,
      strategy: 'none',
      depth,
      hop,
      burnUs,
      samples: [],
    })),
  );
  let seq = 0;
  let round = 0;
  for (let block = 0; block < blocks; block++) {
    const processLevel = 1 + 0.05 * normal();
    for (let r = 0; r < rounds; r++, round++) {
      const drift = processLevel * (1 + 0.1 * normal());
      for (const c of configs.filter((x) => x.burnUs === 0)) {
        const base = { block, round, seq: seq++, pairSeq: null };
        const cost = baseUs * drift * (1 + noise * normal());
        c.samples.push({ ...base, rps: 1e6 / cost, cpuUsPerRequest: baseUs, burnUsPerRequest: 0 });
        for (const x of configs.filter((o) => o.group === c.group && o.burnUs > 0)) {
          const xCost = (baseUs + x.burnUs * seenFactor) * drift * (1 + noise * normal());
          x.samples.push({
            block,
            round,
            seq: seq++,
            pairSeq: base.seq,
            rps: 1e6 / xCost,
            cpuUsPerRequest: baseUs + x.burnUs,
            burnUsPerRequest: x.burnUs,
          });
        }
      }
    }
  }
  return {
    schema: 2,
    kind: 'calibrate',
    status: 'complete',
    environment: ENV,
    settings: { strategy: 'none', at, connections: 100, pipelining: 1, blocks, rounds, baseline: 'burn0' },
    configs,
  };
}

test('calibrate: judged by interval: inside 1 ± 10% passes, outside fails, across an edge is inconclusive', () => {
  const j = calibrate.judgeInterval;
  assert.strictEqual(j([0.95, 1.05]), 'pass');
  assert.strictEqual(j([0.9, 1.1]), 'pass');
  assert.strictEqual(j([0.85, 1.15]), 'inconclusive', 'wider than the band');
  assert.strictEqual(j([1.05, 1.15]), 'inconclusive', 'across the upper edge');
  assert.strictEqual(j([1.2, 1.65]), 'fail');
  assert.strictEqual(j([0.6, 0.85]), 'fail');
  assert.strictEqual(j(null), 'inconclusive');
  // A point estimate of exactly 1 with a wide interval is not a pass (the old rule passed it).
  assert.strictEqual(j([0.89, 1.17]), 'inconclusive');
});

test('calibrate: a harness that sees the true cost passes at every point, with a fit of slope 1', () => {
  const at = [
    { depth: 1, hop: 'sync' },
    { depth: 8, hop: 'immediate' },
    { depth: 256, hop: 'immediate' },
  ];
  const result = calibrate.analyze(calibrationRun({ at, burns: [0, 50, 100, 200] }));
  assert.deepStrictEqual(
    result.points.map((p) => [p.depth, p.hop]),
    [
      [1, 'sync'],
      [8, 'immediate'],
      [256, 'immediate'],
    ],
  );
  for (const p of result.points) {
    assert.strictEqual(p.verdict, 'pass', p.group);
    assert.strictEqual(p.cpuVerdict, 'pass');
    assert.deepStrictEqual(
      p.levels.filter((l) => l.checked).map((l) => l.burnUs),
      [100, 200],
    );
    for (const l of p.levels) {
      assert.strictEqual(l.pairs, 24);
      assert.strictEqual(l.seenRatio.blocks, 6, 'the interval is over the blocks');
      assert.strictEqual(l.seenRatio.method, 'per-block means');
      assert.ok(l.seenRatio.ci95[0] < 1 && 1 < l.seenRatio.ci95[1], `burn ${l.burnUs}: ${l.seenRatio.ci95}`);
      assert.ok(Math.abs(l.cpuRatio.mean - 1) < 1e-9);
    }
    assert.ok(Math.abs(p.fit.slope - 1) < 0.05, `slope ${p.fit.slope}`);
  }
  assert.strictEqual(result.verdict, 'pass');
  assert.strictEqual(result.pass, true);
});

// A duet calibration: each burn level beside a fresh burn0 process, per window the CPU
// µs per request of both; each process's solo burst with the burn time it measured.
function duetCalibrationRun({
  burns = [0, 100, 200],
  blocks = 5,
  windows = 3,
  baseUs = 100,
  extraFactor = 1,
  noise = 0.005,
  seed = 2,
}) {
  const { normal } = rng(seed);
  const configs = burns.map((burnUs) => ({
    id: `d8/burn${burnUs}`,
    group: 'calibrate/d8/immediate',
    arm: `burn${burnUs}`,
    strategy: 'none',
    depth: 8,
    hop: 'immediate',
    burnUs,
    samples: [],
  }));
  const [base, ...levels] = configs;
  for (let block = 0; block < blocks; block++) {
    base.samples.push({
      kind: 'solo',
      block,
      rps: 1e6 / baseUs,
      cpuUsPerRequest: baseUs,
      burnUsPerRequest: 0,
      pairSeq: null,
    });
    for (const x of levels) {
      const episode = 1 + 0.3 * Math.abs(normal()); // slow seconds hit both servers of the pair
      for (let window = 0; window < windows; window++) {
        const b = baseUs * episode * (1 + noise * normal());
        x.samples.push({
          kind: 'window',
          block,
          window,
          counted: true,
          partner: base.id,
          cpuUsPerRequest: b + x.burnUs * extraFactor * (1 + noise * normal()),
          partnerCpuUsPerRequest: b,
          requests: 1000,
          partnerRequests: 1000,
        });
      }
      x.samples.push({
        kind: 'solo',
        block,
        rps: 1e6 / (baseUs + x.burnUs),
        cpuUsPerRequest: baseUs + x.burnUs * extraFactor,
        burnUsPerRequest: x.burnUs,
        pairSeq: null,
      });
    }
  }
  return {
    schema: 2,
    kind: 'calibrate',
    status: 'complete',
    environment: ENV,
    settings: {
      method: 'duet',
      strategy: 'none',
      at: [{ depth: 8, hop: 'immediate' }],
      connections: 10,
      pipelining: 1,
      blocks,
      baseline: 'burn0',
    },
    configs,
  };
}

test(
  'calibrate in duet: the extra CPU per request beside the baseline, ' +
    'over the burn the solo burst timed; held to ±5%',
  () => {
    const ok = calibrate.analyze(duetCalibrationRun({}));
    assert.strictEqual(ok.tolerance, calibrate.DUET_TOLERANCE);
    const [p] = ok.points;
    assert.strictEqual(p.verdict, 'pass');
    for (const l of p.levels) {
      assert.strictEqual(l.pairs, 15, 'every counted window');
      assert.strictEqual(l.seenRatio.blocks, 5, 'the interval is over the blocks');
      assert.ok(
        Math.abs(l.seenRatio.mean - 1) < 0.01 && l.seenRatio.ci95[1] - l.seenRatio.ci95[0] < 0.02,
        `burn ${l.burnUs}: ${l.seenRatio.ci95}`,
      );
      assert.ok(Math.abs(l.actualUs - l.burnUs) < 1e-9, 'the burn the solo burst timed');
    }
    // Episodes that slow both servers of a pair cancel in the window difference: without
    // them cancelling, a 30% episode would move the extra cost by 30 µs per 100.
    // 8% more than the burn is outside ±5%: fail, where the sequential ±10% would pass.
    const off = calibrate.analyze(duetCalibrationRun({ extraFactor: 1.08 }));
    assert.strictEqual(off.verdict, 'fail');
    const narrow = calibrate.judgeInterval([1.06, 1.09], calibrate.TOLERANCE);
    assert.strictEqual(narrow, 'pass', 'the sequential band would have passed it');
    // Dropped windows do not count.
    const run = duetCalibrationRun({});
    for (const c of run.configs)
      for (const w of c.samples)
        if (w.kind === 'window' && w.window === 0) Object.assign(w, { counted: false, cpuUsPerRequest: 1e6 });
    assert.strictEqual(calibrate.analyze(run).verdict, 'pass');
  },
);

test('calibrate: 1.4× the measured cost seen from outside fails; its server CPU still passes', () => {
  const result = calibrate.analyze(calibrationRun({ seenFactor: 1.4 }));
  assert.strictEqual(result.verdict, 'fail');
  assert.strictEqual(result.pass, false);
  assert.strictEqual(result.cpuVerdict, 'pass');
  for (const l of result.points[0].levels) assert.ok(l.seenRatio.ci95[0] > 1.1, `${l.burnUs}: ${l.seenRatio.ci95}`);
});

test('calibrate: noise the run cannot resolve is inconclusive, not a pass', () => {
  const result = calibrate.analyze(calibrationRun({ noise: 0.3, blocks: 3, rounds: 2, seed: 3 }));
  assert.strictEqual(result.verdict, 'inconclusive');
  for (const l of result.points[0].levels)
    assert.ok(l.seenRatio.ci95[1] - l.seenRatio.ci95[0] > 0.2, 'wider than the band');
});

test('calibrate: schema 2 pairs through pairSeq, not round; schema 1 by round', () => {
  const run = calibrationRun({ blocks: 3, rounds: 2 });
  const [base, burn] = run.configs;
  // Rounds relabelled on the baseline only: pairing by round would now pair the wrong bursts.
  base.samples.forEach((s, i) => (s.round = (i + 1) % base.samples.length));
  const p = pairs(burn, base);
  assert.strictEqual(p.length, burn.samples.length);
  for (const [s, b] of p) assert.strictEqual(b.seq, s.pairSeq);
  // An unpaired schema-2 sample (pairSeq null) is left out.
  burn.samples[0].pairSeq = null;
  assert.strictEqual(pairs(burn, base).length, burn.samples.length - 1);
  // Schema 1 (no seq): by round.
  const legacy = (c) => ({ ...c, samples: c.samples.map((s, i) => ({ ...schema1(s), round: i })) });
  const q = pairs(legacy(burn), legacy(base));
  assert.ok(q.every(([s, b]) => s.round === b.round));
});

test(
  'calibrate: a run recorded before arms and blocks (schema ' + '1) still analyses and renders by the interval rule',
  () => {
    const run = calibrationRun({ blocks: 1, rounds: 8, seenFactor: 1 });
    run.schema = 1;
    for (const c of run.configs) {
      delete c.group;
      delete c.arm;
      c.samples = c.samples.map(schema1);
    }
    const result = calibrate.analyze(run);
    assert.strictEqual(result.points.length, 1);
    assert.strictEqual(result.points[0].levels[0].seenRatio.method, 'pairs');
    assert.strictEqual(result.points[0].levels[0].pairs, 8);
    const md = sections.calibrate.render(run, { file: 'results/calibrate.json' });
    assert.match(md, /predates adjacent pairs and blocks/);
    assert.match(md, /### DEPTH=1 HOP=sync: (✅ pass|❔ inconclusive)/);
  },
);

test('calibrate section: every point, both estimates with intervals, the rule and what a ratio above 1 means', () => {
  const at = [
    { depth: 1, hop: 'sync' },
    { depth: 8, hop: 'immediate' },
  ];
  const run = calibrationRun({ at, seenFactor: 1.4 });
  const md = sections.calibrate.render(run, { file: 'results/calibrate.json' });
  assert.match(md, /^## Method: calibration/);
  assert.match(md, /### DEPTH=1 HOP=sync: ❌ fail \(server CPU: ✅ pass\)/);
  assert.match(md, /### DEPTH=8 HOP=immediate: ❌ fail/);
  assert.match(
    md,
    new RegExp(
      String.raw`\| 100 \| 100 \| \d+\.\d \[\d+\.\d–\d+\.\d\] \| 1\.\d\d \[1\.\d\d–1\.\d\d\] ` +
        String.raw`❌ fail \| 100\.0 \[100\.0–100\.0\] \| 1\.00 \[1\.00–1\.00\] ✅ pass \|`,
    ),
  );
  assert.match(md, /1\.2–1\.65× what the server timed/);
  assert.match(md, /per-block means/);
  assert.doesNotMatch(md, /missed its target/);
  // A burner far off its target (Node 24's LCG burned 324 µs for 100) is flagged.
  const off = calibrationRun({ at, seenFactor: 1 });
  for (const c of off.configs) for (const x of c.samples) if (x.burnUsPerRequest) x.burnUsPerRequest *= 3.2;
  assert.match(
    sections.calibrate.render(off, {}),
    /⚠ \*\*The burner missed its target\*\* at BURN_US=\d+ \(\d+(\.\d+)? µs\)/,
  );
  const incomplete = sections.calibrate.render(
    { kind: 'calibrate', status: 'interrupted', environment: ENV, settings: {}, configs: [] },
    {},
  );
  assert.match(incomplete, /No analysis/);
});

test('aa: the binomial tail decides, not floor(n·0.05): cases where the two rules differ', () => {
  // n = 20: the old rule allowed 1; P(X >= 2) = 0.264, P(X >= 3) = 0.075, P(X >= 4) = 0.016.
  assert.strictEqual(aa.binomialRule(2, 20).pass, true);
  assert.strictEqual(aa.binomialRule(3, 20).pass, true);
  assert.strictEqual(aa.binomialRule(4, 20).pass, false);
  assert.ok(Math.abs(aa.binomialRule(3, 20).tailP - 0.0754837) < 1e-6);
  // n = 60: the old rule allowed 3; P(X >= 6) = 0.079 passes, P(X >= 7) = 0.030 fails.
  assert.strictEqual(aa.binomialRule(6, 60).pass, true);
  assert.strictEqual(aa.binomialRule(7, 60).pass, false);
  assert.strictEqual(aa.allowedOf(20), 3);
  assert.strictEqual(aa.allowedOf(60), 6);
  assert.strictEqual(aa.binomialRule(0, 0).pass, false, 'no comparison is no pass');
});

function aaRun({ trials, blocksPerTrial = 3, rounds = 2, difference = 1, seed = 7, schema = 2 }) {
  const { normal } = rng(seed);
  const a = { id: 'A', group: 'aa', arm: 'A', strategy: 'none', samples: [] };
  const b = { id: 'B', group: 'aa', arm: 'B', strategy: 'none', samples: [] };
  let seq = 0;
  let round = 0;
  for (let block = 0; block < trials * blocksPerTrial; block++) {
    for (let r = 0; r < rounds; r++, round++) {
      const drift = 10000 * (1 + 0.2 * normal());
      const sa = { block, round, seq: seq++, pairSeq: null, rps: drift * (1 + 0.03 * normal()) };
      const sb = { block, round, seq: seq++, pairSeq: sa.seq, rps: drift * difference * (1 + 0.03 * normal()) };
      a.samples.push(sa);
      b.samples.push(sb);
    }
  }
  const settings = {
    strategy: 'none',
    depth: 8,
    hop: 'await',
    duration: 1,
    trials,
    rounds,
    baseline: 'A',
    ...(schema === 2 ? { blocksPerTrial } : { roundsPerTrial: blocksPerTrial * rounds }),
  };
  if (schema === 1)
    for (const s of [...a.samples, ...b.samples]) for (const k of ['block', 'seq', 'pairSeq']) delete s[k];
  return { schema, kind: 'aa', status: 'complete', environment: ENV, settings, configs: [a, b] };
}

test('aa: trials are whole comparisons (blocks per trial); identical arms pass, a real 10% difference fails', () => {
  const same = aa.analyze(aaRun({ trials: 100 }));
  assert.strictEqual(same.completedTrials, 100);
  assert.strictEqual(same.significant, same.trials.filter((t) => t.pValue < 0.05).length);
  assert.strictEqual(same.pass, aa.binomialRule(same.significant, 100).pass);
  assert.ok(same.falsePositiveRate <= 0.1, `false-positive rate ${same.falsePositiveRate}`);
  assert.strictEqual(same.pass, true);
  const different = aa.analyze(aaRun({ trials: 20, difference: 0.9 }));
  assert.ok(different.significant >= 15, `${different.significant} of 20 found the planted difference`);
  assert.strictEqual(different.pass, false);
  assert.match(ratioVerdictText(different.overall), /(9\.\d|10\.\d)% slower, significant/);
});

test('aa: a run of the earlier design (no blocks) is cut into trials by rounds, and renders', () => {
  const run = aaRun({ trials: 10, schema: 1 });
  const r = aa.analyze(run);
  assert.strictEqual(r.completedTrials, 10);
  const md = sections.aa.render(run, {});
  assert.match(md, /^## Method: A\/A false-positive rate/);
  assert.match(md, /this run predates blocks/);
  assert.match(md, new RegExp(`\\*\\*${r.significant} of 10\\*\\* comparisons`));
  assert.match(md, /at most 2 of 10 pass/);
  assert.match(md, r.pass ? /✅ Pass/ : /❌ Fail/);
});

test('aa: the false-positive rate gets its exact interval, and the section says whether it tells 5% from 10%', () => {
  const { rateInterval } = require('../analysis/method');
  // Clopper–Pearson 3/45 (tabulated): [1.40%, 18.27%].
  const [lo, hi] = rateInterval(3, 45);
  assert.ok(Math.abs(lo - 0.014) < 1e-4 && Math.abs(hi - 0.1827) < 1e-4, `${lo} ${hi}`);
  assert.deepStrictEqual(
    rateInterval(0, 10).map((x) => Math.round(x * 1e4) / 1e4),
    [0, 0.3085],
  );
  assert.ok(rateInterval(8, 160)[1] < 0.1, '160 trials at 5% tell it from 10%');
  assert.strictEqual(rateInterval(0, 0), null);
  const md = sections.aa.render(
    {
      kind: 'aa',
      status: 'complete',
      environment: ENV,
      settings: { trials: 45, blocksPerTrial: 3, rounds: 2, strategy: 'none', depth: 8, hop: 'immediate' },
      aa: {
        completedTrials: 45,
        significant: 3,
        falsePositiveRate: 3 / 45,
        tailP: 0.39,
        pass: true,
        allowed: 5,
        alpha: 0.05,
        trials: [],
        rateCi95: rateInterval(3, 45),
      },
    },
    {},
  );
  assert.match(
    md,
    new RegExp(
      String.raw`exact 95% interval \(Clopper–Pearson\) is \[1\.4%–18\.3%\]: ` +
        String.raw`reaches 10% or more: this many trials cannot tell a calibrated 5% from a doubled 10%`,
    ),
  );
});
