'use strict';
// Tier: quick (the headline's words, figures and marks on fixtures: nothing started)
// Issues 75 and 76: the headline says its figures' direction in words and gives the multiple
// of `none`'s CPU a person thinks in; an interval wider than its figure leaves no number; a
// figure short of what the headline promises carries †; a strategy's ✗ patterns are one list
// counted once; each note under the table reads in a minute. Each claim planted and seen red.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { strategySummary } = require('../analysis');
const { readsOf } = require('../analysis/strategy-held');
const { findingsOf } = require('../analysis/strategy-findings');
const { columns, picturePoints } = require('../report/strategy-summary');
const { contradictions, rendered, everydayListed } = require('../report/headline-check');
const { answerBlock } = require('../report/answer');
const { notes, visible, NOTE_CHARS } = require('../report/headline-notes');
const { readResults } = require('../report');

const FIXTURES = path.join(__dirname, 'fixtures', 'results');
// Every study the headline reads, as frozen in the fixtures (test/fixtures/results/README.md).
const STUDIES = 'default integrity io latency popular stores instructions deployment-f1';
const FILES = STUDIES.split(' ').map((name) => `${name}.json`);
const XEON = 'Intel(R) Xeon(R) Processor';
const onXeon = (run) => ({ ...run, environment: { ...run.environment, cpuModel: XEON } });

// The fixtures read once, by file name; each headline is built from them, a run changed by
// edit[file] on a copy of it, with the extra runs given.
const runs = new Map();
function load() {
  if (!runs.size)
    for (const r of readResults(
      FIXTURES,
      FILES.map((name) => path.join(FIXTURES, name)),
    ))
      runs.set(path.basename(r.file), r);
  return runs;
}
function summaryFrom(edit = {}, extra = []) {
  load();
  const studies = [...runs].map(([file, r]) => ({
    ...r,
    name: path.basename(file, '.json'),
    run: edit[file]?.(structuredClone(r.run)) ?? r.run,
  }));
  return strategySummary([...studies, ...extra]);
}
const SAME_MACHINE = { 'popular.json': onXeon };
const textOf = (summary, strategy) => rendered(summary).find((x) => x.row.strategy === strategy).text;
const anyDagger = (summary) => rendered(summary).some(({ text }) => Object.values(text).some((t) => t?.includes('†')));

// 100 ÷ the figure as its cell shows it, written out here rather than taken from the report:
// one decimal from 2× to 10×, whole above, two below 2×.
function times(estimate) {
  const x = 100 / Number((estimate * 100).toFixed(1));
  if (x < 2) return x.toFixed(2);
  return x < 9.95 ? x.toFixed(1) : String(Math.round(x));
}

test("75.2: each % column's head says it is a share of `none`'s throughput; README's caption is one sentence", () => {
  const summary = summaryFrom(SAME_MACHINE);
  const figures = columns(summary).filter((c) => !['strategy', 'ids', 'reading'].includes(c.key));
  assert.deepStrictEqual(
    figures.map((c) => c.key),
    ['shallow', 'deep', 'io', 'latency'],
  );
  for (const c of figures.filter((x) => x.key !== 'latency'))
    assert.match(c.title, /^(Depth \d+|Real I\/O): % of `none`'s throughput per CPU$/, c.title);
  const block = answerBlock(summary);
  const caption = block.split('\n').at(-1);
  // One sentence: its only full stop ends it (v24.21.0, results.md are no full stops).
  assert.deepStrictEqual(caption.match(/\.(\s|$)/g), ['.'], caption);
  assert.match(caption, /^The depth columns are throughput per CPU as % of `none`'s at call depths 8 and 256: /);
  assert.match(caption, /: `none`'s CPU per request ÷ the strategy's \(25% = 4× `none`'s CPU per request/);
  // The old caption, readable backwards ("CPU per request as % of none": 40% = cheaper).
  assert.doesNotMatch(block, /CPU per request as % of/);
});

test("75.2: each Reading gives the multiple of `none`'s CPU per request of each costly depth figure", () => {
  const summary = summaryFrom(SAME_MACHINE);
  let seen = 0;
  for (const { row, text } of rendered(summary)) {
    if (row.findings.kind !== 'measured') continue;
    for (const [key, depth] of [
      ['shallow', 8],
      ['deep', 256],
    ]) {
      const cell = row[key];
      if (!cell?.significant || cell.equivalence?.outcome === 'equivalent') continue;
      const said = new RegExp(`(^|, )${times(cell.estimate).replace('.', String.raw`\.`)}× [^,;]*at depth ${depth}\\b`);
      assert.match(text.reading, said, `${row.strategy} at depth ${depth}: ${text.reading}`);
      seen += 1;
    }
  }
  assert.ok(seen >= 12, `${seen} costly depth figures`);
  assert.match(
    textOf(summary, 'cls-hooked').reading,
    /^2\.5× `none`'s CPU per request at depth 8, 7\.8× at depth 256, growing with depth; /,
  );
  // Planted: a Reading that says the cost as a share, without its multiple, is named.
  const texts = rendered(summary);
  texts.find((x) => x.row.strategy === 'otel').text.reading =
    'Costs 5.3% at depth 8, 9.8% at depth 256; keeps the id in everyday code.';
  assert.deepStrictEqual(contradictions(summary, texts), [
    `otel: the Reading says "Costs 5.3% at depth 8" at depth 8, not 1.06× none's CPU per request (100 ÷ 94.7%)`,
    `otel: the Reading says "9.8% at depth 256" at depth 256, not 1.11× none's CPU per request (100 ÷ 90.2%)`,
  ]);
});

test('76.2: a level wider than itself is "not resolved"; a difference whose interval holds 0 is its bound', () => {
  const ratio = (lo, hi, estimate) => ({ kind: 'ratio', estimate, interval: [lo, hi], intervalKind: '95% CI' });
  assert.strictEqual(readsOf(ratio(0.01, 0.07, 0.05)), 'unresolved');
  assert.strictEqual(readsOf(ratio(0.03, 0.07, 0.05)), 'level');
  assert.strictEqual(readsOf({ ...ratio(0.01, 0.07, 0.05), intervalKind: 'window range' }), null);
  assert.strictEqual(readsOf({ kind: 'ms', estimate: 0.02, interval: [-0.28, 0.32] }), 'at-most');
  assert.strictEqual(readsOf({ kind: 'ms', estimate: 0.3, interval: [0.1, 0.5] }), 'difference');
  const summary = summaryFrom(SAME_MACHINE);
  // The fixtures' p99 added: every interval holding 0 reads as its upper end, the rest as figures.
  let bounds = 0;
  for (const { row, text } of rendered(summary)) {
    const c = row.latency;
    if (!c?.interval) continue;
    const holds = c.interval[0] <= 0 && c.interval[1] >= 0;
    assert.match(text.latency, holds ? /^at most [+−]\d+\.\d+ ms$/ : /^[+−]\d+\.\d+ ms \[/, row.strategy);
    bounds += holds;
  }
  assert.ok(bounds >= 5, `${bounds} bounds`);
  assert.strictEqual(textOf(summary, 'als').latency, 'at most +0.32 ms');
  // Planted: sentry's depth-8 figure (4.9%) with an interval 8 pp wide, wider than itself.
  const sentry = summary.rows.find((r) => r.strategy === 'sentry');
  sentry.shallow.interval = [0.01, 0.09];
  sentry.shallow.reads = readsOf(sentry.shallow);
  sentry.findings = findingsOf(sentry, 8, 256);
  const text = textOf(summary, 'sentry');
  assert.strictEqual(text.shallow, `not resolved (${sentry.shallow.blocks} blocks)`);
  assert.match(text.reading, /^Not resolved at depth 8, \d\.\d× `none`'s CPU per request at depth 256/);
  assert.ok(!picturePoints(summary).points.some((p) => p.strategy === 'sentry' && p.estimate === 4.9));
  assert.deepStrictEqual(contradictions(summary), []);
  // …and the check names a cell that shows it as a number all the same.
  const texts = rendered(summary);
  texts.find((x) => x.row.strategy === 'sentry').text.shallow = '4.9% [1.0%–9.0%]';
  texts.find((x) => x.row.strategy === 'als').text.latency = '+0.02 ms [−0.28…+0.32]';
  assert.deepStrictEqual(contradictions(summary, texts), [
    'als: p99 added shows "+0.02 ms [−0.28…+0.32]", a difference whose interval holds 0',
    'sentry: Depth 8 shows "4.9% [1.0%–9.0%]", an interval wider than the figure itself',
  ]);
});

// A second run of the fixtures' default run on the same machine, its first `consistent` of
// its ten ratios consistent (the bar: 9 in 10).
function reproOfDefault(consistent, same = true) {
  const def = load().get('default.json').run;
  const ids = def.configs.filter((c) => c.strategy !== def.settings.baseline && c.arm !== 'aa').map((c) => c.id);
  return {
    file: 'results/repro-default.json',
    name: 'repro-default',
    run: {
      schema: 2,
      kind: 'repro',
      title: 'repro (synthetic)',
      files: [path.join(FIXTURES, 'default.json'), 'results/runs/default-b.json'],
      repro: {
        machines: { same },
        rows: ids
          .slice(0, 10)
          .map((id, i) => ({ id, a: { estimate: 1 }, b: { estimate: 1 }, consistent: i < consistent })),
      },
    },
  };
}

test('76.4: a figure short of ±2 pp, or whose second run fell below its bar, carries †; one note says why', () => {
  const summary = summaryFrom(SAME_MACHINE);
  const dagger = (s, strategy, key) => textOf(s, strategy)[key].includes('†');
  // default.json's precision record: als and otel at depth 8 missed ±2 pp (±2.08, ±2.88);
  // alscontext-als missed its own ±1 pp target at ±1.20, within what the headline promises.
  assert.ok(dagger(summary, 'als', 'shallow') && dagger(summary, 'otel', 'shallow'));
  for (const [st, key] of [
    ['alscontext-als', 'shallow'],
    ['param', 'shallow'],
    ['als', 'deep'],
    ['cls-hooked', 'shallow'],
  ])
    assert.ok(!dagger(summary, st, key), `${st} ${key}`);
  const daggerNotes = notes(summary).filter((n) => n.startsWith('†'));
  assert.strictEqual(daggerNotes.length, 1);
  assert.match(daggerNotes[0], /^†: short of what the headline promises: its study did not reach ±2 pp for this/);
  // Every study reached the promise, and no second run: no mark, no note.
  const reached = (run) => ({ ...run, precision: { ...run.precision, missing: [] } });
  const precise = {
    'popular.json': (run) => reached(onXeon(run)),
    'default.json': reached,
    'io.json': reached,
  };
  assert.ok(!anyDagger(summaryFrom(precise)));
  assert.ok(!notes(summaryFrom(precise)).some((n) => n.startsWith('†')));
  // A second run of the default run: 9 of 10 consistent meets the bar; 8 of 10 does not, and
  // every figure it compared is marked (its ratios beyond the tenth were not compared).
  assert.ok(!anyDagger(summaryFrom(precise, [reproOfDefault(9)])));
  const below = summaryFrom(precise, [reproOfDefault(8)]);
  const marked = rendered(below).filter(({ text }) => text.shallow?.includes('†') || text.deep?.includes('†'));
  assert.ok(marked.length >= 5, marked.map((x) => x.row.strategy).join());
  for (const { row } of marked)
    assert.strictEqual([row.shallow, row.deep].find((c) => c?.short)?.short.repro.code, 'below', row.strategy);
  // Another machine's run is a comparison, not a second run: no mark.
  assert.ok(!anyDagger(summaryFrom(precise, [reproOfDefault(0, false)])));
});

test('76: Keeps the id? and the Reading name and count one list of everyday patterns; a disagreement is named', () => {
  const summary = summaryFrom(SAME_MACHINE);
  const broken = rendered(summary).filter((x) => x.row.ids.verdict === 'broken');
  assert.deepStrictEqual(
    broken.map((x) => x.row.strategy),
    ['alscontext', 'express-http-context'],
  );
  for (const { row, text } of broken) {
    const cell = everydayListed(text.ids);
    assert.deepStrictEqual(cell, everydayListed(text.reading, { reading: true }), row.strategy);
    assert.strictEqual(cell.total, row.ids.everyday.length, row.strategy);
  }
  assert.strictEqual(textOf(summary, 'alscontext').ids, '✗ chain-await, chain-mixed, nested (+2 more)');
  assert.match(textOf(summary, 'alscontext').reading, /\(chain-await, chain-mixed, nested and 2 more\): not safe\.$/);
  // Planted: the cell counting every pattern lost (its count before issue 76), the Reading the
  // everyday ones.
  const texts = rendered(summary);
  texts.find((x) => x.row.strategy === 'alscontext').text.ids = '✗ chain-await, chain-mixed, nested (+5 more)';
  assert.deepStrictEqual(contradictions(summary, texts), [
    'alscontext: Keeps the id? counts 8 (chain-await, chain-mixed, nested) everyday patterns while the Reading ' +
      'counts 5 (chain-await, chain-mixed, nested)',
  ]);
});

test('76: each note under the headline reads in a minute: at most about 300 characters as a reader sees it', () => {
  const summary = summaryFrom(SAME_MACHINE, [reproOfDefault(8)]);
  // The F1 column's note too (the fixture's intervals keep it off the table; the note is the
  // same either way).
  Object.assign(
    summary.columns.find((c) => c.key === 'deploy'),
    { shown: true, leaves: null },
  );
  const all = notes(summary);
  assert.ok(all.length >= 12, all.length);
  for (const n of all) assert.ok(visible(n).length <= NOTE_CHARS, `${visible(n).length}: ${n}`);
  // Six disagreements with the instruction counts: as many named as fit, the rest counted.
  assert.match(
    all.find((n) => n.startsWith('The default run and instruction counts')),
    /\) and \d more \(\[instructions\]\(instructions\.md\)\); both can hold/,
  );
  assert.strictEqual(visible('[a](b.md) `c`'), 'a c');
});
