'use strict';
// Tier: quick (report/ on synthetic schema-2 runs)
// report/ on synthetic schema-2 runs (blocks, adjacent pairs): the rules that withhold a
// verdict, the precision and variance-component tables, the fingerprint and the repro section.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { buildReport } = require('../report');
const { reportText } = require('./helpers/report');
const { reproCompare } = require('../analysis/repro');
const { makeRun2 } = require('./helpers/run2');
const { tempDir } = require('./helpers/tmp');

function run2() {
  const opts = {
    strategies: { als: 0.8, alscontext: 0.7, 'cls-hooked': 0.6, global: 0.99 },
    extra: { alscontext: { lost: 40 }, global: { mismatches: 3 }, 'cls-hooked': { loadgenCpu: 0.93 } },
  };
  const run = makeRun2({ seed: 9, depth: 8, ...opts });
  run.configs.push(...makeRun2({ seed: 10, depth: 256, ...opts }).configs);
  run.title = 'Schema 2 (synthetic)';
  run.settings.preset = 'default';
  run.precision = {
    target: 3,
    reached: false,
    elapsedS: 600,
    maxTimeS: 600,
    blocks: 4,
    missing: [{ id: 'express/als/d8/immediate/node24', halfWidthPct: 4.2, blocksNeeded: 8 }],
  };
  return run;
}

async function render(files, t) {
  const dir = tempDir('ctxbench-r2-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const resultsDir = path.join(dir, 'results');
  fs.mkdirSync(resultsDir);
  for (const [name, data] of Object.entries(files)) fs.writeFileSync(path.join(resultsDir, name), JSON.stringify(data));
  await buildReport({ resultsDir, out: path.join(dir, 'results.md') });
  return reportText(path.join(dir, 'results.md'), resultsDir);
}

const line = (md, start) => md.split('\n').find((l) => l.startsWith(start));

test('schema 2: broken and client-bound configs get no cost verdict, in the table and the depth sweep', async (t) => {
  const md = await render({ 'run.json': run2() }, t);
  assert.doesNotMatch(md, /Measured with the earlier design/);
  assert.match(md, /4 blocks \(fresh server processes\) × 6 rounds/);
  assert.match(md, /Machine-speed fingerprint:\*\* 50\.0 µs of server CPU per request, 20,000 req\/s/);
  const broken = line(md, '| `alscontext` | 8 |');
  assert.match(broken, /❌ context broken, cost not comparable/);
  assert.doesNotMatch(broken, /slower|faster|no significant/);
  const bound = line(md, '| `cls-hooked` | 8 |');
  assert.match(bound, /⚠ load generator client-bound/);
  assert.doesNotMatch(bound, /slower|faster|no significant/);
  assert.match(line(md, '| `als` | 8 |'), /\| (19|20|21)\.\d% slower, significant \|/);
  assert.match(line(md, '| `global` (control) | 8 |'), /no significant difference|slower, significant/);
  // The depth sweep's "vs none" rows.
  const sweep = md.slice(md.indexOf('### Depth sweep'));
  const rows = sweep.split('\n');
  const vs = (s) => rows[rows.findIndex((l) => l.startsWith(`| \`${s}\` |`)) + 1];
  assert.match(
    vs('alscontext'),
    /^\| ↳ vs `none` \| context broken, cost not comparable \| context broken, cost not comparable \|$/,
  );
  assert.match(vs('cls-hooked'), /client-bound, no verdict/);
  assert.match(vs('als'), /−\d+\.\d% \[/);
});

test('schema 2: precision.missing with the blocks needed, and variance components per ratio', async (t) => {
  const md = await render({ 'run.json': run2() }, t);
  assert.match(md, /Target ±3 pp not reached\*\* after 4 blocks and 600 s \(cap 600 s\)/);
  assert.match(md, /\| `express\/als\/d8\/immediate\/node24` \| ±4\.20 pp \| 8 \|/);
  assert.match(md, /\| Ratio \| blocks \| between blocks SD \| within blocks SD \| F \| p \|/);
  assert.match(md, /\| `express\/als\/d8\/immediate\/node24` \| 4 \| [\d.]+% \| [\d.]+% \| [\d.]+ \| [01]\.\d{3} \|/);
});

test(
  'a repro result renders both estimates, coverage, the difference test, ' +
    'the shares agreeing and consistent and the median half-width',
  async (t) => {
    const a = makeRun2({ seed: 41, strategies: { als: 0.9, cls: 0.6 } });
    const b = makeRun2({ seed: 42, strategies: { als: 0.9, cls: 0.75 } });
    const md = await render(
      {
        'repro-x.json': {
          schema: 2,
          kind: 'repro',
          title: 'Reproducibility (synthetic)',
          status: 'complete',
          runs: [a, b],
          repro: reproCompare(a, b),
        },
      },
      t,
    );
    assert.match(md, /## Reproducibility \(synthetic\)/);
    assert.match(md, /\*\*\d of 2 ratios agree\*\* \(\d+%\)/);
    assert.match(md, /Median ratio half-width: \*\*±[\d.]+ pp\*\*/);
    assert.match(
      line(md, '| `express/cls/d8/immediate/node24` |'),
      new RegExp(
        String.raw`\| \d+\.\d% \[[\d.]+%–[\d.]+%\] \| \d+\.\d% \[[\d.]+%–[\d.]+%\] ` +
          String.raw`\| \+1\d\.\d pp \| no \| no \| ❌ disagree \| ❌ inconsistent \|$`,
      ),
    );
    assert.match(md, /\*\*\d of 2 ratios are consistent\*\* \(\d+%\)/);
  },
);

test(
  'in-run A/A: param doing the same work as none but measured 15% ' +
    'slower warns that the run is biased; measured equal, no warning',
  async (t) => {
    const biased = makeRun2({ seed: 21, strategies: { param: 0.85, als: 0.9 } });
    assert.match(
      await render({ 'run.json': biased }, t),
      /In-run A\/A check failed:\*\* `express\/param\/d8\/immediate\/node24` 8\d\.\d%/,
    );
    const honest = makeRun2({ seed: 21, strategies: { param: 1, als: 0.9 } });
    assert.doesNotMatch(await render({ 'run.json': honest }, t), /In-run A\/A check failed/);
  },
);

test(
  'the settings say how the warm-up went: bursts until steady, ' +
    'with the bursts per process; a fixed warm-up stays a number of seconds',
  async (t) => {
    const run = makeRun2({ seed: 51, strategies: { als: 0.9 } });
    run.settings.warmup = 1;
    run.configs.forEach((c, i) =>
      c.processes.forEach((p, j) => {
        p.warmup = Array.from({ length: 3 + ((i + j) % 3) }, () => ({ rps: 1000, cpuUsPerRequest: 50 }));
      }),
    );
    assert.match(
      await render({ 'run.json': run }, t),
      /warmup bursts of 1 s until the cost per request stops falling: 3–5 per process \(median 4\)/,
    );
    for (const c of run.configs) for (const p of c.processes) delete p.warmup;
    const fixed = await render({ 'run.json': run }, t);
    assert.match(fixed, /warmup 1 s ·/);
    assert.doesNotMatch(fixed, /until the cost per request/);
  },
);

test(
  'a p99 of 0 from autocannon (whole milliseconds) reads "< 1", ' +
    'not 0.00, in the table and the per-configuration detail',
  async (t) => {
    const run = run2();
    for (const c of run.configs) {
      const ms = c.strategy === 'als' ? 0 : 3;
      for (const s of c.samples)
        s.latency = { p2_5: ms, p50: ms, p97_5: ms, p99: ms, avg: ms / 2, stdev: 0.1, max: ms };
    }
    const md = await render({ 'run.json': run }, t);
    const cells = line(md, '| `als` | 8 |').split(' | ');
    assert.strictEqual(cells[3], '< 1', 'the p99 column');
    assert.match(md, /autocannon records in whole milliseconds: "< 1" is under a millisecond/);
    const detail = md.slice(md.indexOf('**`express/als/d8/'));
    assert.match(
      detail.split('\n').find((l) => l.startsWith('| Latency (ms) |')),
      /^\| Latency \(ms\) \| < 1 \| < 1 \| < 1 \| < 1 \|/,
    );
    // The note names autocannon only where autocannon measured.
    const byCurl = run2();
    byCurl.settings.driver = 'curl';
    assert.doesNotMatch(await render({ 'run.json': byCurl }, t), /autocannon records in whole milliseconds/);
    // Anything else keeps its figure.
    assert.strictEqual(line(md, '| `none` | 8 |').split(' | ')[3], '3.00');
  },
);

test('the table note says its verdicts are not corrected for each other, with how many there are', async (t) => {
  const run = run2();
  const md = await render({ 'run.json': run }, t);
  // Rows with a tested verdict: not the baselines, not alscontext (ids lost: broken), not
  // cls-hooked (load generator at 93%: client-bound).
  const table = md.slice(md.indexOf('| Strategy |'), md.indexOf('*req/s* is each'));
  const tested = table.split('\n').filter((l) => /significant/.test(l)).length;
  assert.strictEqual(tested, 4, 'als, global at two depths');
  assert.match(
    md,
    /not corrected for the other 3 in the table: where nothing differs, about 1 in 20 reads "significant" by chance/,
  );
});

test('a run section says it is a single run unless a repro of its preset is committed beside it', async () => {
  const fs = require('node:fs');
  const path = require('node:path');
  const { render } = require('../report/sections/run');
  const { companionsOf } = require('../report/companions');
  const dir = tempDir('ctxbench-single-');
  const run = {
    schema: 2,
    kind: 'run',
    status: 'complete',
    environment: {},
    settings: { preset: 'libraries', baseline: 'param' },
    configs: [],
  };
  // As report/index.js renders a page: the analysis finds the companions, the section formats.
  const ctx = () => ({ resultsDir: dir, companions: companionsOf(run, dir), file: 'results/libraries.json' });
  assert.match(
    await render(run, ctx()),
    /A single run: no second run of this preset is committed \(`ctxbench repro --preset libraries`/,
  );
  // A stand-in's period or burst changes what is measured: the repro it suggests names them.
  const burst = {
    ...run,
    settings: { ...run.settings, preset: 'deployment-f1' },
    command: 'ctxbench run --preset deployment-f1 --cfs-burst 25000 --cfs-period=100000 --blocks 6',
  };
  assert.match(
    await render(burst, { ...ctx(), file: 'results/deployment-f1-burst.json' }),
    /\(`ctxbench repro --preset deployment-f1 --cfs-burst 25000 --cfs-period 100000` makes one\)/,
  );
  fs.writeFileSync(path.join(dir, 'repro-libraries.json'), '{}');
  assert.doesNotMatch(await render(run, ctx()), /A single run/);
  // A preset's variants (another CFS period, a burst) are pages of their own: a repro that
  // names the files it compared is the second run of those only.
  const f1 = { ...run, settings: { ...run.settings, preset: 'deployment-f1' } };
  const compared = ['results/deployment-f1.json', 'results/runs/deployment-f1-second.json'];
  fs.writeFileSync(path.join(dir, 'repro-deployment-f1.json'), JSON.stringify({ kind: 'repro', files: compared }));
  const page = (name) =>
    render(f1, { resultsDir: dir, companions: companionsOf(f1, dir, name), file: `results/${name}.json` });
  assert.doesNotMatch(await page('deployment-f1'), /A single run/);
  assert.match(await page('deployment-f1-burst'), /A single run/);
  fs.writeFileSync(path.join(dir, 'repro-deployment-f1-burst.json'), '{}');
  assert.doesNotMatch(await page('deployment-f1-burst'), /A single run/);
});

// `ctxbench deploy` records preset "deploy", which `repro` refuses: its page suggests the
// command that made it instead (issue 62).
test(
  'a single run made by a command other than run suggests ' + 'that command again, never a preset repro refuses',
  async () => {
    const { render } = require('../report/sections/run');
    const { companionsOf } = require('../report/companions');
    const { PRESETS } = require('../lib/presets');
    const dir = tempDir('ctxbench-single-deploy-');
    const command = 'ctxbench deploy app_baseline.yaml app_cls.yaml';
    const run = {
      schema: 2,
      kind: 'run',
      status: 'complete',
      command,
      environment: {},
      settings: { preset: 'deploy', baseline: 'default' },
      configs: [],
    };
    assert.ok(!Object.hasOwn(PRESETS, 'deploy'), 'deploy is no preset of run/repro');
    const md = await render(run, { resultsDir: dir, companions: companionsOf(run, dir), file: 'results/deploy.json' });
    assert.match(
      md,
      new RegExp(
        String.raw`A single run: no second run of this preset is committed \(running ` +
          '`ctxbench deploy app_baseline\\.yaml app_cls\\.yaml` again makes one\\)',
      ),
    );
    assert.doesNotMatch(md, /repro --preset deploy/);
  },
);

test(
  "the App Engine study's Impact row: a change of mean latency " +
    "where either side's client was the bound is marked, not given",
  async (t) => {
    const run = run2();
    run.settings.driver = 'curl';
    // Mean latency per burst, as curl.sh reports it: the inverse of the rate at 100 in flight.
    for (const c of run.configs) for (const x of c.samples) x.latency = { avg: 100000 / x.rps };
    const sweep = (await render({ 'run.json': run }, t)).split('### Depth sweep')[1].split('\n');
    const impact = (s) => sweep[sweep.findIndex((l) => l.startsWith(`| \`${s}\` |`)) + 2];
    // A slower strategy's mean latency rises: the row says "+ = slower" beside its label.
    assert.match(impact('als'), /^\| ↳ Impact \(mean latency; \+ = slower\) vs `none` \| \+\d+\.\d% \[/);
    assert.match(
      impact('cls-hooked'),
      new RegExp(
        '^\\| ↳ Impact \\(mean latency; \\+ = slower\\) vs `none` ' +
          String.raw`\| ⚠ client-bound \| ` +
          String.raw`⚠ client-bound \|$`,
      ),
    );
  },
);

// A page says what its run's machine was, never the one regenerating it (results/appengine-f1.md
// once named the next day's CPU).
test("a stand-in page's clock assumption reads the run's machine, not the machine writing the page", () => {
  const { standInNote } = require('../report/sections/run/capacity');
  const { parseInstance } = require('../lib/instances');
  const instance = parseInstance('F1');
  const environment = {
    cpuModel: 'Recorded CPU 9000',
    cpuFrequency: null,
    noise: { before: { cpuMHz: [2100, 2100] } },
  };
  const note = standInNote(instance, { environment });
  assert.match(note, /the CPU it ran on reports 2,100 MHz \(Recorded CPU 9000\), so F1's 600 MHz is taken as 0\.25/);
  assert.doesNotMatch(note, new RegExp(require('node:os').cpus()[0]?.model.replace(/[()]/g, '.') ?? '^$'));
  assert.match(standInNote(instance, {}), /reports no clock \(its model not recorded\)/);
});
