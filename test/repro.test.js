'use strict';
// Tier: quick (repro's statistics on synthetic runs and repro --compare
// end to end; its measuring run needs PostgreSQL: test/all/repro.test.js)
// analysis/repro.js and `ctxbench repro --compare` on synthetic schema-2 runs.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { reproCompare, reproVerdict } = require('../analysis/repro');
const { reproText } = require('../report/repro-text');
const { makeRun2 } = require('./helpers/run2');
const { tempDir } = require('./helpers/tmp');

const strategies = { als: 0.9, cls: 0.6, otel: 0.75 };

test('two runs of the same truth agree: each interval covers the other estimate', () => {
  const r = reproCompare(makeRun2({ seed: 31, strategies }), makeRun2({ seed: 32, strategies }));
  assert.strictEqual(r.compared, 3);
  for (const row of r.rows) {
    assert.strictEqual(
      row.aCoversB,
      row.a.ci95[0] <= row.b.estimate && row.b.estimate <= row.a.ci95[1],
      `${row.id}: a covers b`,
    );
    assert.strictEqual(
      row.bCoversA,
      row.b.ci95[0] <= row.a.estimate && row.a.estimate <= row.b.ci95[1],
      `${row.id}: b covers a`,
    );
    assert.strictEqual(row.agree, row.aCoversB && row.bCoversA);
    assert.ok(Math.abs(row.differencePp - (row.b.estimate - row.a.estimate) * 100) < 1e-9);
  }
  assert.strictEqual(r.shareAgreeing, r.agreeing / r.compared);
  assert.ok(r.medianHalfWidthPct > 0 && r.medianHalfWidthPct < 10, `median half-width ${r.medianHalfWidthPct}`);
});

test('honest intervals: two runs agree about 83% of the time, not always', () => {
  // Two independent estimates with equal standard error s differ with sd s·√2, so each
  // 95% interval covers the other's estimate when |difference| < 1.96 s, i.e.
  // P(|Z| < 1.96 / √2) = 0.83. Near 1.0 would mean intervals too wide; far below, too narrow.
  let agreeing = 0;
  let compared = 0;
  for (let seed = 101; seed < 161; seed += 2) {
    const r = reproCompare(makeRun2({ seed, strategies }), makeRun2({ seed: seed + 1, strategies }));
    agreeing += r.agreeing;
    compared += r.compared;
  }
  const share = agreeing / compared;
  assert.ok(share > 0.7 && share < 0.95, `share ${share}`);
});

test(
  'consistent: honest runs of the same truth pass the difference ' +
    'test about 95% of the time, so 9 in 10 is a fair bar',
  () => {
    let consistent = 0;
    let judged = 0;
    for (let seed = 101; seed < 241; seed += 2) {
      const r = reproCompare(makeRun2({ seed, strategies }), makeRun2({ seed: seed + 1, strategies }));
      consistent += r.consistent;
      judged += r.judged;
      assert.strictEqual(r.shareConsistent, r.consistent / r.judged);
    }
    assert.strictEqual(judged, 210);
    const share = consistent / judged;
    assert.ok(share > 0.9 && share < 0.99, `share ${share}`);
  },
);

test('consistent: a real shift is caught, an interval-less ratio is not judged', () => {
  const { consistent } = require('../analysis/repro');
  const a = { estimate: 0.9, ci95: [0.87, 0.93], blocks: 3 };
  assert.strictEqual(consistent(a, { estimate: 0.91, ci95: [0.88, 0.94], blocks: 3 }), true);
  assert.strictEqual(consistent(a, { estimate: 0.8, ci95: [0.77, 0.83], blocks: 3 }), false);
  // Wide intervals explain a large difference: consistent, and the half-width says why.
  assert.strictEqual(
    consistent({ estimate: 0.9, ci95: [0.6, 1.35], blocks: 3 }, { estimate: 0.75, ci95: [0.5, 1.12], blocks: 3 }),
    true,
  );
  assert.strictEqual(consistent(a, { estimate: 0.9, ci95: null, blocks: 1 }), null);
});

test('a shifted ratio in the second run is a disagreement, named in the text', () => {
  const r = reproCompare(
    makeRun2({ seed: 33, strategies }),
    makeRun2({ seed: 34, strategies: { ...strategies, cls: 0.8 } }),
  );
  const cls = r.rows.find((row) => row.id.includes('/cls/'));
  assert.strictEqual(cls.agree, false);
  assert.ok(cls.differencePp > 10);
  assert.strictEqual(r.agreeing, 2);
  assert.match(reproText(r), /cls.*DISAGREE/);
  assert.match(reproText(r), /2 of 3 ratios agree/);
  assert.strictEqual(cls.consistent, false);
  assert.match(reproText(r), /cls.*INCONSISTENT/);
  assert.match(reproText(r), /2 of 3 ratios consistent/);
});

test(
  'two runs of different stand-in settings are named as such, ' +
    'on the terminal and the page, never as a second reading',
  () => {
    const { render } = require('../report/sections/repro');
    const on = (periodUs, seed) => {
      const run = makeRun2({ seed, strategies });
      run.settings = {
        ...run.settings,
        method: 'pair',
        targetCpu: 0.6,
        instance: { name: 'F1', cpus: 0.25, periodUs },
      };
      return run;
    };
    assert.deepStrictEqual(reproCompare(on(100000, 35), on(100000, 36)).settings, []);
    const r = reproCompare(on(100000, 35), on(10000, 36));
    assert.deepStrictEqual(r.settings, ['CFS period 100,000 → 10,000 µs']);
    assert.match(
      reproText(r),
      new RegExp(
        String.raw`^SETTINGS DIFFER \(CFS period 100,000 → 10,000 µs\): ` +
          String.raw`a comparison of two settings, not a second reading of one$`,
        'm',
      ),
    );
    assert.match(
      render({ title: 'x', repro: r }),
      new RegExp(String.raw`> ⚠ \*\*Settings differ\*\* \(CFS ` + String.raw`period 100,000 → 10,000 µs\)`),
    );
  },
);

test(
  'the repro section says whether the consistent share reaches the bar, ' +
    'names the misses and how often chance alone misses',
  () => {
    const { render } = require('../report/sections/repro');
    const row = (id, consistent) => ({
      id,
      a: { estimate: 1, ci95: [0.9, 1.1] },
      b: { estimate: 1, ci95: [0.9, 1.1] },
      differencePp: 0,
      aCoversB: true,
      bCoversA: true,
      agree: true,
      consistent,
    });
    const repro = (flags) => ({
      rows: flags.map((c, i) => row(`r${i}`, c)),
      compared: flags.length,
      agreeing: flags.length,
      shareAgreeing: 1,
      medianHalfWidthPct: 5,
      judged: flags.length,
      consistent: flags.filter(Boolean).length,
      shareConsistent: flags.filter(Boolean).length / flags.length,
      schemas: [2, 2],
    });
    const six = render({ title: 'R', repro: repro([true, true, true, false, true, true]) });
    assert.match(
      six,
      new RegExp(
        "⚠ \\*\\*Below the bar \\(5 of 6\\):\\*\\* `r3` differs by more than both runs' noise " +
          String.raw`explains\. With 6 ratios, an honest method gives at least one such miss ` +
          String.raw`in 26% of run pairs \(1 − 0\.95\^6\), so one miss here is weak evidence`,
      ),
    );
    const two = render({ title: 'R', repro: repro([false, false, true, true, true, true, true, true, true, true]) });
    assert.match(two, /Below the bar \(8 of 10\):\*\* `r0`, `r1` differ by/);
    assert.match(two, /gives 2 or more such misses in 9% of run pairs/, 'the chance of as many misses as seen');
    assert.doesNotMatch(two, /weak evidence/, 'two misses are not waved away');
    assert.match(
      render({
        title: 'R',
        repro: repro(
          Array(10)
            .fill(true)
            .map((x, i) => i !== 4),
        ),
      }),
      /✅ At or above the bar \(9 of 10\)/,
    );
  },
);

test('a repro across machines or settings is held to no bar: its verdict line says what its notes say', () => {
  const { render } = require('../report/sections/repro');
  const row = (id, consistent) => ({
    id,
    a: { estimate: 1, ci95: [0.9, 1.1] },
    b: { estimate: 1, ci95: [0.9, 1.1] },
    differencePp: 0,
    aCoversB: consistent,
    bCoversA: consistent,
    agree: consistent,
    consistent,
  });
  // Nine of ten consistent, the other machine: "✅ At or above the bar (9 of 10)" under "neither
  // run reproduces the other here" until the line and the notes were one verdict.
  const flags = Array.from({ length: 10 }, (_, i) => i !== 8);
  const repro = (extra) => ({
    rows: flags.map((c, i) => row(`r${i}`, c)),
    compared: 10,
    agreeing: 9,
    shareAgreeing: 0.9,
    medianHalfWidthPct: 5,
    judged: 10,
    consistent: 9,
    shareConsistent: 0.9,
    schemas: [3, 3],
    settings: [],
    ...extra,
  });
  const machines = {
    a: { cpuModel: 'Intel', cores: 2, kernel: '6' },
    b: { cpuModel: 'AMD', cores: 2, kernel: '6' },
    same: false,
    differences: ['CPU Intel → AMD'],
  };
  const across = render({ title: 'R', repro: repro({ machines }) });
  assert.match(across, /neither run reproduces the other here/);
  assert.doesNotMatch(across, /the bar \(9 of 10\)|Below the bar/);
  assert.match(across, /ⓘ \*\*No bar here\*\* \(9 of 10 consistent\): two machines, not a second reading/);
  const settings = render({ title: 'R', repro: repro({ settings: ['CFS period 100,000 → 10,000 µs'] }) });
  assert.match(settings, /\*\*Settings differ\*\*/);
  assert.match(settings, /No bar here\*\* \(9 of 10 consistent\): two settings,/);
  assert.doesNotMatch(settings, /At or above the bar/);
  const both = reproVerdict(repro({ machines, settings: ['CFS burst 0 → 25,000 µs'] }));
  assert.deepStrictEqual([both.code, both.why], ['comparison', ['machines', 'settings']]);
  const same = reproVerdict(repro({ machines: { ...machines, same: true } }));
  assert.deepStrictEqual([same.code, same.missed, same.bar], ['meets', ['r8'], 0.9]);
});

test('ctxbench repro --compare compares two files and writes a repro result', () => {
  const dir = tempDir('ctxbench-repro-');
  try {
    const pa = path.join(dir, 'a.json');
    const pb = path.join(dir, 'b.json');
    const out = path.join(dir, 'repro.json');
    fs.writeFileSync(pa, JSON.stringify(makeRun2({ seed: 35, strategies })));
    fs.writeFileSync(pb, JSON.stringify(makeRun2({ seed: 36, strategies })));
    const text = execFileSync(
      process.execPath,
      [path.join(__dirname, '..', 'bin', 'ctxbench.js'), 'repro', '--compare', pa, pb, '--out', out],
      { encoding: 'utf8' },
    );
    assert.match(text, /\d of 3 ratios agree/);
    const saved = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(saved.kind, 'repro');
    assert.strictEqual(saved.repro.compared, 3);
    let err = null;
    try {
      execFileSync(process.execPath, [path.join(__dirname, '..', 'bin', 'ctxbench.js'), 'repro', '--compare', pa], {
        stdio: 'pipe',
      });
    } catch (e) {
      err = e;
    }
    assert.strictEqual(err && err.status, 1);
    assert.match(String(err.stderr), /^ctxbench: repro --compare needs exactly two run JSON files\n$/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
