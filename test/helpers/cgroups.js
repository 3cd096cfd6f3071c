'use strict';
// The cgroups the tests that make real stand-ins need (bench/processes/cgroup.js): the layout this
// machine allows, or why none; the groups left by other ctxbench processes; and the skip
// that says why (a failure under CI=true, which runs as root with cgroups).
const fs = require('node:fs');
const assert = require('node:assert');
const { detectCgroups } = require('../../bench/processes/cgroup');
const { spawned } = require('./cli');

let layout = null;
let why = null;
try {
  layout = detectCgroups();
} catch (err) {
  why = err.message;
}

const parents = () => (layout.version === 1 ? Object.values(layout.parents) : [layout.parent]);
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};
const groups = (keep) =>
  parents().flatMap((p) =>
    fs.readdirSync(p).filter((n) => {
      const m = /^ctxbench-(\d+)-/.exec(n);
      return m && Number(m[1]) !== process.pid && keep(Number(m[1]));
    }),
  );
// The groups process `pid` (a ctxbench run under way) has made.
const made = (pid) => groups((owner) => owner === pid);
// Groups left behind: made by a ctxbench process this file ran (runCli) that is gone. Another
// file's runs are not this file's to judge: a live one's groups are in use, and a killed one's
// (test/all/instance.test.js SIGKILLs a run on purpose) stay until the next run removes them,
// which may be while this file looks.
const ours = () => groups((pid) => spawned.has(pid) && !alive(pid));

function skipWithout(t) {
  if (layout) return false;
  if (process.env.CI === 'true') assert.fail(`CI runs as root with cgroups: ${why}`);
  t.skip(why);
  return true;
}

module.exports = { layout, ours, made, skipWithout };
