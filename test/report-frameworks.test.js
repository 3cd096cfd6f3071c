'use strict';
// Tier: quick (the frameworks section on synthetic samples)
// The `frameworks` preset's section of results.md: the platformatic study's two tables
// computed from synthetic samples (no live measurement), beside the published figures.
const test = require('node:test');
const { mulberry32 } = require('./helpers/random');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { buildReport } = require('../report');
const { reportText } = require('./helpers/report');
const { frameworksSection, PUBLISHED_GAIN } = require('../report/sections/frameworks');
const references = require('../report/references');
const seeds = require('./helpers/seeds');
const { tempDir } = require('./helpers/tmp');

// The study's figures for one Node version and scenario, as the references module holds them
// (checked against the seed by the last test of this file).
function published(version, label) {
  return references.platformatic.tables.find((tb) => tb.node.includes(version)).rows.find((r) => r.label === label)
    .cells;
}

// Deterministic pseudo-noise in [-0.5, 0.5).
function noise(seed) {
  const uniform = mulberry32(seed);
  return () => uniform() - 0.5;
}

const SCENARIOS = [
  ['http', 'none'],
  ['http', 'als'],
  ['fastify', 'none'],
  ['fastify', 'otel-full'],
  ['fastify', 'otel-selective'],
  ['express', 'none'],
  ['express', 'als'],
  ['express', 'otel-full'],
  ['express', 'otel-selective'],
];
// Throughput relative to http/none. fastify/none (110%) and express/none (80%) differ from
// the http baseline so a per-framework baseline would show different percentages:
// express/als is 72% of http/none but 90% of express/none.
const LEVEL = {
  'http/none': 1,
  'http/als': 0.9,
  'fastify/none': 1.1,
  'fastify/otel-full': 0.2,
  'fastify/otel-selective': 0.36,
  'express/none': 0.8,
  'express/als': 0.72,
  'express/otel-full': 0.15,
  'express/otel-selective': 0.3,
};
const VERSIONS = { 20: 'v20.19.5', 22: 'v22.17.1', 24: 'v24.4.1' };

// majors: e.g. [22, 24]. Node 24 is planted 10% faster than 22 in every scenario; each
// round has its own machine speed (drift), shared by every config of that round.
function frameworksRun({ majors = [22, 24], rounds = 3, failed = [], noData = [], preset = 'frameworks' } = {}) {
  const rnd = noise(7);
  const drifts = [1.08, 0.9, 1.0, 1.05];
  const configs = [];
  for (const major of majors) {
    for (const [framework, strategy] of SCENARIOS) {
      const key = `${framework}/${strategy}`;
      const id = `${framework}/${strategy}/d1/sync/node${major}`;
      const base = {
        id,
        framework,
        strategy,
        depth: 1,
        hop: 'sync',
        node: VERSIONS[major],
        nodeLabel: `node${major}`,
        acf: major >= 24,
        expectAcf: null,
        target: null,
        control: false,
        summary: null,
        error: null,
      };
      if (failed.includes(id)) {
        configs.push({
          ...base,
          acf: null,
          samples: [],
          error: {
            message:
              'server exited with code 1 before listening: ' +
              'Cannot find module @opentelemetry/auto-instrumentations-node',
            stderrTail: '',
          },
        });
        continue;
      }
      if (noData.includes(id)) {
        configs.push({ ...base, samples: [] });
        continue;
      }
      const samples = [];
      for (let round = 0; round < rounds; round++) {
        const rps = 50000 * LEVEL[key] * (major === 24 ? 1.1 : 1) * drifts[round] * (1 + 0.004 * rnd());
        samples.push({
          round,
          rps,
          latency: { p2_5: 5, p50: 10, p97_5: 25, p99: 20 / LEVEL[key] + round, avg: 12, stdev: 4, max: 300 },
          requests: Math.round(rps * 10),
          errors: 0,
          non2xx: 0,
          mismatches: 0,
          lost: 0,
          cpuUsPerRequest: 40 / LEVEL[key],
          rssMB: 70,
          bytesPerSec: rps * 180,
          loadgenCpu: 0.7,
        });
      }
      configs.push({ ...base, samples });
    }
  }
  return {
    schema: 1,
    kind: 'run',
    title: `Frameworks (synthetic, ${preset})`,
    command: `ctxbench run --preset ${preset}`,
    status: 'complete',
    environment: {
      node: 'v20.20.2',
      os: 'linux',
      platform: 'linux',
      cpuModel: 'Test CPU',
      cores: 4,
      date: '2026-11-21T19:40:00.000Z',
    },
    settings: {
      preset,
      node: majors.map(String),
      depths: [1],
      hops: ['sync'],
      frameworks: ['http', 'fastify', 'express'],
      strategies: ['none', 'als', 'otel-full', 'otel-selective'],
      acf: 'default',
      connections: 100,
      pipelining: 10,
      duration: 10,
      warmup: 5,
      rounds,
      driver: 'autocannon',
      baseline: 'none',
    },
    configs,
    warnings: [],
  };
}

async function report(run, t) {
  const dir = tempDir('ctxbench-fw-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const resultsDir = path.join(dir, 'results');
  fs.mkdirSync(resultsDir);
  fs.writeFileSync(path.join(resultsDir, 'frameworks.json'), JSON.stringify(run));
  const out = path.join(dir, 'results.md');
  await buildReport({ resultsDir, out });
  return reportText(out, resultsDir);
}

function between(md, start, end) {
  const i = md.indexOf(start);
  assert.ok(i >= 0, `missing ${start}`);
  const j = end ? md.indexOf(end, i + start.length) : -1;
  return md.slice(i, j < 0 ? undefined : j);
}

function row(text, name) {
  const line = text.split('\n').find((l) => l.startsWith(`| ${name} |`));
  assert.ok(line, `row ${name}`);
  return line
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());
}

const PCT = (lo, hi) => (cell) => {
  const m = /^(\d+\.\d)% \[(\d+\.\d)%–(\d+\.\d)%\]$/.exec(cell);
  assert.ok(m, `percentage with CI: ${cell}`);
  const v = Number(m[1]);
  assert.ok(v >= lo && v <= hi, `${cell} within ${lo}–${hi}`);
  assert.ok(Number(m[2]) <= v && v <= Number(m[3]), `${cell}: estimate inside its CI`);
};

test(
  'frameworks preset: per-version tables against http/none, ' + 'the version comparison, published figures labelled',
  async (t) => {
    const failedId = 'express/otel-full/d1/sync/node22';
    const run = frameworksRun({ failed: [failedId] });
    const md = await report(run, t);

    // Both tables, in order, inside the run's section, between the depth-sweep slot and the detail.
    const perVersion = between(md, '### Frameworks: per Node version', '### Frameworks: version comparison');
    const comparison = between(md, '### Frameworks: version comparison', '### Frameworks: what differs from the study');
    const differs = between(md, '### Frameworks: what differs from the study', '<details>');
    assert.ok(md.indexOf('### Results') < md.indexOf('### Frameworks: per Node version'));

    // One table per major, in the configs' order.
    const n22 = between(perVersion, '#### Node 22 (v22.17.1)', '#### Node 24');
    const n24 = between(perVersion, '#### Node 24 (v24.4.1)', '### ');
    assert.match(
      n22,
      new RegExp(
        String.raw`\| Scenario \| req/s geo\. mean \[95% CI\] \| p99 ms \| % of ` +
          String.raw`baseline \[95% CI\] \| Verdict \| Study req/s avg \(published\) ` +
          String.raw`\| Study p99 \(published\) \| Study vs baseline \(published\) \|`,
      ),
    );
    const names = [
      'Baseline (node:http)',
      'AsyncLocalStorage (node:http)',
      'Fastify base',
      'Fastify + full OTel',
      'Fastify + selective OTel',
      'Express base',
      'Express + AsyncLocalStorage',
      'Express + full OTel',
      'Express + selective OTel',
    ];
    for (const section of [n22, n24]) {
      const order = names.map((n) => section.indexOf(`| ${n} |`));
      assert.ok(
        order.every((i, k) => i > 0 && (k === 0 || i > order[k - 1])),
        `scenario rows in the study's order: ${order}`,
      );
    }

    // The baseline is http/none of the same version: ALS 90%, Fastify 110%, Express 80%,
    // Express + ALS 72% (it would be 90% against express/none).
    for (const section of [n22, n24]) {
      const base = row(section, 'Baseline (node:http)');
      assert.match(base[1], /^[\d,]+ \[[\d,]+–[\d,]+\]$/);
      assert.strictEqual(base[3], '100% (baseline)');
      assert.strictEqual(base[4], 'baseline');
      PCT(89, 91)(row(section, 'AsyncLocalStorage (node:http)')[3]);
      assert.match(row(section, 'AsyncLocalStorage (node:http)')[4], /^(9\.[5-9]|10\.[0-4])% slower, significant$/);
      PCT(109, 111)(row(section, 'Fastify base')[3]);
      PCT(79, 81)(row(section, 'Express base')[3]);
      PCT(71, 73)(row(section, 'Express + AsyncLocalStorage')[3]);
      PCT(19, 21)(row(section, 'Fastify + full OTel')[3]);
      // p99: median across rounds of each round's p99 (20 / level + round -> 20 / 0.9 + 1).
      assert.strictEqual(row(section, 'AsyncLocalStorage (node:http)')[2], (20 / 0.9 + 1).toFixed(1));
    }

    // The failed config: a "failed: message" row, on Node 22 only.
    const failedRow = row(n22, 'Express + full OTel');
    assert.strictEqual(
      failedRow[1],
      'failed: server exited with code 1 before listening: ' +
        'Cannot find module @opentelemetry/auto-instrumentations-node',
    );
    assert.deepStrictEqual(failedRow.slice(2, 5), ['—', '—', '—']);
    PCT(14, 16)(row(n24, 'Express + full OTel')[3]);

    // Published figures beside ours, labelled as the study's, per version; none for Express.
    // Each version's row carries that version's published figures (a swap of versions or rows goes red).
    assert.deepStrictEqual(row(n24, 'AsyncLocalStorage (node:http)').slice(5), published('v24', 'AsyncLocalStorage'));
    assert.deepStrictEqual(row(n22, 'AsyncLocalStorage (node:http)').slice(5), published('v22', 'AsyncLocalStorage'));
    assert.notDeepStrictEqual(published('v24', 'AsyncLocalStorage'), published('v22', 'AsyncLocalStorage'));
    assert.deepStrictEqual(row(n24, 'Baseline (node:http)').slice(5), published('v24', 'Baseline'));
    assert.deepStrictEqual(row(n22, 'Fastify + full OTel').slice(5), published('v22', 'Fastify + Full OTel'));
    assert.deepStrictEqual(row(n24, 'Express base').slice(5), ['—', '—', '—']);
    assert.match(
      n24,
      /single run on Node\.js v24\.4\.1 \(seed `001_ed13693b7bd7bacc\.txt`\), quoted verbatim — not our measurements/,
    );
    assert.match(n22, /AsyncLocalStorage implementation: async_hooks/);
    assert.match(n24, /AsyncLocalStorage implementation: AsyncContextFrame/);

    // Version comparison: the planted 10% gain, paired by round, significant; published gains labelled.
    assert.match(comparison, /#### Node 22 → Node 24/);
    assert.match(
      comparison,
      new RegExp(
        String.raw`\| Scenario \| Node 22 req/s median \| Node 24 req/s median \| Gain, ` +
          String.raw`Node 24 vs 22 \[95% CI\] \| Verdict \| Study Node 22 \(published\) ` +
          String.raw`\| Study Node 24 \(published\) \| Study gain \(published\) \|`,
      ),
    );
    for (const name of names.filter((n) => n !== 'Express + full OTel')) {
      const r = row(comparison, name);
      const m = /^\+(\d+\.\d)% \[\+(\d+\.\d)%, \+(\d+\.\d)%\]$/.exec(r[3]);
      assert.ok(m, `${name} gain with CI: ${r[3]}`);
      assert.ok(Math.abs(Number(m[1]) - 10) <= 0.5, `${name}: planted 10% gain, got ${r[3]}`);
      assert.ok(Number(m[2]) < 10 + 0.5 && Number(m[3]) > 10 - 0.5, `${name}: CI around 10%: ${r[3]}`);
      assert.match(r[4], /^\d+\.\d% faster on 24, significant$/);
      assert.ok(Number(r[2].replace(/,/g, '')) > Number(r[1].replace(/,/g, '')));
    }
    const gain = (label) => {
      const g = PUBLISHED_GAIN.rows[label];
      return [g.v22, g.v24, g.gain];
    };
    assert.deepStrictEqual(row(comparison, 'AsyncLocalStorage (node:http)').slice(5), gain('AsyncLocalStorage'));
    assert.deepStrictEqual(row(comparison, 'Fastify base').slice(5), gain('Fastify Base'));
    // The published gain is consistent with the published per-version figures it sits beside.
    const num = (x) => Number(x.replace(/[^\d.]/g, ''));
    const [v22, v24, g] = gain('AsyncLocalStorage');
    assert.ok(Math.abs((num(v24) / num(v22) - 1) * 100 - Number(g.replace('%', ''))) < 0.1, `${v22} -> ${v24} = ${g}`);
    assert.deepStrictEqual(row(comparison, 'Express base').slice(5), ['—', '—', '—']);
    const failedCmp = row(comparison, 'Express + full OTel');
    assert.match(failedCmp[1], /^failed: server exited/);
    assert.strictEqual(failedCmp[3], '—');
    assert.strictEqual(failedCmp[4], 'not compared');
    assert.match(comparison, /quoted verbatim — not our measurements/);

    // One statistic per column: each req/s figure lies inside its own interval.
    const int = (x) => Number(x.replace(/,/g, ''));
    for (const name of names.filter((n) => n !== 'Express + full OTel')) {
      const m = /^([\d,]+) \[([\d,]+)–([\d,]+)\]$/.exec(row(n22, name)[1]);
      assert.ok(m, `${name}: ${row(n22, name)[1]}`);
      assert.ok(int(m[2]) <= int(m[1]) && int(m[1]) <= int(m[3]), `${name}: ${m[0]}`);
    }
    // ...and it is the geometric mean of the rounds (the statistic its interval is of).
    const baseSamples = run.configs.find((c) => c.id === 'http/none/d1/sync/node22').samples.map((x) => x.rps);
    const geo = Math.exp(baseSamples.reduce((a, x) => a + Math.log(x), 0) / baseSamples.length);
    assert.strictEqual(row(n22, 'Baseline (node:http)')[1].split(' ')[0], Math.round(geo).toLocaleString('en-US'));

    // The note on what differs.
    for (const re of [
      /same body/,
      /request's id/,
      /in-memory span exporter/,
      /OTEL_EXPORTER/,
      /interleaved rounds/,
      /Node 22 \(v22\.17\.1\): async_hooks/,
      /Node 24 \(v24\.4\.1\): AsyncContextFrame/,
    ]) {
      assert.match(differs, re);
    }

    // The study's own figures are still quoted in the references block.
    assert.match(md, /### Published references \(not our measurements\)/);
  },
);

test('frameworks preset on one Node version: per-version table, no comparison, "no data" rows', async (t) => {
  const md = await report(frameworksRun({ majors: [20], noData: ['fastify/otel-selective/d1/sync/node20'] }), t);
  const perVersion = between(md, '### Frameworks: per Node version', '### Frameworks: version comparison');
  const n20 = between(perVersion, '#### Node 20 (v20.19.5; end-of-life since 2026-04-30)', '### ');
  PCT(89, 91)(row(n20, 'AsyncLocalStorage (node:http)')[3]);
  assert.strictEqual(row(n20, 'Fastify + selective OTel')[1], 'no data');
  assert.doesNotMatch(n20, /\(published\)/);
  assert.match(n20, /The study did not measure Node 20/);
  const comparison = between(md, '### Frameworks: version comparison', '### Frameworks: what differs');
  assert.match(comparison, /measured Node 20 only, so there is no version comparison/);
  assert.doesNotMatch(comparison, /\|/);
});

test('a failed baseline leaves the other rows without a percentage', () => {
  const md = frameworksSection(frameworksRun({ failed: ['http/none/d1/sync/node22'] }));
  const n22 = between(md, '#### Node 22', '#### Node 24');
  assert.match(row(n22, 'Baseline (node:http)')[1], /^failed: /);
  const als = row(n22, 'AsyncLocalStorage (node:http)');
  assert.strictEqual(als[3], '—');
  assert.strictEqual(als[4], 'no baseline (http/none failed)');
  PCT(89, 91)(row(between(md, '#### Node 24', '### '), 'AsyncLocalStorage (node:http)')[3]);
});

test('other presets get no frameworks tables', async (t) => {
  const md = await report(frameworksRun({ preset: 'default' }), t);
  assert.doesNotMatch(md, /### Frameworks:/);
});

test(
  'the published version gains and per-version figures are quoted from the seed verbatim',
  { skip: seeds.dir ? false : seeds.MISSING },
  () => {
    const text = seeds.read(PUBLISHED_GAIN.seed);
    // Per-version tables: each row sits under its own version's heading in the seed.
    const lines = text.split('\n');
    for (const tb of references.platformatic.tables) {
      const start = lines.findIndex((l) => l.startsWith('### ') && l.includes(tb.node));
      assert.ok(start >= 0, `heading for ${tb.node}`);
      const end = lines.findIndex((l, i) => i > start && l.startsWith('#'));
      const section = seeds.rows(lines.slice(start, end).join('\n'));
      for (const r of tb.rows) {
        assert.ok(
          section.some((x) => x.cells[0] === r.label && r.cells.every((c, j) => x.cells[j + 1].startsWith(c))),
          `${tb.node} ${r.label}: ${r.cells}`,
        );
      }
    }
    for (const [label, r] of Object.entries(PUBLISHED_GAIN.rows)) {
      const line = text.split('\n').find((l) => l.startsWith(`| **${label}** | ${r.v22} | ${r.v24} |`));
      assert.ok(line, `${label} row in the seed`);
      assert.ok(line.replace(/\\-/g, '-').includes(r.gain), `${label}: ${r.gain}`);
    }
  },
);

test(
  'every per-version cell has a figure or says why: ' +
    'frameworks not paired with http/none get a per-block ratio, marked ‡',
  async (t) => {
    // Blocks of fresh processes, where only same-framework configs sit in adjacent pairs.
    const blocked = (run) => {
      let seq = 0;
      for (const c of run.configs)
        for (const s of c.samples) Object.assign(s, { block: s.round, seq: seq++, pairSeq: null });
      return { ...run, schema: 2 };
    };
    const md = await report(blocked(frameworksRun({ majors: [24] })), t);
    const section = between(md, '#### Node 24 (v24.4.1)', '### ');
    for (const [name, lo, hi] of [
      ['Fastify base', 109, 111],
      ['Express + AsyncLocalStorage', 71, 73],
      ['Fastify + full OTel', 19, 21],
    ]) {
      const cells = row(section, name);
      assert.match(cells[3], / ‡$/, `${name}: marked as a per-block ratio`);
      PCT(lo, hi)(cells[3].replace(/ ‡$/, ''));
      assert.match(cells[4], /slower, significant|faster, significant/);
    }
    assert.match(section, /‡ Not measured beside http\/none in adjacent pairs/);
    // One block in common: a figure, no interval, and the reason.
    const one = await report(blocked(frameworksRun({ majors: [24], rounds: 1 })), t);
    const cells = row(between(one, '#### Node 24 (v24.4.1)', '### '), 'Fastify base');
    assert.match(cells[3], /^1\d\d\.\d% \(1 block\)$/);
    assert.strictEqual(cells[4], 'one block in common with http/none: no interval, no verdict');
  },
);
