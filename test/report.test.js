'use strict';
// Tier: quick (report/ on synthetic runs written to a temp dir, and the report command's refusals)
// report/ on synthetic run JSON written to a temp dir (no live measurement).
const test = require('node:test');
const { mulberry32 } = require('./helpers/random');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { buildReport } = require('../report');
const { reportText } = require('./helpers/report');
const references = require('../report/references');
const seeds = require('./helpers/seeds');
const { tempDir } = require('./helpers/tmp');

// Deterministic pseudo-noise in [-0.5, 0.5).
function noise(seed) {
  const uniform = mulberry32(seed);
  return () => uniform() - 0.5;
}

// Two strategies (none = baseline, als) + the global control, two depths, 3 rounds, and
// one failed config (cls-hooked at depth 8) with an error and no samples.
function fixtureRun({ preset = 'default', title = 'Default run (synthetic)' } = {}) {
  const rnd = noise(11);
  const rounds = 3;
  const base = { none: 12000, als: 10800, global: 11900 };
  const depthFactor = { 8: 1, 256: 0.55 };
  const configs = [];
  const drifts = [1.1, 0.85, 1.0]; // the machine's speed in each round, shared by all configs
  for (const depth of [8, 256]) {
    for (const strategy of ['none', 'als', 'global']) {
      const samples = [];
      for (let round = 0; round < rounds; round++) {
        const drift = drifts[round];
        const rps = base[strategy] * depthFactor[depth] * drift * (1 + 0.01 * rnd());
        samples.push({
          round,
          rps,
          latency: {
            p2_5: 4,
            p50: 8 / depthFactor[depth],
            p97_5: 18,
            p99: 21 / depthFactor[depth] + round,
            avg: 8.8 / depthFactor[depth],
            stdev: 3.1,
            max: 90,
          },
          requests: Math.round(rps * 3),
          errors: 0,
          non2xx: 0,
          mismatches: strategy === 'global' ? 1200 + round : 0,
          lost: strategy === 'global' ? 3 : 0,
          cpuUsPerRequest: (80 + depth / 10) * (base.none / base[strategy]),
          rssMB: 61.3,
          bytesPerSec: rps * 210,
          loadgenCpu: 0.6,
        });
      }
      configs.push({
        id: `express/${strategy}/d${depth}/immediate/node20`,
        framework: 'express',
        strategy,
        depth,
        hop: 'immediate',
        node: 'v20.20.2',
        acf: false,
        target: null,
        samples,
        summary: null,
        error: null,
      });
    }
  }
  configs.push({
    id: 'express/cls-hooked/d8/immediate/node20',
    framework: 'express',
    strategy: 'cls-hooked',
    depth: 8,
    hop: 'immediate',
    node: 'v20.20.2',
    acf: false,
    target: null,
    samples: [],
    summary: null,
    error: {
      message: 'server exited with code 1 before listening: EADDRINUSE',
      stderrTail: 'Error: listen EADDRINUSE 127.0.0.1:8080',
    },
  });
  return {
    schema: 1,
    kind: 'run',
    title,
    command: `ctxbench run --preset ${preset} --rounds 3`,
    status: 'complete',
    environment: {
      node: 'v20.20.2',
      os: 'Linux 6.1.0-test',
      platform: 'linux',
      kernel: '6.1.0-test',
      cpuModel: 'Test CPU @ 2.00GHz',
      cores: 2,
      memoryBytes: 8 * 2 ** 30,
      date: '2026-11-21T19:40:00.000Z',
      commit: 'abc1234',
      dirty: false,
      taskset: true,
      noise: {
        before: { at: 0, loadavg: [0.5, 0.4, 0.3], cpuMHz: [2000, 2000] },
        after: { at: 60000, loadavg: [1.9, 1.1, 0.6], cpuMHz: [2100, 1900] },
        window: { seconds: 60, stealPct: 0.4, idlePct: 10, busyPct: 90 },
        flags: [],
        noisy: false,
      },
    },
    settings: {
      preset,
      strategies: ['none', 'als', 'cls-hooked', 'global'],
      depths: [8, 256],
      hops: ['immediate'],
      frameworks: ['express'],
      node: ['20'],
      acf: 'default',
      connections: 100,
      pipelining: 10,
      duration: 3,
      warmup: 2,
      rounds,
      driver: 'autocannon',
      baseline: 'none',
    },
    configs,
    warnings: ["load generator CPU reached 97% in 1 sample: throughput may be the client's limit"],
  };
}

function tempResults() {
  const dir = tempDir('ctxbench-report-');
  const resultsDir = path.join(dir, 'results');
  fs.mkdirSync(resultsDir);
  return { dir, resultsDir, out: path.join(dir, 'results.md') };
}

test('buildReport writes results.md with summary, leaks, failures, depth sweep, references and charts', async (t) => {
  const { dir, resultsDir, out } = tempResults();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(resultsDir, 'run.json'), JSON.stringify(fixtureRun()));
  fs.writeFileSync(
    path.join(resultsDir, 'libs.json'),
    JSON.stringify(fixtureRun({ preset: 'libraries', title: 'Libraries (synthetic)' })),
  );
  fs.writeFileSync(
    path.join(resultsDir, 'odd.json'),
    JSON.stringify({
      schema: 1,
      kind: 'zz-experimental',
      title: 'An unknown kind',
      command: 'ctxbench zz',
      status: 'complete',
    }),
  );
  fs.writeFileSync(path.join(resultsDir, 'half.json.tmp'), '{ "kind": "run", trunc');

  const result = await buildReport({ resultsDir, out });
  const md = fs.readFileSync(out, 'utf8');
  const page = (name) => fs.readFileSync(path.join(resultsDir, `${name}.md`), 'utf8');

  // results.md: what the file is, provenance, no hand edits, the summary first, then how
  // it was measured, the default run briefly, and an index of every study's page.
  assert.match(md, /^# ctxbench results/);
  assert.match(md, /Generated by `ctxbench report` from `results\/\*\.json`/);
  assert.match(md, /Do not edit by hand/);
  const heads = md.split('\n').filter((l) => l.startsWith('## '));
  assert.deepStrictEqual(heads, [
    '## What each strategy costs',
    '## How these were measured',
    '## Default run (synthetic)',
    '## Every study',
  ]);
  assert.match(md, /\[its own page\]\(results\/run\.md\)/);
  assert.match(md, /\[how to read the tables\]\(results\/how-to-read\.md\)/);
  assert.match(page('how-to-read'), /^# How to read these results/);
  assert.ok(md.split('\n').length <= 300, 'results.md stays short');

  // Order: default preset, then other presets, then other kinds; the *.tmp file is skipped.
  const index = md.slice(md.indexOf('## Every study'));
  const order = ['(results/run.md)', '(results/libs.md)', '(results/odd.md)'].map((h) => index.indexOf(h));
  assert.ok(order.every((i) => i > 0) && order[0] < order[1] && order[1] < order[2], `index order ${order}`);
  assert.deepStrictEqual(
    result.sections.map((s) => path.basename(s.file)),
    ['run.json', 'libs.json', 'odd.json'],
  );
  assert.match(page('odd'), /no renderer for `zz-experimental` results yet/);
  // Each page links back to results.md and stands alone.
  for (const name of ['run', 'libs', 'odd']) {
    assert.match(page(name), /^# /);
    assert.match(page(name), /\]\(\.\.\/results\.md\)/);
  }

  const section = page('run');
  // Environment the way the seeds list it, and the exact command.
  for (const re of [
    /\*\*OS:\*\* Linux 6\.1\.0-test/,
    /\*\*CPU:\*\* Test CPU @ 2\.00GHz — 2 cores/,
    /\*\*Memory:\*\* 8\.0 GiB/,
    /\*\*Node\.js:\*\* v20\.20\.2/,
    /\*\*Date:\*\* 2026-11-21 19:40:00 UTC/,
    /\*\*ctxbench commit:\*\* `abc1234`/,
    /taskset/,
    /CPU steal 0\.4%/,
  ]) {
    assert.match(section, re);
  }
  assert.match(section, /```sh\nctxbench run --preset default --rounds 3\n```/);

  // The summary table, with uncertainty on req/s and the ratio.
  assert.match(
    section,
    new RegExp(
      '\\| Strategy \\| Depth \\| req/s geo\\. mean \\[95% CI\\] \\| p99 ms \\| % of `none` \\[95% ' +
        'CI\\] \\| Verdict \\| % of `none`: CPU/req, below 100% costs more \\[95% CI\\] \\| CPU µs/req \\| ' +
        'Mismatches \\| Lost \\|',
    ),
  );
  // Schema 1: labelled as the earlier design; the line under the table says why % of baseline is not the quotient.
  assert.match(section, /Measured with the earlier design/);
  assert.match(section, /\*% of baseline\* is not the ratio of two req\/s figures/);
  const alsRow = section.split('\n').find((l) => l.startsWith('| `als` | 8 |'));
  assert.ok(alsRow, 'als depth-8 row');
  assert.match(alsRow, /\d[\d,]* \[[\d,]+–[\d,]+\]/);
  assert.match(alsRow, /\d+\.\d% \[\d+\.\d%–\d+\.\d%\]/);
  // The fixture plants als at 90% of none (1% noise): the verdict must say so.
  assert.match(alsRow, /\| (9\.\d|10\.\d)% slower, significant \|/);
  assert.match(alsRow, /\| (89|90|91)\.\d% \[/);
  // Its CPU per request is none's ÷ 0.9: the column beside the verdict reads like throughput (issue 75).
  assert.match(alsRow, /significant \| (89|90|91)\.\d%/);
  assert.match(section, /\| `none` \| 8 \| [^|]+ \| [^|]+ \| baseline \|/);
  // global's leaks are marked ⚠ and explained; no ❌ since only the control leaked.
  const globalRow = section.split('\n').find((l) => l.startsWith('| `global` (control) | 8 |'));
  assert.match(globalRow, /\| ⚠ 3,603 \| ⚠ 9 \|$/);
  assert.match(section, /⚠ `global` is the deliberately broken control/);
  assert.doesNotMatch(section, /❌/);
  // The failed config, in the table and with its error message.
  assert.match(section, /\| `cls-hooked` \| 8 \| failed \(see below\) \|/);
  assert.match(
    section,
    new RegExp(
      '### Failed configurations\\n\\n- `express/cls-hooked/d8/immediate/node20`: ' +
        String.raw`server exited with code 1 before listening: EADDRINUSE`,
    ),
  );
  // Depth sweep in the App Engine layout, with the impact row and its CI.
  assert.match(section, /### Depth sweep/);
  assert.match(section, /\| Strategy \| Call depth 8 \| Call depth 256 \|/);
  assert.match(
    section,
    /\| `als` \| [\d.]+ ms · [\d,]+ \[[\d,]+–[\d,]+\] req\/s \| [\d.]+ ms · [\d,]+ \[[\d,]+–[\d,]+\] req\/s \|/,
  );
  assert.match(section, /\| ↳ vs `none` \| [−+]\d+\.\d% \[[−+]?\d+\.\d%, [−+]?\d+\.\d%\]( n\.s\.)? \|/);
  // Per-config tables in the autocannon layout.
  assert.match(section, /\| Stat \| 2\.5% \| 50% \| 97\.5% \| 99% \| Avg \| Stdev \| Max \|/);
  assert.match(section, /\| Latency \(ms\) \|/);
  assert.match(section, /\| Req\/Sec \|/);
  // Warnings.
  assert.match(section, /### Warnings\n\n- ⚠ load generator CPU reached 97%/);
  // References: labelled as published, a pointer for the default preset...
  assert.match(section, /### Published references \(not our measurements\)/);
  assert.match(section, /--preset depth-sweep/);
  // ...and the quoted als-context figures for the libraries preset.
  const libs = page('libs');
  assert.match(libs, /### Published references \(not our measurements\)/);
  // Every cell of the als-context reference is rendered, in a row of its label.
  for (const r of references.alsContext.rows) {
    const line = libs.split('\n').find((l) => l.includes(`| ${r.label} |`) && r.cells.every((c) => l.includes(c)));
    assert.ok(line, `${r.label}: ${r.cells.join(', ')}`);
  }
  assert.match(libs, /003_eb52547452683725\.txt/);

  // Charts: valid SVG files, referenced with paths relative to results.md.
  for (const name of ['run-throughput.svg', 'run-p99.svg']) {
    const file = path.join(resultsDir, 'charts', name);
    assert.ok(fs.existsSync(file), file);
    const svg = fs.readFileSync(file, 'utf8');
    assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(svg, /<\/svg>\s*$/);
    assert.ok(section.includes(`](charts/${name})`), `link to ${name}`);
  }
  assert.ok(result.charts.length >= 4);
  // The throughput chart draws one series per strategy, at the summary's req/s figure with its own interval.
  const svg = fs.readFileSync(path.join(resultsDir, 'charts', 'run-throughput.svg'), 'utf8');
  for (const s of ['none', 'als', 'global']) assert.match(svg, new RegExp(`<text[^>]*>${s}</text>`), `legend ${s}`);
  assert.match(svg, /call depth \(log scale\)/);
  assert.ok((svg.match(/aria-roledescription="errorbar"/g) || []).length >= 6, 'an error bar per point');
  // als at depth 8 is drawn at the figure the table shows (not, say, a median beside a mean's interval).
  const point = /aria-label="depth: 8; req\/s \(geometric mean\): ([\d.]+); strategy: als;/.exec(svg);
  assert.ok(point, 'als depth-8 point');
  const shown = Number(/^\| `als` \| 8 \| ([\d,]+) \[/.exec(alsRow)[1].replace(/,/g, ''));
  assert.ok(Math.abs(Number(point[1]) - shown) <= 0.5, `chart ${point[1]} vs table ${shown}`);
});

test('the depth-sweep preset quotes the App Engine table exactly', async (t) => {
  const { dir, resultsDir, out } = tempResults();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(
    path.join(resultsDir, 'depth.json'),
    JSON.stringify(fixtureRun({ preset: 'depth-sweep', title: 'Depth sweep (synthetic)' })),
  );
  await buildReport({ resultsDir, out });
  const md = reportText(out, resultsDir);
  // Each row of the reference, cell for cell and in order, under a header of its depths.
  assert.ok(
    md.includes(`| ${references.appEngineDepth.depths.map((d) => `${d}`).join(' | ')} |`) ||
      references.appEngineDepth.depths.every((d) => md.includes(String(d))),
    'depth header',
  );
  // The seed's cells as it printed them; a row read the cost way says so beside its label.
  for (const r of references.appEngineDepth.rows) {
    const label = r.reads ? `${r.label} — ${r.reads}` : r.label;
    assert.ok(md.includes(`| ${label} | ${r.cells.join(' | ')} |`), `${r.label} row`);
  }
  assert.match(md, /\| Impact \(-\) — [^|]*above 0% costs more \|/);
  assert.match(md, /004_a422c839f9f49e0c\.txt/);
});

test('the references module quotes the seeds verbatim, row by row', { skip: seeds.dir ? false : seeds.MISSING }, () => {
  for (const ref of references.all) {
    const table = seeds.rows(seeds.read(ref.seed));
    const refRows = ref.rows || ref.tables.flatMap((tb) => tb.rows);
    for (const r of refRows) {
      // The label's row in the seed holds the same cells in the same order.
      const found = table.some((t) => {
        const cells = t.cells.map((c) => c.replace(/\s*[^\x20-\x7e]+$/u, ''));
        const start = cells.findIndex((c, i) => r.cells.every((x, j) => cells[i + j] === x));
        return start >= 0;
      });
      if (ref === references.alsContext) {
        // This reference gathers each library's figures from several seed tables (Req/Sec, Latency, totals).
        const text = seeds.read(ref.seed);
        for (const c of r.cells) assert.ok(text.includes(c), `${ref.seed} contains ${c}`);
      } else {
        assert.ok(found, `${ref.seed}: a row with ${r.label}: ${r.cells.join(' | ')}`);
      }
    }
  }
});

test('a malformed JSON file stops the report with one line naming the file', async (t) => {
  const { dir, resultsDir, out } = tempResults();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(resultsDir, 'run.json'), JSON.stringify(fixtureRun()));
  const bad = path.join(resultsDir, 'broken.json');
  fs.writeFileSync(bad, '{ "kind": "run", "configs": [ ');
  await assert.rejects(buildReport({ resultsDir, out }), (err) => {
    assert.ok(err.message.startsWith(`${bad}: not valid JSON`), err.message);
    assert.ok(!err.message.includes('\n'));
    return true;
  });
  assert.ok(!fs.existsSync(out), 'no half-written results.md');
  fs.writeFileSync(bad, '[1, 2]');
  await assert.rejects(
    buildReport({ resultsDir, out }),
    new RegExp(`^Error: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not a ctxbench result`),
  );
});

test(
  'a report written outside the results folder takes ' + 'its pages and charts with it and leaves results/ alone',
  async (t) => {
    const { dir, resultsDir } = tempResults();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(resultsDir, 'run.json'), JSON.stringify(fixtureRun()));
    const out = path.join(dir, 'scratch', 'report.md');
    const result = await buildReport({ resultsDir, out });
    assert.deepStrictEqual(fs.readdirSync(resultsDir), ['run.json'], 'results/ untouched');
    assert.ok(result.charts.length >= 2);
    const page = fs.readFileSync(path.join(dir, 'scratch', 'report', 'run.md'), 'utf8');
    for (const name of ['run-throughput.svg', 'run-p99.svg']) {
      assert.ok(fs.existsSync(path.join(dir, 'scratch', 'report', 'charts', name)), name);
      assert.ok(page.includes(`](charts/${name})`), `link to ${name}`);
    }
    assert.ok(fs.existsSync(path.join(dir, 'scratch', 'report', 'index.html')));
  },
);

test(
  'a page whose results file is gone is removed when ' + 'the whole folder is reported; other markdown stays',
  async (t) => {
    const { dir, resultsDir, out } = tempResults();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(resultsDir, 'run.json'), JSON.stringify(fixtureRun()));
    fs.writeFileSync(
      path.join(resultsDir, 'libs.json'),
      JSON.stringify(fixtureRun({ preset: 'libraries', title: 'Libraries (synthetic)' })),
    );
    fs.writeFileSync(path.join(resultsDir, 'NOTES.md'), '# notes of my own\n');
    await buildReport({ resultsDir, out });
    assert.ok(fs.existsSync(path.join(resultsDir, 'libs.md')));
    fs.rmSync(path.join(resultsDir, 'libs.json'));
    // Naming files renders those alone and removes nothing.
    await buildReport({ resultsDir, out, files: [path.join(resultsDir, 'run.json')] });
    assert.ok(fs.existsSync(path.join(resultsDir, 'libs.md')));
    await buildReport({ resultsDir, out });
    assert.ok(!fs.existsSync(path.join(resultsDir, 'libs.md')), 'stale page removed');
    assert.ok(fs.existsSync(path.join(resultsDir, 'NOTES.md')), 'a hand-written file stays');
    assert.doesNotMatch(fs.readFileSync(out, 'utf8'), /libs\.md/);
  },
);

// The study index lists studies; a reproducibility page hangs under the study it
// reproduces (repro-<name> is its second run, repro-<name>-<what> a named one).
test('study index: repro pages are linked beside the study they reproduce, not listed as studies', () => {
  const { studyIndex } = require('../report');
  const sec = (name, kind) => ({ name, kind, title: name });
  const sections = [
    sec('default', 'run'),
    sec('instructions', 'run'),
    sec('micro', 'micro'),
    sec('micro-instructions', 'micro'),
    sec('repro-default', 'repro'),
    sec('repro-default-rerun', 'repro'),
    sec('repro-instructions-54d8581', 'repro'),
    sec('repro-micro-instructions', 'repro'),
    sec('repro-nothing', 'repro'),
  ];
  const { studies, reproducedBy } = studyIndex(sections);
  assert.deepStrictEqual(
    studies.map((s) => s.name),
    ['default', 'instructions', 'micro', 'micro-instructions', 'repro-nothing'],
  );
  const of = (name) =>
    (reproducedBy.get(sections.find((s) => s.name === name)) ?? []).map((r) => `${r.section.name}:${r.label}`);
  assert.deepStrictEqual(of('default'), ['repro-default:second run', 'repro-default-rerun:rerun']);
  assert.deepStrictEqual(of('instructions'), ['repro-instructions-54d8581:54d8581']);
  assert.deepStrictEqual(
    of('micro-instructions'),
    ['repro-micro-instructions:second run'],
    'the longest study name wins',
  );
  assert.deepStrictEqual(of('micro'), []);
});

test(
  'a preset that lists its configurations has its settings line ' +
    'name the points it measured, not its default depths and hops',
  () => {
    const { settingsSection } = require('../report/sections/run/environment');
    const configs = [
      { framework: 'express', strategy: 'none', depth: 64, hop: 'immediate' },
      { framework: 'express', strategy: 'none', depth: 8, hop: 'immediate' },
      { framework: 'express', strategy: 'none', depth: 64, hop: 'await' },
      { framework: 'express', strategy: 'none', depth: 64, hop: 'immediate', stores: 10 },
    ];
    const listed = settingsSection({
      settings: { preset: 'model', depths: [8], hops: ['immediate'], frameworks: ['express'], configs },
    });
    assert.match(
      listed,
      new RegExp(
        String.raw`configurations 4, listed by the preset · depths 8, ` +
          String.raw`64 · hops immediate, await · stores 0, 10 · frameworks express`,
      ),
    );
    const product = settingsSection({
      settings: { preset: 'default', depths: [8, 256], hops: ['immediate'], frameworks: ['express'] },
    });
    assert.match(product, /depths 8, 256 · hops immediate · frameworks express/);
    assert.doesNotMatch(product, /configurations|stores/);
  },
);
