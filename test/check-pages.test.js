'use strict';
// Tier: quick (scripts/check-pages.js over fixture pages and a synthetic run's report in a temp dir)
// The small untruths of a page (issue 76, items 4 and 6): the check names page and line of each
// one planted in test/fixtures/pages/planted, passes the clean pages, and passes the report of a
// run whose recorded command, why and settings would each have planted one.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { check } = require('../scripts/check-pages');
const { buildReport } = require('../report');
const { makeRun2 } = require('./helpers/run2');
const { tempDir } = require('./helpers/tmp');

const FIXTURES = path.join(__dirname, 'fixtures', 'pages');

test('the clean pages pass', () => {
  assert.deepStrictEqual(check(path.join(FIXTURES, 'clean')), []);
});

test('each planted untruth is named with its page and line', () => {
  const failures = check(path.join(FIXTURES, 'planted'));
  const where = (x) => x.split(': ')[0];
  assert.deepStrictEqual(failures.map(where), [
    'results.md:3',
    'results/machine.md:4',
    'results/machine.md:7',
    'results/machine.md:9',
    'results/repro-across.md:7',
    'results/repro-count.md:7',
    'results/repro-count.md:7',
    'results/repro-count.md:9',
    'results/self.md:3',
    'results/self.md:5',
    'results/settings.md:3',
    'results/settings.md:3',
  ]);
  const said = failures.join('\n');
  assert.match(said, /results\/self\.md:3: sends the reader to itself \(results\/self\.md\)/);
  assert.match(said, /machine\.md:4: an absolute path of the measuring machine \(\/work\/main\/results\/appengine/);
  assert.match(said, /machine\.md:9: .*\(\/tmp\/instr2\/a\.json\)/, 'not the URL on the same line');
  assert.doesNotMatch(said, /healthz|example\.com/);
  assert.match(said, /settings\.md:3: the Settings line says precision twice/);
  assert.match(said, /settings\.md:3: the Settings line says "blocks 6", the page measured 8 blocks/);
  assert.match(said, /repro-across\.md:7: "At or above the bar" on a page that says it is no second reading/);
  assert.match(said, /repro-count\.md:7: "At or above the bar" with 12 of 14 consistent/);
  assert.match(said, /repro-count\.md:7: the verdict counts 13 of 14, the page 12 of 14/);
});

test('the script exits 1 naming page and line, and 0 on clean pages (--dir)', () => {
  const { spawnSync } = require('node:child_process');
  const script = path.join(__dirname, '..', 'scripts', 'check-pages.js');
  const bad = spawnSync(process.execPath, [script, '--dir', path.join(FIXTURES, 'planted')], { encoding: 'utf8' });
  assert.strictEqual(bad.status, 1);
  assert.match(bad.stderr, /^check-pages: results\.md:3: sends the reader to itself/m);
  const good = spawnSync(process.execPath, [script, '--dir', path.join(FIXTURES, 'clean')], { encoding: 'utf8' });
  assert.strictEqual(good.status, 0, good.stderr);
});

test("the report of a run whose command, why and settings would each plant one passes", async () => {
  const dir = tempDir('ctxbench-pages-');
  const resultsDir = path.join(dir, 'results');
  fs.mkdirSync(resultsDir);
  const run = makeRun2({ seed: 7, blocks: 5, strategies: { als: 0.9 } });
  // Recorded before commands were recorded relative to the project; its preset's why names
  // this very page; 2 blocks asked as a minimum, 5 measured for a precision target.
  run.command = 'ctxbench run --preset study --out /work/main/results/study.json --trace /tmp/x7/trace.log';
  run.settings = { ...run.settings, why: 'each strategy beside `none` (details: results/study.md)', blocks: 2 };
  run.settings.precision = 2;
  run.settings.maxTime = 600;
  run.precision = { target: 2, reached: true, elapsedS: 100, maxTimeS: 600, blocks: 5, missing: [] };
  fs.writeFileSync(path.join(resultsDir, 'study.json'), JSON.stringify(run));
  await buildReport({ resultsDir, out: path.join(dir, 'results.md') });
  assert.deepStrictEqual(check(dir), []);
  const page = fs.readFileSync(path.join(resultsDir, 'study.md'), 'utf8');
  assert.match(page, /^\*\*What this run is:\*\* each strategy beside `none`\.$/m);
  assert.match(page, /--out results\/study\.json --trace …\/trace\.log/);
  const settings = page.split('\n').find((l) => l.startsWith('**Settings:**'));
  assert.match(settings, / · precision ±2 pp within 600 s · blocks 5 measured \(at least 2 asked\) · /);
  assert.strictEqual(settings.match(/ precision /g).length, 1, settings);
});
