'use strict';
// Tier: all (a long real run: app --predict probes a service and measures it in duet beside the reference server)
// `ctxbench app --predict` end to end: probes a service whose async resources per request
// are known, measures it beside the reference server and prints a prediction for every
// strategy the committed model has for this runtime. Structure and counts only. `ctxbench
// probe` end to end and both commands' refusals: test/predict.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli } = require('../helpers/cli');
const { testDir } = require('../helpers/tmp');
const { FIXTURE, round } = require('../helpers/probe');
const { labelOfRuntime } = require('../../lib/node-versions');
const { detectAsyncContextFrame } = require('../../lib/runtime');
const { predictWhyText } = require('../../report/words');

const ROOT = path.join(__dirname, '..', '..');
const LABEL = labelOfRuntime(process.version, detectAsyncContextFrame());

// The fit shipped with the package (package.json "files"), read on purpose: not a study's output.
const MODEL_FIT = path.join(ROOT, 'results', 'model-fit.json');

test(
  'ctxbench app --predict: the service probed (5 Immediate per request), ' +
    'measured beside the reference server, a prediction per strategy of ' +
    "this runtime's model, and the candidate judged beside its own",
  { timeout: 600000 },
  async (t) => {
    const fits = new Map(
      Object.entries(fs.existsSync(MODEL_FIT) ? JSON.parse(fs.readFileSync(MODEL_FIT, 'utf8')).runtimes : {}),
    );
    if (!fits.has(LABEL))
      return t.skip(
        `the committed cost model (results/model-fit.json) has no fit for ${LABEL} ` +
          `(this test's Node); it covers ${[...fits.keys()].join(', ') || 'nothing'}`,
      );
    const dir = testDir(t, 'ctxbench-predict-');
    const out = path.join(dir, 'app.json');
    const cmd = `IMMEDIATES=5 "${process.execPath}" "${FIXTURE}"`;
    const r = await runCli([
      'app',
      '--baseline',
      cmd,
      '--candidate',
      cmd,
      '--predict',
      '--strategy',
      'als',
      '--blocks',
      '3',
      '--windows',
      '1',
      '--window',
      '0.3',
      '--warmup',
      '0.3',
      '--out',
      out,
      '--report',
      'none',
    ]);
    assert.strictEqual(r.code, 0, r.stderr);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    const p = run.predict;
    assert.strictEqual(p.runtime, LABEL);
    assert.strictEqual(p.probe.runtime.node, process.version);
    assert.strictEqual(round(p.probe.perRequest.byType.Immediate), 5, JSON.stringify(p.probe.perRequest));
    // The probe and the reference are processes of their own, not the measured sides'.
    const measured = new Set(run.configs.flatMap((c) => c.processes.map((x) => x.pid)));
    assert.ok(!measured.has(p.probe.pid));
    assert.deepStrictEqual(
      p.reference.configs.map((c) => c.name),
      ['baseline', 'reference'],
    );
    assert.strictEqual(p.reference.configs[1].processes.length, 3);
    const report = path.join(dir, 'results.md');
    assert.strictEqual((await runCli(['report', out, '--out', report, '--no-html'])).code, 0);
    const page = fs.readFileSync(report, 'utf8');
    // The resource mix it counted, by kind, beside the range the model was fitted on.
    assert.ok(Array.isArray(p.model.rangeR) && p.model.rangeR[0] < p.model.rangeR[1], JSON.stringify(p.model));
    const range = `${p.model.rangeR[0].toFixed(0)}–${p.model.rangeR[1].toFixed(0)}`;
    assert.match(
      page,
      new RegExp(
        `async resources per request \\(a probe process, not measured: ` +
          `[^)]*Immediate 5\\.0[^)]*\\).*its terms fitted on ${range} async resources per request`,
      ),
    );
    assert.match(
      r.stdout,
      new RegExp(
        `^Async resources per request \\(probe process\\): [\\d.]+ \\([^)]*Immediate ` +
          `5\\.0[^)]*\\); runtime .* model, fitted on ${range} per request$`,
        'm',
      ),
    );
    // How many windows beside the reference count depends on how busy the machine is (a
    // window is dropped while the load generator cannot keep both servers saturated): both
    // outcomes are checked for what they must say, neither for a figure.
    if (p.prediction.error) {
      assert.strictEqual(p.prediction.error, 'no-reference-window');
      assert.match(r.stdout, /^no prediction: no window of the service beside the reference server counted$/m);
      assert.match(page, /Predicted by the cost model[\s\S]*No prediction: no window of the service/);
      return;
    }
    assert.deepStrictEqual(
      p.prediction.rows.map((x) => x.strategy).sort(),
      Object.keys(fits.get(LABEL).strategies).sort(),
    );
    for (const row of p.prediction.rows) {
      // Outside the fitted range, or a strategy the model does not claim: the reason, no figure.
      if (row.estimate === null) {
        assert.match(
          predictWhyText(row),
          /^(outside the fitted range|not modelled): .*; measure it with `ctxbench app --candidate /,
          JSON.stringify(row),
        );
        continue;
      }
      // The terms are costs: never a speed-up, the interval's upper end included.
      assert.ok(row.estimate > 0 && row.estimate <= 1 && row.ci95[1] <= 1, JSON.stringify(row));
      assert.ok(row.ci95[0] <= row.estimate && row.estimate <= row.ci95[1], JSON.stringify(row));
    }
    assert.strictEqual(p.candidate.strategy, 'als');
    assert.ok(
      ['within', 'beyond', 'cannot tell', 'not measured', 'no prediction'].includes(p.candidate.judgement.outcome),
      JSON.stringify(p.candidate),
    );
    assert.match(r.stdout, /Predicted % of this service's throughput on one CPU with each strategy/);
    for (const row of p.prediction.rows)
      assert.match(r.stdout, new RegExp(`^  ${row.strategy} +(\\d|no prediction)`, 'm'));
    assert.match(r.stdout, /Candidate as als: predicted /);
    assert.match(page, /Predicted by the cost model[\s\S]*The candidate as `als`:/);
    // What every figure is a share of: the duet's measure, not a fixed load's (the method check).
    assert.match(r.stdout, /^ {2}Each a share at saturation \(the duet's measure\): at a fixed load below it/m);
    assert.match(page, /Predicted figures are each a share at saturation \(the duet's measure\)/);
  },
);
