'use strict';
// The cgroups the tests that make real stand-ins need (bench/cgroup.js): the layout this
// machine allows, or why none; the groups left by other ctxbench processes; and the skip
// that says why (a failure under CI=true, which runs as root with cgroups).
const fs = require('node:fs');
const assert = require('node:assert');
const { detectCgroups } = require('../../bench/cgroup');

let layout = null;
let why = null;
try {
  layout = detectCgroups();
} catch (err) {
  why = err.message;
}

const parents = () => (layout.version === 1 ? Object.values(layout.parents) : [layout.parent]);
// Groups of ctxbench processes other than this one (the commands a test runs).
const ours = () => parents().flatMap((p) => fs.readdirSync(p).filter((n) => /^ctxbench-\d+-/.test(n) && !n.startsWith(`ctxbench-${process.pid}-`)));

function skipWithout(t) {
  if (layout) return false;
  if (process.env.CI === 'true') assert.fail(`CI runs as root with cgroups: ${why}`);
  t.skip(why);
  return true;
}

module.exports = { layout, ours, skipWithout };
