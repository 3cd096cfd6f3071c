'use strict';
// Tier: quick (the runtime sections on synthetic runs)
// Report sections about runtimes: the stores section says whether CPU per request grows
// with the number of live stores on each runtime, the integrity section names the cells
// where runtimes disagree, and every Node version past its end of life is labelled so.
const test = require('node:test');
const assert = require('node:assert');
const { storesSection } = require('../report/sections/stores');
const { render, disagreements } = require('../report/sections/integrity');

function samples(cpu, rounds = 4) {
  return Array.from({ length: rounds }, (_, i) => ({ rps: 1000, cpuUsPerRequest: cpu + i }));
}

test('stores section: growth with N is called clear only beyond the round-to-round spread, per runtime', () => {
  const configs = [];
  for (const [label, node, acf, cpuAt] of [
    ['node20', 'v20.20.2', false, (n) => 50 + n],
    ['node24', 'v24.21.0', true, () => 50],
  ]) {
    for (const n of [0, 1, 10, 100])
      configs.push({
        id: `${label}/als/${n}`,
        strategy: 'als',
        stores: n,
        nodeLabel: label,
        node,
        acf,
        samples: samples(cpuAt(n)),
      });
  }
  const md = storesSection({ environment: { date: '2026-11-23T00:00:00Z' }, configs });
  assert.match(md, /`node20` als: CPU per request ×2\.94 from N=0 to N=100 — grows, clearly/);
  assert.match(md, /`node24` als: CPU per request ×1\.00 from N=0 to N=100 — no change clearly/);
  assert.match(md, /Node 20\.20\.2 \(end-of-life since 2026-04-30\), async_hooks/);
  assert.match(md, /Node 24\.21\.0, AsyncContextFrame/);
  assert.strictEqual(storesSection({ configs: [{ strategy: 'als', samples: [] }] }), '');
});

test('stores section: AsyncContextFrame and async_hooks of one major side by side, judged over blocks', () => {
  // 3 blocks x 2 rounds; the block effect has opposite signs in the two implementations,
  // so the per-block ratios differ and the interval has width.
  const blocked = (cpu, sign) =>
    [0, 1, 2].flatMap((block) =>
      [0, 1].map((round) => ({
        block,
        round,
        rps: 1000,
        cpuUsPerRequest: cpu * (1 + sign * 0.01 * (block - 1) + 0.005 * round),
      })),
    );
  const configs = [];
  for (const [label, acf, cpuAt, sign] of [
    ['node24', true, () => 50, 1],
    ['node24-noacf', false, (n) => 50 + 2 * n, -1],
  ]) {
    for (const n of [0, 100])
      configs.push({
        id: `${label}/als/${n}`,
        strategy: 'als',
        stores: n,
        nodeLabel: label,
        node: 'v24.21.0',
        acf,
        samples: blocked(cpuAt(n), sign),
      });
  }
  const md = storesSection({ environment: { date: '2026-11-23T00:00:00Z' }, configs });
  assert.match(md, /#### Node 24: AsyncContextFrame vs async_hooks \(`node24`, `node24-noacf`\)/);
  assert.match(md, /\| als +\| +100 \| +50\.\d \| +25\d \| ×5\.00 \[4\.\d\d–5\.\d\d\] \| async_hooks dearer \|/);
  assert.doesNotMatch(md, /×5\.00 \[5\.00–5\.00\]/, 'the interval is over blocks, not zero-width');
  assert.match(md, /\| als +\| +0 \| +50\.\d \| +50\.\d \| ×1\.00 \[0\.9\d–1\.0\d\] \| no clear difference \|/);
  assert.doesNotMatch(md, /Where AsyncContextFrame is dearer/, 'no explanation of a result the run did not show');
  const dearer = configs.map((c) => (c.acf && c.stores === 100 ? { ...c, samples: blocked(400, 1) } : c));
  assert.match(
    storesSection({ configs: dearer }),
    /\| als +\| +100 \|.*\| AsyncContextFrame dearer \|[\s\S]*Where AsyncContextFrame is dearer: its `run\(\)` copies/,
  );
  // One implementation per major: nothing to set side by side.
  const only24 = configs.filter((c) => c.acf === true);
  assert.doesNotMatch(storesSection({ configs: only24 }), /side by side/);
});

test('integrity: the cells where runtimes disagree, and none when they agree', () => {
  const cell = (node, acf, strategy, scenario, verdict) => ({
    node,
    nodeVersion: node === 'node20' ? 'v20.20.2' : 'v24.21.0',
    acf,
    strategy,
    scenario,
    verdict,
    requests: 10,
    kept: verdict === 'kept' ? 10 : 0,
    lost: verdict === 'lost' ? 10 : 0,
    leaked: verdict === 'leaked' ? 10 : 0,
    errors: 0,
  });
  const cells = [
    cell('node20', false, 'als', 'body', 'lost'),
    cell('node24', true, 'als', 'body', 'kept'),
    cell('node20', false, 'als', 'nested', 'kept'),
    cell('node24', true, 'als', 'nested', 'kept'),
  ];
  const targets = ['node20|false', 'node24|true'];
  const text = disagreements(cells, ['body', 'nested'], ['als'], targets, '2026-11-23');
  assert.match(text, /^1 cell where the runtimes disagree/);
  assert.match(text, /\| `body` \| als \| lost 10\/10 \| kept 10 \|/);
  assert.doesNotMatch(text, /`nested`/);
  assert.match(text, /Node 20\.20\.2 \(EOL\), async_hooks/);
  const agree = disagreements(cells.slice(2), ['nested'], ['als'], targets, '2026-11-23');
  assert.match(agree, /^All 2 runtimes give the same verdict/);
  assert.strictEqual(disagreements(cells.slice(0, 1), ['body'], ['als'], ['node20|false']), null);

  const md = render({
    kind: 'integrity',
    environment: { date: '2026-11-23T00:00:00Z' },
    settings: { strategies: ['als'] },
    integrity: { scenarios: [], cells },
  });
  assert.match(md, /### Where the runtimes disagree/);
  assert.match(
    md,
    /A single run: its verdicts are counts of answers in this run/,
    'an integrity page says it is one run',
  );
  assert.match(md, /### Matrix — Node 20\.20\.2 \(end-of-life since 2026-04-30\), async_hooks/);

  // A runtime the strategy's package does not support ("n/a", not run) is no answer to
  // differ from; a cell that failed on every runtime says so, not each runtime's name.
  const agent = [
    {
      ...cell('node20', false, 'datadog', 'nested', 'n/a'),
      requests: 0,
      unsupported: true,
      explanation: 'dd-trace@6 supports Node >=22',
    },
    { ...cell('node24', true, 'datadog', 'nested', 'leaked'), explanation: 'enterWith has no end' },
    {
      ...cell('node20', false, 'datadog', 'body', 'n/a'),
      requests: 0,
      unsupported: true,
      explanation: 'dd-trace@6 supports Node >=22',
    },
    { ...cell('node24', true, 'datadog', 'body', 'kept') },
  ];
  assert.match(
    disagreements(agent, ['nested', 'body'], ['datadog'], targets, '2026-11-23'),
    /^All 2 runtimes give the same verdict/,
  );
  const both = [cell('node20', false, 'als', 'pool', 'leaked'), cell('node24', true, 'als', 'pool', 'leaked')].map(
    (c) => ({ ...c, explanation: 'a waiter runs inside another request' }),
  );
  const page = render({
    kind: 'integrity',
    environment: { date: '2026-11-23T00:00:00Z' },
    settings: { strategies: ['als'] },
    integrity: { scenarios: [], cells: both },
  });
  assert.match(page, /- `pool` × als \(LEAKED 10\/10 on every runtime\): a waiter runs inside another request\./);
});

test("frameworks: AsyncContextFrame on and off side by side per major, and this run's Express cost per Node", () => {
  const { frameworksSection } = require('../report/sections/frameworks');
  const configs = [];
  const rounds = (rps, cpu) =>
    Array.from({ length: 5 }, (_, i) => ({
      rps: rps * (1 + (i % 2 ? 0.01 : -0.01)),
      cpuUsPerRequest: cpu,
      latency: { p99: 5 },
    }));
  for (const [label, node, acf, scale] of [
    ['node22', 'v22.23.3', false, 1],
    ['node24', 'v24.21.0', true, 1],
    ['node24-noacf', 'v24.21.0', false, 0.8],
  ]) {
    for (const [framework, strategy, rps, cpu] of [
      ['http', 'none', 20000, 40],
      ['http', 'als', 18000 * scale, 45],
      ['express', 'none', 9000, label === 'node22' ? 200 : 65],
    ]) {
      configs.push({
        id: `${framework}/${strategy}/d1/sync/${label}`,
        framework,
        strategy,
        depth: 1,
        hop: 'sync',
        node,
        nodeLabel: label,
        acf,
        samples: rounds(rps, cpu),
      });
    }
  }
  const md = frameworksSection({
    environment: { date: '2026-11-23T00:00:00Z' },
    settings: { preset: 'frameworks' },
    configs,
  });
  assert.match(md, /### Frameworks: AsyncContextFrame on vs off, side by side/);
  assert.match(md, /#### Node 24: AsyncContextFrame \(default\) vs AsyncContextFrame off/);
  // Only the row whose throughput differs is called significant: als 20% slower with ACF off.
  assert.match(
    md,
    /\| AsyncLocalStorage \(node:http\) \| 17,820 \| 14,256 \| −20\.0%[^|]*\| 20\.0% slower, significant \|/,
  );
  assert.match(md, /\| Baseline \(node:http\) \| 19,800 \| 19,800 \| [^|]+ \| no significant difference \|/);
  assert.doesNotMatch(md, /#### Node 22: /, 'Node 22 was measured one way only');
  assert.match(md, /### Frameworks: why Express costs more per request on Node 20 and 22/);
  assert.match(md, /\| Node 22 \(v22\.23\.3\) \| 40\.0 \| 200 \|/);
  assert.match(md, /\| Node 24 \(v24\.21\.0\) \| 40\.0 \| 65\.0 \|/);
});

test('integrity soak: an RSS-only flag states the heap growth it saw, not "heap flat"', () => {
  const soak = (strategy, heapUsedPct, rssPct, flags) => ({
    strategy,
    node: 'node24',
    requests: 1000,
    before: { heapUsedBytes: 1e7, rssBytes: 1e8 },
    after: { heapUsedBytes: 1e7 * (1 + heapUsedPct / 100), rssBytes: 1e8 * (1 + rssPct / 100) },
    growth: { heapUsedPct, rssPct },
    flagged: flags.length > 0,
    flags,
  });
  const md = render({
    kind: 'integrity',
    environment: { date: '2026-11-23T00:00:00Z' },
    settings: { strategies: ['als'], soakGrowthLimitPct: 20, soakRequests: 1000, concurrency: 10 },
    integrity: {
      scenarios: [],
      cells: [],
      soak: [
        soak('otel-selective', 19.6, 34.8, ['RSS +35%']),
        soak('als', 45, 50, ['heap +45%', 'RSS +50%']),
        soak('none', 1, 2, []),
      ],
    },
  });
  const row = (st) => md.split('\n').find((l) => l.startsWith(`| ${st} | node24 |`));
  assert.match(row('otel-selective'), /\| RSS only \(RSS \+35%\); heap \+19\.6%, within 20% \|$/);
  assert.doesNotMatch(md, /heap flat/);
  assert.match(row('als'), /\| ⚠ heap \+45%, RSS \+50% \|$/);
  assert.match(row('none'), /\| ok \(≤ 20%\) \|$/);
});
