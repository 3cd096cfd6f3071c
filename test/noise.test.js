'use strict';
// Tier: quick (bench/run/noise.js on made-up snapshots: no server, no tool)
// bench/run/noise.js: a load average above 1.5 per core flags the run as noisy, unless the load is
// the run's own (the curl driver's xargs -P N curl processes), which is said instead.
const test = require('node:test');
const assert = require('node:assert');
const os = require('node:os');
const { assess } = require('../bench/run/noise');

const at = (load) => ({ at: 0, stat: null, loadavg: [load, load, load], cpuMHz: null });

test('a load average above 1.5 per core flags the run; one the curl driver makes is not judged and says why', () => {
  const high = 2 * os.cpus().length;
  const flagged = assess(at(0.1), at(high));
  assert.ok(flagged.noisy && flagged.flags.some((x) => /^load average /.test(x)), JSON.stringify(flagged.flags));
  const own = assess(at(0.1), at(high), { ownLoad: "the curl driver's own processes" });
  assert.deepStrictEqual([own.noisy, own.flags, own.loadNotJudged], [false, [], "the curl driver's own processes"]);
  assert.strictEqual(assess(at(0.1), at(0.2)).noisy, false);
});

test(
  "the load average judged is the run's own minutes: " +
    'a busy minute before a long run is not flagged, a busy five within it are',
  () => {
    const high = 2 * os.cpus().length;
    const read = (t, loadavg) => ({ at: t * 1000, stat: null, loadavg, cpuMHz: null });
    // 56 minutes: a suite that had just ended before it, a quiet machine during it.
    assert.strictEqual(assess(read(0, [high, high, 1]), read(3360, [0.8, 0.8, 0.9])).noisy, false);
    // Busy for five minutes in it, quiet in its last one.
    assert.strictEqual(assess(read(0, [0.1, 0.1, 0.1]), read(3360, [0.8, high, 1])).noisy, true);
    // Shorter than a minute: the only reading there is, the last minute's.
    assert.strictEqual(assess(read(0, [0.1, 0.1, 0.1]), read(30, [high, 1, 1])).noisy, true);
  },
);
