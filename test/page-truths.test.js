'use strict';
// Tier: quick (the report's page rules and the command's recording on synthetic runs and strings)
// What a page says of itself and of the run (issue 76, items 4 and 6): the Settings line's blocks
// as measured beside the number asked, each setting once; a page's mention of its own file
// dropped or reworded; the machine's absolute paths shown by one rule wherever the report is
// rendered; and a command recorded with the project's paths relative to it.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { settingsSection } = require('../report/sections/run');
const { withoutSelf, shownPaths } = require('../report/pages');
const { projectRelative, redactArgs } = require('../bench/services/services');
const { session } = require('../bench/run/session');
const { freezePlan } = require('../lib/plan');
const { makeRun2 } = require('./helpers/run2');
const { tempDir } = require('./helpers/tmp');

const ROOT = path.resolve(__dirname, '..');
const blocksOf = (line) => line.split(' · ').find((x) => x.startsWith('blocks '));

test('the Settings line says the blocks measured beside the blocks asked, and each setting once', () => {
  const run = makeRun2({ seed: 3, blocks: 5 });
  // A precision target: the blocks asked are a minimum.
  const precise = { ...run, settings: { ...run.settings, blocks: 3, precision: 2, maxTime: 600 } };
  const line = settingsSection(precise);
  assert.strictEqual(blocksOf(line), 'blocks 5 measured (at least 3 asked)');
  assert.deepStrictEqual(line.match(/precision[^·]*/g), ['precision ±2 pp within 600 s '], line);
  // No target: the number asked is the number measured, said once; a stopped run says both.
  assert.strictEqual(blocksOf(settingsSection({ ...run, settings: { ...run.settings, blocks: 5 } })), 'blocks 5');
  const stopped = { ...run, status: 'interrupted', settings: { ...run.settings, blocks: 8 } };
  assert.strictEqual(blocksOf(settingsSection(stopped)), 'blocks 5 measured (8 asked)');
  // Without samples (a section that hands none), what the precision record counted, else the number asked.
  const bare = { ...precise, configs: [], precision: { blocks: 7 } };
  assert.strictEqual(blocksOf(settingsSection(bare)), 'blocks 7 measured (at least 3 asked)');
  assert.strictEqual(blocksOf(settingsSection({ ...bare, precision: undefined })), 'blocks 3');
});

test("a page's mention of itself is dropped or reworded; other pages' and fenced commands stay", () => {
  const self = { forms: ['results/study.md'], links: ['study.md'] };
  const page = [
    'what it is (details: results/study.md).',
    'the engines (details: results/a.md, results/study.md, results/b.md)',
    '[the table](study.md#results), [this page](./study.md), [back](../results/study.md) and [a](a.md)',
    'read results/study.md beside results/study.md.json and results/study-b.md',
    '```sh',
    'ctxbench report --out results/study.md',
    '```',
  ].join('\n');
  assert.strictEqual(
    withoutSelf(page, self),
    [
      'what it is.',
      'the engines (details: results/a.md, results/b.md)',
      '[the table](#results), this page, back and [a](a.md)',
      'read this page beside results/study.md.json and results/study-b.md',
      '```sh',
      'ctxbench report --out results/study.md',
      '```',
    ].join('\n'),
  );
});

test("the machine's absolute paths are shown by one rule, never a URL's path", () => {
  const cases = [
    ['--out /work/main/results/appengine-f1.json', '--out results/appengine-f1.json'],
    ['--out=/home/me/ctxbench/results/x.json', '--out=results/x.json'],
    ['--out /tmp/instr2/a.json', '--out …/a.json'],
    ['--out /tmp/results/x.json', '--out …/x.json'],
    ['"\\"/root/.cache/ctxbench/node-24/bin/node\\" app.js"', '"\\"$HOME/.cache/ctxbench/node-24/bin/node\\" app.js"'],
    ['/Users/me/.cache/ctxbench/node-20/bin/node', '$HOME/.cache/ctxbench/node-20/bin/node'],
    ['/home/me/svc/server.js', '…/server.js'],
    ['--health /healthz --path /orders/7 https://h.example/tmp/x ../../work/main/x', null],
  ];
  for (const [given, shown] of cases) assert.strictEqual(shownPaths(given), shown ?? given, given);
});

test('a command is recorded with the paths under the project relative to it', async () => {
  assert.strictEqual(
    projectRelative(`ctxbench run --out ${ROOT}/results/x.json --root ${ROOT} --trace /tmp/t.log`),
    'ctxbench run --out results/x.json --root . --trace /tmp/t.log',
  );
  assert.strictEqual(projectRelative(`${ROOT}-other/results/x.json`), `${ROOT}-other/results/x.json`);
  assert.deepStrictEqual(redactArgs(['--out', `${ROOT}/results/x.json`, `--pg-url=postgres://u:pw@h/d`]), [
    '--out',
    'results/x.json',
    '--pg-url=postgres://u:***@h/d',
  ]);
  // The one place every measuring command's line enters its run JSON.
  const out = path.join(tempDir('ctxbench-session-'), 'run.json');
  const run = await session({
    kind: 'run',
    title: 't',
    command: `ctxbench run --out ${ROOT}/results/probe.json`,
    settings: freezePlan({}),
    out,
    part: { configs: [] },
    environment: {},
    measure: async () => {},
  });
  assert.strictEqual(run.command, 'ctxbench run --out results/probe.json');
  assert.strictEqual(JSON.parse(fs.readFileSync(out, 'utf8')).command, run.command);
});
