'use strict';
// Tier: quick (the run command's terminal summary on a synthetic run)
// The summary `ctxbench run` prints at the end: every configuration with its ratio, its
// interval and verdict, and the id check, and where the report was written.
const test = require('node:test');
const assert = require('node:assert');
const { runSummary } = require('../report/terminal');

// A summary whose ratio carries its judgement (the data a run saves; the terminal words it).
const summary = (estimate, ci95, judgement, counts = {}) => ({
  ratio: estimate === null ? null : { estimate, ci95, halfWidthPct: ((ci95[1] - ci95[0]) / 2) * 100, judgement },
  mismatches: 0,
  lost: 0,
  ...counts,
});

const SLOWER = { significant: true, direction: 'slower', changePct: -3, reason: 'significant' };
const SAME = { significant: false, direction: null, changePct: 0, reason: 'no difference' };
const BROKEN = { significant: false, direction: null, changePct: null, reason: 'broken' };

test(
  'runSummary: a row per configuration with ratio, interval, ' +
    'verdict and the id check; a broken strategy and the leaking control are named',
  () => {
    const run = {
      status: 'complete',
      measuringSeconds: 120.4,
      settings: { preset: 'default', method: 'duet', baseline: 'none' },
      configs: [
        { strategy: 'none', depth: 8, summary: summary(null, null, null, { lost: 100 }) },
        { strategy: 'als', depth: 8, summary: summary(0.97, [0.96, 0.98], SLOWER) },
        {
          strategy: 'global',
          depth: 8,
          summary: summary(1.0, [0.99, 1.01], SAME, { mismatches: 42 }),
        },
        {
          strategy: 'cls-hooked',
          depth: 8,
          summary: summary(0.4, [0.39, 0.41], BROKEN, { lost: 3 }),
        },
        {
          strategy: 'none',
          arm: 'aa',
          depth: 8,
          summary: summary(1.0, [0.98, 1.02], SAME, { lost: 100 }),
        },
        { strategy: 'otel', depth: 8, summary: null, error: { message: 'server exited (code 1) before listening' } },
      ],
    };
    const text = runSummary(run, { out: 'results/default.json', report: 'results.md' });
    const line = (start) => text.split('\n').find((l) => l.startsWith(start));
    assert.match(text, /ctxbench default: complete, duet, 120 s of measuring/);
    assert.match(line('none      '), /baseline\s+n\/a \(carries no id\)/);
    assert.match(line('als'), /97\.0% \[96\.0%–98\.0%\]\s+3\.0% slower, significant\s+ok, every id kept/);
    assert.match(line('global'), /42 mismatched, 0 lost \(control: must leak\)/);
    assert.match(line('cls-hooked'), /context broken, cost not comparable\s+BROKEN: 0 mismatched, 3 lost/);
    assert.match(line('none (A/A twin)'), /100\.0% \[98\.0%–102\.0%\]/);
    assert.match(line('otel'), /not measured\s+server exited \(code 1\) before listening/);
    assert.match(text, /Precision: median ±1\.00 pp, worst ±2\.00 pp/);
    assert.match(
      text,
      new RegExp(
        String.raw`Full report: results\.md; run JSON: results/default\.json\nHTML report \(charts, ` +
          String.raw`sortable tables; open it in a browser\): results/index\.html\n`,
      ),
    );
    assert.match(runSummary(run, { out: 'x.json', report: 'none' }), /Full report: \(none written\)/);
    assert.doesNotMatch(runSummary(run, { out: 'x.json', report: 'none' }), /HTML report/);
  },
);

test(
  'runSummary of a pair run: a strategy that fell behind the rate its baseline kept ' +
    'reads "cannot serve" with its blocks, not a ratio, and is left out of the precision',
  () => {
    const file = require('node:path').join(__dirname, 'fixtures', 'results', 'io.json');
    const run = JSON.parse(require('node:fs').readFileSync(file, 'utf8'));
    const text = runSummary(run, { out: 'results/io.json' });
    const sentry = text.split('\n').find((l) => /^sentry\s+8\s+pg\s/.test(l));
    assert.match(sentry, /cannot serve [\d,]+ req\/s\s+fell behind the rate its baseline kept \(in \d of \d blocks\)/);
    // The precision line counts the figures shown: a run whose every candidate kept its rate
    // and the same run without the strategies that did not differ only by those.
    const held = {
      ...run,
      configs: run.configs.filter(
        (c) =>
          !text
            .split('\n')
            .some((l) => l.startsWith(`${c.strategy} `) && l.includes(`${c.hop} `) && l.includes('cannot serve')),
      ),
    };
    assert.strictEqual(runSummary(held, { out: 'x' }).match(/^Precision: .*$/m)[0], text.match(/^Precision: .*$/m)[0]);
  },
);
