'use strict';
// Tier: all (a second real micro run, interrupted; the quick tier has the full quick run)
// `ctxbench micro` interrupted (test/micro.test.js has its end-to-end run and the
// statistics): SIGINT keeps the rounds already measured, status interrupted.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli } = require('../helpers/cli');
const { render } = require('../../report/sections/micro');
const { tempDir } = require('../helpers/tmp');

const tmp = tempDir('ctxbench-micro-');
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

// A planted strategy with a known cost: every current() busy-waits 20 µs, and it is
// otherwise correct (the id travels on the request, as with `param`). Loaded through the
// test-only CTXBENCH_MICRO_EXTRA hook (micro/strategies.js).
const PLANTED = path.join(tmp, 'planted-slow.js');
fs.writeFileSync(
  PLANTED,
  `'use strict';
const BURN_NS = 20000n;
module.exports = {
  run: (id, fn) => fn(),
  current(req) {
    const end = process.hrtime.bigint() + BURN_NS;
    while (process.hrtime.bigint() < end);
    return req.traceId;
  },
};
`,
);

// The planted strategy exists only with its environment variable; { env: process.env } runs without it.
const ctxbench = (args, { env = { CTXBENCH_MICRO_EXTRA: PLANTED }, ...options } = {}) =>
  runCli(args, { env, ...options });

test('SIGINT keeps the rounds already measured (status interrupted)', async () => {
  const file = path.join(tmp, 'interrupted.json');
  let sent = false;
  const r = await ctxbench(
    ['micro', '--strategies', 'planted-slow,als,global', '--quick', '--out', file, '--report', 'none'],
    {
      onSpawn(child) {
        const timer = setInterval(() => {
          let n;
          try {
            n = JSON.parse(fs.readFileSync(file, 'utf8')).micro.results.length;
          } catch {
            return; // not written yet
          }
          if (n >= 1 && !sent) {
            sent = true;
            clearInterval(timer);
            child.kill('SIGINT');
          }
        }, 25);
        child.on('close', () => clearInterval(timer));
      },
    },
  );
  assert.ok(sent, 'the first process finished');
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
