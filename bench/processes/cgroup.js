'use strict';
// An instance stand-in's cgroup (lib/instances.js): a server process held to a CFS CPU
// quota and a memory limit, and what the kernel accounts for it (CPU time, CFS periods
// throttled and the time throttled, peak memory, OOM kills).
//
// cgroup v1 (a hierarchy per controller: cpu, cpuacct, memory; nested under this process's
// own group in each) and v2 (one hierarchy: cpu.max, memory.max, cpu.stat, memory.peak,
// memory.events; under the root, or CTXBENCH_CGROUP_ROOT for a delegated one). Where
// neither can be written, detectCgroups() says what is missing in one line, before any
// server starts. Every group is named ctxbench-<pid>-<label> (this process's pid), is
// removed when its server has stopped and, whatever happens, when this process exits;
// one left by a killed run (its pid gone) is removed by the next run, which says so.
const fs = require('node:fs');
const path = require('node:path');
const { OneLineError } = require('../../lib/fatal');

class CgroupError extends OneLineError {}

const PREFIX = 'ctxbench-';
const V1_CONTROLLERS = ['cpu', 'cpuacct', 'memory'];
const HINT =
  'run as root, or point CTXBENCH_CGROUP_ROOT at a delegated cgroup v2 folder with the cpu and memory ' +
  'controllers (e.g. one made under `systemd-run --user --scope -p Delegate=yes`)';

const read = (file) => fs.readFileSync(file, 'utf8');
const tryRead = (file) => {
  try {
    return read(file);
  } catch {
    return null;
  }
};

// Where each cgroup filesystem is mounted: { v1: { controller: mountpoint }, v2: mountpoint | null }.
function mountsOf(text) {
  const v1 = {};
  let v2 = null;
  for (const line of text.split('\n')) {
    const [, mountpoint, type, options] = line.split(' ');
    if (type === 'cgroup2' && !v2) v2 = mountpoint;
    if (type === 'cgroup')
      for (const o of (options || '').split(',')) if (V1_CONTROLLERS.includes(o) && !v1[o]) v1[o] = mountpoint;
  }
  return { v1, v2 };
}

// This process's own group per v1 controller, from /proc/self/cgroup ("4:memory:/a/b").
function ownGroups(text) {
  const out = {};
  for (const line of text.split('\n')) {
    const [, controllers, p] = line.split(':');
    if (controllers === undefined) continue;
    for (const c of controllers.split(',')) if (V1_CONTROLLERS.includes(c)) out[c] = p;
  }
  return out;
}

// The layout groups are made in: { version: 1, parents: { cpu, cpuacct, memory } } or
// { version: 2, parent }. Throws a CgroupError (one line) when none can be written.
// Options for tests: mounts and self (the texts of /proc/mounts and /proc/self/cgroup),
// env, and probe (false: do not try to create a group).
function detectCgroups({
  mounts = tryRead('/proc/mounts') ?? '',
  self = tryRead('/proc/self/cgroup') ?? '',
  env = process.env,
  probe = true,
} = {}) {
  const m = mountsOf(mounts);
  const problems = [];
  if (env.CTXBENCH_CGROUP_ROOT) {
    const layout = { version: 2, parent: path.resolve(env.CTXBENCH_CGROUP_ROOT) };
    const why = v2Problem(layout.parent);
    if (why) throw new CgroupError(`--instance: CTXBENCH_CGROUP_ROOT=${env.CTXBENCH_CGROUP_ROOT}: ${why}`);
    return checked(layout, probe);
  }
  if (V1_CONTROLLERS.every((c) => m.v1[c])) {
    const own = ownGroups(self);
    const layout = {
      version: 1,
      parents: Object.fromEntries(V1_CONTROLLERS.map((c) => [c, path.join(m.v1[c], own[c] ?? '/')])),
    };
    const unwritable = V1_CONTROLLERS.filter((c) => !writable(layout.parents[c]));
    if (!unwritable.length) return checked(layout, probe);
    problems.push(
      `cgroup v1 ${unwritable.join(', ')} not writable here (${unwritable.map((c) => layout.parents[c]).join(', ')})`,
    );
  } else if (Object.keys(m.v1).length) {
    problems.push(
      `cgroup v1 without the ${V1_CONTROLLERS.filter((c) => !m.v1[c]).join(' and ')} ` +
        `controller${V1_CONTROLLERS.filter((c) => !m.v1[c]).length > 1 ? 's' : ''}`,
    );
  }
  if (m.v2) {
    const layout = { version: 2, parent: m.v2 };
    const why = v2Problem(layout.parent);
    if (!why) return checked(layout, probe);
    problems.push(`cgroup v2 at ${m.v2}: ${why}`);
  }
  if (!problems.length) problems.push('no cgroup filesystem is mounted');
  throw new CgroupError(
    `--instance needs a cgroup it can create with a CPU quota and a memory limit: ${problems.join('; ')}; ${HINT}`,
  );
}

function writable(dir) {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function v2Problem(dir) {
  const controllers = tryRead(path.join(dir, 'cgroup.controllers'));
  if (controllers === null) return 'not a cgroup v2 folder (no cgroup.controllers)';
  const have = controllers.trim().split(/\s+/);
  const missing = ['cpu', 'memory'].filter((c) => !have.includes(c));
  if (missing.length)
    return `the ${missing.join(' and ')} controller${missing.length > 1 ? 's are' : ' is'} not available there`;
  if (!writable(dir)) return 'not writable by this user';
  return null;
}

// A group made and removed at once: the rights are real, not only the mode bits.
function checked(layout, probe) {
  if (!probe) return layout;
  const g = new Cgroup(layout, 'probe');
  try {
    g.create({ quotaUs: 100000, periodUs: 100000, memoryBytes: 2 ** 30 });
  } catch (err) {
    g.remove();
    throw new CgroupError(
      `--instance: cannot create a cgroup with a CPU quota and a memory limit (${err.code || err.message}); ${HINT}`,
    );
  }
  g.remove();
  return layout;
}

const live = new Set();
let serial = 0;

// One server's group. create() makes its folders and writes the limits; dirs() are the
// folders whose cgroup.procs a process joins; read() the kernel's accounting so far;
// remove() deletes it (once its processes are gone).
class Cgroup {
  constructor(layout, label) {
    this.layout = layout;
    this.name = `${PREFIX}${process.pid}-${String(label)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 40)}-${serial++}`;
    this.created = [];
  }

  dirs() {
    return this.layout.version === 1
      ? V1_CONTROLLERS.map((c) => path.join(this.layout.parents[c], this.name))
      : [path.join(this.layout.parent, this.name)];
  }

  dir(controller) {
    return this.layout.version === 1
      ? path.join(this.layout.parents[controller], this.name)
      : path.join(this.layout.parent, this.name);
  }

  create({ quotaUs, periodUs, memoryBytes, burstUs = 0 }) {
    live.add(this);
    if (this.layout.version === 2) enableControllers(this.layout.parent);
    for (const d of this.dirs()) {
      fs.mkdirSync(d);
      this.created.push(d);
    }
    if (this.layout.version === 1) {
      fs.writeFileSync(path.join(this.dir('cpu'), 'cpu.cfs_period_us'), String(periodUs));
      fs.writeFileSync(path.join(this.dir('cpu'), 'cpu.cfs_quota_us'), String(quotaUs));
      fs.writeFileSync(path.join(this.dir('memory'), 'memory.limit_in_bytes'), String(memoryBytes));
    } else {
      fs.writeFileSync(path.join(this.dir('cpu'), 'cpu.max'), `${quotaUs} ${periodUs}`);
      fs.writeFileSync(path.join(this.dir('memory'), 'memory.max'), String(memoryBytes));
      // No swap beyond the limit: an instance has none.
      if (fs.existsSync(path.join(this.dir('memory'), 'memory.swap.max')))
        fs.writeFileSync(path.join(this.dir('memory'), 'memory.swap.max'), '0');
    }
    // A burst allowance (Linux >= 5.14): quota a period may carry over from idle ones.
    if (burstUs > 0) {
      const file = path.join(this.dir('cpu'), this.layout.version === 1 ? 'cpu.cfs_burst_us' : 'cpu.max.burst');
      if (!fs.existsSync(file))
        throw new CgroupError(`--cfs-burst needs the kernel's CFS burst (Linux 5.14 or later): ${file} is missing`);
      fs.writeFileSync(file, String(burstUs));
    }
    this.limits = { quotaUs, periodUs, memoryBytes, burstUs };
    return this;
  }

  // { cpuUs, periods, throttled, throttledUs, memoryPeakBytes, oomKills }
  read() {
    if (this.layout.version === 1) {
      const cpu = keyed(tryRead(path.join(this.dir('cpu'), 'cpu.stat')));
      const oom = keyed(tryRead(path.join(this.dir('memory'), 'memory.oom_control')));
      return {
        cpuUs: num(tryRead(path.join(this.dir('cpuacct'), 'cpuacct.usage'))) / 1000,
        periods: cpu.nr_periods ?? 0,
        throttled: cpu.nr_throttled ?? 0,
        throttledUs: (cpu.throttled_time ?? 0) / 1000,
        memoryPeakBytes: num(tryRead(path.join(this.dir('memory'), 'memory.max_usage_in_bytes'))),
        oomKills: oom.oom_kill ?? 0,
      };
    }
    const cpu = keyed(tryRead(path.join(this.dir('cpu'), 'cpu.stat')));
    const events = keyed(tryRead(path.join(this.dir('memory'), 'memory.events')));
    return {
      cpuUs: cpu.usage_usec ?? 0,
      periods: cpu.nr_periods ?? 0,
      throttled: cpu.nr_throttled ?? 0,
      throttledUs: cpu.throttled_usec ?? 0,
      memoryPeakBytes: num(tryRead(path.join(this.dir('memory'), 'memory.peak'))),
      oomKills: events.oom_kill ?? 0,
    };
  }

  // Removes the folders (a folder still holding a process cannot be removed: its processes
  // are killed first). Safe to call twice, and from the exit handler (synchronous).
  remove() {
    for (const d of [...this.created].reverse()) {
      if (removeDir(d)) this.created = this.created.filter((x) => x !== d);
    }
    if (!this.created.length) live.delete(this);
    return this.created.length === 0;
  }
}

function enableControllers(parent) {
  const file = path.join(parent, 'cgroup.subtree_control');
  const on = (tryRead(file) ?? '').trim().split(/\s+/);
  const missing = ['cpu', 'memory'].filter((c) => !on.includes(c));
  if (missing.length) fs.writeFileSync(file, missing.map((c) => `+${c}`).join(' '));
}

const num = (text) => (text === null ? null : Number(String(text).trim()));

// "nr_periods 10\nnr_throttled 2" -> { nr_periods: 10, nr_throttled: 2 }
function keyed(text) {
  const out = {};
  for (const line of String(text ?? '').split('\n')) {
    const [k, v] = line.trim().split(/\s+/);
    if (k && v !== undefined && Number.isFinite(Number(v))) out[k] = Number(v);
  }
  return out;
}

const sleepSync = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

// rmdir with the processes still in it killed first and a few short retries (a killed
// process leaves its group when the kernel has finished it). -> whether it is gone.
function removeDir(dir) {
  for (let i = 0; i < 50; i++) {
    try {
      fs.rmdirSync(dir);
      return true;
    } catch (err) {
      if (err.code === 'ENOENT') return true;
      if (err.code !== 'EBUSY') return false;
      for (const pid of (tryRead(path.join(dir, 'cgroup.procs')) ?? '').split('\n').filter(Boolean)) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // gone already
        }
      }
      sleepSync(20);
    }
  }
  return false;
}

// Whatever ends this process, its groups go with it.
process.on('exit', () => {
  for (const g of [...live]) g.remove();
});

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

// Groups left by runs that are gone (ctxbench-<pid>-… whose pid is dead): removed, and
// named -> [{ dir, pid, removed }].
function sweepLeftovers(layout) {
  const parents = layout.version === 1 ? Object.values(layout.parents) : [layout.parent];
  const out = [];
  for (const parent of parents) {
    let entries;
    try {
      entries = fs.readdirSync(parent, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const m = e.isDirectory() && new RegExp(`^${PREFIX}(\\d+)-`).exec(e.name);
      if (!m || Number(m[1]) === process.pid || pidAlive(Number(m[1]))) continue;
      const dir = path.join(parent, e.name);
      out.push({ dir, pid: Number(m[1]), removed: removeDir(dir) });
    }
  }
  return out;
}

// A server started inside a group: `sh` writes its own pid into every folder's cgroup.procs
// and execs the command, so the server (and anything it starts) is held from its first
// instruction. -> the wrap prefix and the environment it reads.
// The memory limit's verdict on a group: null unless the kernel killed a process in it.
function oomOf(group) {
  const r = group.read();
  return r.oomKills > 0
    ? { kills: r.oomKills, peakBytes: r.memoryPeakBytes, limitBytes: group.limits.memoryBytes }
    : null;
}

const mib = (bytes) => Math.round(bytes / 2 ** 20);
// "killed by the instance's 384 MiB memory limit at 391 MiB"
const oomText = (oom) =>
  `killed by the instance's ${mib(oom.limitBytes)} MiB memory limit at ${mib(oom.peakBytes)} MiB`;

// The wrap's exit code when it could not join.
const JOIN_FAILED = 97;
function joinCommand(group) {
  return {
    wrap: [
      'sh',
      '-c',
      `IFS=:; for d in $CTXBENCH_CGROUP_DIRS; do echo $$ > "$d/cgroup.procs" || exit ${JOIN_FAILED}; done; exec "$@"`,
      'ctxbench-cgroup',
    ],
    env: { CTXBENCH_CGROUP_DIRS: group.dirs().join(':') },
  };
}

// The layout every stand-in of this process is made in: detected once, before any server
// starts (a refusal is one line), and the groups left by killed runs removed then, each
// named through log().
let layout = null;
function standInLayout({ log = (line) => process.stderr.write(`ctxbench: ${line}\n`) } = {}) {
  if (layout) return layout;
  layout = detectCgroups();
  for (const left of sweepLeftovers(layout)) {
    log(
      left.removed
        ? `removed a cgroup left by a killed run (pid ${left.pid}): ${left.dir}`
        : `could not remove a cgroup left by a killed run (pid ${left.pid}): ${left.dir}`,
    );
  }
  return layout;
}

// What the kernel accounted for a stand-in between two read()s, over `requests` served:
// CPU per request from the cgroup, CFS periods and the share throttled, the time
// throttled, peak memory, OOM kills.
function groupDelta(a, b, requests) {
  if (!a || !b) return null;
  const periods = b.periods - a.periods;
  return {
    cpuUsPerRequest: requests > 0 ? (b.cpuUs - a.cpuUs) / requests : null,
    cpuUs: b.cpuUs - a.cpuUs,
    periods,
    throttled: b.throttled - a.throttled,
    throttledShare: periods > 0 ? (b.throttled - a.throttled) / periods : null,
    throttledMs: (b.throttledUs - a.throttledUs) / 1000,
    memoryPeakMB: Number.isFinite(b.memoryPeakBytes) ? b.memoryPeakBytes / 2 ** 20 : null,
    oomKills: b.oomKills,
  };
}

module.exports = {
  groupDelta,
  standInLayout,
  detectCgroups,
  Cgroup,
  sweepLeftovers,
  joinCommand,
  JOIN_FAILED,
  oomOf,
  oomText,
  mountsOf,
  ownGroups,
  keyed,
  CgroupError,
  PREFIX,
};
