'use strict';
// Noise diagnostics: how much of the machine was not ours while we measured. Steal time
// (a hypervisor running someone else), other processes' CPU, load average and clock
// speed, read from /proc where it exists, compared before and after a run.
const fs = require('node:fs');
const os = require('node:os');

function readProcStat() {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return { user, nice, system, idle, iowait, irq, softirq, steal: steal || 0 };
  } catch {
    return null;
  }
}

function cpuMHz() {
  try {
    const mhz = fs
      .readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('cpu MHz'))
      .map((l) => Number(l.split(':')[1]));
    return mhz.length ? mhz : null;
  } catch {
    return null;
  }
}

function snapshot() {
  return { at: Date.now(), stat: readProcStat(), loadavg: os.loadavg(), cpuMHz: cpuMHz() };
}

// Fractions of all CPU time between two snapshots.
function between(before, after) {
  if (!before?.stat || !after?.stat) return null;
  const d = {};
  for (const k of Object.keys(before.stat)) d[k] = after.stat[k] - before.stat[k];
  const total = Object.values(d).reduce((a, b) => a + b, 0);
  if (total <= 0) return null;
  return {
    seconds: (after.at - before.at) / 1000,
    stealPct: (100 * d.steal) / total,
    idlePct: (100 * (d.idle + d.iowait)) / total,
    busyPct: (100 * (total - d.idle - d.iowait)) / total,
  };
}

// Thresholds above which a run's numbers are flagged as taken on a noisy machine.
const LIMITS = { stealPct: 5, loadavgPerCore: 1.5 };

// ownLoad: why the load average is the run's own (the curl driver's xargs -P N keeps N curl
// processes runnable on the load CPU), so it is not judged and says so.
function assess(before, after, { ownLoad = null } = {}) {
  const window = between(before, after);
  const flags = [];
  if (window && window.stealPct > LIMITS.stealPct) {
    flags.push(
      `CPU steal ${window.stealPct.toFixed(1)}% (> ${LIMITS.stealPct}%): the hypervisor gave our CPUs to someone else`,
    );
  }
  const cores = os.cpus().length;
  // The load averages read at the end whose span (1, 5, 15 minutes) lies within the run: one read
  // at the start, or one longer than the run, is what ran before it (a test suite that had just
  // ended read 4.78 at the start of a 56-minute run whose own minutes read 0.83: docs/deploy.md).
  const seconds = (after.at - before.at) / 1000;
  const spans = [1, 5, 15].map((m, i) => (m * 60 <= seconds ? after.loadavg[i] : null)).filter(Number.isFinite);
  const load = Math.max(...(spans.length ? spans : [after.loadavg[0]]));
  if (!ownLoad && load / cores > LIMITS.loadavgPerCore) {
    flags.push(
      `load average ${load.toFixed(2)} on ${cores} cores (> ${LIMITS.loadavgPerCore} per core): other work competed`,
    );
  }
  return { before, after, window, flags, noisy: flags.length > 0, ...(ownLoad && { loadNotJudged: ownLoad }) };
}

module.exports = { snapshot, between, assess, LIMITS };
