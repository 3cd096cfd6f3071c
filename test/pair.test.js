'use strict';
// Tier: quick (no system tool; one short real pair run). The pair at a fixed rate
// (bench/measure/pair-windows.js, bench/methods/pair.js, analysis/pair.js): how its windows are judged,
// the CPU ratio and the paired latencies on synthetic windows, the generator's rule, and
// one real pair end to end (structure, never timing).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const hdr = require('hdr-histogram-js');
const pair = require('../bench/measure/pair-windows');
const { summarize } = require('../analysis/summary');
const { pairLatencySummary, pairBlocks, LATENESS_SHARE, ADDED_LATENESS_P99_MS } = require('../analysis/pair');
const { latencySummaries } = require('../analysis');
const { newHistogram, percentiles } = require('../lib/histogram');
const { latencyVerdictText } = require('../report/verdict-text');
const { runCli } = require('./helpers/cli');
const { expectedRatio } = require('./helpers/ratio-check');
const { tempDir } = require('./helpers/tmp');

// A histogram of `n` latencies of `ms` each, and `tail` more of `tailMs` (µs inside).
function hist(ms, n = 1000, tail = 0, tailMs = ms) {
  const h = newHistogram();
  h.recordValueWithCount(Math.round(ms * 1000), n);
  if (tail) h.recordValueWithCount(Math.round(tailMs * 1000), tail);
  return hdr.encodeIntoCompressedBase64(h);
}

const schedule = (due = 1000, sent = due) => ({ due, sent, answered: sent, errors: 0, backlog: 0, inFlight: 1 });

// A pair window of the candidate: its CPU per request and latency, the baseline's beside it.
function win(
  block,
  {
    cpu = 50,
    baseCpu = 50,
    ms = 2,
    baseMs = 1,
    tailMs,
    baseTailMs,
    late = 0.1,
    lateP99 = 0.5,
    counted = true,
    sent = 1000,
    baseSent = 1000,
  } = {},
) {
  return {
    kind: 'window',
    method: 'pair',
    block,
    group: block,
    window: 0,
    partner: 'base',
    rate: 1000,
    counted,
    ...(!counted && { dropped: 'server 1 fell behind its schedule (1 of 1000 due sent, 0 waiting for a connection)' }),
    cpuUsPerRequest: cpu,
    partnerCpuUsPerRequest: baseCpu,
    schedule: schedule(1000, sent),
    partnerSchedule: schedule(1000, baseSent),
    histogram: hist(ms, 980, 20, tailMs ?? ms),
    partnerHistogram: hist(baseMs, 980, 20, baseTailMs ?? baseMs),
    latenessHistogram: hist(late, 980, 20, lateP99),
    mismatches: 0,
    lost: 0,
  };
}

const config = (samples, extra = {}) => ({ id: 'cand', strategy: 'als', rate: 1000, load: 0.5, samples, ...extra });
const base = { id: 'base', strategy: 'none', samples: [] };

test(
  'whyDropped: a pair window counts when both servers kept their ' +
    'schedule and the load CPU was not saturated; else the reason',
  () => {
    const member = (m = {}) => ({ requests: 1000, due: 1000, sent: 1000, errors: 0, backlog: 0, inFlight: 2, ...m });
    const w = (members, loadCpu = 0.5) => ({ loadCpu, members });
    assert.strictEqual(pair.whyDropped(w([member(), member()]), { connections: 10 }), null);
    // 99% of the due requests sent is the bar: 990 of 1000 counts, 989 does not.
    assert.strictEqual(pair.whyDropped(w([member({ sent: 990 }), member()]), { connections: 10 }), null);
    assert.match(
      pair.whyDropped(w([member(), member({ sent: 989 })]), { connections: 10 }).text,
      /^server 2 fell behind its schedule \(989 of 1000 due sent/,
    );
    // Sending more than its due requests by the same share and one is draining a queue built
    // before (a rate above the schedule's): 1011 of 1000 counts, 1012 does not.
    assert.strictEqual(pair.whyDropped(w([member({ sent: 1011 }), member()]), { connections: 10 }), null);
    const ahead = pair.whyDropped(w([member({ sent: 1012, backlog: 40 }), member()]), { connections: 10 });
    assert.strictEqual(ahead.kind, 'catching-up');
    assert.match(
      ahead.text,
      /^server 1 was catching up on requests it fell behind on \(1012 sent for 1000 due, 40 still waiting\)$/,
    );
    // A moment's queue for a connection (an instance's request limit) is not falling behind.
    assert.strictEqual(pair.whyDropped(w([member({ backlog: 3, inFlight: 10 }), member()]), { connections: 10 }), null);
    assert.match(
      pair.whyDropped(w([member({ errors: 2 }), member()]), { connections: 10 }).text,
      /^server 1 answered 2 request\(s\) with an error$/,
    );
    assert.match(
      pair.whyDropped(w([member(), member()], 0.85), { connections: 10 }).text,
      /^load CPU busy 85% of the time$/,
    );
    assert.match(
      pair.whyDropped(w([member(), member({ requests: 0 })]), { connections: 10 }).text,
      /^server 2 served no request$/,
    );
    // No CPU reading (nothing pinned): the load CPU does not decide.
    assert.strictEqual(pair.whyDropped(w([member(), member()], null), { connections: 10 }), null);
  },
);

test(
  "windowBetween: a server without /__stats (a team's service) counts " +
    'the answers it gave and its own CPU; a ctxbench server its own count',
  () => {
    const target = (answered) => ({
      due: answered,
      sent: answered,
      answered,
      errors: 0,
      non2xx: 0,
      mismatches: 0,
      lost: 0,
      backlog: 0,
      inFlight: 0,
      latency: hdr.build(),
    });
    const reading = (stats) => ({
      stats,
      groups: [null, null],
      servicesUs: 0,
      cut: { wallMs: 1000, cpuUs: 100000, lateness: hdr.build(), targets: [target(400), target(500)] },
    });
    const w = pair.windowBetween(
      reading([
        { cpuUs: 1000, requests: 100, rssBytes: 2 ** 20 },
        { cpuUs: 5000, requests: null },
      ]),
      reading([
        { cpuUs: 21000, requests: 300, rssBytes: 2 ** 21 },
        { cpuUs: 45000, requests: null },
      ]),
    );
    // ctxbench's server: its own count (200), not the generator's (400).
    assert.deepStrictEqual([w.members[0].requests, w.members[0].cpuUsPerRequest, w.members[0].rssMB], [200, 100, 2]);
    // The team's service: the 500 answers of the window, 40,000 µs of its tree's CPU.
    assert.deepStrictEqual([w.members[1].requests, w.members[1].cpuUsPerRequest, w.members[1].rssMB], [500, 80, null]);
  },
);

test(
  "the pair's CPU ratio is the baseline's CPU per request ÷ the candidate's " +
    'over its counted windows, averaged per block, t-interval over blocks',
  () => {
    const windows = [
      win(0, { cpu: 52, baseCpu: 50 }),
      win(0, { cpu: 53, baseCpu: 50 }),
      win(1, { cpu: 51, baseCpu: 50 }),
      win(1, { cpu: 80, baseCpu: 50, counted: false }),
      win(2, { cpu: 55, baseCpu: 52 }),
    ];
    const s = summarize(config(windows), base);
    const want = expectedRatio(windows);
    assert.ok(Math.abs(s.ratio.estimate - want.estimate) < 1e-12);
    assert.ok(Math.abs(s.ratio.ci95[0] - want.ci95[0]) < 1e-12 && Math.abs(s.ratio.ci95[1] - want.ci95[1]) < 1e-12);
    assert.deepStrictEqual(s.ratio.windows, { counted: 4, dropped: 1 });
    assert.strictEqual(s.ratio.method, 'pair');
    assert.strictEqual(s.ratio.rate, 1000);
    // At a fixed rate both served the same requests: no "shared throughput" ratio.
    assert.strictEqual(s.sharedRatio, undefined);
  },
);

test(
  "paired latency: per block the candidate's percentile minus the baseline's, " +
    'mean over blocks; a block where the generator was late is left out',
  () => {
    // Blocks 0-2: the candidate's tail is 3 ms above the baseline's (p99 5 vs 2); block 3's
    // generator was 4 ms late at p99: its latencies are not the servers'.
    const windows = [0, 1, 2]
      .map((b) => win(b, { tailMs: 5 + b * 0.1, baseTailMs: 2 }))
      .concat([win(3, { tailMs: 50, baseTailMs: 2, lateP99: 4 })]);
    const s = pairLatencySummary(config(windows), base);
    assert.strictEqual(s.added.p99.n, 3, 'the generator-bound block is not in the added p99');
    const blocks = pairBlocks(config(windows));
    const diffs = blocks.filter((b) => b.addedOk).map((b) => b.candidate.p99 - b.baseline.p99);
    assert.ok(Math.abs(s.added.p99.estimate - diffs.reduce((a, b) => a + b, 0) / diffs.length) < 1e-3);
    assert.ok(s.added.p99.estimate > 2.9 && s.added.p99.estimate < 3.3, `added p99 ${s.added.p99.estimate}`);
    assert.strictEqual(s.generator.addedBound, 1);
    assert.strictEqual(s.generator.latenessP99 >= 4, true);
    assert.match(latencyVerdictText(s.judgement), /^adds 3\.\d\d ms, significant$/);
  },
);

test(
  "the generator's rule: a server's own percentile is published only " +
    "where the generator's lateness is at most a tenth of the baseline's",
  () => {
    assert.strictEqual(LATENESS_SHARE, 0.1);
    assert.strictEqual(ADDED_LATENESS_P99_MS, 1);
    // p50 1 ms with the generator 0.1 ms late: at the limit, published; 0.2 ms: generator-bound.
    const ok = pairLatencySummary(config([0, 1, 2].map((b) => win(b, { late: 0.1, baseMs: 1 }))), base);
    assert.ok(ok.percentiles.p50, "lateness 10% of the baseline's p50: published");
    const late = pairLatencySummary(config([0, 1, 2].map((b) => win(b, { late: 0.2, baseMs: 1 }))), base);
    assert.strictEqual(late.percentiles.p50, null, "lateness 20% of the baseline's p50: no p50");
    assert.strictEqual(late.generator.absoluteBound.p50, 3);
    // The added latency does not depend on that rule: the lateness cancels between the two.
    assert.strictEqual(late.added.p50.n, 3);
    // One block of three fails it: no p50 at all, not a mean of the blocks that pass (the
    // rule reads the latency it guards, so those are the slow ones).
    const mixed = pairLatencySummary(
      config([win(0, { late: 0.1, baseMs: 1 }), win(1, { late: 0.1, baseMs: 1 }), win(2, { late: 0.2, baseMs: 1 })]),
      base,
    );
    assert.strictEqual(mixed.percentiles.p50, null);
    assert.strictEqual(mixed.generator.absoluteBound.p50, 1);
  },
);

test(
  'a candidate that falls behind a rate its baseline keeps has no latency, ' +
    'and says so; a baseline that falls behind, no comparison',
  () => {
    const behind = pairLatencySummary(config([0, 1, 2].map((b) => win(b, { counted: false, sent: 600 }))), base);
    assert.strictEqual(behind.candidateHeld, false);
    assert.strictEqual(behind.baselineHeld, true);
    assert.strictEqual(behind.added, null);
    const fellBehind = 'rate not held: the candidate fell behind a rate its baseline kept';
    assert.strictEqual(latencyVerdictText(behind.judgement), `${fellBehind} (in 3 of 3 blocks)`);
    const baseBehind = pairLatencySummary(
      config([0, 1, 2].map((b) => win(b, { counted: false, baseSent: 600 }))),
      base,
    );
    assert.match(latencyVerdictText(baseBehind.judgement), /^baseline did not hold the rate/);
  },
);

test(
  'a candidate that fell behind in one block cannot serve the rate, ' +
    'though it caught up elsewhere and its windows sum to its schedule',
  () => {
    // Block 0: behind in every window (no window counted); blocks 1-2: windows counted. Summed
    // over the run it sent all it was due (catching up), as dd-trace did at HOP=pg.
    const windows = [
      win(0, { counted: false, sent: 500 }),
      win(0, { counted: false, sent: 600 }),
      win(0, { counted: false, sent: 990 }),
      win(1, { cpu: 70, sent: 1500 }),
      win(1, { cpu: 70, sent: 1400 }),
      win(2, { cpu: 70 }),
      win(2, { cpu: 70 }),
    ];
    const s = pairLatencySummary(config(windows), base);
    assert.strictEqual(s.candidateHeld, false);
    assert.strictEqual(s.blocksNotServed, 1);
    const fellBehind = 'rate not held: the candidate fell behind a rate its baseline kept';
    assert.strictEqual(latencyVerdictText(s.judgement), `${fellBehind} (in 1 of 3 blocks)`);
    // One window behind in a block whose other windows counted is a moment, not the rate.
    const moment = pairLatencySummary(
      config([
        win(0, { counted: false, sent: 950 }),
        win(0),
        win(0),
        win(0),
        win(1),
        win(1),
        win(1),
        win(2),
        win(2),
        win(2),
      ]),
      base,
    );
    assert.strictEqual(moment.candidateHeld, true);
    assert.strictEqual(moment.blocksNotServed, 0);
    // A block with no window counted because its baseline fell behind is not the candidate's.
    const theirs = pairLatencySummary(config([win(0, { counted: false, baseSent: 900 }), win(1), win(2)]), base);
    assert.strictEqual(theirs.blocksNotServed, 0);
  },
);

test(
  "a server's latencies include the windows it fell behind or caught up " +
    'in (its queue is the tail), not those whose load CPU was saturated',
  () => {
    // Block 0: three counted windows at 2 ms, one window behind whose requests waited 50 ms,
    // one whose load CPU was saturated (its timestamps are the CPU's, not the servers').
    const windows = [
      win(0),
      win(0),
      win(0),
      win(0, { counted: false, sent: 900, ms: 50 }),
      { ...win(0, { counted: false, ms: 500 }), loadCpu: 0.9 },
      win(1),
      win(2),
    ];
    const [first] = pairBlocks(config(windows));
    assert.ok(
      Math.abs(first.candidate.p99 - 50) < 0.1,
      `the queue of the window it fell behind in is in its p99 (${first.candidate.p99})`,
    );
    assert.strictEqual(first.counted, 3);
    // A block with no counted window gives no latency at all (whether the rate was served
    // is the block rule's).
    const [none] = pairBlocks(config([win(0, { counted: false, sent: 500, ms: 50 }), win(1)]));
    assert.strictEqual(none.candidate.count, 0);
  },
);

test(
  "a pair run's latencies: every candidate against its baseline, " +
    "and the baseline's own from its partner histograms",
  () => {
    const cand = {
      ...config([0, 1, 2].map((b) => win(b, { tailMs: 4, baseTailMs: 2, lateP99: 0.1 }))),
      framework: 'express',
      depth: 8,
      hop: 'pg',
      partnerId: 'base',
    };
    const b = { id: 'base', strategy: 'none', framework: 'express', depth: 8, hop: 'pg', rate: 1000, samples: [] };
    cand.samples.forEach((w) => (w.partner = 'base'));
    const run = { kind: 'run', settings: { method: 'pair', baseline: 'none' }, configs: [b, cand] };
    const rows = latencySummaries(run);
    assert.deepStrictEqual(
      rows.map((r) => r.config.id),
      ['base', 'cand'],
    );
    const baseRow = rows[0].s;
    assert.strictEqual(baseRow.added, null);
    assert.ok(
      Math.abs(
        baseRow.percentiles.p99.estimate - percentiles(hdr.decodeFromCompressedBase64(hist(1, 980, 20, 2))).p99,
      ) < 1e-3,
    );
    assert.ok(rows[1].s.added.p99.estimate > 1.9);
  },
);

// One real pair end to end: the method and why recorded, fresh processes per block, every
// window counted or dropped with a pair reason, the stored ratio the one its windows give,
// every window carrying both servers' schedules, latencies and the generator's lateness,
// and the `global` control caught leaking at a fixed rate (HOP=immediate interleaves).
test(
  'a real pair run: structure, the stored ratio recomputed from its windows, and the leaking control caught',
  { timeout: 600000 },
  async () => {
    const dir = tempDir('ctxbench-pair-');
    const out = path.join(dir, 'pair.json');
    const report = path.join(dir, 'results.md');
    // The engine preset has no A/A twin: one pair a block keeps this run short.
    const r = await runCli([
      'run',
      '--preset',
      'engine',
      '--baseline',
      'none',
      '--strategies',
      'none,global',
      '--depths',
      '8',
      '--hops',
      'immediate',
      '--rate',
      '400',
      '--connections',
      '20',
      '--blocks',
      '3',
      '--windows',
      '2',
      '--window',
      '0.5',
      '--warmup',
      '0.2',
      '--out',
      out,
      '--report',
      report,
    ]);
    assert.strictEqual(r.code, 0, r.stderr);
    assert.match(r.stderr, /measuring pair: the pair at a fixed rate/);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(run.settings.method, 'pair');
    const g = run.configs.find((c) => c.strategy === 'global');
    const none = run.configs.find((c) => c.strategy === 'none' && !c.arm);
    const pairs = run.configs.length - 1; // global (and an A/A twin, where there is one), each beside its own none
    assert.strictEqual(g.processes.length, 3, 'a fresh candidate process per block');
    assert.strictEqual(none.processes.length, 3 * pairs, 'a fresh baseline process per pair');
    assert.strictEqual(new Set(none.processes.map((p) => p.pid)).size, 3 * pairs);
    // Every process warmed closed loop before its schedule (at 400 req/s the open-loop
    // warm-up alone is a few thousand requests: V8 still compiling in the measured windows).
    for (const p of [...g.processes, ...none.processes])
      assert.ok(p.closedLoopWarmup?.length >= 3 && p.closedLoopWarmup.every((x) => x > 0), JSON.stringify(p));
    const windows = g.samples.filter((s) => s.kind === 'window');
    assert.ok(windows.length >= 6);
    for (const w of windows) {
      assert.strictEqual(w.method, 'pair');
      assert.strictEqual(w.rate, 400);
      if (w.counted) assert.strictEqual(w.dropped, undefined);
      else
        assert.match(
          w.dropped,
          new RegExp(
            String.raw`^(server \d fell behind its schedule|server \d was catching up|server ` +
              String.raw`\d answered \d+ request|load CPU busy \d+%|server \d served no request)`,
          ),
        );
      for (const k of ['histogram', 'partnerHistogram', 'latenessHistogram'])
        assert.strictEqual(typeof w[k], 'string', k);
      for (const k of ['schedule', 'partnerSchedule']) assert.ok(w[k].due > 0 && w[k].sent <= w[k].due + 400, k);
      // The event loop's wake-ups per request (what a fixed rate adds to every request's CPU)
      // are recorded for both servers. How many is the machine's: 0.065 at 400 req/s with six
      // test files at once, where requests queued while the server waited for a CPU.
      for (const k of ['wakeupsPerRequest', 'partnerWakeupsPerRequest'])
        assert.ok(Number.isFinite(w[k]) && w[k] >= 0, `${k}: ${w[k]}`);
    }
    const s = summarize(g, none);
    const want = expectedRatio(windows);
    if (want.estimate === null) assert.strictEqual(s.ratio.estimate, null);
    else assert.ok(Math.abs(s.ratio.estimate - want.estimate) < 1e-9);
    // The control leaks: other requests' ids come back, and the run says so.
    assert.ok(g.summary.mismatches > 0, `global at a fixed rate: ${g.summary.mismatches} mismatches`);
    const totals = g.samples.filter((x) => x.kind === 'pair');
    assert.strictEqual(totals.length, 3);
    // The terminal and the page: the pair's table, with the generator's lateness beside.
    assert.match(r.stdout, /complete, pair at a fixed rate,/);
    assert.match(r.stdout, /% of none \(CPU\/req at the rate, pair\) \[95% CI\]/);
    const page = fs.readFileSync(path.join(dir, 'results', 'pair.md'), 'utf8');
    assert.match(
      page,
      new RegExp(
        '\\| Strategy \\| Depth \\| req/s each \\(% of capacity\\) \\| % of `none`: ' +
          String.raw`CPU/req at the rate \[95% CI\] \| Verdict \| p50 ms \| p99 ms \| ` +
          'p99 added vs `none` ms \\[95% CI\\] \\| Generator late p50 / p99 ms \\|',
      ),
    );
    assert.match(page, /measured in a \*\*pair at a fixed rate\*\*/);
    fs.rmSync(dir, { recursive: true, force: true });
  },
);

test(
  'a pair run measured before catching-up windows were ' + 'dropped says how many of its counted windows were such',
  () => {
    const { catchingUpCounted } = require('../report/sections/run/pair');
    const run = {
      configs: [
        config([win(0), win(0, { sent: 1050 }), win(1, { baseSent: 1100 }), win(2, { counted: false, sent: 1200 })]),
      ],
    };
    assert.deepStrictEqual(catchingUpCounted(run), { catching: 2, counted: 3 });
  },
);

test(
  'repro of pair runs: "cannot serve" is compared as an answer ' +
    '(never as a ratio), and the added p99s are compared in ms',
  () => {
    const { reproCompare } = require('../analysis/repro');
    const { reproText } = require('../report/repro-text');
    const { render } = require('../report/sections/repro');
    const baseline = { id: 'base', strategy: 'none', depth: 8, samples: [] };
    const cand = (id, strategy, samples) => ({
      id,
      strategy,
      depth: 8,
      rate: 1000,
      load: 0.5,
      samples: samples.map((w) => ({ ...w, partner: 'base' })),
    });
    // Three blocks whose added p99 (20 ms tails) differs by block, so it has an interval.
    const served = (tails) => tails.map((t, b) => win(b, { cpu: 55, baseCpu: 50, tailMs: t, baseTailMs: 1 }));
    const behind = [0, 1, 2].map((b) => win(b, { counted: false, sent: 600 }));
    const run = (configs) => ({ schema: 2, settings: { baseline: 'none' }, configs: [baseline, ...configs] });
    const a = run([cand('als', 'als', served([10, 12, 14])), cand('cls', 'cls-hooked', behind)]);
    const b = run([cand('als', 'als', served([11, 12, 13])), cand('cls', 'cls-hooked', served([10, 12, 14]))]);
    const r = reproCompare(a, b);
    // cls-hooked cannot serve in run a: no ratio row for it (its ratio is not a figure there),
    // and a "cannot serve" row saying run b served it.
    assert.deepStrictEqual(
      r.rows.map((x) => x.id),
      ['als'],
    );
    assert.deepStrictEqual(r.served, [
      {
        id: 'cls',
        a: { cannotServe: true, blocksNotServed: 3, blocks: 3 },
        b: { cannotServe: false, blocksNotServed: 0, blocks: 3 },
        agree: false,
      },
    ]);
    assert.deepStrictEqual(r.onlyInOne, []);
    const [p99] = r.addedP99;
    assert.strictEqual(p99.id, 'als');
    assert.ok(
      Math.abs(p99.a.estimate - 11) < 0.05 && Math.abs(p99.b.estimate - 11) < 0.05,
      `${p99.a.estimate}, ${p99.b.estimate}`,
    );
    assert.strictEqual(p99.consistent, true);
    assert.strictEqual(p99.agree, true);
    // Both runs saying it is agreement; a shifted added p99 is not.
    const c = run([cand('als', 'als', served([41, 42, 43])), cand('cls', 'cls-hooked', behind)]);
    const r2 = reproCompare(a, c);
    assert.strictEqual(r2.served[0].agree, true);
    assert.strictEqual(r2.addedP99[0].consistent, false);
    assert.match(reproText(r), /^cls {2}a cannot serve \(in 3 of 3 blocks\) {2}b served {2}DISAGREE$/m);
    const added = /^als {2}p99 added: a 11\.0\d ms \[[\d.]+–[\d.]+\] {2}b 41\.0\d ms .* DISAGREE {2}INCONSISTENT$/m;
    assert.match(reproText(r2), added);
    const page = render({ kind: 'repro', title: 't', repro: r });
    assert.match(page, /"Cannot serve": 0 of 1 given by both runs/);
    assert.match(page, /p99 added, ms: 1 of 1 consistent, 1 of 1 agree/);
  },
);
