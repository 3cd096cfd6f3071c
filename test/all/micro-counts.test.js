'use strict';
// Tier: all (needs Valgrind: micro --method instructions counts a planted loop under callgrind)
// `ctxbench micro --method instructions` end to end, under Valgrind: a planted strategy
// whose current() runs a fixed loop of 1,000 steps must come out at least that many
// instructions per call dearer than `none`, and the report shows the counts. Structure and
// a planted difference only: no exact count is asserted. Its refusals and the comparison
// of count runs: test/micro-counts.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const systemTools = require('../../lib/system-tools');
const { runCli } = require('../helpers/cli');
const { findValgrind } = require('../../bench/measure/callgrind');
const { render } = require('../../report/sections/micro');
const { tempDir } = require('../helpers/tmp');

const tmp = tempDir('ctxbench-micro-counts-');
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

// Correct (the id travels on the request, as with `param`), plus 1,000 loop steps per
// current(): a few instructions each, however V8 compiles them.
const PLANTED = path.join(tmp, 'planted-work.js');
fs.writeFileSync(
  PLANTED,
  `'use strict';
let sink = 0;
module.exports = {
  run: (id, fn) => fn(),
  current(req) {
    let x = sink;
    for (let i = 0; i < 1000; i++) x = (x * 31 + i) | 0;
    sink = x;
    return req.traceId;
  },
};
`,
);

test('instruction counts: a planted 1,000-step loop per current() is counted', { timeout: 1200000 }, async (t) => {
  if (!findValgrind()) {
    t.skip(`${systemTools.hint('valgrind')} (.ci/run installs it)`);
    return;
  }
  const out = path.join(tmp, 'counts.json');
  const { code, stderr } = await runCli(
    [
      'micro',
      '--method',
      'instructions',
      '--strategies',
      'planted-work',
      '--scenarios',
      'current',
      '--max-warmup-windows',
      '0',
      '--windows',
      '1',
      '--out',
      out,
      '--report',
      'none',
    ],
    { env: { CTXBENCH_MICRO_EXTRA: PLANTED }, timeoutMs: 1100000 },
  );
  assert.strictEqual(code, 0, stderr);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.strictEqual(run.status, 'complete');
  assert.strictEqual(run.settings.method, 'instructions');
  assert.deepStrictEqual(
    run.micro.results.map((e) => e.strategy),
    ['none', 'planted-work'],
  );
  const perOp = Object.fromEntries(run.micro.results.map((e) => [e.strategy, e.scenarios.current.perOp]));
  for (const [name, n] of Object.entries(perOp)) assert.ok(n > 0, `${name}: ${n} instructions per current()`);
  const planted = run.micro.results[1];
  assert.ok(
    planted.vsBaseline.current.addedPerOp >= 1000,
    `the planted loop adds ${planted.vsBaseline.current.addedPerOp} instructions per call`,
  );
  for (const e of run.micro.results) {
    assert.strictEqual(e.error, null);
    assert.strictEqual(e.checks.current.failures, 0, `${e.strategy} read what it put in the context`);
    assert.strictEqual(e.scenarios.current.windows.length, 1);
    const sc = e.scenarios.current;
    assert.ok(sc.overhead > 0, "the empty window's cost is measured");
    // Taken again once warm (the cold one is kept apart), and the measured windows are net
    // of the warm one, at an n sized on the warm count (never fewer than the warm-up's).
    assert.ok(sc.coldOverhead > 0, 'the cold empty window is recorded apart');
    assert.ok(
      sc.iterations >= sc.warmupIterations,
      `${sc.iterations} measured iterations, ${sc.warmupIterations} in warm-up windows`,
    );
    for (const w of sc.windows) assert.strictEqual(w.perIteration, (w.instructions - sc.overhead) / sc.iterations);
  }
  const md = render(run, { file: 'counts.json' });
  assert.match(md, /instructions per operation/i);
  assert.match(md, /\| `planted-work` \| [\d,]+ \(\+[\d,]+\)/);
});
