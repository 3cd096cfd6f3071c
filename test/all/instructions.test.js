'use strict';
// Tier: all (needs Valgrind: the planted cost found in instruction counts, two Node servers under callgrind)
// Instruction counts (issue 24): the gate catching a planted loop of known size from two
// short real runs under Valgrind. The warm-up rule, the window size, callgrind's dump
// format, the ratio and its verdict, the compare gate and repro on counts and the bad input
// (Valgrind missing among it): test/instructions.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { findValgrind } = require('../../bench/measure/callgrind');
const systemTools = require('../../lib/system-tools');
const { runCli } = require('../helpers/cli');
const { tempDir } = require('../helpers/tmp');

const dir = tempDir('ctxbench-instructions-');

// A planted cost found deterministically: the same strategy file with a fixed loop of
// PLANTED_STEPS iterations per current() (one call per level, depth 8) must count at least
// that many instructions more per request, and the gate must flag it. Short runs (what fits
// in a test) stop long before V8 is done compiling, so the counts are not steady and the
// gate widens its margin (test/instructions.test.js); a cost this size is beyond any such
// margin. How close a short run's count repeats, and a 2% change caught from steady runs,
// are committed benchmarks (docs/ci.md, results/gate-planted.md).
const PLANTED_STEPS = 5000;
test(
  'instruction counts under Valgrind: a planted loop of a fixed number of steps per ' +
    'level adds at least that many instructions per request, and the gate fails on it',
  { timeout: 1200000 },
  async (t) => {
    if (!findValgrind()) return t.skip(`${systemTools.hint('valgrind')} (.ci/run installs it)`);
    const before = path.join(__dirname, '..', '..', 'examples', 'gate', 'before.js');
    const planted = path.join(dir, 'planted.js');
    fs.writeFileSync(
      planted,
      `'use strict';
const base = require(${JSON.stringify(before)});
let sink = 0;
module.exports = {
  ...base,
  current: () => {
    let x = sink;
    for (let i = 0; i < ${PLANTED_STEPS}; i++) x = (x * 31 + i) | 0;
    sink = x;
    return base.current();
  },
};
`,
    );
    const measure = async (file, name) => {
      const out = path.join(dir, `${name}.json`);
      const r = await runCli(
        [
          'run',
          '--method',
          'instructions',
          '--strategy-file',
          file,
          '--strategies',
          'mine',
          '--baseline',
          'mine',
          '--depths',
          '8',
          '--window-requests',
          '200',
          '--windows',
          '1',
          '--max-warmup-windows',
          '1',
          '--unsettled-windows',
          '2',
          '--blocks',
          '1',
          '--out',
          out,
          '--report',
          'none',
        ],
        { timeoutMs: 1100000 },
      );
      assert.strictEqual(r.code, 0, r.stderr);
      return out;
    };
    // Both at once, their servers sharing the server CPU: with one request in flight a count
    // does not depend on how fast the process ran.
    const [a, b] = await Promise.all([measure(before, 'before'), measure(planted, 'planted')]);
    const recorded = JSON.parse(fs.readFileSync(a, 'utf8'));
    assert.strictEqual(recorded.settings.connections, 1);
    assert.strictEqual(recorded.settings.unsettledWindows, 2);
    // The flags that make a count independent of speed (bench/measure/callgrind.js), as the servers got them.
    assert.deepStrictEqual(recorded.settings.nodeFlags, [
      '--single-threaded',
      '--predictable-gc-schedule',
      '--predictable',
    ]);
    // autocannon may complete a request more than asked for; the server's own count divides.
    // Not steady after one warm-up window, so --unsettled-windows (2) windows, not --windows (1).
    assert.deepStrictEqual(
      recorded.configs[0].samples.map((s) => [s.kind, s.window, s.requests >= 200 && s.requests <= 210]),
      [
        ['instructions', 0, true],
        ['instructions', 1, true],
      ],
    );
    assert.deepStrictEqual(
      recorded.configs[0].processes.map((p) => [p.warmup.length, p.settled]),
      [[1, false]],
    );
    const perRequest = (file) => {
      const ws = JSON.parse(fs.readFileSync(file, 'utf8')).configs[0].samples.map((s) => s.instructions / s.requests);
      return ws.reduce((x, y) => x + y, 0) / ws.length;
    };
    const added = perRequest(b) - perRequest(a);
    // At least one instruction per step at each of the 8 levels, however V8 compiles the loop.
    assert.ok(
      added >= 8 * PLANTED_STEPS,
      `the planted loop added ${Math.round(added)} instructions per request, expected at least ${8 * PLANTED_STEPS}`,
    );
    const gate = await runCli(['compare', a, b, '--max-regression', '5']);
    assert.strictEqual(gate.code, 1, gate.stdout + gate.stderr);
    assert.match(gate.stdout, /more instructions/);
    const same = await runCli(['compare', a, a, '--max-regression', '5']);
    assert.strictEqual(same.code, 0, same.stdout + same.stderr);
  },
);
