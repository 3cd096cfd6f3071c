'use strict';
// Tier: all (makes real cgroups: needs root or a delegated cgroup, as CI has; skipped with
// the reason elsewhere). `ctxbench deploy` measured for real: the App Engine yamls as F1
// stand-ins (bench/processes/cgroup.js) at the autoscaler's operating point, a line per deployment,
// the yamls recorded in the run JSON, no group left behind. Structure only, never timing. A file of its own, beside
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

test(
  "ctxbench deploy: the yamls as F1 stand-ins at the autoscaler's target, " +
    'a line per deployment, the yamls recorded in the run JSON, nothing left behind',
  { timeout: 600000 },
  async (t) => {
    if (skipWithout(t)) return;
    const out = path.join(dir, 'deploy.json');
    const r = await runCli([
      'deploy',
      'app_baseline.yaml',
      'app_als.yaml',
      '--blocks',
      '3',
      // Structure only: three blocks whatever their intervals (deploy's own ±5 pp would add more).
      '--precision',
      '100',
      '--windows',
      '2',
      // The pair's closed-loop warm-up in bursts of 0.2 s (structure only: as warm as it gets).
      '--warmup',
      '0.2',
      '--max-time',
      '300',
      '--out',
      out,
      '--report',
      'none',
    ]);
    assert.strictEqual(r.code, 0, r.stderr);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.match(
      r.stdout,
      new RegExp(
        String.raw`^ctxbench deploy: complete, \d+ s of measuring, ` +
          String.raw`F1 stand-ins \(0\.25 CPU each: an assumption, docs/deploy\.md\)$`,
        'm',
      ),
    );
    assert.match(
      r.stdout,
      /^At the autoscaler's target: 60% of each quota, CFS period 100 ms \(an assumption: no cloud documents it\)$/m,
    );
    // Its one candidate's lines say the figures, whatever they are.
    assert.match(
      r.stdout,
      new RegExp(
        String.raw`^als \(als\): throughput per instance [\d.]+% (\[.*\] )?of default's \(at ` +
          String.raw`(param's rate|its own rate in \d of \d blocks), \d blocks\); ` +
          String.raw`instances per 1,000 req/s: .* \(default: .*\); set by its (CPU|requests ` +
          String.raw`in flight( in [\d.]+%)?) \(default: its (CPU|requests in flight( in [\d.]+%)?)\)$`,
        'm',
      ),
    );
    assert.match(
      r.stdout,
      new RegExp(
        String.raw`^ {2}there: p99 .* \(default: .*\); CFS periods throttled .* \(default: .*\); ` +
          String.raw`requests in flight [\d.—]+ \(default: [\d.—]+; the concurrency target 6\.00\); ` +
          String.raw`the yamls' cap: max_instances 1 \(default: max_instances 1\), not applied$`,
        'm',
      ),
    );
    assert.match(r.stdout, /^Precision: every ratio within ±100 pp after 3 blocks$/m);
    // The operating point was searched per block from the baseline's cgroup, and recorded.
    assert.strictEqual(run.settings.targetCpu, 0.6);
    assert.strictEqual(run.learned.operatingPoints.length, 3, JSON.stringify(run.learned.operatingPoints));
    for (const p of run.learned.operatingPoints)
      assert.ok(p.base.steps.length >= 1 && p.base.rate > 0, JSON.stringify(p));
    const als = run.configs.find((x) => x.strategy === 'als');
    assert.strictEqual(als.processes.length, 3, 'one als process a block');
    for (const p of als.processes) assert.ok(p.closedLoopWarmup?.length >= 3, JSON.stringify(p));
    assert.ok(
      als.samples.some((s) => s.kind === 'window' && s.phase === 'base' && s.instance),
      "als measured in windows at the baseline's rate",
    );
    assert.match(r.stdout, new RegExp(`^Run JSON: ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    assert.deepStrictEqual(
      run.settings.deploy.yamls.map((y) => [y.file, y.strategy]),
      [
        ['app_baseline.yaml', 'param'],
        ['app_als.yaml', 'als'],
      ],
    );
    assert.strictEqual(run.settings.method, 'pair');
    assert.strictEqual(run.settings.instance.name, 'F1');
    // Every yaml's environment reached its servers (LOG=stdout, DEPTH=8).
    for (const c of run.configs) assert.deepStrictEqual([c.depth, c.log], [8, 'stdout'], c.id);
    assert.deepStrictEqual(ours(), [], 'every group removed');
  },
);
