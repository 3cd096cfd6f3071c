'use strict';
// The interrupt tests' kinds and their one test (test/interrupt.test.js runs QUICK, the
// quick tier's two; test/all/interrupt.test.js the others). Every measuring command goes
// through one session (bench/run/session.js): one Ctrl-C handler, the run JSON saved as it
// goes, the report regenerated at the end. Each kind is interrupted once, as soon as its
// run JSON exists, and must answer the same way: the handler's line, exit 130, a run JSON
// marked "interrupted", a report of it, no stack trace.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const systemTools = require('../../lib/system-tools');
const { runCliInterrupted } = require('./cli');
const { findValgrind } = require('../../bench/measure/callgrind');
const { tempDir } = require('./tmp');
const { workApp } = require('./app-services');

const SEQUENTIAL = [
  '--strategies',
  'none,als',
  '--depths',
  '8',
  '--method',
  'sequential',
  '--duration',
  '0.5',
  '--warmup',
  '0',
  '--rounds',
  '1',
];

const KINDS = [
  {
    kind: 'run',
    name: 'run (duet)',
    args: [
      'run',
      '--strategies',
      'none,als',
      '--depths',
      '8',
      '--hops',
      'immediate',
      '--windows',
      '2',
      '--window',
      '0.2',
    ],
  },
  { kind: 'run', name: 'run (sequential)', args: ['run', ...SEQUENTIAL] },
  {
    kind: 'run',
    name: 'run (instructions)',
    valgrind: true,
    args: [
      'run',
      '--strategies',
      'none',
      '--depths',
      '8',
      '--method',
      'instructions',
      '--blocks',
      '1',
      '--windows',
      '1',
      '--window-requests',
      '50',
      '--max-warmup-windows',
      '0',
    ],
  },
  // repro saves each of its two runs beside its own file until both are done.
  {
    kind: 'repro',
    name: 'repro',
    args: ['repro', ...SEQUENTIAL],
    progressFile: (out) => out.replace(/\.json$/, '.a.json'),
  },
  { kind: 'aa', name: 'aa', args: ['aa', '--trials', '1', '--windows', '2', '--window', '0.2'] },
  {
    kind: 'calibrate',
    name: 'calibrate',
    args: ['calibrate', '--at', '8/immediate', '--burns', '0,50', '--blocks', '3', '--windows', '2', '--window', '0.2'],
  },
  { kind: 'overhead', name: 'overhead', args: ['overhead', '--blocks', '3', '--rounds', '1', '--duration', '0.5'] },
  // micro --method instructions goes through the same micro session; interrupting it here
  // would start a Node under Valgrind (~15 s of CPU) to prove nothing more.
  { kind: 'micro', name: 'micro (time)', args: ['micro', '--quick', '--strategies', 'none', '--scenarios', 'current'] },
  {
    kind: 'integrity',
    name: 'integrity',
    args: ['integrity', '--quick', '--strategies', 'none', '--scenarios', 'chain-immediate'],
  },
  {
    kind: 'app',
    name: 'app',
    args: [
      'app',
      '--baseline',
      workApp('WORK=150'),
      '--candidate',
      workApp('WORK=150'),
      '--health',
      '/healthz',
      '--blocks',
      '3',
      '--windows',
      '2',
      '--window',
      '0.5',
      '--warmup',
      '0.5',
    ],
  },
];

// The quick tier's kinds: run in duet (the default method; its report written from an
// interrupted run), and repro (which the quick tier runs for real nowhere else: its
// end-to-end run needs PostgreSQL).
const QUICK = ['run (duet)', 'repro'];

const valgrind = Boolean(findValgrind());

function interruptTest(k) {
  test(
    `${k.name}: one Ctrl-C finishes the step, keeps the run JSON (interrupted), writes the report, exits 130`,
    { timeout: 1200000 },
    async (t) => {
      if (k.valgrind && !valgrind) return t.skip(`${systemTools.hint('valgrind')} (.ci/run installs it)`);
      const dir = tempDir('ctxbench-interrupt-');
      const out = path.join(dir, `${k.kind}.json`);
      const report = path.join(dir, 'results.md');
      const progressFile = k.progressFile ? k.progressFile(out) : out;
      const r = await runCliInterrupted([...k.args, '--out', out, '--report', report], {
        timeoutMs: 1100000,
        when: () => fs.existsSync(progressFile),
      });
      assert.ok(r.sent, `the run JSON never appeared: ${r.stderr}`);
      assert.strictEqual(r.code, 130, r.stderr);
      assert.match(r.stderr, /interrupted: finishing the current/);
      assert.doesNotMatch(r.stderr, /\n\s+at |internal error/, 'no stack trace');
      const run = JSON.parse(fs.readFileSync(out, 'utf8'));
      assert.deepStrictEqual([run.kind, run.status], [k.kind, 'interrupted']);
      assert.ok(fs.existsSync(report), `no report written: ${r.stderr}`);
    },
  );
}

module.exports = { KINDS, QUICK, interruptTest };
