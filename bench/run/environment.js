'use strict';
// The machine a run measured, captured automatically (the seeds listed these by hand).
const os = require('node:os');
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

function git(args) {
  try {
    return execFileSync('git', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

// A checkout of ctxbench itself, or ctxbench installed into someone's project (whose own
// git repository is not ctxbench's: its commit must not be recorded as ctxbench's).
const inOwnCheckout = () => {
  const top = git(['rev-parse', '--show-toplevel']);
  return top !== null && fs.realpathSync(top) === fs.realpathSync(ROOT);
};
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

function hasTaskset() {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return os.cpus().length >= 2;
  } catch {
    return false;
  }
}

function cpuFrequencyRange() {
  const read = (f) => {
    try {
      return Number(fs.readFileSync(`/sys/devices/system/cpu/cpu0/cpufreq/${f}`, 'utf8')) / 1000;
    } catch {
      return null;
    }
  };
  const min = read('cpuinfo_min_freq');
  const max = read('cpuinfo_max_freq');
  return min && max ? `${min} MHz - ${max} MHz` : null;
}

// The machine a run's figures hold for (analysis/repro.js machineOf reads these three back).
function machineIdentity() {
  const cpus = os.cpus();
  return { kernel: os.release(), cpuModel: cpus[0]?.model?.trim() || 'unknown', cores: cpus.length };
}

function captureEnvironment() {
  const machine = machineIdentity();
  // The results themselves (results.md, results/) change with every run; they are not code.
  const own = inOwnCheckout();
  const status = own
    ? git(['status', '--porcelain', '--untracked-files=no', '--', '.', ':!results', ':!results.md'])
    : null;
  return {
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    platform: process.platform,
    kernel: machine.kernel,
    arch: process.arch,
    cpuModel: machine.cpuModel,
    cores: machine.cores,
    cpuFrequency: cpuFrequencyRange(),
    memoryBytes: os.totalmem(),
    date: new Date().toISOString(),
    commit: own ? git(['rev-parse', '--short', 'HEAD']) : null,
    ctxbenchVersion: VERSION,
    dirty: status === null ? null : status.length > 0,
    taskset: hasTaskset(),
  };
}

module.exports = { captureEnvironment, machineIdentity, hasTaskset };
