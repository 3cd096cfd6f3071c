'use strict';
// Tier: quick (synthetic steps and windows: nothing started)
// The autoscaler's operating point: the search for the rate at which a stand-in uses its
// target share of the quota (bench/rates/operating-point.js), and the figures read there
// (analysis/operating-point.js): the ratio paired in the same windows, instances per
// 1,000 req/s, the tail at each side's own rate.
const test = require('node:test');
const assert = require('node:assert');
const hdr = require('hdr-histogram-js');
const { nextRate, searchOperatingPoint, spanShare, pairedCost, TOLERANCE } = require('../bench/rates/operating-point');
const { operatingPoint, operatingPoints } = require('../analysis/operating-point');
const { summaryOf } = require('../analysis');
const { newHistogram } = require('../lib/histogram');
const { mulberry32 } = require('../lib/random');

// Latencies come back from HDR histograms at their precision (3 significant digits).
const near = (a, b, what) =>
  assert.ok(Math.abs(a - b) <= 0.01 * Math.max(1, Math.abs(b)), `${what ?? ''} ${a} vs ${b}`);

// A stand-in whose share of its quota grows as the rate to the power 0.9, 60% at 1,000 req/s.
const share = (rate) => 0.6 * (rate / 1000) ** 0.9;

test('the search lands within the tolerance of the target from a guess far off, in a few steps', async () => {
  for (const start of [200, 1000, 3000]) {
    const r = await searchOperatingPoint({ start, target: 0.6, measure: async (rate) => ({ share: share(rate) }) });
    assert.ok(r.converged, JSON.stringify(r));
    assert.ok(Math.abs(r.share / 0.6 - 1) <= TOLERANCE, JSON.stringify(r));
    assert.ok(Math.abs(r.rate / 1000 - 1) < 0.15, `rate ${r.rate} from ${start}`);
    assert.ok(r.steps.length <= 4, `${r.steps.length} steps from ${start}`);
  }
});

test('the search under noise a fifth wide: the line through the steps, never a wild rate', async () => {
  const random = mulberry32(7);
  for (let trial = 0; trial < 20; trial++) {
    const r = await searchOperatingPoint({
      start: 1500,
      target: 0.6,
      measure: async (rate) => ({ share: share(rate) * (0.8 + 0.4 * random()) }),
    });
    assert.ok(r.rate > 600 && r.rate < 1600, `trial ${trial}: ${r.rate} (${JSON.stringify(r.steps)})`);
    assert.ok(r.steps.length <= 4);
  }
});

test('nextRate: the fitted slope on the log of both, a step fallen behind backs off, no move beyond ×2', () => {
  // Two steps on the curve: the line through them is the curve, its rate at 60% is 1,000.
  assert.strictEqual(
    nextRate(
      [
        { rate: 500, share: share(500) },
        { rate: 2000, share: share(2000) },
      ],
      0.6,
    ),
    1000,
  );
  // One step: the default slope (0.9 here too).
  assert.strictEqual(nextRate([{ rate: 800, share: share(800) }], 0.6), 1000);
  // Far below the target: at most twice the rate.
  assert.strictEqual(nextRate([{ rate: 100, share: 0.01 }], 0.6), 200);
  // Fallen behind (the whole quota used): lower, whatever the line says.
  assert.ok(
    nextRate(
      [
        { rate: 1000, share: 0.55 },
        { rate: 2000, share: 1, behind: true },
      ],
      0.6,
    ) <= 1200,
  );
  assert.ok(nextRate([{ rate: 2000, share: 1, behind: true }], 0.6) < 2000);
});

// A pair window as bench/measure/pair-windows.js windowBetween makes it: member i's cgroup CPU µs.
const win = (wallMs, cpus) => ({
  wallMs,
  members: cpus.map((c, i) => ({ instance: { cpuUs: c, cpuUsPerRequest: c / (i + 1) } })),
});
test('spanShare and pairedCost: CPU over wall time on the quota, and the cost ratio in the same windows', () => {
  const inst = { cpus: 0.25 };
  assert.strictEqual(spanShare([win(1000, [150000, 0]), win(1000, [100000, 0])], 0, inst), 0.5);
  assert.strictEqual(spanShare([], 0, inst), null);
  // Member 1's CPU per request is half its CPU (c / 2): the same c on both sides -> cost 0.5.
  assert.strictEqual(pairedCost([win(1000, [100, 100]), win(1000, [300, 300])], 1, 0), 0.5);
});

// Synthetic phased windows of one candidate: per window both sides' cgroup CPU per request,
// latencies as histograms (µs).
function hist(ms, n) {
  const h = newHistogram();
  h.recordValueWithCount(Math.round(ms * 1000), n);
  return hdr.encodeIntoCompressedBase64(h);
}
function phased({ block, phase, rate, base, cand, baseMs = 2, candMs = 3, counted = true }) {
  return {
    kind: 'window',
    method: 'pair',
    phase,
    block,
    rate,
    counted,
    wallMs: 1000,
    requests: rate,
    partnerRequests: rate,
    cpuUsPerRequest: cand,
    partnerCpuUsPerRequest: base,
    instance: { cpuUsPerRequest: cand, periods: 10, throttled: 1 },
    partnerInstance: { cpuUsPerRequest: base, periods: 10, throttled: 0 },
    histogram: hist(candMs, 100),
    partnerHistogram: hist(baseMs, 100),
    latenessHistogram: hist(0.05, 100),
  };
}

test('the ratio is paired in the same windows: a fifth of common noise between windows leaves it exact', () => {
  // The candidate costs 1.25× the baseline in every window, while each window's level moves
  // by ±20% on both sides at once. A ratio of means across phases would carry that.
  const samples = [];
  const levels = [1, 1.2, 0.8, 1.1, 0.9, 1.2];
  for (let block = 0; block < 4; block++)
    for (let i = 0; i < 3; i++) {
      const L = 200 * levels[(block + i) % levels.length];
      samples.push(phased({ block, phase: 'base', rate: 1000, base: L, cand: 1.25 * L }));
    }
  // A window where the candidate's CPU was not read (its partner's was, at twice the level):
  // paired, it says nothing; a ratio of each side's own windows would read it.
  for (let block = 0; block < 4; block++) {
    const w = phased({ block, phase: 'base', rate: 1000, base: 400, cand: 500 });
    w.instance.cpuUsPerRequest = null;
    w.cpuUsPerRequest = null;
    samples.push(w);
  }
  const op = operatingPoint({ id: 'c', samples }, { instance: { cpus: 0.25 }, targetCpu: 0.6 });
  assert.ok(Math.abs(op.ratio.estimate - 0.8) < 1e-9, op.ratio.estimate);
  assert.strictEqual(op.blocks, 4);
  assert.strictEqual(op.ownBlocks, 0);
  // Instances per 1,000 req/s: 1,000 × CPU per request ÷ (0.25 CPU × 1e6 µs × 0.6).
  const basePer = [0, 1, 2, 3].map((b) => {
    // The baseline's own CPU per request counts every window it was read in.
    const ls = [...[0, 1, 2].map((i) => 200 * levels[(b + i) % levels.length]), 400];
    return (1000 * Math.exp(ls.map(Math.log).reduce((a, x) => a + x) / ls.length)) / (0.25e6 * 0.6);
  });
  // Geometric mean over blocks (a count of instances is positive: its interval on the log).
  const mean = Math.exp(basePer.map(Math.log).reduce((a, x) => a + x) / 4);
  assert.ok(Math.abs(op.instances.baseline.estimate - mean) < 1e-9);
  assert.ok(Math.abs(op.instances.candidate.estimate - mean / 0.8) < 1e-9);
  assert.ok(op.instances.baseline.ci95[0] > 0 && op.instances.baseline.ci95[0] < mean, JSON.stringify(op.instances));
  // The tail at each side's rate: 3 ms against 2 ms in every block.
  near(op.tails.candidate.p99, 3);
  near(op.tails.baseline.p99, 2);
  near(op.tails.added.p99.estimate, 1);
  assert.strictEqual(op.throttled.candidate, 0.1);
});

test(
  'where the candidate was measured at its own rate, ' +
    "its figure and its tail are read there, the baseline's at its own",
  () => {
    const samples = [];
    for (let block = 0; block < 3; block++) {
      // At the baseline's rate it cost 2× and fell behind (60 ms); at its own, 1.6× in the same windows.
      for (let i = 0; i < 3; i++)
        samples.push(phased({ block, phase: 'base', rate: 1000, base: 100, cand: 200, candMs: 60 }));
      for (let i = 0; i < 3; i++)
        samples.push(phased({ block, phase: 'own', rate: 600, base: 125, cand: 200, baseMs: 1.5, candMs: 4 }));
    }
    const op = operatingPoint({ id: 'c', samples }, { instance: { cpus: 0.25 }, targetCpu: 0.6, slo: { boundMs: 50 } });
    assert.ok(Math.abs(op.ratio.estimate - 0.625) < 1e-9, op.ratio.estimate);
    assert.ok(Math.abs(op.sameRate.estimate - 0.5) < 1e-9, 'at the baseline rate it read 50%');
    assert.strictEqual(op.ownBlocks, 3);
    assert.deepStrictEqual([op.rates.baseline.estimate, op.rates.candidate.estimate], [1000, 600]);
    near(op.tails.candidate.p99, 4, "the candidate's tail at its own rate");
    near(op.tails.baseline.p99, 2, "the baseline's at its own rate, in both phases");
    assert.strictEqual(op.tails.candidate.overShare, 0);
    // The run's summary carries the same ratio, and operatingPoints lists the candidate.
    const run = {
      settings: { baseline: 'none', targetCpu: 0.6, instance: { cpus: 0.25 }, slo: null },
      configs: [
        { id: 'b', strategy: 'none', samples: [] },
        { id: 'c', strategy: 'als', samples },
      ],
    };
    assert.ok(Math.abs(summaryOf(run.configs[1], run.configs, 'none').ratio.estimate - 0.625) < 1e-9);
    assert.deepStrictEqual(
      operatingPoints(run).map((r) => r.config.id),
      ['c'],
    );
  },
);

test('a block measured at its own rate but without a counted window gives no figure and is not counted as own', () => {
  const samples = [];
  for (const block of [0, 1, 2]) {
    samples.push(phased({ block, phase: 'base', rate: 1000, base: 400, cand: 500 }));
    samples.push(phased({ block, phase: 'own', rate: 800, base: 400, cand: 500, counted: block < 2 }));
  }
  const op = operatingPoint({ id: 'c', samples }, { instance: { cpus: 0.25 }, targetCpu: 0.6 });
  assert.deepStrictEqual([op.blocks, op.ownBlocks], [2, 2]);
});

// A stand-in's cost of a lightly loaded request is the machine's state: 118–684 µs over one run's
// blocks (docs/deploy.md, "What the ratio rests on"). A strategy whose CPU adds to it moves with it.
const runAt = (bases, candOf, { depth = 8 } = {}) => {
  const samples = (cand) => {
    const out = [];
    bases.forEach((L, block) => {
      for (let i = 0; i < 3; i++) {
        const b = L * (1 + 0.05 * (i - 1));
        out.push(phased({ block, phase: 'own', rate: 500, base: b, cand: cand(b, block, i) }));
      }
    });
    return out;
  };
  return {
    settings: { baseline: 'none', targetCpu: 0.6, instance: { name: 'F1', cpus: 0.25, periodUs: 100000 } },
    configs: [
      { id: 'b', framework: 'express', strategy: 'none', depth, samples: [] },
      { id: 'c', framework: 'express', strategy: 'cls-hooked', depth, samples: samples(candOf) },
      // The twin's ratio leans on the base too, but by 2% over a threefold range (a real twin's r
      // read −0.83 with a slope of −0.03): significant, and nothing to act on.
      {
        id: 't',
        framework: 'express',
        strategy: 'none',
        arm: 'aa',
        depth,
        samples: samples((b) => b * (1 - 0.02 * Math.log(b / 200))),
      },
    ],
  };
};

test(
  "a ratio that followed the baseline's cost from block to " +
    "block is marked, a twin's and a proportional one's are not",
  () => {
    const { operatingSection } = require('../report/sections/run/operating');
    const bases = [200, 300, 450, 600, 250, 500];
    // cls-hooked adds 150 µs a request, whatever the base: its ratio is base ÷ (base + 150).
    const run = runAt(bases, (b, k, i) => b + 150 + 3 * (i - 1));
    const [c, twin] = operatingPoints(run).map((r) => r.op);
    // Each block's the geometric mean of its windows (0.95, 1, 1.05 × the base).
    near(c.base.range[0], 200 * 0.99917);
    near(c.base.range[1], 600 * 0.99917);
    assert.ok(c.base.dependence.r > 0.95 && c.base.dependence.pValue < 0.01, JSON.stringify(c.base.dependence));
    assert.strictEqual(c.base.dependence.moves, true);
    // From 57% at 200 µs to 80% at 600: about +40% across the range.
    assert.ok(c.base.dependence.move > 0.3 && c.base.dependence.move < 0.5, JSON.stringify(c.base.dependence));
    assert.ok(twin.base.dependence.pValue < 0.05, JSON.stringify(twin.base));
    assert.strictEqual(twin.base.dependence.moves, false, JSON.stringify(twin.base));
    const md = operatingSection(run);
    assert.match(
      md,
      new RegExp(
        "\\*What the ratio rests on:\\* `none`'s CPU per request at its " +
          String.raw`operating point ranged \d+–\d+ µs at depth 8 over the blocks`,
      ),
      md,
    );
    assert.match(
      md,
      new RegExp(
        "> ⚠ \\*\\*Moved with `none`'s cost of a lightly loaded " +
          'request:\\*\\* `cls-hooked` at depth 8 \\(r = [01]\\.\\d\\d over 6 blocks, ' +
          String.raw`p < 0\.001; \+\d+% across the blocks' range\)\.`,
      ),
      md,
    );
    // A strategy that costs 1.5× the base in every block: the same ratio whatever the base.
    const prop = operatingPoints(runAt(bases, (b, k, i) => 1.5 * b * (1 + 0.01 * (((k + i) % 3) - 1)))).map(
      (r) => r.op,
    );
    assert.strictEqual(prop[0].base.dependence?.moves ?? false, false, JSON.stringify(prop[0].base));
    assert.doesNotMatch(operatingSection(runAt(bases, (b) => 1.5 * b)), /Moved with/);
  },
);

test("repro of runs at the operating point says what the baseline's lightly loaded request cost in each", () => {
  const { reproCompare } = require('../analysis/repro');
  const { render } = require('../report/sections/repro');
  const add = (b, k, i) => b + 150 + 4 * (((k * 3 + i) % 5) - 2);
  const on = (run, us) => ({
    ...run,
    environment: { cpuModel: 'AMD EPYC', cores: 2, kernel: 'k', fingerprint: { cpuUsPerRequest: us } },
  });
  const r = reproCompare(on(runAt([200, 210, 190, 205], add), 220), on(runAt([300, 310, 290, 305], add), 59));
  assert.strictEqual(r.baseCosts.length, 1);
  assert.strictEqual(r.baseCosts[0].depth, 8);
  assert.ok(
    Math.abs(r.baseCosts[0].a / 201 - 1) < 0.02 && Math.abs(r.baseCosts[0].b / 301 - 1) < 0.02,
    JSON.stringify(r.baseCosts),
  );
  // The ratio moved with it, beyond both runs' noise.
  assert.strictEqual(r.rows.find((x) => x.id === 'c').consistent, false);
  const { reproText } = require('../report/repro-text');
  assert.match(
    reproText(r),
    /^The baseline's CPU per request at its operating point: a 20\d µs, b 30\d µs at depth 8 /m,
  );
  const md = render({ title: 'r', repro: r });
  assert.match(
    md,
    /\*\*The baseline's CPU per request at its operating point:\*\* run a 20\d µs, run b 30\d µs at depth 8/,
  );
  // One machine's name, two speeds: the page says so beside the name.
  assert.match(
    md,
    new RegExp(
      String.raw`Both runs on the same machine: AMD EPYC × 2, ` +
        String.raw`kernel k\. Machine-speed fingerprint: run a 220, run b 59 µs ` +
        String.raw`a request — 3\.7× apart: the same name, not necessarily the same host`,
    ),
    md,
  );
  const near2 = reproCompare(on(runAt([200, 210, 190, 205], add), 45), on(runAt([200, 210, 190, 205], add), 43));
  assert.match(render({ title: 'r', repro: near2 }), /run a 45, run b 43 µs a request\.\n/);
});

// Little's law at each side's operating point: answers × mean latency ÷ wall time; the
// autoscalers' concurrency target (the request limit × 0.6) decides where it is above.
test('requests in flight there, and the concurrency target marked where a candidate is above it', () => {
  const { operatingSection } = require('../report/sections/run/operating');
  const samples = [];
  // 100 answers a 1-s window: the candidate's at 8 ms (0.8 in flight), the baseline's at 2 ms (0.2).
  for (let block = 0; block < 3; block++)
    for (let i = 0; i < 3; i++)
      samples.push(phased({ block, phase: 'base', rate: 100, base: 100, cand: 120, candMs: 8 }));
  const instance = { name: 'cloudrun:cpu=0.5', cpus: 0.5, periodUs: 100000, requestLimit: 1 };
  const op = operatingPoint({ id: 'c', samples }, { instance, targetCpu: 0.6 });
  near(op.inFlight.candidate.estimate, 0.8, 'candidate in flight');
  near(op.inFlight.baseline.estimate, 0.2, 'baseline in flight');
  assert.strictEqual(op.concurrencyAllowed, 0.6);
  const unlimited = operatingPoint({ id: 'c', samples }, { instance: { cpus: 0.5 }, targetCpu: 0.6 });
  assert.strictEqual(unlimited.concurrencyAllowed, null);
  const run = {
    settings: { baseline: 'none', targetCpu: 0.6, instance, slo: null },
    configs: [
      { id: 'b', strategy: 'none', depth: 8, samples: [] },
      { id: 'c', strategy: 'als', depth: 8, samples },
    ],
  };
  const md = operatingSection(run);
  assert.match(md, /Requests in flight: strategy \/ `none` \(target 0\.60\)/);
  assert.match(md, /\| ⚠ 0\.80 \/ 0\.20 \|/);
  assert.match(md, /The concurrency target binds first\*\* for `als` at depth 8/);
  // At 8 requests at once (target 4.8) the same figures are under it: no mark.
  const roomy = { ...run, settings: { ...run.settings, instance: { ...instance, requestLimit: 8 } } };
  const md8 = operatingSection(roomy);
  assert.match(md8, /\| 0\.80 \/ 0\.20 \|/);
  assert.doesNotMatch(md8, /binds first/);
});

// The autoscaler's other target: an instance holds at most its request limit × 0.6 requests in
// flight, so a request takes of an instance the larger of its CPU ÷ (quota × CPU target) and
// the time it held its connection ÷ that (lib/instances.js instanceUsPerRequest). At one
// request at a time (Cloud Run below 1 vCPU) the connection's time binds long before the CPU.
test('the concurrency target: a request takes the larger of its CPU and its connection time of an instance', () => {
  const { instanceUsPerRequest } = require('../lib/instances');
  const cr = { cpus: 0.5, requestLimit: 1, concurrencyTarget: 0.6 };
  // 200 µs of CPU at 60% of half a CPU: 667 µs; 1,000 µs on its one connection at 0.6: 1,667.
  const held = instanceUsPerRequest({ cpuUs: 200, busyUs: 1000 }, cr, 0.6);
  assert.strictEqual(held.bound, 'concurrency');
  near(held.us, 1000 / 0.6);
  // A dear request (3 ms of CPU, 4 ms held): its CPU binds.
  assert.deepStrictEqual(instanceUsPerRequest({ cpuUs: 3000, busyUs: 4000 }, cr, 0.6), { us: 10000, bound: 'cpu' });
  // No request limit, or no busy time recorded: the CPU's.
  assert.strictEqual(instanceUsPerRequest({ cpuUs: 200, busyUs: 1000 }, { cpus: 0.5 }, 0.6).bound, 'cpu');
  assert.strictEqual(instanceUsPerRequest({ cpuUs: 200 }, cr, 0.6).bound, 'cpu');
  assert.strictEqual(instanceUsPerRequest({ cpuUs: null, busyUs: 1000 }, cr, 0.6), null);

  // The search reads a step at whichever binds first, as a share aimed at the CPU target: 0.9
  // requests in flight against 0.6 allowed is 1.5 × the target, whatever the CPU says.
  const { spanLoad } = require('../bench/rates/operating-point');
  const step = [{ wallMs: 1000, members: [{ instance: { cpuUs: 100000 }, busyUs: 900000 }] }];
  const load = spanLoad(step, 0, cr, 0.6);
  assert.strictEqual(load.bound, 'concurrency');
  near(load.share, 0.9, 'share');
  near(load.cpuShare, 0.2, 'CPU share');
  // An F1 (10 at once: 6 allowed) with the same windows: the CPU's share.
  assert.strictEqual(spanLoad(step, 0, { cpus: 0.25, requestLimit: 10 }, 0.6).bound, 'cpu');
  // The candidate's cost ÷ the baseline's where both are held by their connections: the ratio
  // of the connection times (1,200 ÷ 1,000), not of their CPU (300 ÷ 200).
  const both = [
    {
      wallMs: 1000,
      members: [
        { instance: { cpuUsPerRequest: 200 }, busyUsPerRequest: 1000 },
        { instance: { cpuUsPerRequest: 300 }, busyUsPerRequest: 1200 },
      ],
    },
  ];
  near(pairedCost(both, 1, 0, cr, 0.6), 1.2, 'paired cost at the concurrency target');
  near(pairedCost(both, 1, 0), 1.5, 'paired CPU cost');
});

test("the figures at whichever target bound: the ratio, the instances, the requests held and the page's column", () => {
  const { operatingSection } = require('../report/sections/run/operating');
  const { windowKeeper } = require('../bench/rates/at-target');
  const instance = { name: 'cloudrun:cpu=0.5', cpus: 0.5, periodUs: 100000, quotaUs: 50000, requestLimit: 1 };
  const settings = { instance, targetCpu: 0.6 };
  // Windows as the pair keeps them at a target (bench/rates/at-target.js windowKeeper): 500 answers a
  // second, the baseline's held 1,000 µs each (0.5 in flight) and the candidate's 1,200 (0.6).
  const other = { samples: [] };
  const latency = (ms) => {
    const h = newHistogram();
    h.recordValueWithCount(ms * 1000, 500);
    return h;
  };
  const member = (cpu, busy) => ({
    requests: 500,
    cpuUsPerRequest: cpu,
    instance: { cpuUs: cpu * 500, cpuUsPerRequest: cpu, periods: 10, throttled: 0 },
    due: 500,
    sent: 500,
    answered: 500,
    errors: 0,
    mismatches: 0,
    lost: 0,
    backlog: 0,
    inFlight: 0,
    busyUs: busy * 500,
    busyUsPerRequest: busy,
    latency: latency(busy / 1000),
  });
  for (let block = 0; block < 3; block++) {
    const keep = windowKeeper(
      { save() {} },
      other,
      { of: 1, partner: 0, partnerId: 'b', block, rate: 500 },
      'base',
      settings,
    );
    for (let i = 0; i < 3; i++)
      keep({
        window: i,
        wallMs: 1000,
        counted: true,
        lateness: latency(0.05),
        members: [member(200, 1000), member(300 * (1 + 0.01 * i), 1200)],
      });
  }
  assert.deepStrictEqual(
    [other.samples[0].bound, other.samples[0].partnerBound, other.samples[0].partnerInstanceUsPerRequest],
    ['concurrency', 'concurrency', 1666.7],
  );
  const op = operatingPoint({ id: 'c', samples: other.samples }, { instance, targetCpu: 0.6 });
  near(op.ratio.estimate, 1000 / 1200, 'throughput per instance');
  near(op.instances.baseline.estimate, 1.667, 'baseline instances per 1,000 req/s');
  near(op.instances.candidate.estimate, 2, 'candidate instances per 1,000 req/s');
  near(op.inFlight.baseline.estimate, 0.5, 'baseline in flight');
  near(op.inFlight.candidate.estimate, 0.6, 'candidate in flight');
  assert.deepStrictEqual([op.boundBy.candidate, op.boundBy.baseline, op.concurrencyBound], [1, 1, false]);
  // The CPU alone (the windows without the recorded bound) reads 66.7%: the wrong target.
  const bare = other.samples.map((w) => ({
    ...w,
    instanceUsPerRequest: undefined,
    partnerInstanceUsPerRequest: undefined,
  }));
  near(operatingPoint({ id: 'c', samples: bare }, { instance, targetCpu: 0.6 }).ratio.estimate, 200 / 301, 'CPU only');
  const run = {
    settings: { baseline: 'none', targetCpu: 0.6, instance, slo: null },
    configs: [
      { id: 'b', strategy: 'none', depth: 8, samples: [] },
      { id: 'c', strategy: 'als', depth: 8, samples: other.samples },
    ],
  };
  const md = operatingSection(run);
  assert.match(md, /\| Target that set them: strategy \/ `none` \|/);
  // The answer's instances per 1,000 req/s, and the detail's req/s per instance: the same figures.
  assert.match(md, /\| 2\.00 \[[\d.]+–[\d.]+\] \| 1\.67 \[[\d.]+–[\d.]+\] \|/);
  assert.match(md, /\| 500 \[\d+–\d+\] \/ 600 \[\d+–\d+\] \| in flight \/ in flight \|/);
  assert.match(md, /the time it held its connection ÷ 0\.60, whichever is more/);
  assert.doesNotMatch(md, /binds first/);
  // The summary's ratio (the headline's) is the same figure.
  near(summaryOf(run.configs[1], run.configs, 'none').ratio.estimate, 1000 / 1200, 'summary');
});
