'use strict';
// Tier: all (a second real duet run of `ctxbench app`: answers with another id or none, flagged)
// `ctxbench app` (test/app.test.js has its end-to-end run and its bad input): answers that
// carry another request's id, or none, are counted and flag the run as broken.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli } = require('../helpers/cli');
const { tempDir } = require('../helpers/tmp');
const { workApp: node } = require('../helpers/app-services');

const tmp = () => tempDir('ctxbench-app-');

test('answers that carry another id, or none, are counted and flagged', { timeout: 600000 }, async () => {
  const dir = tmp();
  const out = path.join(dir, 'app.json');
  const r = await runCli([
    'app',
    '--baseline',
    node('WORK=150 ECHO=0'),
    '--candidate',
    node('WORK=150 ECHO=wrong'),
    '--id-header',
    'x-request-id',
    '--health',
    '/healthz',
    '--blocks',
    '3',
    '--windows',
    '1',
    '--window',
    '0.2',
    '--warmup',
    '0',
    '--connections',
    '4',
    '--report',
    'none',
    '--out',
    out,
  ]);
  assert.strictEqual(r.code, 0, r.stderr);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.ok(run.app.ids.baseline.lost > 0 && run.app.ids.baseline.kept === 0, 'no echo: lost');
  assert.ok(run.app.ids.candidate.mismatches > 0, "another request's id: mismatched");
  assert.strictEqual(run.app.broken, true);
  assert.strictEqual(run.app.ratio.judgement.reason, 'broken', 'no cost verdict');
});
