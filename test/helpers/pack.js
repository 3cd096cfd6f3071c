'use strict';
// ctxbench packed as npm publishes it, shared by test/package.test.js (the file list and
// publish-readiness) and test/all/package.test.js (the tarball installed in a fresh project):
// a command's result, and `npm pack` once before the file's tests.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { ROOT } = require('./server');
const { tempDir } = require('./tmp');

const ONE_MB = 1024 * 1024;
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

// Resolves { code, stdout, stderr } of a command (npm, npx).
function run(command, args, { cwd, env = {}, timeoutMs = 300000 } = {}) {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 64 * ONE_MB },
      (err, stdout, stderr) => resolve({ code: err ? (err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

// `npm pack --json` of the repository before the file's tests: the object returned is filled
// with what npm says of the tarball (files, size, ...) and its path, `tarball`.
function packBefore() {
  const packed = {};
  test.before(async () => {
    const dir = tempDir('ctxbench-pack-');
    const r = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT });
    assert.strictEqual(r.code, 0, r.stderr);
    const [info] = JSON.parse(r.stdout);
    Object.assign(packed, info, { tarball: path.join(dir, info.filename) });
  });
  return packed;
}

module.exports = { ROOT, ONE_MB, pkg, run, packBefore };
