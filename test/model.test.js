'use strict';
// Tier: quick (the cost model's arithmetic on synthetic runs)
// The cost model's arithmetic (analysis/model.js) on synthetic duet runs whose costs are
// known: a strategy that costs a fixed 2 µs per request plus 50 ns per async resource must
// come back as those two terms, held-out points must be predicted, a strategy whose cost
// bends must be said to leave the line, and a team's service must be put on the model's
// scale through the reference server. No timing: every figure here is written by the test.
const test = require('node:test');
const assert = require('node:assert');
const {
  analyzeModel,
  tally,
  wordTally,
  upgradeTable,
  predictService,
  fitsByRuntime,
  instructionTerms,
  judgePrediction,
  judgeAgainst,
  gapOverBlocks,
  nonNegativeLine,
  marginPpFor,
  marginFor,
  aaHalfWidth,
  predictRatio,
  methodAgreement,
} = require('../analysis/model');
// analysis/ returns codes; the report words them (issue 77).
const { caveatText, fitWhyText, notModelledText, predictWhyText } = require('../report/words');

// R per point: a request makes 40 resources plus 1.1 per level (setImmediate hops), or
// 2.2 per level (nextTick hops make a promise and a tick object).
const POINTS = [
  { depth: 8, hop: 'immediate', role: 'fit', R: 48.8 },
  { depth: 64, hop: 'immediate', role: 'fit', R: 110.4 },
  { depth: 256, hop: 'immediate', role: 'fit', R: 321.6 },
  { depth: 64, hop: 'nexttick', role: 'fit', R: 180.8 },
  { depth: 32, hop: 'immediate', role: 'held-out', R: 75.2 },
  { depth: 64, hop: 'await', role: 'held-out', R: 150 },
];
const noneUs = (R) => 20 + 0.4 * R;
// Each block runs 4% slower or faster than the last (the machine's episodes), and each window
// of a pair differs by a little: both sides of a pair see the same episode.
const SPEED = [1, 1.04, 0.97];
const WIGGLE = [1.003, 0.998, 1.001];

function synthRun(costs, { runtimes = ['node24'], probes = true } = {}) {
  const configs = [];
  for (const runtime of runtimes) {
    for (const p of POINTS) {
      const point = {
        framework: 'express',
        depth: p.depth,
        hop: p.hop,
        nodeLabel: runtime,
        node: runtime === 'node20' ? 'v20.20.2' : 'v24.21.0',
        role: p.role,
      };
      configs.push({ ...point, id: `express/none/d${p.depth}/${p.hop}/${runtime}`, strategy: 'none', samples: [] });
      for (const [strategy, cost] of Object.entries(costs)) {
        const samples = [];
        SPEED.forEach((speed, block) =>
          WIGGLE.forEach((wiggle, window) => {
            const c0 = noneUs(p.R) * speed * wiggle;
            const extra = cost(p.R, p, runtime) * speed * (1 + (block - 1) * 0.01);
            samples.push({
              kind: 'window',
              block,
              window,
              counted: true,
              cpuUsPerRequest: c0 + extra,
              partnerCpuUsPerRequest: c0,
              requests: 1000,
              partnerRequests: 1000,
            });
          }),
        );
        configs.push({ ...point, id: `express/${strategy}/d${p.depth}/${p.hop}/${runtime}`, strategy, samples });
      }
    }
  }
  return {
    kind: 'run',
    settings: { baseline: 'none', method: 'duet' },
    environment: { commit: 'abc1234', date: '2026-11-26T00:00:00Z' },
    configs,
    probes: probes
      ? runtimes.flatMap((runtime) =>
          POINTS.map((p) => ({
            framework: 'express',
            depth: p.depth,
            hop: p.hop,
            stores: 0,
            nodeLabel: runtime,
            perRequest: { total: p.R, byType: {} },
          })),
        )
      : [],
  };
}

const linear = (R) => 2 + 0.05 * R;

test(
  'the fit recovers a known cost per request and per resource, ' +
    'inside its intervals, and predicts the held-out points right',
  () => {
    const model = analyzeModel(synthRun({ als: linear }));
    const s = model.runtimes[0].strategies.find((x) => x.strategy === 'als');
    // The synthetic blocks scale the cost by their speed (mean 1.0033) and a ±1% drift.
    assert.ok(Math.abs(s.fit.perRequestUs.estimate - 2) < 0.1, JSON.stringify(s.fit.perRequestUs));
    assert.ok(Math.abs(s.fit.perResourceUs.estimate - 0.05) < 0.002, JSON.stringify(s.fit.perResourceUs));
    assert.ok(s.fit.perResourceUs.ci95[0] < 0.05 && s.fit.perResourceUs.ci95[1] > 0.05);
    assert.strictEqual(s.fit.perRequestUs.blocks, 3);
    assert.ok(
      s.points.filter((p) => p.role === 'fit').every((p) => !p.offLine),
      'a straight cost is on its line',
    );
    const held = s.points.filter((p) => p.role === 'held-out');
    assert.deepStrictEqual(
      held.map((p) => p.verdict.outcome),
      ['within', 'within'],
    );
    assert.deepStrictEqual(
      held.map((p) => p.judgement.outcome),
      ['right', 'right'],
      'and side by side',
    );
    // The prediction is none's CPU over none's plus the terms at R.
    const p32 = held.find((p) => p.depth === 32);
    const expected = noneUs(75.2) / (noneUs(75.2) + linear(75.2));
    assert.ok(Math.abs(p32.predicted.estimate - expected) < 0.002, `${p32.predicted.estimate} vs ${expected}`);
    assert.deepStrictEqual(tally(s.points), {
      right: 2,
      miss: 0,
      wide: 0,
      other: 0,
      total: 2,
      within: 2,
      beyond: 0,
      cannotTell: 0,
      unjudged: 0,
    });
    assert.deepStrictEqual([s.word, s.claimed, s.notModelled], ['claimed', true, null]);
    assert.deepStrictEqual(s.validation, { judged: 2, within: 2, beyond: 0, cannotTell: 0 });
  },
);

test('a cost that bends (grows with the square of R) is said to leave the line, and its held-out points miss', () => {
  const model = analyzeModel(synthRun({ 'cls-hooked': (R) => 5 + 0.002 * R * R }));
  const s = model.runtimes[0].strategies[0];
  assert.ok(
    s.points.some((p) => p.role === 'fit' && p.offLine),
    JSON.stringify(s.points.map((p) => p.residualUs)),
  );
  assert.ok(tally(s.points).beyond >= 1, JSON.stringify(s.points.map((p) => p.gapPp)));
  // A line shown wrong at a held-out point is not modelled, and says where.
  assert.strictEqual(s.word, 'not modelled');
  assert.strictEqual(s.claimed, false);
  assert.strictEqual(s.notModelled.code, 'line-wrong');
  assert.match(
    notModelledText(s.notModelled),
    /^its line is wrong at \d held-out points? \(DEPTH=\d+ HOP=\w+ by [+−]\d+\.\d pp.*beyond the margin\)$/,
  );
});

// A run whose DEPTH=1 point (R = 12.1) joined at block 2 on a resume: measured there only,
// at a cost on the same line.
function withJoinedPoint(run, lowR = 12.1) {
  const point = {
    framework: 'express',
    depth: 1,
    hop: 'immediate',
    nodeLabel: 'node24',
    node: 'v24.21.0',
    role: 'fit',
    joinedBlock: 2,
  };
  const c0 = noneUs(lowR) * SPEED[2];
  const windows = WIGGLE.map((wiggle, window) => ({
    kind: 'window',
    block: 2,
    window,
    counted: true,
    cpuUsPerRequest: c0 * wiggle + linear(lowR) * SPEED[2] * 1.01,
    partnerCpuUsPerRequest: c0 * wiggle,
    requests: 1000,
    partnerRequests: 1000,
  }));
  run.configs.push(
    { ...point, id: 'express/none/d1/immediate/node24', strategy: 'none', samples: [] },
    { ...point, id: 'express/als/d1/immediate/node24', strategy: 'als', samples: windows },
  );
  run.probes.push({
    framework: 'express',
    depth: 1,
    hop: 'immediate',
    stores: 0,
    nodeLabel: 'node24',
    perRequest: { total: lowR, byType: {} },
  });
  run.resumes = [
    {
      at: '2026-11-28T05:00:00.000Z',
      fromBlock: 2,
      droppedSamples: 0,
      status: 'complete',
      commit: 'abc1234',
      node: 'v20.20.2',
      added: ['express/none/d1/immediate/node24', 'express/als/d1/immediate/node24'],
    },
  ];
  return run;
}

test(
  'a fitted point that joined on a resume is in the lines of the ' +
    'blocks from then on, widens the fitted range, and the page says so',
  () => {
    const lowR = 12.1;
    const run = withJoinedPoint(synthRun({ als: linear }), lowR);
    const als = analyzeModel(run).runtimes[0].strategies.find((s) => s.strategy === 'als');
    assert.deepStrictEqual(
      als.fit.blocks.map((l) => [l.block, l.points]),
      [
        [0, 4],
        [1, 4],
        [2, 5],
      ],
      'blocks 0 and 1 keep their line; block 2 has the new point in it',
    );
    assert.deepStrictEqual(als.fit.rangeR, [lowR, 321.6]);
    const { modelSection } = require('../report/sections/run/model');
    const { environmentSection } = require('../report/sections/run/environment');
    assert.match(
      modelSection({ ...run, title: 'Model (synthetic)', settings: { ...run.settings, preset: 'model' } }),
      new RegExp(
        String.raw`Fitted points added on a resume: DEPTH=1 HOP=immediate from block 3 \(measured ` +
          String.raw`in 1 block\)\. Each block's line goes through the points that block measured ` +
          String.raw`\(4 before, 5 after\)[^\n]* is 12–322 async resources per request\.`,
      ),
    );
    assert.match(
      environmentSection(run),
      new RegExp(
        String.raw`- \*\*Resumed:\*\* [^\n]*; 2 configurations the preset gained ` +
          String.raw`since joined from this block on \(DEPTH=1 HOP=immediate\)`,
      ),
    );
    // Each line predicts only inside the range it was fitted on: at R = 20 only block 2's.
    assert.deepStrictEqual(
      als.fit.blocks.map((l) => [l.lo, l.hi]),
      [
        [48.8, 321.6],
        [48.8, 321.6],
        [lowR, 321.6],
      ],
    );
    const level = { estimate: noneUs(20), se: 0, df: 2 };
    const onlyLast = predictRatio({ blocks: [als.fit.blocks[2]] }, 20, level);
    assert.strictEqual(
      predictRatio(als.fit, 20, level).estimate,
      onlyLast.estimate,
      'blocks 0 and 1 are not extrapolated below 48.8',
    );
    assert.notStrictEqual(
      predictRatio(als.fit, 100, level).estimate,
      predictRatio({ blocks: [als.fit.blocks[2]] }, 100, level).estimate,
      'inside every range, every block',
    );
    // Before its first counted window the new point is not in the fit, and does not stop it.
    run.configs.at(-1).samples = [];
    const waiting = analyzeModel(run).runtimes[0].strategies.find((s) => s.strategy === 'als');
    assert.ok(waiting.fit, waiting.why);
    assert.deepStrictEqual(waiting.fit.rangeR, [48.8, 321.6]);
  },
);

test('the terms are fitted as costs: never below zero, the free fit where it is feasible', () => {
  // Exact lines come back exact; a falling line is held at the best cost (flat, a >= 0);
  // a line through negative values at small R starts at zero.
  assert.deepStrictEqual(
    nonNegativeLine([
      [10, 3],
      [20, 5],
      [30, 7],
    ]),
    { a: 1, b: 0.2 },
  );
  assert.deepStrictEqual(
    nonNegativeLine([
      [10, 5],
      [20, 4],
      [30, 3],
    ]),
    { a: 4, b: 0 },
  );
  const through = nonNegativeLine([
    [10, -1],
    [20, 1],
    [30, 3],
  ]);
  assert.ok(through.a === 0 && Math.abs(through.b - 10 / 140) < 1e-12, JSON.stringify(through));
  assert.deepStrictEqual(
    nonNegativeLine([
      [10, -3],
      [20, -2],
    ]),
    { a: 0, b: 0 },
  );
  // A strategy that saves CPU per request in the synthetic data (−3 µs) is fitted at zero
  // there, and no point is predicted above 100%.
  const model = analyzeModel(synthRun({ param: (R) => -3 + 0.02 * R }));
  const s = model.runtimes[0].strategies[0];
  assert.ok(
    s.fit.blocks.every((l) => l.a >= 0 && l.b >= 0),
    JSON.stringify(s.fit.blocks),
  );
  assert.ok(
    s.points.every((p) => p.predicted.estimate <= 1 && p.predicted.ci95[1] <= 1),
    JSON.stringify(s.points.map((p) => p.predicted)),
  );
});

test(
  'the margin is max(1 pp, 15% of the predicted cost), ' + 'and a measurement apart from the fit is judged against it',
  () => {
    assert.strictEqual(marginPpFor(0.99), 1);
    assert.ok(Math.abs(marginPpFor(0.4) - 9) < 1e-9, 'a 60% cost: ±9 pp');
    // Two intervals of ±1 pp, 0.5 pp apart, cheap strategy: within ±1 pp cannot be shown.
    assert.strictEqual(
      judgeAgainst({ estimate: 0.95, ci95: [0.94, 0.96], df: 9 }, { estimate: 0.955, ci95: [0.95, 0.96], df: 9 })
        .outcome,
      'cannot tell',
    );
    assert.strictEqual(
      judgeAgainst({ estimate: 0.95, ci95: [0.948, 0.952], df: 9 }, { estimate: 0.951, ci95: [0.949, 0.953], df: 9 })
        .outcome,
      'within',
    );
    assert.strictEqual(
      judgeAgainst({ estimate: 0.95, ci95: [0.948, 0.952], df: 9 }, { estimate: 0.9, ci95: [0.898, 0.902], df: 9 })
        .outcome,
      'beyond',
    );
    // The same 5 pp gap is within the margin of a strategy that costs 60%.
    assert.strictEqual(
      judgeAgainst({ estimate: 0.4, ci95: [0.39, 0.41], df: 9 }, { estimate: 0.45, ci95: [0.44, 0.46], df: 9 }).outcome,
      'within',
    );
    assert.strictEqual(judgeAgainst(null, { estimate: 0.9, ci95: [0.89, 0.91], df: 9 }).outcome, 'no prediction');
    assert.strictEqual(judgeAgainst({ estimate: 0.9 }, null).outcome, 'not measured');
  },
);

test(
  'the gap paired by block is judged by two one-sided ' + 'tests against its margin: within, beyond, or cannot tell',
  () => {
    // One line per block (a µs per request, b µs per resource); `none` costs 50 µs here.
    const fit = { blocks: [0, 1, 2, 3, 4].map((block) => ({ block, a: 2, b: 0.01 })) };
    const R = 100;
    // A measurement per block: `cost` = this one's CPU ÷ none's; the line predicts 50 / 53.
    const figures = (costs) => new Map(costs.map((cost, block) => [block, { c0: 50, cost }]));
    const onLine = 53 / 50;
    const within = gapOverBlocks(
      fit,
      R,
      figures([onLine, onLine * 1.002, onLine * 0.998, onLine * 1.001, onLine * 0.999]),
    );
    assert.strictEqual(within.agreement.outcome, 'within', JSON.stringify(within));
    // 10% dearer than the line in every block: about 8 pp below the prediction.
    const beyond = gapOverBlocks(fit, R, figures([1.1, 1.1, 1.1, 1.1, 1.1].map((x) => x * onLine)));
    assert.strictEqual(beyond.agreement.outcome, 'beyond', JSON.stringify(beyond));
    assert.ok(beyond.estimate > 5, 'predicted minus measured: the prediction is the higher');
    // Right on average, but the blocks disagree by several points.
    const noisy = gapOverBlocks(fit, R, figures([0.95, 1.05, 0.97, 1.03, 1.0].map((x) => x * onLine)));
    assert.strictEqual(noisy.agreement.outcome, 'cannot tell', JSON.stringify(noisy));
    // The margin widens with the cost: the same blocks judged at ±10 pp are within.
    assert.strictEqual(
      gapOverBlocks(fit, R, figures([1.1, 1.1, 1.1, 1.1, 1.1].map((x) => x * onLine)), 10).agreement.outcome,
      'within',
    );
    // Blocks without a measurement are left out, not read as zero.
    assert.strictEqual(
      gapOverBlocks(
        fit,
        R,
        new Map([
          [0, { c0: 50, cost: onLine }],
          [1, { c0: 50, cost: onLine }],
        ]),
      ).blocks,
      2,
    );
    // Lines without their own range (an older fit, one design) hold the fit's range only:
    // outside it, no block predicts, so nothing is judged.
    const older = { ...fit, rangeR: [47, 1287] };
    assert.strictEqual(
      gapOverBlocks(older, R, figures([onLine, onLine, onLine, onLine, onLine])).agreement.outcome,
      'within',
    );
    assert.strictEqual(
      gapOverBlocks(older, 25, figures([onLine, onLine, onLine, onLine, onLine])),
      null,
      "below the older fit's range",
    );
    assert.strictEqual(predictRatio(older, 25, { estimate: 50, se: 1, df: 9 }).estimate, null);
  },
);

test('without probe counts there is no fit, and the page is told which points lack them', () => {
  const model = analyzeModel(synthRun({ als: linear }, { probes: false }));
  assert.strictEqual(model.runtimes[0].strategies[0].fit, null);
  assert.match(fitWhyText(model.runtimes[0].strategies[0].why), /without a probe count/);
  assert.strictEqual(model.missingProbes.length, POINTS.length);
});

test('a run without roles has no model', () => {
  const run = synthRun({ als: linear });
  for (const c of run.configs) delete c.role;
  assert.strictEqual(analyzeModel(run), null);
});

test("the upgrade table pairs each runtime's terms with the first one's by block", () => {
  const perRuntime = (R, p, runtime) => (runtime === 'node20' ? 2 + 0.3 * R : 2 + 0.05 * R);
  const model = analyzeModel(synthRun({ als: perRuntime }, { runtimes: ['node20', 'node24'] }));
  const table = upgradeTable(model, 'node20');
  const rows = table.strategies[0].rows;
  assert.strictEqual(rows[0].change, null);
  const change = rows[1].change.perResourceUs;
  assert.ok(Math.abs(change.estimate + 0.25) < 0.01, JSON.stringify(change));
  assert.ok(change.ci95[1] < 0, 'the drop per resource is outside zero');
});

test("a service is put on the model's scale through the reference server, and each strategy predicted at its R", () => {
  const fits = fitsByRuntime([
    { file: 'results/model.json', run: synthRun({ als: linear, 'cls-hooked': (R) => 15 + 2.3 * R }) },
  ]);
  const fit = fits.get('node24');
  assert.strictEqual(fit.source.commit, 'abc1234');
  const ref = fit.reference.cpuUsPerRequest.estimate;
  // The service costs 3× the reference per request: the reference's windows read cost 1/3.
  const reference = {
    samples: [0, 1, 2].flatMap((block) =>
      [0, 1, 2].map((window) => ({
        kind: 'window',
        block,
        window,
        counted: true,
        cpuUsPerRequest: 40 * SPEED[block],
        partnerCpuUsPerRequest: 120 * SPEED[block] * WIGGLE[window],
      })),
    ),
  };
  const out = predictService(fit, 200, reference);
  assert.ok(Math.abs(out.baselineUs.estimate - 3 * ref) / (3 * ref) < 0.01, `${out.baselineUs.estimate} vs ${3 * ref}`);
  const als = out.rows.find((r) => r.strategy === 'als');
  const base = out.baselineUs.estimate;
  assert.ok(Math.abs(als.estimate - base / (base + linear(200))) < 0.003, JSON.stringify(als));
  assert.ok(als.ci95[0] < als.estimate && als.estimate < als.ci95[1]);
  assert.ok(out.rows.find((r) => r.strategy === 'cls-hooked').estimate < als.estimate);
  // Outside the fitted range (49–322 resources here): refused with the reason, no figure.
  for (const R of [10, 1000]) {
    const outside = predictService(fit, R, reference).rows.find((r) => r.strategy === 'als');
    assert.strictEqual(outside.estimate, null);
    assert.match(
      predictWhyText(outside),
      new RegExp(
        String.raw`^outside the fitted range: \d+\.\d async resources per request, ` +
          'the terms were fitted on 49–322; measure it with `ctxbench app --candidate als`$',
      ),
    );
  }
});

test("an agent's prediction says what the model does not count: the spans of a service's client calls", () => {
  const fits = fitsByRuntime([
    { file: 'results/model.json', run: synthRun({ als: linear, sentry: (R) => 700 + 0.05 * R }) },
  ]);
  const reference = {
    samples: [0, 1, 2].flatMap((block) =>
      [0, 1, 2].map((window) => ({
        kind: 'window',
        block,
        window,
        counted: true,
        cpuUsPerRequest: 40,
        partnerCpuUsPerRequest: 120,
      })),
    ),
  };
  const rows = predictService(fits.get('node24'), 200, reference).rows;
  const sentry = rows.find((r) => r.strategy === 'sentry');
  assert.ok(sentry.estimate > 0 && sentry.estimate < 0.2, JSON.stringify(sentry));
  assert.match(
    caveatText(sentry.caveat),
    /no database, cache or HTTP client call: the agent spans each such call, which the model does not count/,
  );
  assert.strictEqual(rows.find((r) => r.strategy === 'als').caveat, undefined, 'not an agent');
});

test("a block from a sitting on a faster machine is put on the reference level's scale before it predicts", () => {
  // Block 0 ran where the reference request cost 50 µs, block 1 where it cost 40 (the mean:
  // 45). The strategy costs 10% of a reference request in both; only block 1 measured the
  // small service's range, so its line alone predicts there.
  const fit = {
    reference: { cpuUsPerRequest: { estimate: 45, se: 0, df: 1 }, byBlock: { 0: 50, 1: 40 } },
    strategies: {
      als: {
        blocks: [
          { block: 0, a: 5, b: 0, lo: 40, hi: 300 },
          { block: 1, a: 4, b: 0, lo: 10, hi: 300 },
        ],
        rangeR: [10, 300],
      },
    },
  };
  // The service costs what the reference request costs, measured beside it.
  const reference = {
    samples: [0, 1, 2].flatMap((block) =>
      [0, 1, 2].map((window) => ({
        kind: 'window',
        block,
        window,
        counted: true,
        cpuUsPerRequest: 40,
        partnerCpuUsPerRequest: 40,
      })),
    ),
  };
  const at = (R) => predictService(fit, R, reference).rows[0].estimate;
  assert.ok(Math.abs(at(20) - 1 / 1.1) < 1e-9, `${at(20)}: 10% of a reference request, not 4 µs of 45`);
  assert.ok(Math.abs(at(100) - 1 / 1.1) < 1e-9, `${at(100)}: both blocks agree on their own scale`);
  // A fit without per-block levels (older) is read as it was.
  const older = { ...fit, reference: { cpuUsPerRequest: fit.reference.cpuUsPerRequest } };
  assert.ok(Math.abs(predictService(older, 20, reference).rows[0].estimate - 45 / 49) < 1e-9);
});

// The A/A twin of `none` at the reference configuration (DEPTH=8 HOP=immediate): `none`
// beside `none`, its cost per block 1 × `spread` (no strategy, only the method's noise).
function withAaTwin(run, spread = [1, 1.03, 0.97], runtime = 'node24') {
  const samples = spread.flatMap((cost, block) =>
    WIGGLE.map((wiggle, window) => ({
      kind: 'window',
      block,
      window,
      counted: true,
      cpuUsPerRequest: 50 * cost * wiggle,
      partnerCpuUsPerRequest: 50 * wiggle,
      requests: 1000,
      partnerRequests: 1000,
    })),
  );
  run.configs.push({
    framework: 'express',
    depth: 8,
    hop: 'immediate',
    nodeLabel: runtime,
    node: 'v24.21.0',
    role: 'fit',
    id: `express/none/d8/immediate/${runtime}/aa`,
    strategy: 'none',
    arm: 'aa',
    samples,
  });
  return run;
}

test(
  "a held-out point's margin is max(1 pp, 15% of the predicted cost, " +
    'the A/A half-width), and says which term set it',
  () => {
    // Each term the largest once.
    assert.deepStrictEqual(marginFor(0.99), { marginPp: 1, setBy: 'floor' });
    assert.deepStrictEqual(marginFor(0.99, 0.4), { marginPp: 1, setBy: 'floor' }, 'an A/A finer than the floor');
    const share = marginFor(0.4, 2.5);
    assert.ok(share.setBy === 'share' && Math.abs(share.marginPp - 9) < 1e-9, JSON.stringify(share));
    assert.deepStrictEqual(marginFor(0.95, 2.5), { marginPp: 2.5, setBy: 'aa' });
    assert.deepStrictEqual(marginFor(0.95, null), { marginPp: 1, setBy: 'floor' }, 'no A/A point: no third term');
    // The A/A half-width: the 90% t half-width over blocks of `none`-beside-`none`'s share.
    const run = withAaTwin(synthRun({ als: linear }));
    const twin = run.configs.at(-1);
    const shares = [1, 1.03, 0.97].map((c) => 100 / c);
    const m = shares.reduce((a, b) => a + b) / 3;
    const sd = Math.sqrt(shares.reduce((a, x) => a + (x - m) ** 2, 0) / 2);
    const expected = (2.919986 * sd) / Math.sqrt(3);
    assert.ok(
      Math.abs(aaHalfWidth(twin).halfWidthPp - expected) < 1e-3,
      `${aaHalfWidth(twin).halfWidthPp} vs ${expected}`,
    );
    assert.strictEqual(aaHalfWidth(twin, new Set([0])), null, 'one block: no half-width');
    // In the model: the twin is no strategy; the cheap strategy's held-out margins are its half-width.
    const model = analyzeModel(run);
    const rt = model.runtimes[0];
    assert.deepStrictEqual(
      rt.strategies.map((s) => s.strategy),
      ['als'],
    );
    assert.ok(Math.abs(rt.aa.halfWidthPp - expected) < 1e-3 && rt.aa.blocks === 3, JSON.stringify(rt.aa));
    const held = rt.strategies[0].points.filter((p) => p.role === 'held-out');
    for (const p of held) {
      assert.strictEqual(p.verdict.setBy, 'aa', JSON.stringify(p.verdict));
      assert.ok(Math.abs(p.verdict.marginPp - expected) < 1e-3 && p.gapPp.agreement.marginPp === p.verdict.marginPp);
    }
    // Without the twin the same points' margins are the cost's share (a ~10% cost: ±1.5 pp).
    const without = analyzeModel(synthRun({ als: linear })).runtimes[0];
    assert.strictEqual(without.aa, null);
    assert.deepStrictEqual(
      without.strategies[0].points.filter((p) => p.role === 'held-out').map((p) => p.verdict.setBy),
      ['share', 'share'],
    );
    // The page says which term set each margin, and when no A/A point was measured.
    const { modelSection } = require('../report/sections/run/model');
    const page = (r) =>
      modelSection({ ...r, title: 'Model (synthetic)', settings: { ...r.settings, preset: 'model' } });
    const withTwin = page(run);
    assert.match(
      withTwin,
      /\| `als` \| DEPTH=32 HOP=immediate \| held-out \|.*\| ✅ within ±5\.1 pp \| the A\/A half-width \|/,
    );
    assert.match(withTwin, /The A\/A point at the reference configuration: ±5\.1 pp on `node24` \(3 blocks\)/);
    const noTwin = page(synthRun({ als: linear }));
    assert.match(
      noTwin,
      /No A\/A point measured \(no `none`-beside-`none` twin at the reference configuration in this run\)/,
    );
    assert.match(
      noTwin,
      /\| `als` \| DEPTH=32 HOP=immediate \| held-out \|.*\| ✅ within ±1\.\d pp \| 15% of the predicted cost \|/,
    );
    assert.match(
      page(synthRun({ param: () => 0.01 })),
      /\| `param` \| DEPTH=32 HOP=immediate \| held-out \|.*\| the 1 pp floor \|/,
    );
  },
);

test(
  'three words for a strategy–runtime pair: claimed (≥ 2 judged, ' +
    '≥ 80% within, none beyond), not validated, not modelled',
  () => {
    const held = (run, strategy, hop) =>
      run.configs.find((c) => c.strategy === strategy && c.hop === hop && c.role === 'held-out');
    const words = (run) =>
      Object.fromEntries(analyzeModel(run).runtimes[0].strategies.map((s) => [s.strategy, s.word]));
    // Both held-out points within: claimed. A bending cost, beyond somewhere: not modelled.
    assert.deepStrictEqual(words(synthRun({ als: linear, 'cls-hooked': (R) => 5 + 0.002 * R * R })), {
      als: 'claimed',
      'cls-hooked': 'not modelled',
    });
    // One point judged (the other's windows all dropped): within, but fewer than 2: not validated.
    const one = synthRun({ als: linear });
    const awaitPoint = held(one, 'als', 'await');
    awaitPoint.samples = awaitPoint.samples.map((w) => ({
      ...w,
      counted: false,
      dropped: 'server CPU not saturated (20% used)',
    }));
    const s1 = analyzeModel(one).runtimes[0].strategies[0];
    assert.deepStrictEqual(
      [s1.word, s1.validation],
      ['not validated', { judged: 1, within: 1, beyond: 0, cannotTell: 0 }],
    );
    // Two judged, one of them cannot tell: 50% within, under 80%: not validated.
    const noisy = synthRun({ als: linear });
    const n = held(noisy, 'als', 'await');
    n.samples = n.samples.map((w) => ({ ...w, cpuUsPerRequest: w.cpuUsPerRequest * [1, 1.04, 0.965][w.block] }));
    const s2 = analyzeModel(noisy).runtimes[0].strategies[0];
    assert.deepStrictEqual(
      [s2.word, s2.validation],
      ['not validated', { judged: 2, within: 1, beyond: 0, cannotTell: 1 }],
    );
    // Counted over the pairs, and said in results.md's line and on the page.
    const both = {
      ...synthRun({ als: linear, 'cls-hooked': (R) => 5 + 0.002 * R * R, param: () => 0.01 }),
      title: 'Model (synthetic)',
      settings: { baseline: 'none', method: 'duet', preset: 'model' },
    };
    const pn = held(both, 'param', 'await');
    pn.samples = pn.samples.map((w) => ({ ...w, counted: false, dropped: 'server CPU not saturated (20% used)' }));
    const w = wordTally(analyzeModel(both));
    assert.deepStrictEqual([w.claimed, w.notValidated, w.notModelled, w.pairs], [1, 1, 1, 3]);
    assert.deepStrictEqual(w.claimedPairs, [{ runtime: 'node24', strategy: 'als' }]);
    const { modelPointer } = require('../report');
    assert.match(
      modelPointer([{ run: both, name: 'model' }], (name) => `results/${name}.md`),
      /the model is claimed for 1 of 3 strategy–runtime pairs, not validated 1, not modelled 1$/m,
    );
    const { modelSection } = require('../report/sections/run/model');
    const page = modelSection(both);
    assert.ok(page.includes('**Of 3 strategy–runtime pairs, 1 claimed, 1 not validated, 1 not modelled.**'), page);
    assert.match(
      page,
      new RegExp(
        '\\| `param` \\|.*\\| \\*\\*not validated\\*\\*: 1 of 1 judged held-out ' +
          String.raw`point within \(claimed needs at least 2, 80% of them within\) \|`,
      ),
    );
    // The shipped fit carries the word: terms for claimed and not validated, none for not modelled;
    // `app --predict` prints the word beside each figure and no figure where not modelled.
    const fit = fitsByRuntime([{ file: 'results/model.json', run: both }]).get('node24');
    assert.deepStrictEqual(
      Object.fromEntries(Object.entries(fit.strategies).map(([k, v]) => [k, [v.word, Boolean(v.blocks)]])),
      { als: ['claimed', true], 'cls-hooked': ['not modelled', false], param: ['not validated', true] },
    );
    const reference = {
      samples: [0, 1, 2].flatMap((block) =>
        [0, 1, 2].map((window) => ({
          kind: 'window',
          block,
          window,
          counted: true,
          cpuUsPerRequest: 40,
          partnerCpuUsPerRequest: 120,
        })),
      ),
    };
    const prediction = predictService(fit, 200, reference);
    assert.deepStrictEqual(
      prediction.rows.map((r) => [r.strategy, r.word, r.estimate === null]),
      [
        ['als', 'claimed', false],
        ['cls-hooked', 'not modelled', true],
        ['param', 'not validated', false],
      ],
    );
    const { predictLines } = require('../bench/cli/app');
    const printed = predictLines({
      runtime: 'node24',
      probe: { perRequest: { total: 200, byType: {} }, runtime: { node: 'v24.21.0', acf: true } },
      model: { source: { file: 'results/model.json' } },
      prediction,
    }).join('\n');
    assert.match(printed, /^ {2}als +\d+\.\d% \[[^\]]+\] {2}claimed {2}\(\+/m);
    assert.match(printed, /^ {2}param +\d+\.\d% \[[^\]]+\] {2}not validated \(1 of 1 judged held-out point within\)/m);
    assert.match(printed, /^ {2}cls-hooked +no prediction: not modelled: its line is wrong at [^\n]*$/m);
    assert.doesNotMatch(
      printed.split('\n').find((l) => /cls-hooked/.test(l)),
      /\d+\.\d%/,
      'no figure where not modelled',
    );
  },
);

test('a strategy the model does not claim is not predicted: the reason and what to measure instead', () => {
  const fits = fitsByRuntime([
    { file: 'results/model.json', run: synthRun({ als: linear, 'cls-hooked': (R) => 5 + 0.002 * R * R }) },
  ]);
  const fit = fits.get('node24');
  assert.ok(fit.strategies['cls-hooked'].notModelled && !fit.strategies['cls-hooked'].blocks);
  const reference = {
    samples: [0, 1, 2].flatMap((block) =>
      [0, 1, 2].map((window) => ({
        kind: 'window',
        block,
        window,
        counted: true,
        cpuUsPerRequest: 40,
        partnerCpuUsPerRequest: 120,
      })),
    ),
  };
  const row = predictService(fit, 200, reference).rows.find((r) => r.strategy === 'cls-hooked');
  assert.strictEqual(row.estimate, null);
  assert.match(
    predictWhyText(row),
    /^not modelled: its line is wrong at .*; measure it with `ctxbench app --candidate cls-hooked`$/,
  );
});

test('a prediction is judged only against a measurement precise to 2 pp', () => {
  assert.strictEqual(judgePrediction({ estimate: 0.95 }, { estimate: 0.955, ci95: [0.94, 0.97] }).outcome, 'right');
  assert.strictEqual(judgePrediction({ estimate: 0.95 }, { estimate: 0.97, ci95: [0.96, 0.98] }).outcome, 'miss');
  assert.strictEqual(
    judgePrediction({ estimate: 0.95 }, { estimate: 0.95, ci95: [0.9, 1.0] }).outcome,
    'too wide',
  );
  assert.strictEqual(judgePrediction({ estimate: 0.95 }, null).outcome, 'not measured');
});

test("the instruction terms are the line through two counted points at the model run's resource counts", () => {
  const run = synthRun({ als: linear });
  const win = (perRequest) =>
    [0, 1, 2].map((window) => ({
      kind: 'instructions',
      block: 0,
      window,
      perRequest,
      instructions: perRequest * 1000,
      requests: 1000,
    }));
  const counted = {
    configs: [
      { strategy: 'none', framework: 'express', depth: 8, hop: 'immediate', nodeLabel: 'node24', samples: win(100000) },
      {
        strategy: 'none',
        framework: 'express',
        depth: 256,
        hop: 'immediate',
        nodeLabel: 'node24',
        samples: win(400000),
      },
      {
        strategy: 'als',
        framework: 'express',
        depth: 8,
        hop: 'immediate',
        nodeLabel: 'node24',
        samples: win(100000 + 1000 + 20 * 48.8),
      },
      {
        strategy: 'als',
        framework: 'express',
        depth: 256,
        hop: 'immediate',
        nodeLabel: 'node24',
        samples: win(400000 + 1000 + 20 * 321.6),
      },
    ],
  };
  const terms = instructionTerms(counted, run);
  const als = terms.rows.find((r) => r.strategy === 'als');
  assert.ok(Math.abs(als.perRequest - 1000) < 1 && Math.abs(als.perResource - 20) < 0.01, JSON.stringify(als));
});

test(
  'the shipped results/model-fit.json has the shape the ' + 'report writes from model studies, which --predict reads',
  (t) => {
    const fs = require('node:fs');
    const path = require('node:path');
    const { modelFit } = require('../report');
    const ROOT = path.join(__dirname, '..');
    // The fit shipped with the package (package.json "files"), read on purpose; its shape is
    // checked against a fit the report writes from the fixture studies (test/fixtures/results/
    // model*.json, named as in results/), never its figures: measuring the model study again
    // changes them. That the shipped fit is the committed studies' own is the report's job
    // (`ctxbench report` writes both).
    const committed = path.join(ROOT, 'results', 'model-fit.json');
    if (!fs.existsSync(committed)) return t.skip('no shipped model-fit.json');
    const dir = path.join(__dirname, 'fixtures', 'results');
    const results = fs
      .readdirSync(dir)
      .filter((n) => /^model.*\.json$/.test(n) && n !== 'model-fit.json')
      .map((n) => ({ file: path.join(dir, n), run: JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')) }));
    const written = JSON.parse(
      JSON.stringify(modelFit(results, (file) => path.posix.join('results', path.basename(file)))),
    );
    const shipped = JSON.parse(fs.readFileSync(committed, 'utf8'));
    const shape = (fit) =>
      Object.fromEntries(
        Object.entries(fit.runtimes).map(([label, r]) => [
          label,
          {
            keys: Object.keys(r).sort(),
            strategies: Object.fromEntries(
              Object.entries(r.strategies).map(([name, s]) => [name, Object.keys(s).sort()]),
            ),
          },
        ]),
      );
    assert.strictEqual(shipped.kind, written.kind);
    assert.ok(Object.keys(shipped.runtimes).length > 0, 'the shipped fit covers a runtime');
    // Each runtime's fields, and each strategy's (modelled, or
    // not modelled with its reason), as the report writes them.
    const forms = new Set(
      Object.values(shape(written)).flatMap((r) => Object.values(r.strategies).map((k) => k.join())),
    );
    const runtimeKeys = Object.values(shape(written))[0].keys;
    for (const [label, r] of Object.entries(shape(shipped))) {
      assert.deepStrictEqual(r.keys, runtimeKeys, label);
      for (const [name, keys] of Object.entries(r.strategies))
        assert.ok(forms.has(keys.join()), `${label} ${name}: ${keys.join()}`);
    }
    for (const r of Object.values(shipped.runtimes)) {
      for (const s of Object.values(r.strategies)) {
        if (s.perRequestUs)
          assert.ok(
            Number.isFinite(s.perRequestUs.estimate) && Number.isFinite(s.perResourceUs.estimate),
            JSON.stringify(s).slice(0, 200),
          );
        // Each strategy carries its word (issue 61); terms only where it is not "not modelled".
        assert.ok(['claimed', 'not validated', 'not modelled'].includes(s.word), JSON.stringify(s).slice(0, 200));
        assert.strictEqual(Boolean(s.blocks), s.word !== 'not modelled', JSON.stringify(s).slice(0, 200));
      }
    }
  },
);

test('the page and results.md give the verdicts (within, beyond, cannot tell) and what the model claims', () => {
  const { modelSection } = require('../report/sections/run/model');
  const { modelPointer } = require('../report');
  const run = {
    ...synthRun({ als: linear, 'cls-hooked': (R) => 5 + 0.002 * R * R }),
    title: 'Model (synthetic)',
    settings: { baseline: 'none', method: 'duet', preset: 'model' },
  };
  const model = analyzeModel(run);
  const t = tally(model.runtimes.flatMap((rt) => rt.strategies.flatMap((s) => s.points)));
  const page = modelSection(run);
  assert.ok(page.includes(`**Held-out: ${t.within} within, ${t.beyond} beyond, ${t.cannotTell} cannot tell**`), page);
  assert.ok(page.includes('**Of 2 strategy–runtime pairs, 1 claimed, 0 not validated, 1 not modelled.**'), page);
  assert.match(
    page,
    /\| `als` \|.*\| 2 \/ 0 \/ 0 \| \*\*claimed\*\* \(2 of 2 judged held-out points within\) \|/,
    'als: both held-out gaps within, claimed',
  );
  assert.match(
    page,
    /\| `cls-hooked` \|.*\| \*\*not modelled\*\*: its line is wrong at/,
    'a bending cost is not claimed',
  );
  assert.match(page, /❌ beyond ±\d+\.\d pp \|/, "a bending cost's gap is beyond its margin");
  const pointer = modelPointer([{ run, name: 'model' }], (name) => `results/${name}.md`);
  assert.ok(
    pointer.includes(
      `of ${t.total} held-out predictions, ${t.within} within their ` +
        `margin, ${t.beyond} beyond it, ${t.cannotTell} cannot tell`,
    ),
    pointer,
  );
  assert.ok(
    pointer.includes('the model is claimed for 1 of 2 strategy–runtime pairs, not validated 0, not modelled 1'),
    pointer,
  );
});

test(
  "the method check: the duet's extra µs on the pair's baseline predicts the pair's ratio, " +
    'judged per block against the margin; wake-ups per request beside',
  () => {
    // Windows of one config: per block `none` costs c0 and the strategy c0 + extra.
    const windows = (c0s, extras, wakeups = [null, null]) => ({
      samples: c0s.flatMap((c0, block) =>
        [0, 1, 2].map((window) => ({
          kind: 'window',
          block,
          window,
          counted: true,
          partnerCpuUsPerRequest: c0 * (1 + window * 0.001),
          cpuUsPerRequest: c0 * (1 + window * 0.001) + extras[block],
          wakeupsPerRequest: wakeups[0],
          partnerWakeupsPerRequest: wakeups[1],
        })),
      ),
    });
    const duet = windows([33, 34, 32, 33, 35], [10, 10.2, 9.8, 10.1, 9.9]);
    // At the rate, `none` costs 130 µs a request; the same 10 µs extra agrees.
    const same = methodAgreement(duet, windows([130, 128, 132, 131, 129], [10, 10.1, 9.9, 10.2, 9.8], [0.97, 0.97]));
    assert.strictEqual(same.gapPp.agreement.outcome, 'within', JSON.stringify(same.gapPp));
    assert.ok(Math.abs(same.predicted.estimate - 130 / 140) < 0.002, same.predicted.estimate);
    assert.ok(Math.abs(same.pairExtraUs.estimate - 10) < 0.1 && Math.abs(same.duetExtraUs.estimate - 10) < 0.1);
    assert.deepStrictEqual(same.wakeups.pair, { candidate: 0.97, baseline: 0.97 });
    assert.deepStrictEqual(same.wakeups.duet, { candidate: null, baseline: null });
    // Twice the duet's extra at the rate: the pair's ratio is beyond what the duet predicts.
    const dearer = methodAgreement(duet, windows([130, 128, 132, 131, 129], [20, 20.1, 19.9, 20.2, 19.8]));
    assert.strictEqual(dearer.gapPp.agreement.outcome, 'beyond', JSON.stringify(dearer.gapPp));
    assert.ok(dearer.gapPp.estimate > 5, 'predicted minus measured: the duet predicts the cheaper');
    // Blocks are paired by number: a pair block without its duet block is left out.
    assert.strictEqual(
      methodAgreement(duet, windows([130, 128, 132, 131, 129, 130, 130], [10, 10, 10, 10, 10, 10, 10])).blocks,
      5,
    );
    assert.strictEqual(methodAgreement(duet, { samples: [] }), null);
    // The same margin as a held-out point's: the pair's A/A twin at the rate, when its
    // half-width is the largest term, sets it (here ±3.0 pp over a cheap 7% cost's ±1.1).
    const twin = windows([130, 128, 132, 131, 129], [0, 5, -5, 3, -3]);
    const withTwin = methodAgreement(duet, windows([130, 128, 132, 131, 129], [10, 10.1, 9.9, 10.2, 9.8]), twin);
    assert.strictEqual(withTwin.gapPp.agreement.setBy, 'aa', JSON.stringify(withTwin.gapPp.agreement));
    assert.ok(Math.abs(withTwin.gapPp.agreement.marginPp - aaHalfWidth(twin).halfWidthPp) < 1e-12);
    assert.strictEqual(same.gapPp.agreement.setBy, 'share');
  },
);

test('the model page says why held-out points a duet could not measure are not measured with the pair instead', () => {
  const { modelSection } = require('../report/sections/run/model');
  const run = {
    ...synthRun({ als: linear }),
    title: 'Model (synthetic)',
    settings: { baseline: 'none', method: 'duet', preset: 'model' },
  };
  const page = (r) => modelSection(r);
  assert.doesNotMatch(page(run), /not measured \(`HOP=/);
  // The await point's windows all dropped, as HOP=mixed's are: the servers were not saturated.
  const held = run.configs.find((c) => c.strategy === 'als' && c.hop === 'await');
  held.samples = held.samples.map((w) => ({ ...w, counted: false, dropped: 'server CPU not saturated (20% used)' }));
  const text = page(run);
  assert.match(text, /1 held-out point is not measured \(`HOP=await`\): the duet needs both servers busy throughout/);
  assert.match(
    text,
    new RegExp(
      String.raw`The pair at a fixed rate measures such points; whether it ` +
        String.raw`may be judged against these lines is the method check's to say`,
    ),
  );
});

test(
  'the model page shows the method check from its companion runs: ' +
    'per rate, agree, disagree or undecided, and the table behind it',
  () => {
    const { modelSection } = require('../report/sections/run/model');
    const run = {
      ...synthRun({ als: linear }),
      title: 'Model (synthetic)',
      settings: { baseline: 'none', method: 'duet', preset: 'model' },
    };
    // One point, none beside two strategies, as a duet and as a pair at 1,000 req/s.
    const windows = (c0s, extras) =>
      c0s.flatMap((c0, block) =>
        [0, 1, 2].map((window) => ({
          kind: 'window',
          block,
          window,
          counted: true,
          partnerCpuUsPerRequest: c0 * (1 + window * 0.001),
          cpuUsPerRequest: c0 * (1 + window * 0.001) + extras[block],
          wakeupsPerRequest: 0.9,
          partnerWakeupsPerRequest: 0.95,
        })),
      );
    const point = { framework: 'express', depth: 8, hop: 'immediate', stores: 0, nodeLabel: 'node24' };
    const configs = (c0s, extras, rate) => [
      { ...point, id: 'none', strategy: 'none', rate, samples: [] },
      { ...point, id: 'cheap', strategy: 'als', rate, samples: windows(c0s, extras.cheap) },
      { ...point, id: 'dear', strategy: 'cls-hooked', rate, samples: windows(c0s, extras.dear) },
    ];
    const duet = {
      settings: { baseline: 'none' },
      environment: { commit: 'abc1234', date: '2026-11-28T10:00:00Z' },
      configs: configs([33, 34, 32, 33, 35], { cheap: [1, 1.1, 0.9, 1, 1], dear: [50, 51, 49, 50, 50] }),
    };
    const pairRun = (dear) => ({
      settings: { baseline: 'none' },
      environment: { commit: 'abc1234', date: '2026-11-28T10:30:00Z' },
      configs: configs([130, 128, 132, 131, 129], { cheap: [1, 1.05, 0.95, 1, 1], dear }, 1000),
    });
    const page = (pair) =>
      modelSection(run, {
        companions: {
          methodCheck: {
            duet: { file: 'results/runs/method-check-duet.json', run: duet },
            pair: { file: 'results/runs/method-check-pair.json', run: pair },
          },
        },
      });
    const agree = page(pairRun([50, 50.5, 49.5, 50, 50]));
    assert.match(agree, /#### The method check: may the pair stand in for the duet\?/);
    assert.match(
      agree,
      new RegExp(
        String.raw`- \*\*At 1,000 req/s each: the methods agree: every strategy ` +
          String.raw`within its margin\*\* \(2 within, 0 beyond, 0 cannot tell\)`,
      ),
    );
    assert.match(
      agree,
      new RegExp(
        '\\| `cls-hooked` \\| 1,000 \\| 50\\.0 \\[[\\d.]+–[\\d.]+\\] on 33\\.4 ' +
          String.raw`\| 50\.0 \[[\d.]+–[\d.]+\] on 130\.\d \|.*\| ✅ within ` +
          String.raw`±\d+\.\d pp \| 15% of the predicted cost \| 0\.90 / 0\.95 \| 5 \|`,
      ),
    );
    // Twice the saturated cost at the rate: beyond, and the rate's outcome says so.
    const disagree = page(pairRun([100, 101, 99, 100, 100]));
    assert.match(
      disagree,
      /- \*\*At 1,000 req\/s each: the methods do not agree\*\* \(1 within, 1 beyond, 0 cannot tell\)/,
    );
    // Without the companion runs the page says nothing of a check.
    assert.doesNotMatch(modelSection(run, {}), /The method check/);
  },
);

test(
  'a cannot-tell point says at how many blocks it would decide if ' +
    'its gap held, and the page says how far the study is from answers',
  () => {
    const { blocksToDecide, gapOverBlocks: gap } = require('../analysis/model');
    // A gap of +0.3 pp with a block SD of 2 pp over 14 blocks: within ±1 pp once the 90%
    // interval's half-width is 0.7 pp, near 24 blocks.
    const near = blocksToDecide({ estimate: 0.3, se: 2 / Math.sqrt(14), blocks: 14 }, 1);
    assert.strictEqual(near.outcome, 'within');
    assert.ok(near.blocks >= 22 && near.blocks <= 26, JSON.stringify(near));
    // −1.8 pp against ±1 pp: beyond, and sooner.
    const far = blocksToDecide({ estimate: -1.8, se: 2 / Math.sqrt(14), blocks: 14 }, 1);
    assert.strictEqual(far.outcome, 'beyond');
    assert.ok(far.blocks > 14 && far.blocks < near.blocks, JSON.stringify(far));
    // On the margin's edge: never, within the cap.
    assert.deepStrictEqual(blocksToDecide({ estimate: 1.0, se: 2 / Math.sqrt(14), blocks: 14 }, 1), {
      blocks: null,
      outcome: null,
    });
    // Only a cannot-tell carries a projection.
    const fit = { blocks: [0, 1, 2, 3, 4].map((block) => ({ block, a: 2, b: 0.01 })) };
    const figures = (costs) => new Map(costs.map((cost, block) => [block, { c0: 50, cost }]));
    const onLine = 53 / 50;
    assert.strictEqual(
      gap(fit, 100, figures([onLine, onLine * 1.002, onLine * 0.998, onLine * 1.001, onLine * 0.999])).agreement
        .toDecide,
      undefined,
    );
    const noisy = gap(fit, 100, figures([0.95, 1.05, 0.97, 1.03, 1.0].map((x) => x * onLine)));
    assert.strictEqual(noisy.agreement.outcome, 'cannot tell');
    assert.ok(noisy.agreement.toDecide.blocks > 5, JSON.stringify(noisy.agreement));
    // The page: the projection in the verdict cell, and the summary with the study's pace.
    const { modelSection } = require('../report/sections/run/model');
    const run = {
      ...synthRun({ als: linear }),
      measuringSeconds: 900,
      title: 'Model (synthetic)',
      settings: { baseline: 'none', method: 'duet', preset: 'model' },
    };
    // The await point's blocks disagree by a few points: right on average, undecided.
    const held = run.configs.find((c) => c.strategy === 'als' && c.hop === 'await');
    held.samples = held.samples.map((w) => ({ ...w, cpuUsPerRequest: w.cpuUsPerRequest * [1, 1.04, 0.965][w.block] }));
    const points = analyzeModel(run).runtimes[0].strategies[0].points;
    const undecided = points.filter((p) => p.verdict.outcome === 'cannot tell');
    assert.ok(undecided.length >= 1, JSON.stringify(points.map((p) => p.verdict)));
    const page = modelSection(run);
    assert.match(
      page,
      /… cannot tell ±\d+\.\d pp \((within|beyond) at \d+ blocks, if its gap held\)|on the margin's edge/,
    );
    assert.match(
      page,
      new RegExp(
        String.raw`If each gap's mean and spread held, the \d+ \*cannot tell\* points would decide at ` +
          String.raw`.* at this study's 300 s a block\)?.*The study has 3: a projection, not a promise\.`,
      ),
    );
  },
);

test(
  'a held-out resume measures only the pairs whose word the projection says ' +
    'is decided by N blocks, their points, their partners and an A/A point',
  () => {
    const { heldOutPlan } = require('../bench/run/held-out');
    const { restAllBut, completeBlocks } = require('../bench/run/resume');
    const run = synthRun({ als: linear, param: () => 0.01, 'cls-hooked': (R) => 5 + 0.002 * R * R });
    const held = (strategy, hop) =>
      run.configs.find((c) => c.strategy === strategy && c.hop === hop && c.role === 'held-out');
    // Each await point noisy enough to read cannot tell: als's by 15 blocks, param's by 6 (if its gap held).
    for (const [strategy, f] of [
      ['als', [1, 1.04, 0.965]],
      ['param', [1, 1.012, 0.99]],
    ]) {
      const c = held(strategy, 'await');
      c.samples = c.samples.map((w) => ({ ...w, cpuUsPerRequest: w.cpuUsPerRequest * f[w.block] }));
    }
    const projected = (n) => heldOutPlan(run, n).pairs.map((p) => [p.strategy, p.projected, p.toward]);
    assert.deepStrictEqual(projected(30), [
      ['als', 15, 'claimed'],
      ['param', 6, 'claimed'],
    ]);
    const plan = heldOutPlan(run, 10);
    assert.deepStrictEqual(
      plan.pairs.map((p) => [p.strategy, p.points.map((x) => x.hop)]),
      [['param', ['await']]],
      'only its open held-out point',
    );
    const why = Object.fromEntries(plan.left.map((l) => [l.strategy, l.why]));
    assert.match(why.als, /^its word projected at 15 blocks, past 10$/);
    assert.match(why['cls-hooked'], /^not modelled \(its line is wrong at DEPTH=\S+ HOP=\w+.*\): no block undoes it$/);
    // Its fitted points, its open held-out one, the `none` partner of each, the A/A twin at the reference point.
    assert.deepStrictEqual([...plan.keep].sort(), [
      'express/none/d256/immediate/node24',
      'express/none/d64/await/node24',
      'express/none/d64/immediate/node24',
      'express/none/d64/nexttick/node24',
      'express/none/d8/immediate/node24',
      'express/none/d8/immediate/node24/aa',
      'express/param/d256/immediate/node24',
      'express/param/d64/await/node24',
      'express/param/d64/immediate/node24',
      'express/param/d64/nexttick/node24',
      'express/param/d8/immediate/node24',
    ]);
    assert.deepStrictEqual(
      plan.twins.map((t) => [t.id, t.arm, t.role, t.samples.length]),
      [['express/none/d8/immediate/node24/aa', 'aa', undefined, 0]],
    );
    // Claimed already, or too few points: nothing to decide.
    assert.match(heldOutPlan(synthRun({ als: linear }), 30).left[0].why, /^claimed already$/);
    assert.throws(
      () => heldOutPlan({ settings: {}, configs: [{ id: 'x', samples: [] }] }, 30),
      /^Error: not a model study/,
    );
    // The others rest from the block the resume goes on at: their blocks before it still count, none after.
    run.configs.push(...plan.twins.map((t) => ({ ...t, joinedBlock: 3 })));
    const rested = restAllBut(run, plan.keep, 3);
    assert.strictEqual(rested.length, run.configs.length - plan.keep.size);
    assert.ok(rested.every((c) => c.restingFrom === 3));
    // Resting is for good: a later held-out resume leaves the pair out, with why.
    const again = heldOutPlan(run, 30);
    assert.deepStrictEqual(
      again.pairs.map((p) => p.strategy),
      ['param'],
    );
    assert.strictEqual(again.left.find((l) => l.strategy === 'als').why, 'resting since block 4');
    assert.strictEqual(completeBlocks(run.configs), 3);
    // (A `none` of this synthetic run holds no sample: the duet's windows are its partners'.)
    const measuring = run.configs.filter((x) => plan.keep.has(x.id) && (x.samples.length || x.joinedBlock === 3));
    for (const c of measuring)
      c.samples.push({ kind: 'window', block: 3, counted: true, cpuUsPerRequest: 50, partnerCpuUsPerRequest: 50 });
    assert.strictEqual(completeBlocks(run.configs), 4, 'the resting ones hold no later block back');
    // The page says which blocks measured what, and why.
    const { modelSection } = require('../report/sections/run/model');
    const record = {
      pairs: [{ runtime: 'node24', strategy: 'param', projected: 6, toward: 'claimed' }],
      measured: 11,
      rested: rested.length,
    };
    const page = modelSection({
      ...run,
      title: 'Model (synthetic)',
      settings: { ...run.settings, preset: 'model' },
      resumes: [{ fromBlock: 3, blocks: 10, heldOut: { budgetS: 3600, ...record } }],
    });
    assert.ok(
      page.includes(
        `**Block 4 is a held-out resume** (\`--held-out\`, 60 min of measuring at most), ` +
          `measuring only the pairs whose word the page's projection then said was decided ` +
          `by 10 blocks — \`param\` on \`node24\` (claimed at 6 blocks, ` +
          `if its gaps held) — with their open held-out points, the fitted points their ` +
          `line is drawn through, their \`none\` partners and an A/A point; the ${rested.length} ` +
          `other configurations rest at their first 3 blocks, their verdicts read from those.`,
      ),
      page.split('\n').find((l) => /held-out resume/.test(l)),
    );
    assert.deepStrictEqual(
      restAllBut(run, new Set(), 4).map((c) => c.restingFrom),
      Array(plan.keep.size).fill(4),
      'a resting one keeps its block',
    );
    assert.strictEqual(completeBlocks(run.configs), 4, 'every configuration resting: the blocks they had');
  },
);

test(
  'an A/A twin that joined later sets a margin from its spread ' +
    "over the blocks it shares, scaled to the point's blocks",
  () => {
    const twin = {
      samples: [0, 1, 2, 3].flatMap((block) =>
        [0, 1].map((window) => ({
          kind: 'window',
          block,
          window,
          counted: true,
          cpuUsPerRequest: 50 * [1, 1.02, 0.99, 1.01][block],
          partnerCpuUsPerRequest: 50,
        })),
      ),
    };
    const all = aaHalfWidth(twin, new Set([0, 1, 2, 3]));
    assert.deepStrictEqual([all.blocks, all.of], [4, 4]);
    const sd = (all.halfWidthPp * Math.sqrt(4)) / 2.353363;
    const scaled = aaHalfWidth(twin, new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    assert.deepStrictEqual([scaled.blocks, scaled.of], [4, 10]);
    assert.ok(Math.abs(scaled.halfWidthPp - (1.833113 * sd) / Math.sqrt(10)) < 1e-4, `${scaled.halfWidthPp}`);
    assert.strictEqual(aaHalfWidth(twin, new Set([2, 3, 8, 9])), null, 'two blocks shared: no term');
  },
);
