'use strict';
// CPU time of a process and all its descendants, read from /proc, for services that have
// no ctxbench endpoint (`ctxbench app`). Per thread, the first field of
// /proc/<pid>/task/<tid>/schedstat is the time it ran, in nanoseconds; utime/stime in
// /proc/<pid>/stat count in clock ticks (10 ms), too coarse for one-second windows.
// A thread that exits between two readings takes its time with it: Node's threads live
// as long as the process, so for a service this is the start-up's helpers at most.
const fs = require('node:fs');

function read(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

// pid -> parent pid, for every process now (comm may contain spaces and parentheses:
// the fields after the last ')' are fixed).
function parents() {
  const out = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(name), Number(rest[1]));
  }
  return out;
}

// [root, ...its descendants] that are alive now.
function treeOf(root) {
  const byParent = new Map();
  for (const [pid, ppid] of parents()) {
    if (!byParent.has(ppid)) byParent.set(ppid, []);
    byParent.get(ppid).push(pid);
  }
  const out = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift();
    out.push(pid);
    queue.push(...(byParent.get(pid) || []));
  }
  return out;
}

// pid -> [{ tid, ns }]: each thread's CPU time so far (schedstat's first field), [] when
// pid is gone.
function threadTimes(pid) {
  let tasks;
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.map((tid) => ({
    tid,
    ns: Number((read(`/proc/${pid}/task/${tid}/schedstat`) || '').split(' ')[0]) || 0,
  }));
}

const threadsNs = (pid) => threadTimes(pid).reduce((sum, t) => sum + t.ns, 0);

// treeCpuUs(pid) -> µs of CPU used so far by pid and its descendants; throws when pid is gone.
function treeCpuUs(pid) {
  if (!fs.existsSync(`/proc/${pid}`)) throw new Error(`process ${pid} is gone`);
  return treeOf(pid).reduce((sum, p) => sum + threadsNs(p), 0) / 1000;
}

// wakeups(pid) -> how many times pid's main thread (the event loop's) has gone to sleep
// and been woken so far (voluntary context switches: /proc/<pid>/status counts the thread
// that is the process's own), or null when it cannot be read. Per request, it says how
// many requests one wake-up served: at a fixed rate a request pays for the wake-ups that
// serve it, and a busier server serves more requests each.
function wakeups(pid) {
  if (!Number.isInteger(pid)) return null;
  const m = /^voluntary_ctxt_switches:\s+(\d+)$/m.exec(read(`/proc/${pid}/status`) || '');
  return m ? Number(m[1]) : null;
}

// The wake-ups per request between two readings of wakeups() (to 0.001), or null.
const wakeupsPerRequest = (before, after, requests) =>
  Number.isFinite(before) && Number.isFinite(after) && requests > 0
    ? Math.round(((after - before) / requests) * 1000) / 1000
    : null;

// One CPU's busy time so far, from /proc/stat (clock ticks: 10 ms; over a 1-s window, a
// share to 1%): { busy, total } or null where there is no such line. Busy is everything
// but idle and iowait, whoever ran: the load generator, PostgreSQL, the downstream service.
function cpuTicks(cpu) {
  const line = (read('/proc/stat') || '').split('\n').find((l) => l.startsWith(`cpu${cpu} `));
  if (!line) return null;
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - f[3] - f[4], total };
}

// The busy share of a CPU between two cpuTicks readings (null when either is missing).
function busyShare(before, after) {
  if (!before || !after || after.total <= before.total) return null;
  return (after.busy - before.busy) / (after.total - before.total);
}

const supported = () => fs.existsSync(`/proc/${process.pid}/task/${process.pid}/schedstat`);

module.exports = { treeCpuUs, treeOf, supported, cpuTicks, busyShare, wakeups, wakeupsPerRequest, threadTimes };
