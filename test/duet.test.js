'use strict';
// Tier: quick (the duet's units and refusals, and Ctrl-C during a real duet run, the run command's cheapest duet)
// Duet measurement (bench/measure/duet-windows.js, bench/methods/duet.js, analysis/summary.js duetRatios):
// how windows are formed and judged, how groups and positions rotate between blocks, the
// interval on a worked example, and Ctrl-C during a real duet run. The full duet run end
// to end and a server killed during its duet are in test/all/duet.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const duet = require('../bench/measure/duet-windows');
const { duetGroups, soloMembers } = require('../bench/methods/duet');
const { withAaTwins } = require('../bench/run/matrix');
const summary = require('../analysis/summary');
const { runCli, runCliInterrupted, readRunSoFar } = require('./helpers/cli');
const { tempDir } = require('./helpers/tmp');

const reading = (atUs, loadgenUs, stats, wakeups) => ({ atUs, loadgenUs, stats, wakeups });

test(
  'windowBetween: per server requests, CPU µs, CPU µs per request, CPU share, ' +
    "event-loop utilization and wake-ups per request; the load generator's share",
  () => {
    const w = duet.windowBetween(
      reading(
        0,
        0,
        [
          { requests: 100, cpuUs: 5000, eluActiveMs: 10, eluIdleMs: 90 },
          { requests: 200, cpuUs: 7000 },
        ],
        [1000, null],
      ),
      reading(
        1e6,
        400000,
        [
          { requests: 10100, cpuUs: 505000, eluActiveMs: 910, eluIdleMs: 190 },
          { requests: 5200, cpuUs: 487000 },
        ],
        [1120, 80],
      ),
    );
    assert.strictEqual(w.wallMs, 1000);
    assert.strictEqual(w.loadgenCpu, 0.4);
    assert.deepStrictEqual(w.members, [
      { requests: 10000, cpuUs: 500000, cpuUsPerRequest: 50, share: 0.5, elu: 0.9, wakeupsPerRequest: 0.012 },
      // A server that does not report its event loop, nor its wake-ups (a process /proc would
      // not show): null, not a made-up figure.
      { requests: 5000, cpuUs: 480000, cpuUsPerRequest: 96, share: 0.48, elu: null, wakeupsPerRequest: null },
    ]);
  },
);

test(
  'judgeWindow: a window counts only when every server was busy ' +
    'throughout and the load generator was not the bottleneck',
  () => {
    const win = (shares, loadgenCpu = 0.5, requests = [100, 100]) => ({
      loadgenCpu,
      members: shares.map((share, i) => ({ share, requests: requests[i] })),
    });
    assert.strictEqual(duet.judgeWindow(win([0.5, 0.49])), null);
    assert.match(duet.judgeWindow(win([0.5, 0.49], 0.9)), /load generator at 90% of a core/);
    assert.match(duet.judgeWindow(win([0.5, 0.49], 0.85)), /load generator/, 'the 85% mark itself is client-bound');
    assert.match(duet.judgeWindow(win([0.62, 0.3])), /server 2 not busy throughout \(30% of the CPU\)/);
    assert.match(duet.judgeWindow(win([0.45, 0.4])), /not saturated \(85% used\)/);
    assert.match(duet.judgeWindow(win([0.5, 0.5], 0.5, [100, 0])), /server 2 served no request/);
    // Three servers share the CPU: a fair share is a third, and 80% of it is enough.
    assert.strictEqual(duet.judgeWindow(win([0.38, 0.34, 0.28], 0.5, [1, 1, 1])), null);
    assert.match(duet.judgeWindow(win([0.45, 0.34, 0.2], 0.5, [1, 1, 1])), /server 3 not busy/);
  },
);

test(
  "stillWarming: at least the minimum, then until every server's " +
    'last half-window is within the band of its cheapest before',
  () => {
    const ws = (...rows) => rows.map((costs) => ({ members: costs.map((c) => ({ cpuUsPerRequest: c })) }));
    assert.strictEqual(duet.stillWarming(ws([60, 60], [42, 42], [26, 26])), true, 'fewer than the minimum');
    // A tier-up half-window reads dearer (50 after 42): not settled, although not falling.
    assert.strictEqual(duet.stillWarming(ws([60, 60], [42, 42], [26, 26], [50, 27])), true);
    assert.strictEqual(duet.stillWarming(ws([60, 60], [42, 42], [50, 44], [26, 27])), true, 'still falling');
    assert.strictEqual(duet.stillWarming(ws([60, 60], [42, 42], [50, 44], [26, 27], [26, 27])), false, 'settled');
    const rising = ws(...Array.from({ length: duet.MAX_WARMUP_WINDOWS }, (_, i) => [100 + 20 * i, 30]));
    assert.strictEqual(duet.stillWarming(rising), false, 'a cost that keeps rising ends the warm-up at the cap');
    assert.strictEqual(duet.stillWarming(rising.slice(0, -1)), true);
  },
);

test(
  'positionsFor: over as many blocks as members, ' +
    'every member is started, loaded and polled in every position once',
  () => {
    const group = ['base', 'a', 'b'];
    const orders = [0, 1, 2].map((b) => duet.positionsFor(b, group));
    for (let pos = 0; pos < 3; pos++) assert.deepStrictEqual(orders.map((o) => o[pos]).sort(), [...group].sort());
    assert.deepStrictEqual(duet.positionsFor(1, ['base', 'x']), ['x', 'base'], 'a pair swaps between blocks');
    assert.deepStrictEqual(duet.positionsFor(2, ['base', 'x']), ['base', 'x']);
  },
);

function configs(strategies, depths = [8]) {
  return depths.flatMap((depth) =>
    strategies.map((strategy) => ({
      id: `express/${strategy}/d${depth}`,
      framework: 'express',
      strategy,
      depth,
      hop: 'immediate',
      nodeLabel: 'node24',
      samples: [],
      processes: [],
    })),
  );
}

test(
  'duetGroups: the baseline with each other arm of its group, ' + 'the A/A twin included; groups rotate between blocks',
  () => {
    const cs = withAaTwins(configs(['none', 'als', 'otel', 'cls-hooked'], [8, 256]), 'none');
    assert.strictEqual(cs.length, 10, 'one A/A twin per depth');
    const twin = cs.find((c) => c.id === 'express/none/d8/aa');
    assert.ok(twin && twin.arm === 'aa' && twin.strategy === 'none' && twin.samples !== cs[0].samples);
    const pairs = duetGroups(cs, 'none', { block: 0 });
    assert.strictEqual(pairs.length, 8);
    for (const [base, other] of pairs) {
      assert.strictEqual(base.strategy, 'none');
      assert.ok(other.arm === 'aa' || other.strategy !== 'none');
      assert.strictEqual(base.depth, other.depth, 'compared within its depth');
    }
    const next = duetGroups(cs, 'none', { block: 1 });
    assert.notDeepStrictEqual(
      next.map((g) => g[1].id),
      pairs.map((g) => g[1].id),
      'the order changes between blocks',
    );
    assert.deepStrictEqual(
      next.map((g) => g[1].id).sort(),
      pairs.map((g) => g[1].id).sort(),
      'but every arm is measured in every block',
    );
    const triples = duetGroups(cs, 'none', { size: 3 });
    assert.deepStrictEqual(
      triples.map((g) => g.length),
      [3, 3, 3, 3],
    );
    const excluded = new Set([cs[1]]);
    assert.ok(
      !duetGroups(cs, 'none', { excluded }).some((g) => g.includes(cs[1])),
      'a config that cannot start is left out',
    );
  },
);

test('soloMembers: the baseline takes its own solo burst once per block and depth, beside its A/A twin', () => {
  const cs = withAaTwins(configs(['none', 'als', 'otel']), 'none');
  const groups = duetGroups(cs, 'none');
  const solos = groups.flatMap((g) => soloMembers(g, groups));
  assert.deepStrictEqual(solos.map((c) => c.id).sort(), cs.map((c) => c.id).sort(), 'every config exactly once');
  const withTwin = groups.find((g) => g[1].arm === 'aa');
  assert.deepStrictEqual(
    soloMembers(withTwin, groups).map((c) => c.id),
    ['express/none/d8', 'express/none/d8/aa'],
  );
});

// A worked example: per block the windows' log ratios (baseline CPU/req ÷ arm CPU/req)
// are averaged, and the interval is Student's t over the three block means.
test('duetRatios: log ratios averaged per block, t-interval over blocks; dropped windows do not count', () => {
  const w = (block, own, partner, counted = true, requests = 100, partnerRequests = 100) => ({
    kind: 'window',
    block,
    cpuUsPerRequest: own,
    partnerCpuUsPerRequest: partner,
    requests,
    partnerRequests,
    counted,
  });
  const windows = [w(0, 100, 90), w(0, 100, 90), w(1, 100, 95), w(1, 100, 95), w(1, 100, 50, false), w(2, 100, 100)];
  const r = summary.duetRatios(windows);
  assert.strictEqual(r.counted, 5);
  assert.strictEqual(r.dropped, 1);
  const means = [Math.log(0.9), Math.log(0.95), Math.log(1)];
  const m = means.reduce((a, b) => a + b) / 3;
  const sd = Math.sqrt(means.reduce((a, x) => a + (x - m) ** 2, 0) / 2);
  const half = (4.302652729911275 * sd) / Math.sqrt(3);
  assert.ok(Math.abs(r.ratio.estimate - Math.exp(m)) < 1e-12);
  assert.ok(Math.abs(r.ratio.ci95[0] - Math.exp(m - half)) < 1e-9);
  assert.ok(Math.abs(r.ratio.ci95[1] - Math.exp(m + half)) < 1e-9);
  assert.strictEqual(r.ratio.blocks, 3);
  // 94.9% [83.3–108.2]: the worked example's figures.
  assert.deepStrictEqual(
    [r.ratio.estimate, ...r.ratio.ci95].map((x) => x.toFixed(3)),
    ['0.949', '0.833', '1.082'],
  );

  // summarize: the ratio is the duet CPU ratio, the CPU ratio its inverse, and windows do
  // not count as solo samples.
  const base = { id: 'b', strategy: 'none', samples: [{ kind: 'solo', block: 0, rps: 1000 }] };
  const cfg = {
    id: 'a',
    strategy: 'als',
    samples: [
      ...windows,
      { kind: 'solo', block: 0, rps: 900, latency: { p99: 2 } },
      { kind: 'duet', block: 0, requests: 5000, mismatches: 0, lost: 0 },
    ],
  };
  const s = summary.summarize(cfg, base);
  assert.strictEqual(s.ratio.estimate, r.ratio.estimate);
  assert.strictEqual(s.ratio.quantity, 'cpu');
  assert.deepStrictEqual(s.ratio.windows, { counted: 5, dropped: 1 });
  assert.ok(Math.abs(s.cpuRatio.estimate * s.ratio.estimate - 1) < 1e-12);
  assert.strictEqual(s.n, 1, 'one solo sample');
  assert.ok(Math.abs(s.rps.estimate - 900) < 1e-9);
  assert.strictEqual(s.sharedRatio.estimate, 1, 'equal requests in every window');
  assert.strictEqual(s.ratio.judgement.reason, 'no difference');
});

test('summarize: a duet arm that leaked ids gets no cost verdict, and the leak counts come from its duet loads', () => {
  const windows = [0, 1, 2].map((block) => ({
    kind: 'window',
    block,
    cpuUsPerRequest: 100,
    partnerCpuUsPerRequest: 50,
    requests: 1,
    partnerRequests: 2,
    counted: true,
  }));
  const cfg = {
    id: 'x',
    strategy: 'als',
    samples: [...windows, { kind: 'duet', block: 0, requests: 10, mismatches: 3, lost: 1 }],
  };
  const s = summary.summarize(cfg, { id: 'b', strategy: 'none', samples: [] });
  assert.deepStrictEqual([s.mismatches, s.lost, s.broken], [3, 1, true]);
  assert.strictEqual(s.ratio.judgement.reason, 'broken');
});

test('ctxbench run: duet settings are checked with one line each', async () => {
  for (const [args, pattern] of [
    [['--method', 'both'], /--method both is not valid; expected duet, pair, sequential, instructions/],
    [
      ['--method', 'duet', '--rate', '100'],
      /--method duet cannot be used with --rate\/--load: .*; measure it with --method pair/,
    ],
    // The method follows what is measured: a server waiting on I/O, or two servers that
    // out-run one load-generator CPU, cannot be measured in duet.
    [
      ['--method', 'duet', '--strategies', 'none,als', '--hops', 'pg'],
      /--method duet cannot be used with HOP=pg: a server waiting on I\/O or timers .*; measure it with --method pair/,
    ],
    [
      ['--method', 'duet', '--strategies', 'none,als', '--hops', 'mixed'],
      /--method duet cannot be used with HOP=mixed: a server waiting on I\/O or timers/,
    ],
    [
      ['--method', 'duet', '--strategies', 'none,als', '--frameworks', 'fastify'],
      /--method duet cannot be used with FRAMEWORK=fastify: two node:http or Fastify servers/,
    ],
    [['--method', 'sequential', '--windows', '3'], /--windows, --window and --group-size are duet and pair settings/],
    [['--method', 'pair', '--group-size', '3'], /--group-size is a duet setting: a pair is two servers/],
    [['--windows', '1'], /--windows/],
    [['--group-size', '9'], /--group-size/],
  ]) {
    const { code, stderr } = await runCli(['run', ...args, '--out', path.join(os.tmpdir(), 'never.json')]);
    assert.notStrictEqual(code, 0, args.join(' '));
    assert.match(stderr, pattern, args.join(' '));
    assert.strictEqual(stderr.trim().split('\n').length, 1, `one line: ${stderr}`);
  }
});

test(
  'Ctrl-C during a duet: the windows taken so far are kept, ' +
    'the run is marked interrupted, no server is left running',
  async () => {
    const dir = tempDir('ctxbench-duet-int-');
    const out = path.join(dir, 'int.json');
    const windowsIn = () =>
      (readRunSoFar(out)?.configs ?? []).flatMap((c) => c.samples).filter((s) => s.kind === 'window').length;
    const { code, stderr, sent } = await runCliInterrupted(
      [
        'run',
        '--method',
        'duet',
        '--strategies',
        'none,als',
        '--depths',
        '8',
        '--hops',
        'immediate',
        '--connections',
        '5',
        '--windows',
        '200',
        '--window',
        '0.3',
        '--out',
        out,
        '--report',
        'none',
      ],
      // The run keeps each window as it is judged: once one is saved, the group (200
      // windows, a minute) is measuring.
      { timeoutMs: 600000, everyMs: 50, when: () => windowsIn() >= 1 },
    );
    assert.ok(sent, stderr);
    assert.strictEqual(code, 130, stderr);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(run.status, 'interrupted');
    assert.ok(windowsIn() >= 1, 'the windows measured before Ctrl-C are kept');
    // Each window says how many requests a wake-up of each server's event loop served.
    for (const w of run.configs.flatMap((c) => c.samples).filter((s) => s.kind === 'window')) {
      for (const k of ['wakeupsPerRequest', 'partnerWakeupsPerRequest'])
        assert.ok(w[k] >= 0 && Number.isFinite(w[k]), `${k}: ${w[k]}`);
    }
    const pids = run.configs.flatMap((c) => c.processes.map((p) => p.pid));
    assert.strictEqual(pids.length, 2, 'one pair was started');
    for (const pid of pids) {
      assert.throws(() => process.kill(pid, 0), /ESRCH/, `server ${pid} is still running`);
    }
  },
);

// A duet run's report: the A/A twin is the in-run check; a strategy that does nearly the
// same work as the baseline (param) may differ by what it really does differently.
test(
  'report: with an A/A twin, the twin decides the in-run A/A check; ' + 'param off 100% is a note, not a failed check',
  async () => {
    const { render } = require('../report/sections/run');
    const win = (ratios) =>
      ratios.flatMap((r, block) =>
        [0, 1].map((window) => ({
          kind: 'window',
          block,
          window,
          partner: 'express/none/d8/immediate/node24',
          cpuUsPerRequest: 100,
          partnerCpuUsPerRequest: 100 * r * (1 + window * 0.001),
          requests: 1000,
          partnerRequests: 1000,
          share: 0.5,
          partnerShare: 0.5,
          loadgenCpu: 0.5,
          counted: true,
        })),
      );
    const config = (strategy, extra, samples) => ({
      id: `express/${strategy}/d8/immediate/node24${extra.arm ? '/aa' : ''}`,
      framework: 'express',
      strategy,
      depth: 8,
      hop: 'immediate',
      node: 'v24.0.0',
      acf: true,
      processes: [],
      samples,
      ...extra,
    });
    const run = (twinRatios) => ({
      schema: 2,
      kind: 'run',
      status: 'complete',
      environment: {},
      settings: {
        method: 'duet',
        baseline: 'none',
        connections: 10,
        window: 1,
        windows: 2,
        strategies: ['none', 'param'],
      },
      configs: [
        config('none', {}, []),
        config('param', {}, win([1.012, 1.013, 1.011])),
        config('none', { arm: 'aa' }, win(twinRatios)),
      ],
    });
    const ok = await render(run([1.001, 0.999, 1.0]));
    assert.doesNotMatch(ok, /In-run A\/A check failed/);
    assert.match(
      ok,
      new RegExp(
        'ⓘ `express/param/d8/immediate/node24` 101\\.\\d%.*the ' +
          String.raw`A/A twin \(the baseline in a second process\) covers 100%`,
      ),
    );
    assert.match(ok, /\| `none` \(A\/A twin\) \| 8 \|/);
    assert.match(ok, /A\/A check, depth 8:\*\* a second `none` process against the first read 100\.0% .* ✅/);
    const off = await render(run([1.03, 1.031, 1.029]));
    assert.match(off, /⚠ \*\*In-run A\/A check failed:\*\* `express\/none\/d8\/immediate\/node24\/aa` 103\.\d%/);
    assert.doesNotMatch(off, /ⓘ `express\/param/);
    // Even shares: the thread explanation is not offered for a difference it cannot explain.
    assert.match(
      ok,
      /Shared-CPU req\/s and CPU\/req differ\*\* for `param` d8 \(its server took 50\.0%.*Both servers had even shares/,
    );
    assert.doesNotMatch(ok, /V8 worker threads 0\.5%/);
    assert.match(off, /does \*\*not\*\* cover 100%/);
  },
);
