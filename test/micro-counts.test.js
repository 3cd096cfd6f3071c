'use strict';
// Tier: quick (micro --method instructions' refusals and the comparison of committed
// count runs; the count under Valgrind is in test/all/micro-counts.test.js)
// `ctxbench micro --method instructions` without Valgrind's run: its bad settings, and
// count runs (a real one, test/fixtures/results/micro-instructions.json) compared by repro --compare
// and refused by compare. The planted loop counted under Valgrind:
// test/all/micro-counts.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli } = require('./helpers/cli');

test('--method instructions: bad settings are one line', async () => {
  const bad = await runCli(['micro', '--method', 'cycles']);
  assert.strictEqual(bad.code, 1);
  assert.match(bad.stderr, /--method cycles is not valid; expected time or instructions/);
  const mixed = await runCli(['micro', '--windows', '2']);
  assert.strictEqual(mixed.code, 1);
  assert.match(mixed.stderr, /--max-warmup-windows and --windows are instruction-count settings/);
  assert.doesNotMatch(bad.stderr + mixed.stderr, /\n\s+at /);
});

// Two micro count runs: each strategy's instructions per operation against the baseline's,
// judged within 0.5% as the server count runs are (analysis/repro.js).
test('repro --compare on two micro count runs: a ratio moved by 1% is beyond 0.5%, an unchanged one within', () => {
  const { reproCompare } = require('../analysis/repro');
  const { render: renderRepro } = require('../report/sections/repro');
  const a = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'results', 'micro-instructions.json'), 'utf8'));
  const b = structuredClone(a);
  const als = b.micro.results.find((e) => e.strategy === 'als');
  als.scenarios.run.perOp *= 1.01;
  const r = reproCompare(a, b);
  assert.strictEqual(r.instructions.unit, 'operation');
  const row = (id) => r.rows.find((x) => x.id === id);
  assert.ok(
    row('node24/als/run').differencePct > 0.9 && row('node24/als/run').differencePct < 1.1,
    String(row('node24/als/run').differencePct),
  );
  assert.strictEqual(row('node24/als/current').differencePct, 0);
  assert.ok(!r.rows.some((x) => x.id.startsWith('node24/none/')), 'the baseline is no ratio');
  assert.strictEqual(r.instructions.within, r.compared - 1);
  const md = renderRepro({ kind: 'repro', title: 'micro repro', repro: r });
  assert.match(md, /instructions\/op, a → b/);
  assert.match(md, /`node24\/als\/run` .*❌/);
});

test('compare refuses a micro run in one line; repro --compare takes it', async () => {
  const file = path.join(__dirname, 'fixtures', 'results', 'micro-instructions.json');
  const gate = await runCli(['compare', file, file]);
  assert.strictEqual(gate.code, 3);
  assert.match(
    gate.stderr,
    /^ctxbench: compare gates server runs \(ctxbench run\); micro runs are compared with ctxbench repro --compare/,
  );
  const repro = await runCli(['repro', '--compare', file, file]);
  assert.strictEqual(repro.code, 0, repro.stderr);
  assert.match(repro.stdout, /ratios within 0\.5% of each other/);
});
