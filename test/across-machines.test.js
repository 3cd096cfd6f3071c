'use strict';
// Tier: quick (synthetic duet runs in memory and a report into a temp dir; no server started)
// How far a figure moves between machines (issue 75): the default preset's duet runs kept
// beside the headline's, each machine's figure with its interval, the spread between them
// (highest − lowest) and the widest half-width within one; runs left out say why, and the
// headline links the page.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { acrossMachines, summaryOf } = require('../analysis');
const { render } = require('../report/sections/across-machines');
const f = require('../report/format');
const { buildReport } = require('../report');
const random = require('./helpers/random');
const { tempDir } = require('./helpers/tmp');
const { syntheticConfig } = require('./helpers/run2');

const DEPTHS = [8, 256];

// A default-preset duet run: `none` and `als` at depths 8 and 256, six blocks of three windows,
// als's true figure (none's CPU per request ÷ als's) per depth in `ratios`.
function duetRun({ seed, cpuModel, cpuUs = 40, ratios, method = 'duet', date = '2026-11-24T00:00:00Z' }) {
  const { normal } = random.rng(seed);
  const config = syntheticConfig;
  const configs = [];
  for (const depth of DEPTHS) {
    const base = config('none', depth);
    const als = config('als', depth);
    for (let block = 0; block < 6; block++) {
      const effect = 0.01 * normal();
      for (let window = 0; window < 3; window++) {
        const partner = cpuUs * (1 + 0.01 * normal());
        const own = (partner / ratios[depth]) * Math.exp(effect + 0.005 * normal());
        als.samples.push({
          kind: 'window',
          block,
          group: 1,
          window,
          partner: base.id,
          requests: Math.round(1e6 / own),
          cpuUsPerRequest: own,
          partnerRequests: Math.round(1e6 / partner),
          partnerCpuUsPerRequest: partner,
          counted: true,
        });
      }
    }
    configs.push(base, als);
  }
  return {
    schema: 2,
    kind: 'run',
    environment: {
      cpuModel,
      cores: 2,
      date,
      commit: `c${seed}`,
      fingerprint: { cpuUsPerRequest: cpuUs, rps: 1e6 / cpuUs },
    },
    settings: {
      preset: 'default',
      basedOn: 'default',
      strategies: ['none', 'als'],
      depths: DEPTHS,
      hops: ['immediate'],
      frameworks: ['express'],
      baseline: 'none',
      node: ['24'],
      connections: 10,
      ...(method && { method }),
    },
    configs,
  };
}

const INTEL = 'Intel(R) Xeon(R) Processor';
const AMD = 'AMD EPYC';
const head = {
  name: 'default',
  file: 'results/default.json',
  run: duetRun({ seed: 1, cpuModel: INTEL, ratios: { 8: 0.95, 256: 0.8 } }),
};
const other = {
  name: 'default-amd',
  file: 'results/runs/default-amd.json',
  run: duetRun({ seed: 2, cpuModel: AMD, cpuUs: 45, ratios: { 8: 0.9, 256: 0.86 } }),
};
const sequential = {
  name: 'default-sequential',
  file: 'results/runs/default-sequential.json',
  run: duetRun({ seed: 3, cpuModel: AMD, ratios: { 8: 0.5, 256: 0.5 }, method: null }),
};
// The headline's statistic for als at a depth of one run, as the headline computes it.
const figureOf = (x, depth) => {
  const als = x.run.configs.find((c) => c.strategy === 'als' && c.depth === depth);
  return summaryOf(als, x.run.configs, 'none').ratio;
};

test('each machine’s figure, the spread (highest − lowest) and the widest half-width within one', () => {
  const result = acrossMachines(head, [other, sequential]);
  assert.deepStrictEqual(
    result.machines.map((m) => [m.name, m.cpuModel, m.headline, m.sameModel]),
    [
      ['default', INTEL, true, false],
      ['default-amd', AMD, false, false],
    ],
  );
  assert.strictEqual(result.models, 2);
  assert.deepStrictEqual(
    result.left.map((x) => [x.name, x.why]),
    [['default-sequential', 'method']],
  );
  assert.deepStrictEqual(
    result.rows.map((r) => [r.strategy, r.depth]),
    [
      ['als', 8],
      ['als', 256],
    ],
  );
  const page = render(result);
  const firstTable = page.split('\n').filter((l) => l.startsWith('|'));
  assert.match(firstTable[0], /A: Intel\(R\) Xeon\(R\) Processor, 40\.0 µs\/req \| B: AMD EPYC, 45\.0 µs\/req/);
  for (const depth of DEPTHS) {
    const [a, b] = [head, other].map((x) => figureOf(x, depth));
    const row = result.rows.find((r) => r.depth === depth);
    assert.strictEqual(row.cells[0].estimate, a.estimate);
    assert.strictEqual(row.cells[1].estimate, b.estimate);
    const spread = (Math.max(a.estimate, b.estimate) - Math.min(a.estimate, b.estimate)) * 100;
    assert.ok(Math.abs(row.spreadPp - spread) < 1e-9, `depth ${depth}: spread ${row.spreadPp} vs ${spread}`);
    const halves = [a, b].map((r) => ((r.ci95[1] - r.ci95[0]) / 2) * 100);
    assert.ok(Math.abs(row.widestHalfPp - Math.max(...halves)) < 1e-9);
    const line = firstTable.find((l) => l.startsWith(`| \`als\` | ${depth} |`));
    assert.ok(line, `the table has als at depth ${depth}`);
    assert.ok(line.includes(f.withCi(a.estimate, a.ci95, f.pctOf)), line);
    assert.ok(line.includes(f.withCi(b.estimate, b.ci95, f.pctOf)), line);
    assert.ok(line.includes(`${spread.toFixed(1)} pp`), line);
    assert.ok(line.includes(`±${Math.max(...halves).toFixed(1)} pp`), line);
  }
  // 95% vs 90% at depth 8 and 80% vs 86% at 256: about 5 and 6 pp apart, far beyond ±1 pp.
  assert.ok(result.rows.every((r) => r.spreadPp > 4 && r.apart === true));
  assert.match(page, /default-sequential\.json` \(AMD EPYC\): measured one after the other \(sequential\)/);
});

test('two runs on one CPU model are two readings on one kind of machine, not across machines', () => {
  const twin = {
    ...other,
    name: 'default-b',
    run: duetRun({ seed: 4, cpuModel: INTEL, ratios: { 8: 0.95, 256: 0.8 } }),
  };
  const result = acrossMachines(head, [twin]);
  assert.deepStrictEqual(
    result.machines.map((m) => m.sameModel),
    [true, true],
  );
  const page = render(result);
  assert.match(page, /\| A\*: Intel/);
  assert.match(page, /readings on one kind of machine, not across machines/);
});

test('two CPU models and two runs of one: the spread within one model beside the spread over all', () => {
  const run = duetRun({ seed: 4, cpuModel: INTEL, ratios: { 8: 0.95, 256: 0.8 } });
  const twin = { ...other, name: 'default-b', run };
  const result = acrossMachines(head, [twin, other]);
  const page = render(result);
  assert.match(page.split('\n').find((l) => l.startsWith('|')), /\| Spread within one CPU model \| Widest ±/);
  for (const depth of DEPTHS) {
    const [a, b] = [head, twin].map((x) => figureOf(x, depth).estimate);
    const row = result.rows.find((r) => r.depth === depth);
    assert.ok(Math.abs(row.withinModelPp - Math.abs(a - b) * 100) < 1e-9, `depth ${depth}`);
    assert.ok(row.spreadPp > row.withinModelPp, `depth ${depth}: the AMD run is farther`);
  }
  // One CPU model, or no model run twice: no such column.
  assert.doesNotMatch(render(acrossMachines(head, [twin])), /within one CPU model/);
  assert.doesNotMatch(render(acrossMachines(head, [other])), /within one CPU model/);
});

test('a custom matrix is left out, and more than four runs keep the newest per CPU model', () => {
  const custom = structuredClone(other);
  custom.name = 'default-custom';
  custom.run.settings.depths = [8];
  const many = ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'].map((d, i) => ({
    name: `default-${i}`,
    file: `results/runs/default-${i}.json`,
    run: duetRun({
      seed: 10 + i,
      cpuModel: i < 3 ? AMD : 'Other CPU',
      ratios: { 8: 0.9, 256: 0.8 },
      date: `${d}T00:00:00Z`,
    }),
  }));
  const result = acrossMachines(head, [custom, ...many]);
  assert.deepStrictEqual(
    result.machines.map((m) => m.name),
    ['default', 'default-3', 'default-2'],
  );
  assert.deepStrictEqual(
    result.left.map((x) => [x.name, x.why]),
    [
      ['default-custom', 'matrix'],
      ['default-0', 'surplus'],
      ['default-1', 'surplus'],
    ],
  );
});

test('the report writes the page from results/runs/ and the headline links it', async () => {
  const root = tempDir('ctxbench-across-');
  const dir = path.join(root, 'results');
  fs.mkdirSync(path.join(dir, 'runs'), { recursive: true });
  const fixture = (name) => JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'results', name), 'utf8'));
  const def = fixture('default.json');
  fs.writeFileSync(path.join(dir, 'default.json'), JSON.stringify(def));
  const amd = structuredClone(def);
  amd.environment.cpuModel = AMD;
  fs.writeFileSync(path.join(dir, 'runs', 'default-amd.json'), JSON.stringify(amd));
  const out = path.join(root, 'results.md');
  await buildReport({ resultsDir: dir, out, html: false });
  const page = fs.readFileSync(path.join(dir, 'across-machines.md'), 'utf8');
  assert.match(page, /\| B: AMD EPYC/);
  assert.match(page, /results\/runs\/default-amd\.json/);
  const md = fs.readFileSync(out, 'utf8');
  assert.match(md, /How far these figures move between machines: \[across-machines\]\(results\/across-machines\.md\)/);
});

test('a file of no declared kind under results/runs/ stops the report with the line naming it', async () => {
  const root = tempDir('ctxbench-across-');
  const dir = path.join(root, 'results');
  fs.mkdirSync(path.join(dir, 'runs'), { recursive: true });
  const def = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'results', 'default.json'), 'utf8'));
  fs.writeFileSync(path.join(dir, 'default.json'), JSON.stringify(def));
  fs.writeFileSync(path.join(dir, 'runs', 'threads.json'), JSON.stringify({ node: 'x', windows: [] }));
  await assert.rejects(
    buildReport({ resultsDir: dir, out: path.join(root, 'results.md'), html: false }),
    /runs[/\\]threads\.json/,
  );
});
