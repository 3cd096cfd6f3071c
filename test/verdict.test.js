'use strict';
// Tier: quick (verdicts as data; no sentence read back: nothing started)
// A verdict is data (analysis/summary.js judge): the sentence a reader sees is written
// from it by the report (report/verdict-text.js verdictText), a run saves no sentence, and
// no code reads a sentence back. Rewording a sentence must not change what the summary
// concludes.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { judge, judgeInstructions, judgementOf } = require('../analysis/summary');
const { verdictText, ratioVerdictText, BROKEN, CLIENT_BOUND } = require('../report/verdict-text');
const { strategySummary } = require('../analysis');
const { readingText } = require('../report/strategy-summary');

const ROOT = path.join(__dirname, '..');
const verdict = (r, alpha, options) => verdictText(judge(r, alpha, options));

test('judge: significance, direction and reason as data; verdictText writes the one sentence from it', () => {
  const slower = judge({ estimate: 0.93, pValue: 0.001, n: 3 });
  assert.deepStrictEqual(
    { ...slower, changePct: Math.round(slower.changePct * 10) / 10 },
    { significant: true, direction: 'slower', changePct: -7, reason: 'significant', equivalence: null },
    'no interval given: no equivalence',
  );
  assert.strictEqual(verdictText(slower), '7.0% slower, significant');
  assert.strictEqual(verdictText(slower, { on: '24' }), '7.0% slower on 24, significant');
  const faster = judge({ estimate: 1.031, pValue: 0.01, n: 3 });
  assert.deepStrictEqual([faster.direction, verdictText(faster)], ['faster', '3.1% faster, significant']);
  const same = judge({ estimate: 0.99, pValue: 0.4, n: 3 });
  assert.deepStrictEqual(
    [same.significant, same.direction, same.reason, verdictText(same)],
    [false, null, 'no difference', 'no significant difference'],
  );
  assert.deepStrictEqual(
    [judge({ estimate: 0.9, pValue: null, n: 1 }).reason, verdict({ estimate: 0.9, pValue: null, n: 1 })],
    ['too few samples', 'not enough samples'],
  );
  assert.deepStrictEqual(
    [
      judge({ estimate: 0.5, pValue: 0.001, n: 3 }, 0.05, { broken: true }).significant,
      verdict({ estimate: 0.5, pValue: 0.001, n: 3 }, 0.05, { broken: true }),
    ],
    [false, BROKEN],
  );
  assert.strictEqual(verdict({ estimate: 0.5, pValue: 0.001, n: 3 }, 0.05, { clientBound: true }), CLIENT_BOUND);
  // Micro: a cost in percent of a time ratio (positive = slower).
  assert.strictEqual(judge({ estimate: 1.2, pValue: 0.001, n: 3 }, 0.05, { costPct: 20 }).direction, 'slower');
  // Counts: a direction only when every window ratio lies on one side of 100%.
  const more = judgeInstructions({ estimate: 0.98, range: [0.979, 0.981] });
  assert.deepStrictEqual(
    [more.significant, more.direction, verdictText(more, { quantity: 'instructions' })],
    [true, 'slower', '2.0% more instructions'],
  );
  const even = judgeInstructions({ estimate: 0.999, range: [0.998, 1.001] });
  assert.deepStrictEqual(
    [even.significant, verdictText(even, { quantity: 'instructions' })],
    [false, 'no difference in instructions'],
  );
});

test('a run saved now holds judgements and no sentence; the report words the judgement (issue 77)', () => {
  const { makeRun2 } = require('./helpers/run2');
  const { saveRun } = require('../lib/run-file');
  const { tempDir } = require('./helpers/tmp');
  const { summarize } = require('../analysis/summary');
  const run = { ...makeRun2({ seed: 5, strategies: { als: 0.93 } }), environment: {} };
  // As bench/processes/block.js keeps each config's summary current at every save.
  const base = run.configs.find((c) => c.strategy === 'none');
  for (const c of run.configs) c.summary = summarize(c, c === base ? null : base);
  const file = path.join(tempDir('ctxbench-verdict-'), 'run.json');
  saveRun(file, run);
  const text = fs.readFileSync(file, 'utf8');
  assert.ok(!/"verdict"/.test(text), 'no verdict sentence in the file');
  const saved = JSON.parse(text).configs.find((c) => c.strategy === 'als').summary;
  assert.deepStrictEqual([saved.ratio.judgement.significant, saved.ratio.judgement.direction], [true, 'slower']);
  assert.match(ratioVerdictText(saved.ratio, saved), /^\d+\.\d% slower, significant$/);
  const seven = { significant: true, direction: 'slower', changePct: -7, reason: 'significant' };
  assert.strictEqual(verdictText(seven), '7.0% slower, significant');
});

test(
  'judgementOf: a stored judgement is the answer; a ratio saved before ' +
    'judgements were kept is judged from its figures, never its sentence',
  () => {
    const kept = {
      estimate: 0.9,
      pValue: 0.5,
      n: 3,
      judgement: { significant: true, direction: 'slower', changePct: -10, reason: 'significant' },
      verdict: 'anything at all',
    };
    assert.strictEqual(judgementOf(kept).significant, true);
    const legacy = { estimate: 0.9, pValue: 0.001, n: 3, verdict: 'no significant difference' };
    assert.deepStrictEqual([judgementOf(legacy).significant, judgementOf(legacy).direction], [true, 'slower']);
    assert.strictEqual(judgementOf(legacy, { broken: true }).significant, false);
  },
);

test("the summary's reading follows the judgement: every verdict sentence reworded, the same conclusions", () => {
  // The stored summaries alone (samples dropped): what the analysis reads of a stored
  // ratio when it cannot recompute it. Then every stored sentence reworded.
  const run = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'results', 'default.json'), 'utf8'));
  for (const c of run.configs) c.samples = [];
  const before = strategySummary([{ file: 'results/default.json', run }]);
  const reworded = structuredClone(run);
  for (const c of reworded.configs) {
    for (const k of ['ratio', 'cpuRatio', 'sharedRatio']) if (c.summary?.[k]) c.summary[k].verdict = 'REWORDED';
  }
  const after = strategySummary([{ file: 'results/default.json', run: reworded }]);
  const conclusions = (s) =>
    s.rows.map((r) => [r.strategy, readingText(r.findings), r.shallow?.significant, r.deep?.significant]);
  assert.deepStrictEqual(conclusions(after), conclusions(before));
  assert.ok(
    before.rows.some((r) => r.shallow?.significant),
    'some figure of the default run is significant',
  );
});

// The "Done when" of issue 36, as a check on the source: no regular expression, no
// startsWith/endsWith/includes/match/replace applied to a verdict or a note.
test('no code reads a verdict or a note back from its sentence', () => {
  const dirs = ['analysis', 'report', 'bench', 'lib', 'bin'];
  const files = dirs.flatMap((d) =>
    fs
      .readdirSync(path.join(ROOT, d), { recursive: true })
      .filter((f) => f.endsWith('.js'))
      .map((f) => path.join(d, f)),
  );
  const parsing = [
    /\b(verdict|note|reason|dropped)s?\??\.(startsWith|endsWith|includes|match|replace|search)\(/,
    /\/[^/\n]+\/[gimsuy]*\.test\([^)\n]*\b(verdict|note)s?\b/,
  ];
  const hits = files
    .flatMap((f) =>
      fs
        .readFileSync(path.join(ROOT, f), 'utf8')
        .split('\n')
        .map((line, i) => ({ f, i: i + 1, line }))
        .filter(({ line }) => parsing.some((re) => re.test(line))),
    )
    // analysis/method.js combines pass/fail/inconclusive values, an enum, not sentences.
    .filter(({ line }) => !/verdicts\.includes\('fail'\)/.test(line));
  assert.deepStrictEqual(
    hits.map(({ f, i, line }) => `${f}:${i}: ${line.trim()}`),
    [],
  );
});

// Equivalence (two one-sided tests at 5%): "no significant difference" is never read as
// "free". The outcome of every cell of the summary is recomputed here from the run's own
// counted windows (per block mean log ratio, 90% t-interval over blocks), independently of
// analysis/verdict.js, and must match.
test(
  'equivalence: the 90% interval of the ratio against 100% ± M, ' + 'three outcomes, recomputed from the windows',
  () => {
    const { equivalence } = require('../analysis/verdict');
    const { equivalenceText } = require('../report/verdict-text');
    const { jStat } = require('jstat');
    // A worked example: df 4, 95% interval [0.986, 0.995] on the log scale.
    const r = { estimate: Math.sqrt(0.986 * 0.995), ci95: [0.986, 0.995], df: 4 };
    const eq = equivalence(r, 2);
    const se = (Math.log(0.995) - Math.log(0.986)) / 2 / jStat.studentt.inv(0.975, 4);
    const half = jStat.studentt.inv(0.95, 4) * se;
    assert.ok(Math.abs(eq.ci90[0] - r.estimate * Math.exp(-half)) < 1e-12 && eq.ci90[1] > eq.ci90[0]);
    assert.deepStrictEqual([eq.outcome, equivalenceText(eq)], ['equivalent', 'equivalent within ±2%']);
    assert.strictEqual(equivalence({ ...r, ci95: [0.95, 0.97] }, 2).outcome, 'beyond');
    assert.strictEqual(equivalence({ ...r, ci95: [0.97, 1.0] }, 2).outcome, 'cannot tell');
    assert.strictEqual(equivalence({ ...r, ci95: [0.97, 1.0] }, 5).outcome, 'equivalent', 'a wider margin');
    assert.strictEqual(equivalence({ estimate: 1, ci95: null, df: 4 }, 2), null, 'no interval, no equivalence');

    const run = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'results', 'default.json'), 'utf8'));
    const summary = strategySummary([{ file: 'results/default.json', run }]);
    let checked = 0;
    for (const row of summary.rows) {
      for (const cell of [row.shallow, row.deep]) {
        if (!cell || cell.kind !== 'ratio' || cell.broken) continue;
        const config = run.configs.find((c) => c.id === cell.source.id);
        const byBlock = new Map();
        for (const w of config.samples.filter((s) => s.kind === 'window' && s.counted)) {
          byBlock.set(w.block, [
            ...(byBlock.get(w.block) ?? []),
            Math.log(w.partnerCpuUsPerRequest) - Math.log(w.cpuUsPerRequest),
          ]);
        }
        const means = [...byBlock.values()].map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length);
        const k = means.length;
        const m = means.reduce((a, b) => a + b, 0) / k;
        const sd = Math.sqrt(means.reduce((a, b) => a + (b - m) ** 2, 0) / (k - 1));
        const t = jStat.studentt.inv(0.95, k - 1) * (sd / Math.sqrt(k));
        const [lo, hi] = [Math.exp(m - t), Math.exp(m + t)];
        const want = lo >= 0.98 && hi <= 1.02 ? 'equivalent' : lo > 1.02 || hi < 0.98 ? 'beyond' : 'cannot tell';
        assert.strictEqual(cell.equivalence.outcome, want, `${cell.source.id}: 90% [${lo}, ${hi}]`);
        assert.ok(
          Math.abs(cell.equivalence.ci90[0] - lo) < 1e-9 && Math.abs(cell.equivalence.ci90[1] - hi) < 1e-9,
          cell.source.id,
        );
        checked++;
      }
    }
    assert.ok(checked >= 10, `${checked} cells checked`);
    // The Reading says it, with its margin.
    const { readingText } = require('../report/strategy-summary');
    const param = summary.rows.find((r) => r.strategy === 'param');
    assert.match(readingText(param.findings), /^Within ±2% of the baseline at depths 8 and 256\b/);
    assert.match(readingText(summary.rows.find((r) => r.strategy === 'als').findings), /\(cannot tell within ±2%\)/);
  },
);
