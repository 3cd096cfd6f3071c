'use strict';
// A verdict is data (analysis/summary.js judge): the sentence a reader sees is written
// from it by verdictText, and no code reads a sentence back. Rewording a sentence must
// not change what the summary concludes.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { judge, judgeInstructions, judgementOf, verdictText, verdict, BROKEN, CLIENT_BOUND } = require('../analysis/summary');
const { strategySummary } = require('../analysis');
const { readingText } = require('../report/strategy-summary');

const ROOT = path.join(__dirname, '..');

test('judge: significance, direction and reason as data; verdictText writes the one sentence from it', () => {
  const slower = judge({ estimate: 0.93, pValue: 0.001, n: 3 });
  assert.deepStrictEqual({ ...slower, changePct: Math.round(slower.changePct * 10) / 10 }, { significant: true, direction: 'slower', changePct: -7, reason: 'significant' });
  assert.strictEqual(verdictText(slower), '7.0% slower, significant');
  assert.strictEqual(verdictText(slower, { on: '24' }), '7.0% slower on 24, significant');
  const faster = judge({ estimate: 1.031, pValue: 0.01, n: 3 });
  assert.deepStrictEqual([faster.direction, verdictText(faster)], ['faster', '3.1% faster, significant']);
  const same = judge({ estimate: 0.99, pValue: 0.4, n: 3 });
  assert.deepStrictEqual([same.significant, same.direction, same.reason, verdictText(same)], [false, null, 'no difference', 'no significant difference']);
  assert.deepStrictEqual([judge({ estimate: 0.9, pValue: null, n: 1 }).reason, verdict({ estimate: 0.9, pValue: null, n: 1 })], ['too few samples', 'not enough samples']);
  assert.deepStrictEqual([judge({ estimate: 0.5, pValue: 0.001, n: 3 }, 0.05, { broken: true }).significant, verdict({ estimate: 0.5, pValue: 0.001, n: 3 }, 0.05, { broken: true })], [false, BROKEN]);
  assert.strictEqual(verdict({ estimate: 0.5, pValue: 0.001, n: 3 }, 0.05, { clientBound: true }), CLIENT_BOUND);
  // Micro: a cost in percent of a time ratio (positive = slower).
  assert.strictEqual(judge({ estimate: 1.2, pValue: 0.001, n: 3 }, 0.05, { costPct: 20 }).direction, 'slower');
  // Counts: a direction only when every window ratio lies on one side of 100%.
  const more = judgeInstructions({ estimate: 0.98, range: [0.979, 0.981] });
  assert.deepStrictEqual([more.significant, more.direction, verdictText(more, { quantity: 'instructions' })], [true, 'slower', '2.0% more instructions']);
  const even = judgeInstructions({ estimate: 0.999, range: [0.998, 1.001] });
  assert.deepStrictEqual([even.significant, verdictText(even, { quantity: 'instructions' })], [false, 'no difference in instructions']);
});

test('judgementOf: a stored judgement is the answer; a ratio saved before judgements were kept is judged from its figures, never its sentence', () => {
  const kept = { estimate: 0.9, pValue: 0.5, n: 3, judgement: { significant: true, direction: 'slower', changePct: -10, reason: 'significant' }, verdict: 'anything at all' };
  assert.strictEqual(judgementOf(kept).significant, true);
  const legacy = { estimate: 0.9, pValue: 0.001, n: 3, verdict: 'no significant difference' };
  assert.deepStrictEqual([judgementOf(legacy).significant, judgementOf(legacy).direction], [true, 'slower']);
  assert.strictEqual(judgementOf(legacy, { broken: true }).significant, false);
});

test('the summary\'s reading follows the judgement: every verdict sentence reworded, the same conclusions', () => {
  // The stored summaries alone (samples dropped): what the analysis reads of a stored
  // ratio when it cannot recompute it. Then every stored sentence reworded.
  const run = JSON.parse(fs.readFileSync(path.join(ROOT, 'results', 'default.json'), 'utf8'));
  for (const c of run.configs) c.samples = [];
  const before = strategySummary([{ file: 'results/default.json', run }]);
  const reworded = structuredClone(run);
  for (const c of reworded.configs) {
    for (const k of ['ratio', 'cpuRatio', 'sharedRatio']) if (c.summary?.[k]) c.summary[k].verdict = 'REWORDED';
  }
  const after = strategySummary([{ file: 'results/default.json', run: reworded }]);
  const conclusions = (s) => s.rows.map((r) => [r.strategy, readingText(r.findings), r.shallow?.significant, r.deep?.significant]);
  assert.deepStrictEqual(conclusions(after), conclusions(before));
  assert.ok(before.rows.some((r) => r.shallow?.significant), 'some figure of the default run is significant');
});

// The "Done when" of issue 36, as a check on the source: no regular expression, no
// startsWith/endsWith/includes/match/replace applied to a verdict or a note.
test('no code reads a verdict or a note back from its sentence', () => {
  const dirs = ['analysis', 'report', 'bench', 'lib', 'bin'];
  const files = dirs.flatMap((d) => fs.readdirSync(path.join(ROOT, d), { recursive: true }).filter((f) => f.endsWith('.js')).map((f) => path.join(d, f)));
  const parsing = [
    /\b(verdict|note|reason|dropped)s?\??\.(startsWith|endsWith|includes|match|replace|search)\(/,
    /\/[^/\n]+\/[gimsuy]*\.test\([^)\n]*\b(verdict|note)s?\b/,
  ];
  const hits = files.flatMap((f) => fs.readFileSync(path.join(ROOT, f), 'utf8').split('\n').map((line, i) => ({ f, i: i + 1, line }))
    .filter(({ line }) => parsing.some((re) => re.test(line))))
    // analysis/method.js combines pass/fail/inconclusive values, an enum, not sentences.
    .filter(({ line }) => !/verdicts\.includes\('fail'\)/.test(line));
  assert.deepStrictEqual(hits.map(({ f, i, line }) => `${f}:${i}: ${line.trim()}`), []);
});
