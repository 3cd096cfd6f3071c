'use strict';
// Tier: quick (probe's one end-to-end run, and both cost-model commands'
// refusals; app --predict's long run is in test/all/predict.test.js)
// The cost model's two commands with real servers: `ctxbench probe` counts a run's points
// in probe processes and writes them into the run JSON; `ctxbench app --predict` probes a
// service whose async resources per request are known, measures it beside the reference
// server and prints a prediction for every strategy the committed model has for this
// runtime. Structure and counts only: no figure here depends on how fast the machine is.
// app --predict end to end: test/all/predict.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli } = require('./helpers/cli');
const { testDir } = require('./helpers/tmp');
const { round } = require('./helpers/probe');

// A run as `ctxbench run` writes it, of the points to probe (nothing measured: the probe
// does not read samples).
function runAt(points) {
  const major = process.versions.node.split('.')[0];
  return {
    schema: 2,
    kind: 'run',
    status: 'complete',
    settings: { baseline: 'none', connections: 10, node: [major], acf: 'default', method: 'duet' },
    environment: {},
    configs: points.flatMap(({ depth, hop }) =>
      ['none', 'als'].map((strategy) => ({
        id: `express/${strategy}/d${depth}/${hop}/node${major}`,
        framework: 'express',
        strategy,
        depth,
        hop,
        nodeLabel: `node${major}`,
        node: process.version,
        role: 'fit',
        samples: [],
        processes: [],
      })),
    ),
  };
}

test(
  'ctxbench probe counts every point of a run in a probe process of its baseline: ' +
    '8 more HOP=immediate levels read as 8 more Immediate per request',
  { timeout: 300000 },
  async (t) => {
    const dir = testDir(t, 'ctxbench-predict-');
    const file = path.join(dir, 'run.json');
    fs.writeFileSync(
      file,
      JSON.stringify(
        runAt([
          { depth: 8, hop: 'immediate' },
          { depth: 16, hop: 'immediate' },
        ]),
      ),
    );
    const r = await runCli(['probe', file, '--report', 'none']);
    assert.strictEqual(r.code, 0, r.stderr);
    const run = JSON.parse(fs.readFileSync(file, 'utf8'));
    // One probe per point, of the baseline only; the run's configurations are left as they were.
    assert.deepStrictEqual(
      run.probes.map((p) => [p.strategy, p.depth, p.hop, p.concurrency]),
      [
        ['none', 8, 'immediate', 10],
        ['none', 16, 'immediate', 10],
      ],
    );
    assert.strictEqual(run.configs.length, 4);
    const [d8, d16] = run.probes;
    assert.strictEqual(
      round(d16.perRequest.byType.Immediate - d8.perRequest.byType.Immediate),
      8,
      JSON.stringify(run.probes.map((p) => p.perRequest)),
    );
    assert.match(r.stdout, /express DEPTH=8 HOP=immediate node\d+: [\d.]+ async resources per request/);
  },
);

test('ctxbench probe refuses what it cannot probe in one line', { timeout: 60000 }, async (t) => {
  const dir = testDir(t, 'ctxbench-predict-');
  const integrity = path.join(dir, 'integrity.json');
  fs.writeFileSync(integrity, JSON.stringify({ kind: 'integrity', configs: [] }));
  for (const [args, expected] of [
    [['probe'], /probe needs one run JSON file/],
    [['probe', path.join(dir, 'missing.json')], /missing\.json: cannot read/],
    [['probe', integrity], /a integrity run, not a `ctxbench run`/],
  ]) {
    const r = await runCli(args);
    assert.strictEqual(r.code, 1, r.stderr);
    assert.match(r.stderr, expected);
    assert.strictEqual(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

test(
  'ctxbench app --predict refuses a --strategy the model does not have, or without what it needs, in one line',
  { timeout: 60000 },
  async () => {
    for (const [args, expected] of [
      [
        ['app', '--baseline', 'node x.js', '--predict', '--candidate', 'node y.js', '--strategy', 'nope'],
        /--strategy nope is not a strategy of the cost model/,
      ],
      [['app', '--baseline', 'node x.js', '--candidate', 'node y.js', '--strategy', 'als'], /give --predict with it/],
      [['app', '--baseline', 'node x.js', '--predict', '--strategy', 'als'], /--strategy needs --candidate/],
      [['app', '--baseline', 'node x.js'], /--candidate CMD is required.*or --predict/],
    ]) {
      const r = await runCli(args);
      assert.strictEqual(r.code, 1, r.stderr);
      assert.match(r.stderr, expected);
      assert.strictEqual(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  },
);
