'use strict';
// Tier: quick (run --profile's summary from a real server under --cpu-prof, a few seconds)
// `ctxbench run --profile` (bench/probes/profile.js, report/sections/profile.js): a real server
// under --cpu-prof, driven briefly, stopped with SIGTERM; the .cpuprofile is kept and its
// summary names where the time went. A strategy planted to burn CPU in a named function
// must show up in it, and as what the strategy adds over its baseline.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { tempDir } = require('./helpers/tmp');

const PLANTED = path.join(__dirname, 'fixtures', 'planted-slow.js');
// Before the registry loads (bench/matrix requires it): the planted strategy as 'test-extra'.
process.env.CTXBENCH_EXTRA_STRATEGY = PLANTED;
const { expandConfigs } = require('../bench/run/matrix');
const { recordProfiles, summarizeProfile, packageOf } = require('../bench/probes/profile');
const { getDriver } = require('../bench/measure/drivers');
const { profileSection } = require('../report/sections/profile');

test(
  'a planted slow function shows up in the profile summary and as growth over the baseline',
  { timeout: 600000 },
  async (t) => {
    const dir = tempDir('ctxbench-prof-test-');
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const target = { label: 'nodeX', version: process.version, path: process.execPath, args: [], expectAcf: null };
    const settings = {
      frameworks: ['express'],
      depths: [1],
      hops: ['sync'],
      strategies: ['none', 'test-extra'],
      baseline: 'none',
      connections: 10,
      pipelining: 1,
      driver: 'autocannon',
    };
    const run = { settings, configs: expandConfigs(settings, [target]) };

    const profiles = await recordProfiles(run, { dir, base: dir, driver: getDriver('autocannon'), seconds: 1 });
    assert.deepStrictEqual(profiles.errors, []);
    const planted = profiles.configs[run.configs[1].id];
    const baseline = profiles.configs[run.configs[0].id];
    assert.ok(planted && baseline, 'both configs profiled');
    for (const p of [planted, baseline]) {
      const parsed = JSON.parse(fs.readFileSync(path.join(dir, p.file), 'utf8'));
      assert.ok(Array.isArray(parsed.nodes) && parsed.samples.length > 0, 'a V8 .cpuprofile with samples');
    }
    const top = planted.summary.functions.slice(0, 3).map((e) => e.name);
    assert.ok(
      top.some((n) => n.startsWith('plantedSlowBurn ')),
      `plantedSlowBurn among the top 3: ${top.join(', ')}`,
    );
    assert.ok(!baseline.summary.functions.some((e) => e.name.startsWith('plantedSlowBurn ')), 'not in the baseline');
    assert.strictEqual(planted.overBaseline.baseline, run.configs[0].id);
    assert.match(planted.overBaseline.functions[0].name, /^plantedSlowBurn /);

    const md = profileSection(run);
    assert.match(md, /plantedSlowBurn/);
    assert.match(md, /Where the time goes/);
  },
);

test('summarizeProfile: self time by function and package from the samples, idle excluded', () => {
  const frame = (id, functionName, url, children = []) => ({
    id,
    callFrame: { functionName, url, lineNumber: 9, columnNumber: 0, scriptId: '1' },
    children,
  });
  const profile = {
    nodes: [
      frame(1, '(root)', '', [2, 3, 4]),
      frame(2, '(idle)', ''),
      frame(3, 'handle', 'file:///app/node_modules/express/lib/application.js'),
      frame(4, 'run', 'file:///app/node_modules/@scope/pkg/index.js'),
    ],
    startTime: 0,
    endTime: 6800,
    // Samples at 0, 3000, 4000, 5000 and 6000 µs, each lasting until the next (the last
    // until endTime): 3 idle ms, then 1 ms express, 2.8 ms @scope/pkg.
    samples: [2, 3, 4, 4, 4],
    timeDeltas: [0, 3000, 1000, 1000, 1000],
  };
  const s = summarizeProfile(profile);
  assert.strictEqual(s.samples, 5);
  assert.deepStrictEqual(
    s.packages.map((p) => [p.name, p.selfMs]),
    [
      ['@scope/pkg', 2.8],
      ['express', 1],
    ],
  );
  assert.strictEqual(s.busyMs, 3.8);
  assert.strictEqual(s.functions[0].name, 'run @scope/pkg/index.js:10');
  // Start-up left out: from t = 3500 µs only the last three samples (all @scope/pkg) count.
  const late = summarizeProfile(profile, { fromUs: 3500 });
  assert.deepStrictEqual([late.samples, late.skippedMs, late.packages.map((p) => p.name)], [3, 3.5, ['@scope/pkg']]);
  assert.strictEqual(summarizeProfile(profile, { fromUs: 99999 }).samples, 5, 'a start outside the profile is ignored');
  assert.strictEqual(packageOf({ url: 'node:internal/http', functionName: 'x' }), 'node');
  assert.strictEqual(packageOf({ url: '', functionName: '(garbage collector)' }), '(garbage collector)');
});
