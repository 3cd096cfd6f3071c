'use strict';
// Every command that reads result files answers a missing, a truncated and an empty
// JSON file with one line naming the file and a non-zero exit, never a stack trace.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runCli } = require('./helpers/cli');

test('report, compare and repro --compare: a missing, a truncated and an empty JSON file are one line each', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-bad-'));
  const missing = path.join(dir, 'nope.json');
  const truncated = path.join(dir, 'truncated.json');
  const empty = path.join(dir, 'empty.json');
  fs.writeFileSync(truncated, '{"kind": "run", "configs": [');
  fs.writeFileSync(empty, '{}');
  const good = path.join(__dirname, '..', 'results', 'default.json');
  for (const file of [missing, truncated, empty]) {
    for (const args of [['report', file, '--out', path.join(dir, 'r.md')], ['compare', good, file], ['repro', '--compare', good, file]]) {
      const r = await runCli(args);
      const lines = r.stderr.trim().split('\n');
      assert.notStrictEqual(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.strictEqual(lines.length, 1, `${args.join(' ')}: one line, got ${r.stderr}`);
      assert.ok(lines[0].includes(path.basename(file)) && !/internal error|\n\s+at /.test(r.stderr), `${args.join(' ')}: ${r.stderr}`);
    }
  }
});
