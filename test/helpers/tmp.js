'use strict';
// A temporary folder a test file may leave however it ends (an assertion failing midway,
// a child killed): removed when the file's process exits. node:test runs each test file in
// a process of its own, so every folder made here goes with its file; before this, about
// twenty ctxbench-* folders stayed in /tmp after every run of the suite.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const made = [];
process.on('exit', () => {
  for (const dir of made) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // A folder still in use elsewhere (a server that outlives the file is its own
      // test's failure) is left rather than failing the exit.
    }
  }
});

function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

// A folder of test t's own, removed once t ends.
function testDir(t, prefix) {
  const dir = tempDir(prefix);
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

module.exports = { tempDir, testDir };
