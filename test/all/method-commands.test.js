'use strict';
// Tier: all (a second real run of aa, in duet: pairs of fresh processes per
// trial, both CPUs busy; the quick tier runs aa in sequential, its cheapest)
// `ctxbench aa` in duet (its default, as npm run bench measures) end to end on a tiny
// setting: real servers, output in a temp dir, no report. No timing is asserted: the JSON's
// structure and that every verdict follows from the intervals and counts the JSON itself
// holds (test/method-commands.test.js has calibrate, aa in sequential and the bad flags).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { checkRatio } = require('../helpers/ratio-check');
const { runCli } = require('../helpers/cli');
const { tempDir } = require('../helpers/tmp');

const tmp = tempDir('ctxbench-method-');
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test(
  'aa in duet (its default, as npm run bench measures): ' +
    'B beside A in pairs of fresh processes, each trial a duet ratio',
  async () => {
    const out = path.join(tmp, 'aa-duet.json');
    const r = await runCli([
      'aa',
      '--depth',
      '1',
      '--hop',
      'sync',
      '--trials',
      '1',
      '--blocks-per-trial',
      '2',
      '--windows',
      '2',
      '--window',
      '0.3',
      '--out',
      out,
      '--report',
      'none',
    ]);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(run.status, 'complete', r.stderr);
    assert.deepStrictEqual(
      [
        run.settings.method,
        run.settings.connections,
        run.settings.pipelining,
        run.settings.windows,
        run.settings.window,
      ],
      ['duet', 10, 1, 2, 0.3],
    );
    const [a, b] = run.configs;
    const windows = b.samples.filter((s) => s.kind === 'window');
    assert.deepStrictEqual([...new Set(windows.map((w) => w.block))], [0, 1]);
    assert.ok(windows.every((w) => w.partner === a.id));
    // The trial's ratio is the one B's windows give against A (its width is the machine's).
    checkRatio(b.summary.ratio, windows, 'B');
    assert.strictEqual(
      a.samples.filter((s) => s.kind === 'window').length,
      0,
      'the baseline arm has no windows of its own',
    );
    for (const t of run.aa.trials) assert.strictEqual(t.significant, t.pValue < 0.05);
    assert.strictEqual(r.code, run.aa.completedTrials === 0 ? 2 : run.aa.pass ? 0 : 1, r.stderr);
  },
);
