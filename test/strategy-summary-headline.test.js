'use strict';
// Tier: quick (the headline of issue 62, on fixtures copied into temp dirs)
// The table that leads results.md reads in a minute and never contradicts itself: its
// columns, its cells' length, one machine per column, no % column wider than ±4 pp, the
// check `ctxbench report` refuses to write past (each kind planted and seen red), README's
// answer block and the study list.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { strategySummary } = require('../analysis');
const { headlineColumns } = require('../analysis/strategy-summary');
const { markdown, columns, idsText } = require('../report/strategy-summary');
const { contradictions, rendered } = require('../report/headline-check');
const { answerBlock, START, END } = require('../report/answer');
const { readResults, buildReport, studyLabels } = require('../report');
const { check } = require('../scripts/check-headline');
const { tempDir } = require('./helpers/tmp');

const FIXTURES = path.join(__dirname, 'fixtures', 'results');
const HEADLINE_FILES = ['default.json', 'integrity.json', 'io.json', 'latency.json', 'popular.json', 'stores.json'];

// A copy of the headline's fixtures in a temp dir (root/results/*.json), each optionally
// changed by edit[name](run).
function copyFixtures(edit = {}, prefix = 'ctxbench-headline-') {
  const root = tempDir(prefix);
  fs.mkdirSync(path.join(root, 'results'));
  for (const name of HEADLINE_FILES) {
    const run = JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8'));
    fs.writeFileSync(path.join(root, 'results', name), JSON.stringify(edit[name] ? edit[name](run) : run));
  }
  return root;
}
// The same fixtures read once, for the tests that need no files on disk: each summary is
// built from them, an edited run from a deep copy (strategySummary does not change its runs).
let loaded;
function summaryFrom(edit = {}) {
  loaded ??= readResults(
    FIXTURES,
    HEADLINE_FILES.map((name) => path.join(FIXTURES, name)),
  );
  return strategySummary(
    loaded.map((r) => {
      const name = path.basename(r.file, '.json');
      const change = edit[`${name}.json`];
      return { ...r, name, run: change ? change(structuredClone(r.run)) : r.run };
    }),
  );
}
const summaryOf = (root) => {
  const dir = path.join(root, 'results');
  return strategySummary(readResults(dir).map((r) => ({ ...r, name: path.basename(r.file, '.json') })));
};
const rowOf = (summary, strategy) => summary.rows.find((r) => r.strategy === strategy);
const XEON = 'Intel(R) Xeon(R) Processor';
const onXeon = (run) => ({ ...run, environment: { ...run.environment, cpuModel: XEON } });

test(
  'the headline: Strategy, Keeps the id?, Depth 8, Depth 256, ' +
    'Real I/O, p99 added, Reading; live stores on its page',
  () => {
    const summary = summaryFrom();
    assert.deepStrictEqual(
      columns(summary).map((c) => c.name ?? c.title),
      ['Strategy', 'Keeps the id?', 'Depth 8', 'Depth 256', 'Real I/O', 'p99 added', 'Reading'],
    );
    assert.deepStrictEqual(summary.columns.find((c) => c.key === 'stores').leaves, { why: 'page', page: 'stores' });
    const md = markdown(summary, { link: (name) => `results/${name}.md` });
    const share = "% of `none`'s throughput per CPU";
    const head = `| Strategy | Keeps the id? | Depth 8: ${share} | Depth 256: ${share} | Real I/O: ${share} |`;
    assert.ok(md.includes(`${head} p99 added | Reading |`));
    assert.match(md, /10 live stores: on its study page, \[stores\]\(results\/stores\.md\)\./);
    // One note per column; the machine named once, above the table (issue 75).
    for (const start of ['Keeps the id?:', 'Depth 8:', 'Depth 256:', 'Real I/O:', 'p99 added (ms):']) {
      const note = md.split('\n').find((l) => l.startsWith(`- ${start}`));
      assert.ok(note, start);
      assert.doesNotMatch(note, /Measured on/, start);
    }
    const above = md.split('\n').filter((l) => /^\*Every timed column measured on /.test(l));
    assert.strictEqual(above.length, 1);
    assert.ok(md.indexOf(above[0]) < md.indexOf('| Strategy |'), 'the machine is named above the table');
    assert.match(above[0], /Keeps the id\? on .* \(a correctness check, not a timing\)/);
    // Each row named by its id and what it runs (context/index.js labels).
    assert.ok(md.includes("| `otel`: OpenTelemetry's context API alone |"));
    assert.match(md, /^- Reading: by rules/m);
  },
);

test(
  'every cell of the headline is at most about 100 characters; ' +
    'a per-runtime id answer too long for it is said in short',
  () => {
    const summary = summaryFrom({ 'popular.json': onXeon });
    // As a reader sees it (code marks aside); the Reading carries its CPU multiples (issue 75.2).
    for (const { row, text } of rendered(summary)) {
      for (const [key, t] of Object.entries(text)) {
        const seen = t?.replace(/`/g, '');
        const budget = key === 'reading' ? 120 : 110;
        assert.ok(!t || seen.length <= budget, `${row.strategy} ${key}: ${seen?.length} ${t}`);
      }
    }
    // datadog's answer: many scenarios lost on each of four runtimes, differently.
    const failing = ['nested', 'chain-await', 'fanout', 'keepalive', 'body', 'timer', 'emitter-bound', 'worker'];
    const runtimes = ['node24', 'node24-noacf (async_hooks)', 'node26', 'node26-noacf (async_hooks)'].map(
      (label, i) => ({
        label,
        failing: failing.slice(0, 6 + (i % 2)),
        propagation: ['nested', 'chain-await', 'fanout', 'keepalive'],
        own: [],
      }),
    );
    const ids = { verdict: 'broken', runtimes, uniform: false, common: [], nodeDependent: [], source: { file: 'x' } };
    const text = idsText(ids);
    assert.ok(text.length <= 100, text);
    // The everyday patterns lost on any runtime, the list the Reading names too (issue 76).
    assert.strictEqual(text, '✗ nested, chain-await, fanout (+1 more) · differs by runtime');
  },
);

test(
  'the Reading follows the ✓ definition: ' +
    '"everyday code", ' +
    'never "every propagation pattern", beside ✗ patterns',
  () => {
    const summary = summaryFrom();
    const als = rendered(summary).find((x) => x.row.strategy === 'als');
    assert.match(als.text.ids, /^✓ · ✗ /);
    assert.match(als.text.reading, /keeps the id in everyday code\.$/);
    for (const { text } of rendered(summary)) assert.doesNotMatch(text.reading, /every (propagation )?pattern/);
    assert.deepStrictEqual(contradictions(summary), []);
  },
);

test(
  "each column's figures from one machine: rows measured on " +
    'another read "—" there, with a note saying where they are',
  () => {
    // The fixtures' popular study ran on an AMD EPYC, the default run on an Intel Xeon.
    const summary = summaryFrom();
    const sentry = rowOf(summary, 'sentry');
    assert.strictEqual(sentry.shallow, null);
    assert.deepStrictEqual(Object.keys(sentry.offMachine), ['shallow', 'deep']);
    assert.strictEqual(summary.columns.find((c) => c.key === 'shallow').machine, `${XEON} × 2`);
    const md = markdown(summary, { link: (name) => `results/${name}.md` });
    assert.match(
      md.split('\n').find((l) => l.startsWith('| `sentry`:')),
      /^\| `sentry`: [^|]+ \| [^|]+ \| — \| — \|/,
    );
    assert.match(
      md,
      new RegExp(
        '`cls-rtracer`, `express-http-context`, `sentry`, `datadog`: "—" in Depth 8, ' +
          String.raw`Depth 256: measured on AMD EPYC × 2, not on the column's Intel\(R\) Xeon\(R\) Processor × 2; ` +
          String.raw`their figures are on their study page, \[popular\]\(results/popular\.md\)\.`,
      ),
    );
    assert.doesNotMatch(rendered(summary).find((x) => x.row.strategy === 'sentry').text.reading, /\d%/);
    // Measured again on the same machine: the rows are back in the columns.
    const same = summaryFrom({ 'popular.json': onXeon });
    assert.ok(Number.isFinite(rowOf(same, 'sentry').shallow.estimate));
    assert.match(
      rendered(same).find((x) => x.row.strategy === 'sentry').text.reading,
      /^\d+× `none`'s CPU per request at depth 8, \d\.\d× at depth 256/,
    );
    assert.deepStrictEqual(contradictions(same), []);
  },
);

test('a % column whose figures are wider than ±4 pp leaves the headline for its study page; within, it stays', () => {
  const cell = (lo, hi, name = 'deployment-f1') => ({
    kind: 'ratio',
    estimate: (lo + hi) / 2,
    interval: [lo, hi],
    intervalKind: '95% CI',
    source: { name },
  });
  const rows = [
    { strategy: 'als', io: cell(0.97, 1.03, 'io'), deploy: cell(0.6, 1.2) },
    { strategy: 'otel', io: cell(0.95, 1.02, 'io'), deploy: cell(0.97, 1.0) },
  ];
  const cols = headlineColumns(rows, () => null, [
    { key: 'io', unit: '%' },
    { key: 'deploy', unit: '%' },
  ]);
  assert.deepStrictEqual(
    cols.map((c) => [c.key, c.shown, c.leaves]),
    [
      ['io', true, null],
      ['deploy', false, { why: 'wide', page: 'deployment-f1' }],
    ],
  );
  assert.strictEqual(Math.round(cols[1].halfWidthPp), 30);
  // ±3.5 pp stays; ±4.5 leaves.
  const edge = (half) =>
    headlineColumns([{ strategy: 'x', io: cell(1 - half, 1 + half, 'io') }], () => null, [{ key: 'io', unit: '%' }])[0]
      .shown;
  assert.strictEqual(edge(0.035), true);
  assert.strictEqual(edge(0.045), false);
});

// Issue 75: every timed column of the table from one machine. A column measured elsewhere
// (the F1 study on another CPU) leaves for its page, named with its machine.
test("a timed column measured on another machine than the table's leaves for its page, saying where", () => {
  const cell = (name) => ({ kind: 'ratio', estimate: 1, interval: [0.99, 1.01], source: { name } });
  const rows = [{ strategy: 'als', shallow: cell('default'), deploy: cell('deployment-f1') }];
  const machineOf = (name) => (name === 'deployment-f1' ? 'AMD EPYC × 2' : `${XEON} × 2`);
  const cols = headlineColumns(rows, machineOf, [
    { key: 'shallow', unit: '%' },
    { key: 'deploy', unit: '%' },
  ]);
  assert.deepStrictEqual(
    cols.map((c) => [c.key, c.shown, c.leaves]),
    [
      ['shallow', true, null],
      ['deploy', false, { why: 'machine', page: 'deployment-f1' }],
    ],
  );
  const amdLatency = (run) => ({ ...run, environment: { ...run.environment, cpuModel: 'AMD EPYC' } });
  const summary = summaryFrom({ 'popular.json': onXeon, 'latency.json': amdLatency });
  const md = markdown(summary, { resultsDir: 'results' });
  assert.ok(!/\| p99 added \|/.test(md.split('\n').find((l) => l.startsWith('| Strategy'))));
  assert.match(md, /p99 added: on its study page, .*\(measured on AMD EPYC × 2: every timed column of this table/);
});

// Each kind of contradiction planted in a headline built from the fixtures (the generator
// never writes one, so each is planted in the built rows or their text) and seen red.
test("the headline check: each planted contradiction is one line naming it; the fixtures' headline has none", () => {
  const fresh = () => summaryFrom({ 'popular.json': onXeon });
  // change(summary, row): the built rows changed first, then rendered; row(strategy) -> its
  // rendered { row, text } to change what a cell says.
  const plant = (change) => {
    const summary = fresh();
    let texts = null;
    const row = (st) => (texts ??= rendered(summary)).find((x) => x.row.strategy === st);
    change(summary, row);
    return contradictions(summary, texts ?? rendered(summary));
  };
  assert.deepStrictEqual(contradictions(fresh()), []);
  // The Reading says every pattern while ✗ patterns are listed (the old wording).
  const every = plant((s, row) => {
    row('als').text.reading =
      "1.02× `none`'s CPU per request at depth 8, 1.03× at depth 256; keeps the id in every propagation pattern.";
  });
  assert.deepStrictEqual(every, [
    'als: the Reading says "every propagation pattern" while Keeps the id? lists ✗ body, emitter-bound, pg-callback',
  ]);
  // The Reading says it keeps the id while an everyday pattern is ✗.
  const everyday = plant((s, row) => {
    row('otel').text.ids = '✓ · ✗ chain-await';
  });
  assert.match(
    everyday.join('\n'),
    /^otel: the Reading says it keeps the id while Keeps the id\? lists ✗ chain-await, everyday patterns$/,
  );
  // "cannot tell" and "≥ 100%" beside a cost beyond the margin, unsupported by their own interval.
  const tell = plant((s, row) => {
    row('cls-hooked').text.io = 'cannot tell from `none`';
    row('cls-hooked').text.latency = '≥ 112.3% [59.9%–210.4%]';
    row('cls-hooked').text.reading =
      "2.5× `none`'s CPU per request at depth 8 (cannot tell within ±2%), 7.8× at depth 256; " +
      'keeps the id in everyday code.';
  });
  assert.strictEqual(tell.length, 3, tell.join('\n'));
  assert.match(
    tell[0],
    /^cls-hooked: Real I\/O says "cannot tell" while Depth 8, Depth 256(, Real I\/O)? say it costs more than ±2%$/,
  );
  assert.match(tell[1], /^cls-hooked: p99 added says "≥ 112\.3%"/);
  assert.match(
    tell[2],
    /^cls-hooked: the Reading says "2\.5× none's CPU per request at depth 8 \(cannot tell within ±2%\)"/,
  );
  // "cannot serve" beside a figure for the same rate.
  const serve = plant((s) => {
    const sentry = rowOf(s, 'sentry');
    assert.ok(sentry.io.cannotServe, "the fixtures' sentry cannot serve the I/O rate");
    sentry.latency = {
      kind: 'ms',
      estimate: 1.2,
      interval: [0.5, 1.9],
      source: { name: 'latency' },
      settings: { ...sentry.io.settings, load: sentry.io.cannotServe.load },
    };
  });
  assert.deepStrictEqual(serve, [
    'sentry: Real I/O says "cannot serve 50% of none\'s capacity" while ' +
      'p99 added has a figure at the same rate (+1.20 ms [+0.50…+1.90])',
  ]);
  // A % figure wider than ±4 pp.
  const wide = plant((s) => {
    rowOf(s, 'param').io.interval = [0.9, 1.1];
  });
  assert.deepStrictEqual(wide, [
    'param: Real I/O shows 99.4% [90.0%–110.0%] †, ±10.0 pp wide (the headline keeps a % figure within ±4 pp)',
  ]);
  // A column mixing machines.
  const mixed = plant((s) => {
    rowOf(s, 'sentry').shallow.machine = 'AMD EPYC × 2';
  });
  assert.strictEqual(mixed.length, 2, mixed.join('\n'));
  assert.match(mixed[0], /^the table's timed columns come from 2 machines \(.*; Depth 8 on AMD EPYC × 2\)$/);
  assert.strictEqual(
    mixed[1],
    `Depth 8: figures from 2 machines (none, param, als, alscontext-als, otel, cls-hooked, alscontext, ` +
      `global, cls-rtracer, express-http-context, datadog on ${XEON} × 2; sentry on AMD EPYC × 2)`,
  );
});

test(
  "README's answer block: written between the markers by the committed report, " +
    "README without them untouched; CI's check compares it",
  async () => {
    const root = copyFixtures({ 'popular.json': onXeon }, 'ctxbench-answer-');
    const readme = `# ctxbench\n\nWhat it costs:\n\n${START}\nold\n${END}\n\nThe rest.\n`;
    fs.writeFileSync(path.join(root, 'README.md'), readme);
    await buildReport({ resultsDir: path.join(root, 'results'), out: path.join(root, 'results.md') });
    const text = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    assert.ok(text.startsWith(`# ctxbench\n\nWhat it costs:\n\n${START}\n`) && text.endsWith(`${END}\n\nThe rest.\n`));
    const block = text.slice(text.indexOf(START), text.indexOf(END));
    assert.ok(block.includes("| Strategy | Keeps the id? | Depth 8: % of `none`'s throughput per CPU | Depth 256: "));
    const rows = block
      .split('\n')
      .filter((l) => /^\| `/.test(l))
      .map((l) => l.split('|')[1].trim());
    assert.deepStrictEqual(
      rows.map((r) => r.split(':')[0]),
      ['`param`', '`als`', '`otel`', '`cls-hooked`', '`sentry`', '`datadog`'],
    );
    assert.match(
      block,
      new RegExp(
        String.raw`Node v24\.\d+\.\d+ on Intel\(R\) Xeon\(R\) Processor × 2; every ` +
          String.raw`strategy and how each column was measured: \[results\.md\]\(results\.md\) ` +
          String.raw`· \[results/index\.html\]\(results/index\.html\)\.`,
      ),
    );
    assert.deepStrictEqual(check(root), []);
    // A block that is not the report's own fails the CI check.
    fs.writeFileSync(path.join(root, 'README.md'), text.replace('`param`', '`param2`'));
    assert.deepStrictEqual(check(root), [
      'README.md: the answer block differs from the headline; run `ctxbench report`',
    ]);
    // Without the markers: untouched, byte for byte. A layout of the default run alone (its
    // headline has rows too) makes the reports below quick.
    const small = tempDir('ctxbench-answer-small-');
    fs.mkdirSync(path.join(small, 'results'));
    fs.copyFileSync(path.join(FIXTURES, 'default.json'), path.join(small, 'results', 'default.json'));
    const plain = '# ctxbench\n\nNo markers here.\n';
    fs.writeFileSync(path.join(small, 'README.md'), plain);
    await buildReport({ resultsDir: path.join(small, 'results'), out: path.join(small, 'results.md'), html: false });
    assert.strictEqual(fs.readFileSync(path.join(small, 'README.md'), 'utf8'), plain);
    // A report written elsewhere never touches README.
    fs.writeFileSync(path.join(small, 'README.md'), readme);
    await buildReport({
      resultsDir: path.join(small, 'results'),
      out: path.join(small, 'scratch', 'r.md'),
      html: false,
    });
    assert.strictEqual(fs.readFileSync(path.join(small, 'README.md'), 'utf8'), readme);
    // The same layout written where the committed report goes does get its block: the two
    // above were left alone for their reasons, not because this layout writes none.
    await buildReport({ resultsDir: path.join(small, 'results'), out: path.join(small, 'results.md'), html: false });
    assert.notStrictEqual(fs.readFileSync(path.join(small, 'README.md'), 'utf8'), readme);
    assert.strictEqual(answerBlock(summaryOf(root)).includes('`param`'), true);
  },
);

test('the study list tells studies of one title apart: the setting that differs, else the file', () => {
  const section = (name, title, settings) => ({ name, title, run: { settings } });
  const all = [
    section('integrity', 'Context integrity', { preset: 'runtimes', strategies: ['none', 'param', 'als', 'otel'] }),
    section('integrity-agents', 'Context integrity', { preset: 'runtimes', strategies: ['sentry', 'datadog'] }),
    section('integrity-upgrade', 'Context integrity', {
      preset: 'upgrade',
      strategies: ['none', 'param', 'als', 'otel'],
    }),
    section('app', 'Your service: als-logger against param', { paths: ['/'] }),
    section('app-predict', 'Your service: als-logger against param', { paths: ['/'] }),
    section('default', 'Default run', { preset: 'default' }),
  ];
  const labels = [...studyLabels(all).values()];
  assert.deepStrictEqual(labels, [
    'Context integrity (preset runtimes)',
    'Context integrity (preset runtimes; sentry, datadog)',
    'Context integrity (preset upgrade)',
    'Your service: als-logger against param (app)',
    'Your service: als-logger against param (app-predict)',
    'Default run',
  ]);
  assert.strictEqual(new Set(labels).size, labels.length);
});

// Planted in the run files: the I/O study's `param` falls behind its `none` in one block
// (so it "cannot serve" the rate at HOP=pg), and the latency study's configurations are
// relabelled HOP=pg (so `param` has a p99 figure at that same rate).
test(
  '`ctxbench report` refuses to write a headline that ' + 'contradicts itself: one line per contradiction, exit 1',
  () => {
    const { spawnSync } = require('node:child_process');
    const behind = (run) => {
      const param = run.configs.find((c) => c.strategy === 'param' && c.hop === 'pg');
      const first = Math.min(...param.samples.filter((s) => s.kind === 'window').map((s) => s.block));
      param.samples = param.samples.map((s) =>
        s.kind === 'window' && s.block === first
          ? { ...s, counted: false, schedule: { ...s.schedule, sent: Math.floor(s.schedule.due / 2) } }
          : s,
      );
      return run;
    };
    const asLatency = (run) => ({ ...run, configs: run.configs.map((c) => ({ ...c, hop: 'pg' })) });
    const root = copyFixtures(
      { 'io.json': behind, 'latency.json': asLatency, 'popular.json': onXeon },
      'ctxbench-refuse-',
    );
    const r = spawnSync(
      process.execPath,
      [
        path.join(__dirname, '..', 'bin', 'ctxbench.js'),
        'report',
        '--results',
        path.join(root, 'results'),
        '--out',
        path.join(root, 'results.md'),
        '--no-html',
      ],
      { encoding: 'utf8' },
    );
    assert.strictEqual(r.status, 1, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.strictEqual(lines[0], 'ctxbench: the headline contradicts itself, results.md not written:');
    assert.ok(
      lines
        .slice(1)
        .some((l) =>
          new RegExp(
            String.raw`^ {2}param: Real I/O says "cannot serve 50% of none's ` +
              String.raw`capacity" while p99 added has a figure at the same rate \(`,
          ).test(l),
        ),
      r.stderr,
    );
    assert.ok(!fs.existsSync(path.join(root, 'results.md')));
  },
);
