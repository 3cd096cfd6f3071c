'use strict';
// Tier: all (long real runs: the duet method's full end-to-end
// run and a killed server, each tens of seconds of both CPUs)
// Duet measurement end to end on real servers (bench/measure/duet-windows.js, bench/methods/duet.js): the
// full run with the A/A twin, the global control and a strategy file, and a server killed
// during its duet. The unit tests, the settings' refusals and Ctrl-C during a duet are in
// test/duet.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli, runCliUntil, readRunSoFar } = require('../helpers/cli');
const { checkRatio } = require('../helpers/ratio-check');
const { tempDir } = require('../helpers/tmp');

const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'als-logger.js');

// End to end on real servers: a short duet run of none, als, the global control and a
// team's own strategy file (examples/als-logger.js), with the A/A twin. Structure and
// integrity are asserted, never timing. One run serves both claims (the duet's design and
// a user-supplied strategy measured exactly like a built-in one): each arm is a pair of
// fresh processes per block, so a second run would repeat the baseline's work.
test(
  'a duet run: windows per pair of fresh processes, solo bursts apart, the A/A twin, ' +
    'the global control caught leaking, and a strategy file measured like a built-in',
  async () => {
    const dir = tempDir('ctxbench-duet-');
    const out = path.join(dir, 'duet.json');
    const report = path.join(dir, 'duet.md');
    const { code, stdout, stderr } = await runCli(
      [
        'run',
        '--method',
        'duet',
        '--strategies',
        'none,als,global',
        '--strategy-file',
        EXAMPLE,
        '--depths',
        '8',
        '--hops',
        'immediate',
        '--connections',
        '5',
        '--windows',
        '2',
        '--window',
        '0.2',
        '--blocks',
        '3',
        '--aa',
        '--out',
        out,
        '--report',
        report,
      ],
      { timeoutMs: 600000 },
    );
    assert.strictEqual(code, 0, stderr);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(run.settings.method, 'duet');
    const by = Object.fromEntries(run.configs.map((c) => [c.arm === 'aa' ? 'aa' : c.strategy, c]));
    assert.deepStrictEqual(Object.keys(by).sort(), ['aa', 'als', 'als-logger', 'global', 'none']);
    for (const key of ['als', 'global', 'als-logger', 'aa']) {
      const c = by[key];
      const windows = c.samples.filter((s) => s.kind === 'window');
      assert.deepStrictEqual([...new Set(windows.map((w) => w.block))], [0, 1, 2], `${key}: windows in every block`);
      for (const w of windows) {
        assert.strictEqual(w.partner, by.none.id, 'measured against the baseline');
        assert.ok(
          w.cpuUsPerRequest > 0 && w.partnerCpuUsPerRequest > 0 && w.requests > 0 && w.partnerRequests > 0,
          JSON.stringify(w),
        );
        // Whether a window counts depends on what else the machine ran (npm test runs two
        // files at once): each one either counted or says why not.
        assert.ok(
          w.counted
            ? w.dropped === undefined
            : /not busy|not saturated|load generator|served no request/.test(w.dropped),
          JSON.stringify(w),
        );
        assert.strictEqual(w.rps, undefined, 'a window is not a solo sample');
        assert.ok(w.elu > 0 && w.elu <= 1, `event-loop utilization of the window: ${w.elu}`);
      }
      const perBlock = [0, 1, 2].map((b) => windows.filter((w) => w.block === b));
      for (const ws of perBlock)
        assert.ok(
          ws.filter((w) => w.counted).length === 2 || ws.length === 6,
          `${key}: 2 counted windows, or 3x as many taken`,
        );
      assert.strictEqual(c.processes.length, 3, `${key}: a fresh process per block`);
      const solo = c.samples.filter((s) => s.kind === 'solo');
      assert.strictEqual(solo.length, 3, `${key}: a solo burst per block`);
      assert.ok(solo.every((s) => s.rps > 0 && s.requests > 0 && s.elu > 0 && s.elu <= 1));
      assert.ok(c.summary.elu.median > 0 && c.summary.elu.median <= 1, `${key}: ELU in the summary`);
      // Whether an interval formed depends on the machine; that the stored ratio is the one
      // its counted windows give does not.
      checkRatio(c.summary.ratio, windows, key);
    }
    // The baseline: a fresh process beside every arm, one solo burst per block.
    assert.strictEqual(by.none.processes.length, 12);
    assert.strictEqual(by.none.samples.filter((s) => s.kind === 'solo').length, 3);
    assert.strictEqual(new Set(by.none.processes.map((p) => p.pid)).size, 12);
    assert.strictEqual(
      new Set(run.configs.flatMap((c) => c.processes.map((p) => p.pid))).size,
      24,
      'every process fresh',
    );
    assert.strictEqual(by.none.summary.ratio, null);
    // Positions: the baseline was started first in some blocks and second in others.
    const firsts = by.als.samples.filter((s) => s.kind === 'duet').map((s) => s.position);
    assert.deepStrictEqual([...new Set(firsts)].sort(), [0, 1], 'the arm took both positions');
    assert.strictEqual(
      by.als.summary.mismatches + by.als.summary.lost,
      0,
      'AsyncLocalStorage kept every id under duet load',
    );
    assert.ok(by.global.summary.mismatches > 0, 'the global control must be caught leaking');
    assert.strictEqual(by.aa.summary.mismatches, 0);
    assert.strictEqual(by.aa.strategy, 'none', 'the A/A twin is a second none process');
    // The team's strategy file: registered after the built-ins, marked user-supplied, every
    // id kept, named so in the report and the terminal summary.
    assert.deepStrictEqual(run.settings.strategies, ['none', 'als', 'global', 'als-logger']);
    assert.deepStrictEqual(
      run.settings.strategyFiles.map((x) => x.name),
      ['als-logger'],
    );
    assert.strictEqual(by['als-logger'].userSupplied, true);
    assert.strictEqual(by.als.userSupplied, undefined);
    assert.strictEqual(
      by['als-logger'].summary.mismatches + by['als-logger'].summary.lost,
      0,
      'the example keeps every id',
    );
    assert.match(fs.readFileSync(report, 'utf8'), /\| `als-logger` \(user-supplied\) \|/);
    assert.match(stdout, /als-logger \(user-supplied\)/, 'the terminal summary names it too');
  },
);

test(
  'a server SIGKILLed during its duet is named dead with its signal, ' +
    'the next block starts fresh processes, and the run fails with exit 1',
  async () => {
    const dir = tempDir('ctxbench-duet-kill-');
    const out = path.join(dir, 'kill.json');
    let killed = null;
    const { code, stderr } = await runCliUntil(
      [
        'run',
        '--method',
        'duet',
        '--strategies',
        'none,als',
        '--depths',
        '8',
        '--hops',
        'immediate',
        '--connections',
        '5',
        '--windows',
        '2',
        '--window',
        '0.2',
        '--blocks',
        '3',
        '--out',
        out,
        '--report',
        'none',
      ],
      {
        timeoutMs: 600000,
        // Killed once the run has saved its first pair as started: whether the group is then
        // warming up or measuring, the death is the arm's, in block 1.
        everyMs: 50,
        when: () => readRunSoFar(out)?.configs.find((c) => c.strategy === 'als')?.processes[0]?.pid,
        then: (pid) => process.kill((killed = pid), 'SIGKILL'),
      },
    );
    assert.ok(killed, stderr);
    assert.strictEqual(code, 1, stderr);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(run.status, 'failed');
    const als = run.configs.find((c) => c.strategy === 'als');
    assert.strictEqual(als.status, 'failed');
    assert.match(als.error.message, new RegExp(`server process ${killed} died \\(killed by SIGKILL\\) \\(block 1\\)`));
    const dead = als.processes.find((p) => p.pid === killed);
    assert.strictEqual(dead.dead, true);
    assert.deepStrictEqual(
      als.processes.map((p) => p.block),
      [0, 1, 2],
      'fresh processes in the next blocks',
    );
    assert.ok(
      als.samples.some((s) => s.kind === 'window' && s.block === 2),
      'measured again after the death',
    );
    assert.match(stderr, /FAILED express\/als/);
  },
);
