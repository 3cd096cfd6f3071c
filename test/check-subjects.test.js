'use strict';
// Tier: quick (a temporary git repository, no server)
// Commit subjects fit a log line (scripts/check-subjects.js, run by .ci/run):
// a real repository in a temporary folder, a commit over the limit and one within it.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');
const { tempDir } = require('./helpers/tmp');

const SCRIPT = path.join(__dirname, '..', 'scripts', 'check-subjects.js');

test('check-subjects: a subject over 72 characters since the base fails in one line naming the commit', () => {
  const dir = tempDir('ctxbench-subjects-');
  const git = (...args) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q');
  const commit = (subject) => {
    git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '--allow-empty', '-m', subject);
    return git('rev-parse', '--short', 'HEAD');
  };
  const base = commit('x'.repeat(100)); // before the rule: not checked
  commit('y'.repeat(72));
  const run = () => spawnSync(process.execPath, [SCRIPT, '--since', base], { cwd: dir, encoding: 'utf8' });
  assert.strictEqual(run().status, 0, run().stderr);
  const long = commit(`${'z'.repeat(70)}éé…`); // 73 characters, more bytes
  const r = run();
  assert.strictEqual(r.status, 1);
  assert.deepStrictEqual(r.stderr.trim().split('\n'), [
    `check-subjects: ${long}'s subject has 73 characters (at most 72)`,
  ]);
  // A base the clone does not have checks nothing and says so.
  const shallow = spawnSync(process.execPath, [SCRIPT, '--since', 'deadbeef'], { cwd: dir, encoding: 'utf8' });
  assert.strictEqual(shallow.status, 0);
  assert.match(shallow.stderr, /deadbeef is not in this clone's history/);
});
