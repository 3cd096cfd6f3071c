'use strict';
// Tier: all (makes real cgroups: needs root or a delegated cgroup, as CI has; skipped with
// the reason elsewhere). `ctxbench deploy` measured for real: the App Engine yamls as F1
// stand-ins (bench/cgroup.js), a line per deployment, the yamls recorded in the run JSON,
// no group left behind. Structure only, never timing. A file of its own, beside
// test/all/instance.test.js's stand-in runs: both mostly wait on servers held to a quarter
// of a CPU, so at four files at a time they overlap instead of queuing in one file.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli } = require('../helpers/cli');
const { tempDir } = require('../helpers/tmp');
const { ours, skipWithout } = require('../helpers/cgroups');

const dir = tempDir('ctxbench-deploy-');
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('ctxbench deploy: the yamls as F1 stand-ins, a line per deployment, the yamls recorded in the run JSON, nothing left behind', { timeout: 600000 }, async (t) => {
  if (skipWithout(t)) return;
  const out = path.join(dir, 'deploy.json');
  // A bound no stand-in keeps ends the knee search after its first two rates (structure only: the test:all tier's time).
  const r = await runCli(['deploy', 'app_baseline.yaml', 'app_als.yaml', '--blocks', '3', '--load', '50%,100%', '--slo', 'p99=1ms', '--max-time', '300', '--out', out, '--report', 'none']);
  assert.strictEqual(r.code, 0, r.stderr);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.match(r.stdout, /^ctxbench deploy: complete, \d+ s of measuring, F1 stand-ins \(0\.25 CPU each: an assumption, docs\/deploy\.md\)$/m);
  // Its one candidate's line says capacity, p99 added and throttling, whatever the figures.
  assert.match(r.stdout, /^als \(als\): capacity within p99 ≤ 1 ms .* of the baseline's(; CPU per request below the knee: .* of the baseline's \(a cost under the quota, not a capacity\))?; p99 added at 50%: .*; CFS periods throttled at 50%: .*$/m);
  // The ladder's 100% is the knee two baseline stand-ins found, each block's pair warmed once and sent every rate.
  const [group] = run.learned.capacity.groups;
  assert.ok(group.knee.steps.length >= 2 && group.knee.rps > 0, JSON.stringify(group.knee));
  assert.deepStrictEqual([...new Set(run.configs.map((c) => c.rate))].sort((a, b) => a - b), [Math.round(0.5 * group.knee.rps), group.knee.rps]);
  const alsProcesses = run.configs.filter((x) => x.strategy === 'als').flatMap((c) => c.processes);
  assert.strictEqual(alsProcesses.length, 3, 'one als process a block, whatever the rates');
  for (const p of alsProcesses) assert.ok(p.closedLoopWarmup?.length >= 3, JSON.stringify(p));
  assert.match(r.stdout, new RegExp(`^Run JSON: ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  assert.deepStrictEqual(run.settings.deploy.yamls.map((y) => [y.file, y.strategy]), [['app_baseline.yaml', 'param'], ['app_als.yaml', 'als']]);
  assert.strictEqual(run.settings.method, 'pair');
  assert.strictEqual(run.settings.instance.name, 'F1');
  // Every yaml's environment reached its servers (LOG=stdout, DEPTH=8), at every rate.
  for (const c of run.configs) assert.deepStrictEqual([c.depth, c.log], [8, 'stdout'], c.id);
  assert.ok(run.configs.some((c) => c.strategy === 'als' && c.samples.some((s) => s.kind === 'window')), 'als measured in windows');
  assert.deepStrictEqual(ours(), [], 'every group removed');
});
