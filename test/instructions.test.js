'use strict';
// Tier: quick (instruction counts' rules, dump format, statistics and refusals, Valgrind
// missing among them; the run under Valgrind is in test/all/instructions.test.js)
// Instruction counts (issue 24): the warm-up rule, the window size, callgrind's dump
// format, the ratio and its verdict, the compare gate and repro on counts, and bad input.
// The gate catching a planted loop of known size from two short real runs under Valgrind:
// test/all/instructions.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const {
  warmedUp,
  windowRequestsFor,
  maxWarmupWindowsFor,
  measuredEnough,
  windowStepPct,
  measureProcess,
} = require('../bench/measure/instruction-windows');
const { getDriver } = require('../bench/measure/drivers');
const { startServer } = require('./helpers/server');
const { parseDump } = require('../bench/measure/callgrind');
const summary = require('../analysis/summary');
const { verdictText, ratioVerdictText, BROKEN } = require('../report/verdict-text');
const { compare } = require('../analysis/compare');
const { compareText } = require('../report/compare-text');
const { reproCompare } = require('../analysis/repro');
const { runCli } = require('./helpers/cli');
const { tempDir } = require('./helpers/tmp');

const dir = tempDir('ctxbench-instructions-');

test('warm-up: steady only when the last 6 windows are all within ±2% of their median', () => {
  // Instructions per request (thousands) of a `none` server at depth 8, one request in
  // flight, windows of 1,000 requests from the first one (measured here): plateaus between
  // Turbofan compile batches (256-265, 223-229, 190-196) are not steady; six 194s are.
  const measured = [
    539, 459, 297, 256, 265, 240, 301, 223, 229, 268, 541, 232, 499, 190, 190, 195, 194, 196, 208, 194, 202, 194, 194,
    194, 194, 194, 194,
  ];
  for (let n = 1; n < measured.length; n++) {
    assert.strictEqual(warmedUp(measured.slice(0, n), { maxWindows: 100 }).more, true, `stopped after ${n} windows`);
  }
  assert.deepStrictEqual(warmedUp(measured, { maxWindows: 100 }), { more: false, reason: 'steady' });
  assert.deepStrictEqual(warmedUp(measured.slice(0, 10), { maxWindows: 10 }), {
    more: false,
    reason: 'not steady at the limit',
  });
  // An arm warms up at least as long as its baseline did (same request indices), and stops
  // there when it is steady.
  const flat = new Array(8).fill(100);
  assert.deepStrictEqual(warmedUp(flat, { minWindows: 12, maxWindows: 40 }), {
    more: true,
    reason: 'not yet as long as its baseline',
  });
  assert.deepStrictEqual(warmedUp(new Array(12).fill(100), { minWindows: 12, maxWindows: 40 }), {
    more: false,
    reason: 'steady',
  });
  assert.deepStrictEqual(warmedUp(new Array(16).fill(100), { minWindows: 16, maxWindows: 16 }).more, false);
});

test(
  'window size by depth: 1,000 requests at depth 8, fewer for deeper chains, ' +
    'never under 100; fewer warm-up windows when small',
  () => {
    assert.deepStrictEqual([1, 8, 16, 32, 256, 1024].map(windowRequestsFor), [1000, 1000, 500, 250, 100, 100]);
    assert.deepStrictEqual([1000, 500, 100].map(maxWarmupWindowsFor), [40, 16, 16]);
  },
);

test(
  'an arm compared on its mean goes on until one window of its ' +
    'swing moves the mean by at most the bound, within the cap',
  () => {
    // cls-hooked at depth 8 (thousands of instructions per request): a Mark-Compact in one
    // window of two or three. Over 24 windows, one window more or less of it is ~0.5% of the mean.
    const alternating = (n) => Array.from({ length: n }, (_, i) => (i % 5 === 1 || i % 5 === 3 ? 480 : 425));
    assert.ok(windowStepPct(alternating(24)) > 0.4);
    assert.strictEqual(measuredEnough(alternating(24), { planned: 24 }), true, 'no bound: 24 windows');
    assert.strictEqual(measuredEnough(alternating(24), { planned: 24, bound: 0.2, cap: 96 }), false);
    let n = 24;
    while (!measuredEnough(alternating(n), { planned: 24, bound: 0.2, cap: 96 })) n++;
    assert.ok(n > 24 && n < 96 && windowStepPct(alternating(n)) <= 0.2, `${n} windows`);
    assert.strictEqual(measuredEnough(alternating(50), { planned: 24, bound: 0.01, cap: 50 }), true, 'the cap ends it');
    assert.strictEqual(
      measuredEnough(alternating(10), { planned: 24, bound: 5, cap: 96 }),
      false,
      'never fewer than planned',
    );
    assert.strictEqual(
      measuredEnough(new Array(24).fill(425), { planned: 24, bound: 0.2, cap: 96 }),
      true,
      'a flat count needs no more',
    );
  },
);

// A real server and load; the counter is the one stand-in (Valgrind is the slow part, and
// the rule is about how many windows are taken, not what they count): it alternates like
// cls-hooked at depth 8, one high window in two or three.
test(
  'a process that never settled is held to the bound only when it ' +
    'is compared on its mean (it warmed up longer than its baseline)',
  async (t) => {
    const server = await startServer({ STRATEGY: 'none', DEPTH: '8' });
    t.after(() => server.stop());
    const counting = () => {
      let i = 0;
      return {
        zero: async () => {},
        dump: async () => {
          const k = i++ % 5;
          return 20 * (k === 1 || k === 3 ? 480000 : 425000);
        },
      };
    };
    const measure = (minWarmupWindows) =>
      measureProcess({
        config: { strategy: 'none' },
        server,
        counter: counting(),
        driver: getDriver('autocannon'),
        connections: 1,
        requests: 20,
        windows: 1,
        unsettledWindows: 8,
        unsettledBound: 0.5,
        maxWarmupWindows: 2,
        minWarmupWindows,
      });
    const armLonger = await measure(1);
    assert.strictEqual(armLonger.settled, false);
    assert.ok(armLonger.windows.length > 8 && armLonger.windows.length <= 32, `${armLonger.windows.length} windows`);
    assert.ok(armLonger.stepPct <= 0.5, `${armLonger.stepPct}%`);
    const paired = await measure(2);
    assert.strictEqual(
      paired.windows.length,
      8,
      'same warm-up as its baseline: compared window by window, no more windows',
    );
    assert.strictEqual(paired.stepPct, null);
  },
);

test('callgrind dump: the summary line of a complete file; an incomplete one is not read', () => {
  const text =
    '# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\nevents: ' +
    'Ir\nsummary: 6546218\n\nfn=(1) main\n3 10\ntotals: 6547102\n';
  assert.strictEqual(parseDump(text), 6546218);
  assert.strictEqual(parseDump(text.replace(/totals:.*\n/, '')), null);
});

// Instruction windows of one process: perRequest per window (requests fixed at 1,000).
const windows = (block, perRequest) =>
  perRequest.map((p, window) => ({
    kind: 'instructions',
    block,
    window,
    requests: 1000,
    instructions: p * 1000,
    perRequest: p,
  }));
const config = (strategy, samples) => ({
  id: `express/${strategy}/d8/immediate/node24`,
  strategy,
  depth: 8,
  hop: 'immediate',
  framework: 'express',
  node: '24.21.0',
  samples,
  processes: [],
});

test(
  'instruction ratio: baseline ÷ config window by window ' + 'at the same index, with the range of window ratios',
  () => {
    const base = config('none', [...windows(0, [100000, 101000, 99000]), ...windows(1, [100050, 101050, 99050])]);
    const als = config('als', [...windows(0, [102000, 103020, 100980]), ...windows(1, [102051, 103071, 101031])]);
    const s = summary.summarize(als, base);
    assert.strictEqual(s.ratio.quantity, 'instructions');
    assert.ok(Math.abs(s.ratio.estimate - 1 / 1.02) < 1e-4, String(s.ratio.estimate));
    assert.ok(s.ratio.range[0] <= s.ratio.estimate && s.ratio.estimate <= s.ratio.range[1]);
    assert.ok(s.ratio.spreadPct < 0.01, String(s.ratio.spreadPct));
    assert.strictEqual(ratioVerdictText(s.ratio), '2.0% more instructions');
    assert.strictEqual(s.instructions.processes, 2);
    // median of the two processes' means
    assert.ok(Math.abs(s.instructions.median - 102025.5) < 1e-6, String(s.instructions.median));
    assert.strictEqual(s.rps.estimate, null, 'no timed sample: no req/s');
    // A range that straddles 100% has no direction.
    const same = config('param', [...windows(0, [99900, 101100, 99000]), ...windows(1, [100100, 100900, 99100])]);
    assert.strictEqual(ratioVerdictText(summary.summarize(same, base).ratio), 'no difference in instructions');
    // A strategy that lost ids gets no cost verdict, counted or timed.
    const lost = config(
      'als',
      windows(0, [102000, 103020, 100980]).map((w) => ({ ...w, lost: 3 })),
    );
    assert.strictEqual(ratioVerdictText(summary.summarize(lost, base).ratio), BROKEN);
  },
);

test(
  'instruction ratio: processes that warmed up for different numbers of ' +
    'windows are compared on their means, the range over every pair of windows',
  () => {
    const base = config('none', windows(0, [100000, 110000]));
    const arm = config('als', windows(0, [100000, 110000]));
    base.processes = [{ block: 0, warmup: new Array(16).fill({}) }];
    arm.processes = [{ block: 0, warmup: new Array(16).fill({}) }];
    const same = summary.summarize(arm, base).ratio;
    assert.deepStrictEqual([same.sameSchedule, same.range], [true, [1, 1]]);
    arm.processes = [{ block: 0, warmup: new Array(12).fill({}) }];
    const apart = summary.summarize(arm, base).ratio;
    assert.strictEqual(apart.sameSchedule, false);
    assert.ok(
      Math.abs(apart.range[0] - 100000 / 110000) < 1e-12 && Math.abs(apart.range[1] - 1.1) < 1e-12,
      String(apart.range),
    );
    assert.strictEqual(ratioVerdictText(apart), 'no difference in instructions');
  },
);

const run = (configs, extra = {}) => ({
  schema: 2,
  kind: 'run',
  settings: { method: 'instructions', baseline: 'none', ...extra },
  configs,
});

test(
  'compare on counts: +2% fails a 1% gate, +0.1% passes, near the ' +
    'threshold is inconclusive, a spread above 0.5% falls back to the interval',
  () => {
    const a = run([config('als', [...windows(0, [200000, 200000]), ...windows(1, [200100, 200100])])]);
    const scaled = (k) =>
      run([config('als', [...windows(0, [200000 * k, 200000 * k]), ...windows(1, [200100 * k, 200100 * k])])]);
    const planted = compare(a, scaled(1.02), { maxRegression: 1 });
    assert.strictEqual(planted.exitCode, 1);
    assert.match(verdictText(planted.rows[0].judgement, { quantity: 'instructions' }), /^2\.0% more instructions$/);
    assert.strictEqual(compare(a, scaled(1.001), { maxRegression: 1 }).exitCode, 0);
    assert.strictEqual(
      compare(a, scaled(1.01), { maxRegression: 1 }).exitCode,
      2,
      'a 1% change against a 1% threshold cannot be called either way',
    );
    // Processes 2% apart: not deterministic enough to read directly; Welch over 2 processes
    // per run cannot rule out a 1% regression.
    const wide = run([config('als', [...windows(0, [200000]), ...windows(1, [204000])])]);
    const r = compare(wide, wide, { maxRegression: 1 });
    assert.strictEqual(r.rows[0].instructions, undefined);
    assert.strictEqual(r.exitCode, 2);
    assert.throws(
      () => compare(a, { ...a, settings: { method: 'duet' } }),
      /cannot compare an instruction-count run with a timed run/,
    );
  },
);

test(
  'compare on counts: a process that never settled widens the margin to 1.5%, ' +
    'so a planted 2% against a 1% gate is inconclusive, not OK',
  () => {
    const counts = (k, settled) => {
      const r = run([config('als', windows(0, [200000 * k, 200000 * k]))]);
      r.configs[0].processes = [{ block: 0, settled }];
      return r;
    };
    const unsteady = (k) => counts(k, false);
    const result = compare(unsteady(1), unsteady(1.02), { maxRegression: 1 });
    assert.strictEqual(result.exitCode, 2);
    assert.strictEqual(result.rows[0].instructions.marginPct, 1.5);
    assert.strictEqual(result.rows[0].instructions.unsteady, true);
    assert.match(compareText(result), /INCONCLUSIVE \(counts not steady/);
    // Settled, the same counts are a regression.
    assert.strictEqual(compare(counts(1, true), counts(1.02, true), { maxRegression: 1 }).exitCode, 1);
  },
);

test('repro on counts: ratios agree when within 0.5% of each other', () => {
  const base = config('none', windows(0, [100000, 100000]));
  const r = reproCompare(
    run([base, config('als', windows(0, [102000, 102000]))]),
    run([base, config('als', windows(0, [102300, 102300]))]),
  );
  assert.strictEqual(r.instructions.within, 1);
  const far = reproCompare(
    run([base, config('als', windows(0, [102000, 102000]))]),
    run([base, config('als', windows(0, [103000, 103000]))]),
  );
  assert.strictEqual(far.instructions.within, 0);
  assert.ok(Math.abs(far.instructions.maxDifferencePct - 0.97) < 0.01, String(far.instructions.maxDifferencePct));
});

test(
  'bad input: no Valgrind, a timed method with 2 blocks, ' +
    'count settings without the method: one line, exit 1, nothing written',
  async () => {
    const out = path.join(dir, 'bad.json');
    const empty = fs.mkdtempSync(path.join(dir, 'no-tools-'));
    const cases = [
      [
        ['run', '--method', 'instructions', '--out', out],
        { PATH: empty },
        /needs Valgrind, which is not on PATH: install it with: apt-get install -y valgrind/,
      ],
      [
        ['run', '--blocks', '2', '--out', out],
        {},
        /--blocks=2 is not valid; expected an integer from 3 to 1000 \(1 and 2 only with --method instructions\)/,
      ],
      [['run', '--window-requests', '100', '--out', out], {}, /instruction-count settings: give --method instructions/],
      [['run', '--unsettled-bound', '0.2', '--out', out], {}, /instruction-count settings: give --method instructions/],
      [
        ['run', '--method', 'instructions', '--unsettled-bound=-1', '--out', out],
        {},
        /--unsettled-bound=-1 is not valid/,
      ],
      [['run', '--method', 'instructions', '--rate', '100', '--out', out], {}, /cannot be used with --rate\/--load/],
    ];
    for (const [args, env, pattern] of cases) {
      const r = await runCli(args, { env });
      assert.strictEqual(r.code, 1, r.stderr);
      assert.strictEqual(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, pattern);
    }
    assert.ok(!fs.existsSync(out));
  },
);

test('the page says that processes which never settled were measured over --unsettled-windows windows', () => {
  const { render } = require('../report/sections/instructions');
  const run = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'results', 'instructions.json'), 'utf8'));
  assert.strictEqual(run.settings.unsettledWindows, 24);
  // The run (7314b5f; test/fixtures/results/instructions.json): cls-hooked and alscontext
  // at depth 8 never settled while none did, so they were held to the bound; the depth-256
  // processes were not.
  assert.match(
    render(run),
    /Not steady at the limit for [^\n]*each was measured over at least 24 windows instead of 3/,
  );
  assert.match(
    render(run),
    new RegExp(
      String.raw`went on until one window more or less would move the mean by at most 0.2%: ` +
        '`cls-hooked` d8 \\(block 1\\) \\d+ windows, [\\d.]+%[^\\n]*`alscontext` d8',
    ),
  );
  const unheld = {
    ...run,
    configs: run.configs.map((c) => ({
      ...c,
      processes: c.processes.map((p) => ({ ...p, windowStepPct: undefined })),
    })),
  };
  assert.match(render(unheld), /each was measured over 24 windows instead of 3/);
  assert.doesNotMatch(render(unheld), /went on until/);
  const settled = {
    ...unheld,
    configs: unheld.configs.map((c) => ({ ...c, processes: c.processes.map((p) => ({ ...p, settled: true })) })),
  };
  assert.doesNotMatch(render(settled), /measured over 24 windows/);
  // An arm held to the bound: its window count and the step it reached, flagged at the cap.
  const held = (stepPct) => ({
    ...run,
    settings: { ...run.settings, unsettledBound: 0.2 },
    configs: unheld.configs.map((c) =>
      c.strategy === 'cls-hooked' && c.depth === 8
        ? { ...c, processes: c.processes.map((p) => ({ ...p, windowStepPct: stepPct })) }
        : c,
    ),
  });
  assert.match(
    render(held(0.18)),
    new RegExp(
      String.raw`went on until one window more or less would move the mean by ` +
        'at most 0.2%: `cls-hooked` d8 \\(block 1\\) \\d+ windows, 0.18%\\.',
    ),
  );
  assert.match(render(held(0.31)), /`cls-hooked` d8 \(block 1\) \d+ windows, 0.31% ⚠ at the cap/);
});
