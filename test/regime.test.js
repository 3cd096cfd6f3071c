'use strict';
// Tier: quick (regime shifts on the committed run and synthetic series)
// Regime shifts: analysis/stats.js levelShift and the report's per-regime ratios, on the
// committed default run (schema 1) whose baseline ran at ~5.3k/~8k req/s in rounds 0–8.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const stats = require('../analysis/stats');
const random = require('./helpers/random');
const { render } = require('../report/sections/run');

// The earlier design's default run (commit e25c213), kept as a fixture: its `none` d8
// baseline split into two levels (~5.3k vs ~8k req/s) in rounds 0-8.
const committed = path.join(__dirname, 'fixtures', 'default-schema1-e25c213.json');
const byRound = (c) =>
  c.samples
    .slice()
    .sort((a, b) => a.round - b.round)
    .map((s) => s.rps);

test('the committed default run: a shift in none d8, none in none d256', () => {
  const run = JSON.parse(fs.readFileSync(committed, 'utf8'));
  const d8 = stats.levelShift(byRound(run.configs.find((c) => c.id === 'express/none/d8/immediate/node20')));
  assert.ok(d8, 'shift flagged');
  assert.strictEqual(d8.at, 8);
  assert.ok(d8.before < 6500 && d8.after > 7500, `${d8.before} -> ${d8.after}`);
  assert.strictEqual(
    stats.levelShift(byRound(run.configs.find((c) => c.id === 'express/none/d256/immediate/node20'))),
    null,
  );
});

test('levelShift finds a planted shift where it is and rarely flags a steady series', () => {
  const { normal } = random.rng(77);
  const planted = Array.from({ length: 20 }, (_, i) => 8000 * (i < 12 ? 1 : 1.25) * Math.exp(0.04 * normal()));
  const s = stats.levelShift(planted);
  assert.ok(s);
  assert.strictEqual(s.at, 12);
  assert.ok(Math.abs(s.shiftPct - 25) < 6, `${s.shiftPct}`);
  // Steady but noisy series (10% per sample, so 10% level differences arise by chance):
  // the Bonferroni-corrected scan keeps false flags near alpha = 5%; uncorrected it flags ~19%.
  const steady = random.rng(78).normal;
  let flagged = 0;
  for (let i = 0; i < 200; i++)
    if (stats.levelShift(Array.from({ length: 18 }, () => 8000 * Math.exp(0.1 * steady())))) flagged++;
  assert.ok(flagged <= 20, `${flagged} of 200 steady series flagged`);
  assert.strictEqual(stats.levelShift([1, 2, 3]), null);
});

test('the report flags the shift and shows each ratio per regime', async () => {
  const run = JSON.parse(fs.readFileSync(committed, 'utf8'));
  const md = await render(run, {});
  const section = md.slice(md.indexOf('### Regime shifts'));
  assert.ok(md.includes('### Regime shifts'));
  assert.match(
    section,
    /Regime shift in `express\/none\/d8\/immediate\/node20`:\*\* rounds 0–7 ran at [\d,]+ req\/s, rounds 8–17/,
  );
  const als = section.split('\n').find((l) => l.startsWith('| `als` |'));
  const cells = als.split('|').map((c) => c.trim());
  // first regime, second regime, whole run: three different intervals, the whole run's the familiar 79.8%.
  assert.match(cells[2], /^\d+\.\d% \[/);
  assert.match(cells[3], /^\d+\.\d% \[/);
  assert.match(cells[4], /^79\.8% \[72\.0%–88\.4%\]$/);
  assert.notStrictEqual(cells[2], cells[3]);
  assert.doesNotMatch(section.split('### ')[1], /none\/d256/);
});
