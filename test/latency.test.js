'use strict';
// Tier: quick (rate mode's statistics, refusals and report, the open-loop
// driver on a real server, and run --rate's one end-to-end run)
// Rate mode (issue 14): the open-loop driver against a real app.js (the planted stall and
// a server that cannot keep the rate: test/all/latency.test.js), the latency statistics
// on HDR histograms, rates from --rate/--load, the report section, and `ctxbench run
// --rate` end to end. Structure and correctness only: that a stall shows in p99 is the
// method check's (npm run check:method).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');
const hdr = require('hdr-histogram-js');
const { startServer, ROOT } = require('./helpers/server');
const openLoop = require('../load/open-loop');
const { newHistogram } = require('../lib/histogram');
const { latencySummary, mergeByUnit } = require('../analysis/latency');
const { latencyVerdictText } = require('../report/verdict-text');
const {
  parseLoads,
  parseRates,
  expandRates,
  measureCapacity,
  settledBursts,
  kneeSearch,
} = require('../bench/rates/capacity');
const { baselineFor } = require('../analysis/comparable');
const latencySection = require('../report/sections/latency');
const { tempDir } = require('./helpers/tmp');

const CLI = path.join(ROOT, 'bin', 'ctxbench.js');

function cli(args) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: { CTXBENCH_FINGERPRINT: '0', ...process.env }, timeout: 600000 },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }),
    );
  });
}

test('the open-loop driver checks every id against a real ctxbench server and catches the broken control', async () => {
  const [als, global] = await Promise.all([
    startServer({ STRATEGY: 'als', HOP: 'immediate' }),
    startServer({ STRATEGY: 'global', HOP: 'timeout' }),
  ]);
  try {
    const ok = await openLoop.measure({ url: als.url, path: '/depth/8', rate: 300, duration: 1 });
    assert.strictEqual(ok.mismatches + ok.lost + ok.non2xx + ok.errors, 0);
    assert.strictEqual(ok.requests, 300);
    // HOP=timeout keeps every request in flight for >= 1 ms per level: at 300 req/s
    // requests overlap and the module-level variable leaks.
    const bad = await openLoop.measure({ url: global.url, path: '/depth/8', rate: 300, duration: 1 });
    assert.ok(bad.mismatches > 0, 'the global control leaks under open-loop load');
  } finally {
    await Promise.all([als.stop(), global.stop()]);
  }
});

test('bad rate options fail with one line', async () => {
  for (const [opts, re] of [
    [{ url: 'http://127.0.0.1:1', rate: 0 }, /rate must be a number/],
    [{ url: 'http://127.0.0.1:1', rate: 'fast' }, /rate must be a number/],
    [{ url: 'http://127.0.0.1:1', rate: 10, pipelining: 10 }, /pipelining 1/],
    [{ url: 'ftp://x', rate: 10 }, /http/],
    [{ url: 'http://127.0.0.1:1', rate: 10, duration: 1 }, /no response from/],
  ]) {
    await assert.rejects(openLoop.measure(opts), (err) => re.test(err.message) && !err.message.includes('\n'));
  }
});

// A sample whose histogram holds `values` (ms).
function sample(round, values, extra = {}) {
  const h = newHistogram();
  for (const v of values) h.recordValue(Math.round(v * 1000));
  const n = values.length;
  return {
    round,
    rps: n,
    requests: n,
    errors: 0,
    non2xx: 0,
    mismatches: 0,
    lost: 0,
    rate: n,
    scheduled: n,
    sent: n,
    heldRate: { held: true, sentRatio: 1, achievedRatio: 1 },
    histogram: hdr.encodeIntoCompressedBase64(h),
    ...extra,
  };
}
const repeat = (v, n) => Array.from({ length: n }, () => v);

test('percentiles come from histograms merged per unit, not from averaged percentiles', () => {
  // One unit (block 0) holds two samples: 990 fast requests and 10 at 100 ms. The merged
  // p99.9 is 100 ms; the p99 of the fast sample alone is 1 ms.
  const config = {
    id: 'x',
    strategy: 'als',
    samples: [
      sample(0, repeat(1, 990), { block: 0 }),
      sample(1, repeat(100, 10), { block: 0 }),
      sample(2, repeat(1, 990), { block: 1 }),
      sample(3, repeat(100, 10), { block: 1 }),
    ],
  };
  const units = mergeByUnit(config.samples);
  assert.deepStrictEqual([...units.keys()], [0, 1]);
  assert.strictEqual(units.get(0).totalCount, 1000);
  const s = latencySummary(config, null);
  assert.strictEqual(s.unit, 'block');
  assert.strictEqual(s.units, 2);
  assert.ok(Math.abs(s.percentiles.p99_9.estimate - 100) < 1, `merged p99.9 ${s.percentiles.p99_9.estimate}`);
  assert.ok(Math.abs(s.percentiles.p50.estimate - 1) < 0.01);
  // Across units: a geometric mean whose interval stays above zero, even from two very
  // different rounds (an arithmetic t-interval would reach far below 0 ms).
  const wild = latencySummary(
    { id: 'w', strategy: 'als', samples: [sample(0, repeat(1, 100)), sample(1, repeat(300, 100))] },
    null,
  );
  assert.strictEqual(wild.unit, 'round');
  assert.ok(
    Math.abs(wild.percentiles.p99.estimate - Math.sqrt(300)) < 0.5,
    `geometric mean ${wild.percentiles.p99.estimate}`,
  );
  assert.ok(wild.percentiles.p99.ci95[0] >= 0 && wild.percentiles.p99.ci95[1] > 300);
});

test('added latency is paired with the baseline at the same load and gets a verdict', () => {
  const jitter = (base, r) => Array.from({ length: 200 }, (_, i) => base + ((i * 7 + r * 13) % 10) / 10);
  const base = { id: 'b', strategy: 'none', samples: [0, 1, 2, 3, 4].map((r) => sample(r, jitter(2 + r * 0.3, r))) };
  const slow = {
    id: 's',
    strategy: 'als',
    samples: [0, 1, 2, 3, 4].map((r) => sample(r, jitter(7 + r * 0.3 + (r % 2) * 0.1, r))),
  };
  const same = {
    id: 'q',
    strategy: 'param',
    samples: [0, 1, 2, 3, 4].map((r) => sample(r, jitter(2 + r * 0.3 + (r % 2 ? 0.05 : -0.05), r))),
  };
  const s = latencySummary(slow, base);
  assert.ok(Math.abs(s.added.p99.estimate - 5) < 0.3, `added p99 ${s.added.p99.estimate}`);
  assert.match(latencyVerdictText(s.judgement), /^adds 5\.\d\d ms, significant$/);
  assert.strictEqual(latencyVerdictText(latencySummary(same, base).judgement), 'no significant difference');
  // Lost ids make the latency incomparable whatever it is.
  const broken = { ...slow, samples: slow.samples.map((x) => ({ ...x, lost: 3 })) };
  assert.match(latencyVerdictText(latencySummary(broken, base).judgement), /context broken/);
  // ... but not for `none` (no context by design) or the `global` control.
  assert.strictEqual(latencySummary({ ...broken, strategy: 'none' }, null).broken, false);
  assert.strictEqual(latencySummary({ ...broken, strategy: 'global' }, null).broken, false);
  // A baseline that did not hold its rate gives no comparison.
  const baseNotHeld = {
    ...base,
    samples: base.samples.map((x) => ({ ...x, heldRate: { held: false, sentRatio: 0.5, achievedRatio: 0.5 } })),
  };
  assert.match(latencyVerdictText(latencySummary(slow, baseNotHeld).judgement), /baseline did not hold/);
  // Closed-loop samples are not rate-mode: no latency summary.
  assert.strictEqual(latencySummary({ id: 'c', samples: [{ round: 0, rps: 1, latency: {} }] }), null);
});

test('--rate and --load values are parsed or refused with one line', () => {
  assert.deepStrictEqual(parseLoads('25%,50%, 75%'), [0.25, 0.5, 0.75]);
  assert.deepStrictEqual(parseRates('2000'), [2000]);
  for (const bad of ['50', '0%', '150%', 'half', '']) assert.throws(() => parseLoads(bad), /--load/);
  for (const bad of ['0', '-5', 'fast', '1e9', '']) assert.throws(() => parseRates(bad), /--rate/);
});

test('loads expand into one config per load, each compared with the baseline at the same load', async () => {
  const configs = ['none', 'als'].map((strategy) => ({
    id: `express/${strategy}/d8`,
    framework: 'express',
    strategy,
    depth: 8,
    hop: 'await',
    nodeLabel: 'node24',
    samples: [],
  }));
  Object.defineProperty(configs[0], 'launch', { value: { nodePath: 'x' }, enumerable: false });
  const calls = [];
  const settings = { baseline: 'none', connections: 10, pipelining: 1, duration: 1, warmup: 0 };
  const capacity = await measureCapacity(configs, settings, {
    driver: async (o) => (calls.push(o), { rps: 1000 + calls.length }),
    launch: async () => ({ url: 'http://127.0.0.1:9', stop: async () => {} }),
  });
  assert.strictEqual(calls.length, 3, 'three closed-loop bursts of the baseline');
  assert.ok(calls.every((o) => o.rate === undefined));
  assert.deepStrictEqual(
    capacity.groups.map((g) => [g.baseline, g.rps]),
    [['express/none/d8', 1002]],
  );
  const out = expandRates(configs, { loads: [0.25, 0.5], capacity });
  assert.deepStrictEqual(
    out.map((c) => [c.id, c.rate]),
    [
      ['express/none/d8/load25', 251],
      ['express/none/d8/load50', 501],
      ['express/als/d8/load25', 251],
      ['express/als/d8/load50', 501],
    ],
  );
  assert.strictEqual(out[0].launch.nodePath, 'x', 'the launch recipe survives the copy');
  assert.strictEqual(baselineFor(out[3], out, 'none').id, 'express/none/d8/load50');
  await assert.rejects(
    measureCapacity([configs[1]], settings, { driver: async () => ({}), launch: async () => ({}) }),
    /baseline strategy none/,
  );
  // A burst that completed nothing on a live server reads 0 and the bursts go on; a baseline
  // whose capacity reads 0 (three empty in a row) stops the run with a line naming it.
  const noResponses = () => Promise.reject(Object.assign(new Error('no response'), { code: 'ERR_NO_RESPONSES' }));
  const launch = async () => ({ url: 'http://127.0.0.1:9', stop: async () => {} });
  let n = 0;
  const late = await measureCapacity([configs[0]], settings, {
    driver: async () => (n++ === 0 ? noResponses() : { rps: 1000 }),
    launch,
  });
  assert.deepStrictEqual(late.groups[0].bursts, [0, 1000, 1000, 1000]);
  await assert.rejects(
    measureCapacity([configs[0]], settings, { driver: noResponses, launch }),
    /the capacity of express\/none\/d8 read 0 req\/s \(bursts of 1 s: 0, 0, 0\)/,
  );
});

test('ctxbench run refuses bad rate-mode flags with one line and exit 1', async () => {
  for (const [args, re] of [
    [['--load', '150%'], /--load 150% is not valid/],
    [['--rate', 'fast'], /--rate fast is not valid/],
    [['--rate', '100', '--load', '50%'], /exclusive/],
    [['--driver', 'artillery'], /give --rate or --load/],
    [['--rate', '100', '--pipelining', '10'], /--pipelining 10 cannot be used/],
    [['--load', '50%', '--amount', '100'], /--amount cannot be used/],
    // A fixed rate is measured as a pair, whose CPU ratio has an interval to narrow; one
    // server at a time has none.
    [
      ['--rate', '100', '--precision', '3', '--method', 'sequential'],
      /--precision cannot be used with --rate\/--load and --method sequential/,
    ],
  ]) {
    const r = await cli(['run', '--report', 'none', '--out', path.join(os.tmpdir(), 'ctxbench-never.json'), ...args]);
    assert.strictEqual(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, re);
    assert.strictEqual(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

test('the latency section lays out the study table, per-load tables and a p99-vs-load chart', async () => {
  const configs = [];
  for (const load of [0.25, 0.5]) {
    for (const strategy of ['param', 'cls-hooked']) {
      for (const depth of [8, 256]) {
        const ms = (strategy === 'param' ? 2 : 3) + depth / 100 + load * 4;
        const clientLag = { p50: 0.5, p99: depth === 8 ? 3.5 : 0.5, max: 4 };
        configs.push({
          id: `${strategy}/d${depth}/load${load * 100}`,
          framework: 'express',
          strategy,
          depth,
          hop: 'await',
          variant: `load${load * 100}`,
          load,
          rate: 1000 * load,
          samples: [0, 1, 2].map((r) => sample(r, repeat(ms + r * 0.1, 300), { clientLag })),
        });
      }
    }
  }
  const dir = tempDir('ctxbench-latency-');
  try {
    const run = {
      kind: 'run',
      title: 'Latency',
      settings: { loads: [0.25, 0.5], baseline: 'param' },
      learned: { capacity: { method: 'closed loop', groups: [{ baseline: 'param/d8', rps: 1000, bursts: [1000] }] } },
      configs,
    };
    assert.ok(latencySection.isRateRun(run));
    assert.ok(!latencySection.isRateRun({ kind: 'run', settings: {}, configs: [{ samples: [{ rps: 1 }] }] }));
    const md = await latencySection.render(run, { chartsDir: dir, name: 'latency', written: [] });
    assert.match(md, /### By call depth at 50% load/);
    assert.match(md, /\| {3}\| Call depth 8 \| Call depth 256 \|/);
    assert.match(md, /\| cls-hooked p99 ms \|/);
    assert.match(md, /\| added by cls-hooked \(p99 ms\) \| \+1\.0\d/);
    assert.match(md, /### Latency at 25% of capacity \(250 req\/s\)/);
    assert.match(md, /### Capacity of the baseline/);
    // The client's own lateness is shown where it is not negligible, and only there.
    assert.match(md, /\| param \| 8 \|[^\n]*client late up to 3\.50 ms \(p99\)/);
    assert.doesNotMatch(md, /\| param \| 256 \|[^\n]*client late/);
    const charts = fs.readdirSync(dir);
    assert.deepStrictEqual(charts.sort(), ['latency-p99-vs-load-d256.svg', 'latency-p99-vs-load-d8.svg']);
    assert.match(fs.readFileSync(path.join(dir, charts[0]), 'utf8'), /^<svg/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'ctxbench run --rate --method sequential drives real servers open loop ' +
    'end to end, one at a time, and results.md shows the latency section',
  async () => {
    const dir = tempDir('ctxbench-rate-run-');
    try {
      const out = path.join(dir, 'rate.json');
      const report = path.join(dir, 'results.md');
      const r = await cli([
        'run',
        '--strategies',
        'none,als',
        '--depths',
        '8',
        '--hops',
        'immediate',
        '--baseline',
        'none',
        '--rate',
        '200',
        '--method',
        'sequential',
        '--duration',
        '0.5',
        '--warmup',
        '0',
        '--blocks',
        '3',
        '--rounds',
        '1',
        '--out',
        out,
        '--report',
        report,
      ]);
      assert.strictEqual(r.code, 0, r.stderr);
      const run = JSON.parse(fs.readFileSync(out, 'utf8'));
      assert.deepStrictEqual(run.settings.rates, [200]);
      assert.deepStrictEqual(
        run.configs.map((c) => [c.strategy, c.rate, c.variant]),
        [
          ['none', 200, 'r200'],
          ['als', 200, 'r200'],
        ],
      );
      for (const c of run.configs) {
        assert.deepStrictEqual(
          c.samples.map((s) => s.block),
          [0, 1, 2],
          'one sample in each of 3 blocks of fresh processes',
        );
        for (const s of c.samples) {
          assert.strictEqual(s.scheduled, 100);
          assert.strictEqual(typeof s.heldRate.held, 'boolean');
          assert.strictEqual(typeof s.clientLag.p99, 'number', "the client's own lateness is recorded");
          assert.strictEqual(hdr.decodeFromCompressedBase64(s.histogram).totalCount, s.requests);
        }
      }
      assert.strictEqual(
        run.configs[1].samples.reduce((a, s) => a + s.mismatches + s.lost, 0),
        0,
        'als keeps every id',
      );
      const md = fs.readFileSync(report, 'utf8');
      assert.match(md, /\*\*Rate mode \(open loop\)\.\*\*/);
      assert.match(md, /### Latency at 200 req\/s/);
      assert.match(md, /\| als \| 8 \|/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'two rate runs of one matrix by different drivers get a ' +
    'side-by-side section that says whether their verdicts agree',
  async () => {
    const run = (driver, alsMs, clsMs) => ({
      kind: 'run',
      title: 'Engine pair',
      settings: { driver, rates: [200], baseline: 'param' },
      configs: [
        ['param', 2, true],
        ['als', alsMs, true],
        ['cls-hooked', clsMs, driver === 'autocannon'],
      ].map(([strategy, ms, held]) => ({
        id: `express/${strategy}/d8/await/node24/r200`,
        framework: 'express',
        strategy,
        depth: 8,
        hop: 'await',
        rate: 200,
        samples: [0, 1, 2].map((r) =>
          sample(
            r,
            Array.from({ length: 300 }, (_, i) => ms + ((i * 7 + r * 13) % 10) / 10),
            held ? {} : { heldRate: { held: false, sentRatio: 0.5, achievedRatio: 0.5 } },
          ),
        ),
      })),
    });
    const dir = tempDir('ctxbench-drivers-');
    try {
      const results = path.join(dir, 'results');
      fs.mkdirSync(results);
      // als: both drivers see +3 ms; cls-hooked: only autocannon held the rate.
      fs.writeFileSync(path.join(results, 'engine-artillery.json'), JSON.stringify(run('artillery', 5, 9)));
      fs.writeFileSync(path.join(results, 'engine-autocannon.json'), JSON.stringify(run('autocannon', 5, 9)));
      // Same driver twice, or another matrix: no pair.
      const other = run('autocannon', 5, 9);
      other.configs.pop();
      fs.writeFileSync(path.join(results, 'a-other.json'), JSON.stringify(other));
      fs.writeFileSync(path.join(results, 'b-same-driver.json'), JSON.stringify(run('artillery', 5, 9)));
      const { buildReport } = require('../report');
      const out = path.join(dir, 'results.md');
      await buildReport({ resultsDir: results, out });
      const md = fs.readFileSync(out, 'utf8');
      const pages = fs.readdirSync(results).filter((n) => n.startsWith('drivers-'));
      assert.strictEqual(pages.length, 1, `one pair, one page: ${pages}`);
      const section = fs.readFileSync(path.join(results, pages[0]), 'utf8');
      assert.match(section, /^# Drivers compared: autocannon and artillery on the same configurations/);
      assert.match(section, /\| `express\/als\/d8\/await\/node24\/r200` \|[^\n]*\| ✅ both: adds \|/);
      assert.match(
        section,
        new RegExp(
          '\\| `express/cls-hooked/d8/await/node24/r200` ' + String.raw`\|[^\n]*\| not held \|[^\n]*\| — \|\n`,
        ),
      );
      assert.match(
        section,
        /\\\* fewer requests per block than ~10 beyond that percentile/,
        'the thin-percentile mark is explained',
      );
      assert.match(
        section,
        new RegExp(
          String.raw`Verdicts on the added p99 agree in 1 of 1 configuration both ` +
            String.raw`drivers could judge; artillery's p99 is 1\.00× autocannon's`,
        ),
      );
      // In the index, the pair follows the later of its two runs.
      const order = [...md.matchAll(/^\| \[[^\]]*\]\(results\/([^)]*)\.md\)/gm)].map((m) => m[1]);
      const pair = pages[0].replace(/\.md$/, '');
      const members = order.filter((n) => n !== pair && pair.includes(n));
      assert.strictEqual(members.length, 2, `${pair} names its two runs`);
      for (const m of members) assert.ok(order.indexOf(pair) > order.indexOf(m), `${order.join()} (${m})`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('a preset may fix its rates (the engine pair); --rate or --load on the command line replaces them', () => {
  const { resolveSettings } = require('../bench/cli/run');
  const engine = resolveSettings({ preset: 'engine' });
  assert.deepStrictEqual(
    [engine.rates, engine.loads, engine.pipelining, engine.baseline],
    [[200, 500], null, 1, 'param'],
  );
  assert.deepStrictEqual(
    resolveSettings({ preset: 'engine', driver: 'artillery' }).rates,
    [200, 500],
    'artillery needs a rate: the preset gives it',
  );
  assert.deepStrictEqual(resolveSettings({ preset: 'engine', rate: '100' }).rates, [100]);
  const byLoad = resolveSettings({ preset: 'engine', load: '50%' });
  assert.deepStrictEqual([byLoad.rates, byLoad.loads], [null, [0.5]]);
  // Presets without rates stay closed loop.
  assert.deepStrictEqual([resolveSettings({}).rates, resolveSettings({}).loads], [null, null]);
});

test(
  'a capacity is measured once its bursts settle: bursts go on ' +
    'until the last three are within 10% of their median, at most ten',
  async () => {
    const from = (values) => {
      let i = 0;
      return async () => values[i++];
    };
    // A stand-in still warming its JIT (F1, measured: 2,088, 2,018, 4,788 after 1 s): more bursts.
    assert.deepStrictEqual(await settledBursts(from([474, 874, 1636, 1700, 1650, 9999])), {
      rps: 1650,
      bursts: [474, 874, 1636, 1700, 1650],
      settled: true,
    });
    assert.deepStrictEqual(await settledBursts(from([1000, 1050, 960])), {
      rps: 1000,
      bursts: [1000, 1050, 960],
      settled: true,
    });
    // Never settling: ten bursts, the median of the last three, said so.
    const swinging = [100, 300, 100, 300, 100, 300, 100, 300, 100, 300, 100];
    assert.deepStrictEqual(await settledBursts(from(swinging)), {
      rps: 300,
      bursts: swinging.slice(0, 10),
      settled: false,
    });
  },
);

test(
  'an SLO ladder is anchored on the open-loop knee: rates rise ×1.25 from 10% of the closed ' +
    'loop until two in a row miss the SLO, one stall forgiven; its rates are fractions of the knee',
  async () => {
    const steps = (oks) => {
      let i = 0;
      return async () => ({ ok: oks[i++] ?? false });
    };
    // One rate over the SLO (a quota's stall) between rates within it is not the knee.
    const knee = await kneeSearch(1000, steps([true, true, false, true, false, false]));
    assert.deepStrictEqual(
      knee.steps.map((s) => s.rate),
      [100, 125, 156, 195, 244, 305],
    );
    assert.deepStrictEqual([knee.rps, knee.censored], [195, null]);
    assert.deepStrictEqual(
      await kneeSearch(1000, steps([false, false])).then((k) => [k.rps, k.censored, k.steps.length]),
      [100, 'below', 2],
    );
    const always = await kneeSearch(1000, async () => ({ ok: true }));
    assert.deepStrictEqual(
      [always.censored, always.steps.at(-1).rate <= 1500, always.steps.at(-1).rate * 1.25 > 1500],
      ['above', true, true],
    );
    // The ladder: fractions of the knee, not of the closed-loop capacity.
    const configs = [
      {
        id: 'express/none/d8',
        framework: 'express',
        strategy: 'none',
        depth: 8,
        hop: 'await',
        nodeLabel: 'node24',
        samples: [],
      },
    ];
    const [group] = [...require('../analysis/comparable').groupConfigs(configs).keys()];
    const rates = expandRates(configs, {
      loads: [0.5, 1.5],
      capacity: { groups: [{ group, rps: 6742, knee: { rps: 2000 } }] },
    }).map((c) => c.rate);
    assert.deepStrictEqual(rates, [1000, 3000]);
    assert.deepStrictEqual(parseLoads('150%', { max: 2 }), [1.5]);
  },
);

test('a knee search ended by its top rate is "at least" only when that rate kept the SLO', async () => {
  const seq = (oks) => {
    let i = 0;
    return async () => ({ ok: oks[i++] ?? true });
  };
  // 100 … 1,455 req/s for a closed loop of 1,000: the last within, the top over.
  const k = await kneeSearch(1000, seq([...Array(12).fill(true), false]));
  assert.deepStrictEqual([k.steps.length, k.steps.at(-1).rate, k.censored, k.rps], [13, 1454, null, 1163]);
});
