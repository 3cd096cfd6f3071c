'use strict';
// Tier: quick (the leading table's reading, planted in synthetic runs and read from the committed ones)
// "What each strategy costs" (analysis/index.js strategySummary, report/strategy-summary.js):
// the table that leads results.md. Each rule of the reading is planted in a synthetic run
// and read back; the committed results must report the `global` control as leaking.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const hdr = require('hdr-histogram-js');
const { HIST } = require('../lib/histogram');
const { strategySummary } = require('../analysis');
const { markdown, idsText, readingText, picturePoints } = require('../report/strategy-summary');
const { cannotServeText } = require('../report/verdict-text');
const { readResults } = require('../report');
const { makeRun2 } = require('./helpers/run2');

// The Reading cell of a row: analysis decides its findings, the report writes them.
const reading = (row) => readingText(row.findings);

// Real runs, frozen for the tests (test/fixtures/results/README.md).
const RESULTS = path.join(__dirname, 'fixtures', 'results');

// A default-preset run at depths 8 and 256: als costs 10% (20% deep), param nothing,
// cls-hooked mixes ids up, global is the control and leaks.
function defaultRun() {
  const extra = { 'cls-hooked': { mismatches: 4 }, global: { mismatches: 50 } };
  const shallow = makeRun2({
    seed: 3,
    blocks: 5,
    strategies: { param: 1, als: 0.9, 'cls-hooked': 0.5, global: 1 },
    depth: 8,
    extra,
    noiseSd: 0.01,
    blockSd: 0.005,
  });
  const deep = makeRun2({
    seed: 4,
    blocks: 5,
    strategies: { param: 1, als: 0.8, 'cls-hooked': 0.2, global: 1 },
    depth: 256,
    extra,
    noiseSd: 0.01,
    blockSd: 0.005,
  });
  return {
    ...shallow,
    title: 'Default (synthetic)',
    settings: {
      ...shallow.settings,
      preset: 'default',
      strategies: ['none', 'param', 'als', 'cls-hooked', 'global', 'alscontext'],
    },
    configs: [...shallow.configs, ...deep.configs],
  };
}

const cell = (strategy, scenario, verdict, node = 'node24', acf = true) => ({
  node,
  acf,
  strategy,
  scenario,
  verdict,
  requests: 100,
});
function integrityRun() {
  const cells = [];
  for (const node of ['node20', 'node24']) {
    for (const strategy of ['param', 'als', 'cls-hooked', 'alscontext', 'global']) {
      for (const scenario of ['chain-await', 'chain-immediate', 'body', 'pool']) {
        let verdict = 'kept';
        if (strategy === 'global' && scenario !== 'chain-await') verdict = 'leaked';
        if (scenario === 'pool' && strategy !== 'param') verdict = 'leaked'; // fails for every context strategy
        if (strategy === 'als' && scenario === 'body' && node === 'node24') verdict = 'lost'; // one runtime only
        if (strategy === 'alscontext' && scenario === 'chain-await') verdict = 'lost'; // everyday code
        cells.push(cell(strategy, scenario, verdict, node, node !== 'node20'));
      }
    }
  }
  return {
    schema: 1,
    kind: 'integrity',
    title: 'Integrity (synthetic)',
    status: 'complete',
    settings: {},
    integrity: { scenarios: [], cells },
  };
}

// An io run where als reads 100% with a tight interval: apart from the default run's 90%.
function ioRun() {
  const run = makeRun2({
    seed: 5,
    blocks: 5,
    strategies: { als: 1, param: 1 },
    depth: 8,
    noiseSd: 0.005,
    blockSd: 0.002,
  });
  for (const c of run.configs) {
    c.hop = 'pg';
    c.id = c.id.replace('immediate', 'pg');
  }
  return { ...run, title: 'IO (synthetic)', settings: { ...run.settings, preset: 'io' } };
}

const results = (extra = []) => [
  { file: 'results/default.json', run: defaultRun() },
  { file: 'results/integrity.json', run: integrityRun() },
  ...extra,
];
const rowOf = (summary, strategy) => summary.rows.find((r) => r.strategy === strategy);

test('one row per strategy of the default run, each cost with its interval and the page it comes from', () => {
  const summary = strategySummary(results());
  assert.deepStrictEqual(
    summary.rows.map((r) => r.strategy),
    ['none', 'param', 'als', 'cls-hooked', 'global'],
  );
  assert.deepStrictEqual(summary.depths, { shallow: 8, deep: 256 });
  const als = rowOf(summary, 'als');
  assert.ok(
    Math.abs(als.shallow.estimate - 0.9) < 0.02 &&
      als.shallow.interval[0] < als.shallow.estimate &&
      als.shallow.estimate < als.shallow.interval[1],
  );
  assert.ok(Math.abs(als.deep.estimate - 0.8) < 0.02);
  assert.deepStrictEqual(als.shallow.source, {
    name: 'default',
    file: 'results/default.json',
    id: 'express/als/d8/immediate/node24',
  });
  const md = markdown(summary, { link: (name) => `results/${name}.md` });
  assert.match(
    md,
    /^## What each strategy costs\n\n\| Strategy \| Keeps the id\? \| Depth 8: % of `none`'s throughput per CPU \|/,
  );
  const line = md.split('\n').find((l) => l.startsWith('| `als`:'));
  assert.match(line, /\| \[(89|90|91)\.\d% \[\d+\.\d%–\d+\.\d%\]\]\(results\/default\.md\) \|/);
  assert.match(line, /\[[^\]]*\]\(results\/integrity\.md\)/);
  assert.match(
    md.split('\n').find((l) => l.startsWith('| `none`:')),
    /\[baseline\]\(results\/default\.md\)/,
  );
});

test('the reading is derived from the figures: cost per depth, growth with depth, no measurable cost', () => {
  const summary = strategySummary(results());
  assert.match(
    reading(rowOf(summary, 'als')),
    new RegExp(
      String.raw`^1\.1\d× ${'`none`'}'s CPU per request at depth 8, 1\.2\d× at depth 256, ` +
        String.raw`growing with depth; keeps the id in everyday code\.$`,
    ),
  );
  // No measurable cost, and (two one-sided tests) equivalent within the default ±2%.
  assert.match(
    reading(rowOf(summary, 'param')),
    /^Within ±2% of the baseline at depths 8 and 256; keeps the id in everyday code\.$/,
  );
  assert.match(reading(rowOf(summary, 'none')), /^The baseline/);
});

test('a strategy that loses ids is called unsafe whatever it costs; the control is reported as leaking', () => {
  const all = results();
  const summary = strategySummary(all);
  const leaked = all[0].run.configs
    .filter((c) => c.strategy === 'global')
    .flatMap((c) => c.samples)
    .reduce((a, x) => a + x.mismatches, 0);
  // cls-hooked kept every integrity scenario here, but mixed ids up in the run itself.
  assert.match(reading(rowOf(summary, 'cls-hooked')), /^Loses or leaks the id in everyday code.*: not safe\.$/);
  const global = rowOf(summary, 'global');
  assert.strictEqual(idsText(global.ids), '⚠ leaks (control)');
  assert.ok(
    reading(global).startsWith(
      `Control: must leak (it did: ${leaked.toLocaleString('en-US')} answers carried another request's id)`,
    ),
    reading(global),
  );
});

test(
  'ids: ✓ or ✗ with the patterns, per runtime where they differ; ' + 'patterns that fail for everyone named once',
  () => {
    const extraRun = defaultRun();
    extraRun.configs.push(...makeRun2({ seed: 6, strategies: { alscontext: 0.95 }, depth: 8 }).configs.slice(1));
    const summary = strategySummary([
      { file: 'results/default.json', run: extraRun },
      { file: 'results/integrity.json', run: integrityRun() },
    ]);
    assert.strictEqual(idsText(rowOf(summary, 'param').ids), '✓');
    assert.strictEqual(idsText(rowOf(summary, 'als').ids), 'node20: ✓; node24: ✓ · ✗ body');
    assert.strictEqual(rowOf(summary, 'alscontext').ids.verdict, 'broken');
    assert.strictEqual(idsText(rowOf(summary, 'alscontext').ids), '✗ chain-await');
    assert.match(reading(rowOf(summary, 'alscontext')), /^Loses or leaks the id in everyday code \(chain-await\)/);
    assert.deepStrictEqual(summary.commonFailures, ['pool']);
    assert.ok(markdown(summary).includes('`pool`: fail for every context strategy'));
  },
);

test('two studies that seem to disagree: the notes say which settings differ; missing studies are named', () => {
  const without = markdown(strategySummary(results()));
  assert.match(
    without,
    new RegExp(
      'Not in these results: `ctxbench run --preset popular`, `ctxbench run --preset io`, ' +
        '`ctxbench run --preset latency`, `ctxbench run --preset stores`, `ctxbench run ' +
        '--preset deployment-f1`, `ctxbench run --preset instructions` fill the empty columns\\.',
    ),
  );
  const summary = strategySummary(results([{ file: 'results/io.json', run: ioRun() }]));
  const als = rowOf(summary, 'als');
  assert.ok(Math.abs(als.io.estimate - 1) < 0.02);
  const hop = { setting: 'hop', a: 'immediate', b: 'pg' };
  assert.deepStrictEqual(
    als.disagreements.map((d) => [d.a, d.b, d.differs]),
    [['default run', 'io', [hop]]],
  );
  // The study's own baseline reads "baseline" there, linked to the study.
  assert.strictEqual(rowOf(summary, 'none').io.kind, 'baseline');
  assert.match(
    markdown(summary, { link: (name) => `results/${name}.md` })
      .split('\n')
      .find((l) => l.startsWith('| `none`:')),
    /\| \[baseline\]\(results\/io\.md\) \|/,
  );
  // param reads 100% in both: no note.
  assert.ok(rowOf(summary, 'param').io);
  assert.deepStrictEqual(rowOf(summary, 'param').disagreements, []);
  assert.match(
    markdown(summary),
    new RegExp(
      String.raw`The default run and io disagree \(intervals apart\) for ` +
        '`als` at depth 8 \\((89|90|91)\\.\\d% vs (99|100|101)\\.\\d%\\); ' +
        String.raw`both can hold, the settings differ: hop immediate → pg\.`,
    ),
  );
});

// A popular-preset run (bench/cli/run.js --preset popular): the agents at both depths, with
// the default run's settings; hop: its configurations' hop (the default run's is immediate).
function popularRun({ hop = 'immediate' } = {}) {
  const shallow = makeRun2({
    seed: 7,
    blocks: 5,
    strategies: { sentry: 0.1, datadog: 0.3 },
    depth: 8,
    noiseSd: 0.01,
    blockSd: 0.005,
  });
  const deep = makeRun2({
    seed: 8,
    blocks: 5,
    strategies: { sentry: 0.05, datadog: 0.2 },
    depth: 256,
    noiseSd: 0.01,
    blockSd: 0.005,
  });
  const configs = [...shallow.configs, ...deep.configs].map((c) => ({ ...c, hop, id: c.id.replace('immediate', hop) }));
  return {
    ...shallow,
    title: 'Popular (synthetic)',
    settings: { ...shallow.settings, preset: 'popular', ...(hop !== 'immediate' && { hops: [hop] }) },
    configs,
  };
}

test(
  "rows from the popular study: after the default run's, " +
    'each figure from that study; not drawn when its settings differ',
  () => {
    const summary = strategySummary(results([{ file: 'results/popular.json', run: popularRun() }]));
    assert.deepStrictEqual(
      summary.rows.map((r) => r.strategy),
      ['none', 'param', 'als', 'cls-hooked', 'global', 'sentry', 'datadog'],
    );
    assert.deepStrictEqual(summary.popularRows, ['sentry', 'datadog']);
    const sentry = rowOf(summary, 'sentry');
    assert.strictEqual(sentry.study, 'popular');
    assert.ok(Math.abs(sentry.shallow.estimate - 0.1) < 0.01 && Math.abs(sentry.deep.estimate - 0.05) < 0.01);
    assert.deepStrictEqual(sentry.shallow.source, {
      name: 'popular',
      file: 'results/popular.json',
      id: 'express/sentry/d8/immediate/node24',
    });
    assert.strictEqual(rowOf(summary, 'als').study, 'default');
    const md = markdown(summary, { link: (name) => `results/${name}.md` });
    assert.match(
      md.split('\n').find((l) => l.startsWith('| `sentry`:')),
      /\| \[\d+\.\d% \[[^\]]+\]\]\(results\/popular\.md\) \|/,
    );
    assert.match(md, /`sentry`, `datadog`: depth figures from the popular study \(\[popular\]\(results\/popular\.md\)/);
    // Another hop is another measurement: no rows from it.
    const other = strategySummary(results([{ file: 'results/popular.json', run: popularRun({ hop: 'await' }) }]));
    assert.deepStrictEqual(other.popularRows, []);
    assert.ok(!other.rows.some((r) => r.strategy === 'sentry'));
  },
);

test('Keeps the id: each strategy reads the widest integrity study that ran it', () => {
  const narrow = {
    schema: 1,
    kind: 'integrity',
    title: 'Agents (synthetic)',
    status: 'complete',
    settings: {},
    integrity: {
      scenarios: [],
      cells: [
        cell('sentry', 'chain-await', 'kept'),
        cell('sentry', 'pool', 'leaked'),
        cell('als', 'chain-await', 'lost'),
      ],
    },
  };
  // The narrow study sorts first by name and has als too: als must still read the full matrix.
  const [def, ...rest] = results([{ file: 'results/popular.json', run: popularRun() }]);
  const summary = strategySummary([def, { file: 'results/integrity-agents.json', run: narrow }, ...rest]);
  assert.strictEqual(rowOf(summary, 'als').ids.source.file, 'results/integrity.json');
  assert.strictEqual(idsText(rowOf(summary, 'als').ids), 'node20: ✓; node24: ✓ · ✗ body');
  assert.strictEqual(rowOf(summary, 'sentry').ids.source.file, 'results/integrity-agents.json');
  assert.strictEqual(rowOf(summary, 'datadog').ids.verdict, 'unmeasured');
});

// The Node upgrade's study: few scenarios, every strategy, several runtimes. It must not
// take the column (the full matrix is wider), and what differs between its runtimes is
// said in the column and below the table, split by implementation where it is.
test('Keeps the id: an answer that depends on the Node version is said, with where it fails', () => {
  const cells = [];
  for (const [node, acf] of [
    ['node20', false],
    ['node22', false],
    ['node22', true],
    ['node24', true],
  ]) {
    for (const strategy of ['param', 'als', 'cls-hooked', 'alscontext', 'global', 'sentry', 'datadog']) {
      cells.push(cell(strategy, 'exit-enter', strategy === 'als' && !acf ? 'leaked' : 'kept', node, acf));
      cells.push(
        cell(strategy, 'timer-in-run', strategy === 'cls-hooked' && node === 'node22' ? 'lost' : 'kept', node, acf),
      );
    }
  }
  const upgrade = {
    schema: 1,
    kind: 'integrity',
    title: 'Upgrade (synthetic)',
    status: 'complete',
    settings: {},
    integrity: { scenarios: [], cells },
  };
  const summary = strategySummary(results([{ file: 'results/integrity-upgrade.json', run: upgrade }]));
  const als = rowOf(summary, 'als');
  assert.strictEqual(als.ids.source.file, 'results/integrity.json');
  assert.deepStrictEqual(
    als.ids.nodeDependent.map((d) => [d.scenario, d.fails, d.source.file]),
    [
      ['body', 'AsyncContextFrame', 'results/integrity.json'],
      ['exit-enter', 'async_hooks', 'results/integrity-upgrade.json'],
    ],
  );
  // body is already shown per runtime; exit-enter, from the other study, is added.
  assert.strictEqual(idsText(als.ids), 'node20: ✓; node24: ✓ · ✗ body · depends on Node: exit-enter');
  assert.strictEqual(idsText(rowOf(summary, 'cls-hooked').ids), '✓ · depends on Node: timer-in-run');
  assert.deepStrictEqual(rowOf(summary, 'param').ids.nodeDependent, []);
  const md = markdown(summary, { link: (name) => `results/${name}.md` });
  assert.match(
    md,
    new RegExp(
      '"depends on Node": [^\\n]*`exit-enter` fails without AsyncContextFrame for `als`; ' +
        '`timer-in-run` fails on some runtimes for `cls-hooked`',
    ),
  );
});

test('the committed results: every default-run strategy has a row, and `global` is reported as leaking', () => {
  const summary = strategySummary(
    readResults(
      RESULTS,
      ['default.json', 'integrity.json'].map((n) => path.join(RESULTS, n)),
    ),
  );
  const def = require(path.join(RESULTS, 'default.json'));
  assert.deepStrictEqual(
    summary.rows.map((r) => r.strategy).sort(),
    [...new Set(def.configs.map((c) => c.strategy))].sort(),
  );
  const global = rowOf(summary, 'global');
  assert.strictEqual(global.ids.verdict, 'control');
  assert.match(reading(global), /must leak \(it did: [\d,]+ answers carried another request's id\)/);
});

test(
  'with CPU profiles (run --profile), the row knows the profile ' +
    'that explains the cost; the headline leaves it to the study page',
  () => {
    const run = defaultRun();
    const als = run.configs.find((c) => c.strategy === 'als' && c.depth === 256);
    run.profiles = {
      dir: 'profiles/default',
      seconds: 3,
      errors: [],
      configs: {
        [als.id]: {
          file: 'profiles/default/als.cpuprofile',
          summary: { packages: [{ name: 'node', share: 0.5 }] },
          overBaseline: { packages: [{ name: 'node', share: 0.5, baselineShare: 0.42, growthPp: 8 }], functions: [] },
        },
      },
    };
    const summary = strategySummary([{ file: 'results/default.json', run }]);
    assert.deepStrictEqual(rowOf(summary, 'als').profile.grew, { name: 'node', share: 0.5, baselineShare: 0.42 });
    assert.strictEqual(rowOf(summary, 'param').profile, null);
    assert.doesNotMatch(
      markdown(summary)
        .split('\n')
        .find((l) => l.startsWith('| `als`:')),
      /Profile|cpuprofile/,
    );
  },
);

test('a figure a second run did not reproduce is said to be so; one that held is not flagged', () => {
  const base = results();
  const als8 = base[0].run.configs.find((c) => c.strategy === 'als' && c.depth === 8).id;
  const param8 = base[0].run.configs.find((c) => c.strategy === 'param' && c.depth === 8).id;
  const repro = {
    schema: 2,
    kind: 'repro',
    title: 'repro (synthetic)',
    files: ['results/runs/earlier.json', 'results/default.json'],
    repro: {
      rows: [
        { id: als8, a: { estimate: 0.97 }, b: { estimate: 0.9 }, consistent: false },
        { id: param8, a: { estimate: 1 }, b: { estimate: 1 }, consistent: true },
      ],
    },
  };
  const summary = strategySummary([...base, { file: 'results/repro-x.json', run: repro }]);
  assert.deepStrictEqual(rowOf(summary, 'als').shallow.repro, {
    consistent: false,
    otherEstimate: 0.97,
    otherFile: 'results/runs/earlier.json',
    source: { name: 'repro-x', file: 'results/repro-x.json' },
    // One of its two ratios consistent: below the 9-in-10 bar, so the cell also carries †.
    bar: { code: 'below', consistent: 1, judged: 2, bar: 0.9 },
  });
  assert.ok(rowOf(summary, 'als').shallow.short?.repro);
  assert.match(reading(rowOf(summary, 'als')), /^1\.1\d× `none`'s CPU per request at depth 8 \(not reproduced: 97\.0/);
  assert.doesNotMatch(reading(rowOf(summary, 'param')), /not reproduced/);
  assert.strictEqual(rowOf(summary, 'als').deep.repro, null, 'no row for depth 256 in that repro');
});

// The depth sweep runs HOP=await, where some strategies lose their ids: such a cell has no
// cost to set against the default run's, so it makes no "disagree" note.
test('a depth-sweep cell whose strategy lost its ids makes no disagreement note', () => {
  const sweep = (mismatches) => {
    const run = makeRun2({
      seed: 9,
      blocks: 5,
      strategies: { 'cls-hooked': 0.2 },
      depth: 8,
      extra: { 'cls-hooked': { mismatches } },
      noiseSd: 0.01,
      blockSd: 0.005,
    });
    return {
      file: 'results/depth-sweep.json',
      run: { ...run, title: 'Sweep (synthetic)', settings: { ...run.settings, preset: 'depth-sweep' } },
    };
  };
  const kept = rowOf(strategySummary(results([sweep(0)])), 'cls-hooked');
  assert.deepStrictEqual(
    kept.disagreements.map((d) => d.b),
    ['depth sweep'],
    'a sweep that kept its ids is compared',
  );
  const lost = rowOf(strategySummary(results([sweep(40)])), 'cls-hooked');
  assert.deepStrictEqual(lost.disagreements, []);
});

test(
  'the committed latency study: the p99 each strategy adds is a figure ' +
    'where the generator kept its schedule; where it was late past the rule ' +
    'in every block, "generator-bound" with the lateness, never a figure',
  () => {
    const files = ['default.json', 'integrity.json', 'latency.json'].map((n) => path.join(RESULTS, n));
    const results = readResults(RESULTS, files);
    const figures = strategySummary(results).rows.filter((r) => r.latency && Number.isFinite(r.latency.estimate));
    assert.ok(figures.length > 0, 'the committed latency study has added-p99 figures');
    // The same windows with the generator 3 ms late at p99 in every one of them.
    const late = hdr.build(HIST);
    late.recordValueWithCount(100, 980);
    late.recordValueWithCount(3000, 20);
    const lateB64 = hdr.encodeIntoCompressedBase64(late);
    const study = results.find((r) => path.basename(r.file) === 'latency.json');
    const onTime = hdr.build(HIST);
    onTime.recordValueWithCount(100, 1000);
    const onTimeB64 = hdr.encodeIntoCompressedBase64(onTime);
    // lateIn(w) -> whether window w's generator is made late.
    const withLateness = (lateIn) => {
      const run = {
        ...study.run,
        configs: study.run.configs.map((c) => ({
          ...c,
          samples: (c.samples || []).map((w) =>
            w.latenessHistogram ? { ...w, latenessHistogram: lateIn(w) ? lateB64 : onTimeB64 } : w,
          ),
        })),
      };
      return strategySummary(results.map((r) => (r === study ? { ...r, run } : r)));
    };
    // On time in one block only: no figure from one block, and the cell says why.
    const few = withLateness((w) => w.block !== 0);
    for (const r of figures) {
      const row = few.rows.find((x) => x.strategy === r.strategy);
      assert.strictEqual(row.latency.estimate, null, r.strategy);
      assert.strictEqual(row.latency.fewBlocks?.n, 1, r.strategy);
    }
    assert.match(markdown(few, { link: (x) => x }), /too few blocks \(1 of \d+ with the generator on time\)/);
    const summary = withLateness(() => true);
    const bound = summary.rows.filter((r) => r.latency?.generatorBound);
    for (const r of figures)
      assert.ok(
        bound.some((x) => x.strategy === r.strategy),
        `${r.strategy}: every strategy with a figure becomes generator-bound`,
      );
    for (const row of bound) {
      assert.strictEqual(row.latency.estimate, null, row.strategy);
      assert.ok(row.latency.latenessP99 > 1, `${row.strategy}: ${row.latency.latenessP99}`);
    }
    const table = markdown(summary, { link: (x) => x });
    assert.match(table, /generator-bound \(\d+\.\d+ ms late at p99\)/);
  },
);

test(
  'the committed io study: a strategy that fell behind the ' +
    'rate its `none` kept reads "cannot serve", not an empty cell',
  () => {
    const files = ['default.json', 'integrity.json', 'io.json', 'popular.json'].map((n) => path.join(RESULTS, n));
    const summary = strategySummary(readResults(RESULTS, files));
    const behind = summary.rows.filter((r) => r.io && r.io.kind === 'ratio' && r.io.estimate === null);
    assert.ok(behind.length > 0, 'the committed io study has a strategy that cannot serve its rate (sentry)');
    const half = /^cannot serve 50% of `none`'s capacity$/;
    for (const row of behind) assert.match(cannotServeText(row.io.cannotServe), half, row.strategy);
    assert.match(markdown(summary, { link: (x) => x }), /cannot serve 50% of `none`'s capacity\]\(io\)/);
  },
);

test(
  'a strategy that fell behind its `none` in one block of the pair ' +
    'reads "cannot serve", not the ratio of the windows it caught up in',
  () => {
    const files = ['default.json', 'integrity.json', 'io.json', 'popular.json'].map((n) => path.join(RESULTS, n));
    const results = readResults(RESULTS, files);
    const io = results.find((r) => path.basename(r.file) === 'io.json');
    const param = io.run.configs.find((c) => c.strategy === 'param' && c.hop === 'pg');
    assert.ok(
      Number.isFinite(strategySummary(results).rows.find((r) => r.strategy === 'param').io.estimate),
      'the committed `param` at HOP=pg has a ratio',
    );
    // Its first block made one the candidate could not serve: every window behind, none counted.
    const first = Math.min(...param.samples.filter((s) => s.kind === 'window').map((s) => s.block));
    param.samples = param.samples.map((s) =>
      s.kind === 'window' && s.block === first
        ? { ...s, counted: false, schedule: { ...s.schedule, sent: Math.floor(s.schedule.due / 2) } }
        : s,
    );
    const row = strategySummary(results).rows.find((r) => r.strategy === 'param');
    assert.strictEqual(row.io.estimate, null);
    assert.match(cannotServeText(row.io.cannotServe), /^cannot serve 50% of `none`'s capacity$/);
  },
);

test(
  'the opening picture: every figure of a % column the headline ' +
    "shows is a point of its column's panel, nothing else is",
  () => {
    const files = ['default.json', 'integrity.json', 'io.json', 'popular.json', 'stores.json'].map((n) =>
      path.join(RESULTS, n),
    );
    const summary = strategySummary(readResults(RESULTS, files));
    const { points, panels, strategies } = picturePoints(summary);
    assert.deepStrictEqual(panels, [
      `Throughput per CPU, depth ${summary.depths.shallow}`,
      `Throughput per CPU, depth ${summary.depths.deep}`,
      'Real I/O (pg), throughput per CPU',
    ]);
    const expected = [];
    for (const r of summary.rows) {
      for (const [key, cell] of Object.entries({ shallow: r.shallow, deep: r.deep, io: r.io })) {
        if (cell && cell.kind !== 'baseline' && Number.isFinite(cell.estimate))
          expected.push(`${r.strategy} ${key} ${Math.round(cell.estimate * 1000) / 10}`);
      }
    }
    const key = (p) => `${p.strategy} ${['shallow', 'deep', 'io'][panels.indexOf(p.panel)]} ${p.estimate}`;
    assert.deepStrictEqual(points.map(key).sort(), expected.sort());
    for (const p of points) if (p.lo !== null) assert.ok(p.lo <= p.estimate && p.estimate <= p.hi, JSON.stringify(p));
    // A strategy that cannot serve the I/O rate has no point there (sentry in the io study);
    // live stores is no headline column, so no panel.
    assert.ok(!points.some((p) => p.strategy === 'sentry' && p.panel.startsWith('Real I/O')));
    assert.ok(rowOf(summary, 'als').stores, 'the stores study is read');
    assert.ok(!panels.some((p) => /live stores/.test(p)));
    assert.deepStrictEqual(
      strategies,
      summary.rows.map((r) => r.strategy).filter((s) => points.some((p) => p.strategy === s)),
    );
  },
);
