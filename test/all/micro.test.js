'use strict';
// Tier: all (a second real micro run, interrupted; the quick tier has the full quick run)
// `ctxbench micro` interrupted (test/micro.test.js has its end-to-end run and the
// statistics): SIGINT keeps the rounds already measured, status interrupted.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCliInterrupted, readRunSoFar } = require('../helpers/cli');
const { render } = require('../../report/sections/micro');
const { tempDir } = require('../helpers/tmp');
const { plantSlow } = require('../helpers/micro-planted');

const tmp = tempDir('ctxbench-micro-');
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('SIGINT keeps the rounds already measured (status interrupted)', async () => {
  const file = path.join(tmp, 'interrupted.json');
  const r = await runCliInterrupted(
    ['micro', '--strategies', 'planted-slow,als,global', '--quick', '--out', file, '--report', 'none'],
    { env: plantSlow(tmp), everyMs: 25, when: () => readRunSoFar(file)?.micro?.results.length >= 1 },
  );
  assert.ok(r.sent, 'the first process finished');
  assert.strictEqual(r.code, 130, r.stderr);
  const run = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.strictEqual(run.status, 'interrupted');
  assert.ok(run.micro.results.length >= 1 && run.micro.results.length < 4);
  assert.strictEqual(run.micro.roundsDone, 0);
  const first = run.micro.results[0];
  assert.strictEqual(first.strategy, 'none');
  assert.strictEqual(first.error, null);
  assert.deepStrictEqual(
    first.rounds.map((x) => x.round),
    [0],
    'the finished process is kept, the killed one dropped',
  );
  assert.ok(Number.isFinite(first.scenarios.sync.meanUs));
  assert.match(render(run), /Status: interrupted\.\*\* The run stopped early: 0 of 3 rounds finished/);
});
