'use strict';
// One start command of the user's own service (`ctxbench app`): run through `sh -c` in a
// process group of its own, with PORT set to a free port, pinned to the server CPU when
// taskset exists, and ready once its health path answers 2xx. Stopped as a group
// (SIGTERM, then SIGKILL), so a `npm start` that forks node leaves nothing behind.
const { freePort } = require('../../lib/free-port');
const { spawn } = require('node:child_process');
const { joinCommand, JOIN_FAILED } = require('../processes/cgroup');

const STDERR_TAIL = 4000;
const live = new Set();
process.on('exit', () => {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

class AppStartError extends Error {}

const lastLines = (text, n = 5) => text.trim().split('\n').slice(-n).join(' | ');
const { setTimeout: sleep } = require('node:timers/promises');

// startApp({ name, command, health, cpu, timeoutMs, env, cgroup }) -> { pid, port, url, stop(),
// alive(), exitInfo() ({ code, signal } once it exited), stderrTail() }; rejects with one line (the command's last
// stderr lines) when it exits before its health path answers or the path never answers 2xx in time.
// cgroup: an instance stand-in's group (bench/processes/cgroup.js, created): the command joins it
// before it runs, so the service and everything it starts are held to the instance.
async function startApp({ name, command, health = '/', cpu = null, timeoutMs = 30000, env = {}, cgroup = null }) {
  const port = await freePort();
  const join = cgroup ? joinCommand(cgroup) : { wrap: [], env: {} };
  const argv = [...(cpu === null ? [] : ['taskset', '-c', String(cpu)]), ...join.wrap, 'sh', '-c', command];
  const child = spawn(argv[0], argv.slice(1), {
    env: { ...process.env, ...env, ...join.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  live.add(child.pid);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-STDERR_TAIL);
  });
  let exit = null;
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      live.delete(child.pid);
      resolve(exit);
    }),
  );
  const alive = () => exit === null;
  const stop = async () => {
    if (!alive()) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const killer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }, 3000);
    await exited;
    clearTimeout(killer);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!alive()) {
      if (cgroup && exit.code === JOIN_FAILED)
        throw new AppStartError(
          `${name}: could not join its instance cgroup (cgroup.procs not writable): \`${command}\` did not start`,
        );
      const how = exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
      throw new AppStartError(
        `${name}: \`${command}\` exited (${how}) before ${health} ` +
          `answered${stderr.trim() ? `: ${lastLines(stderr)}` : ''}`,
      );
    }
    try {
      const res = await fetch(`${url}${health}`, {
        signal: AbortSignal.timeout(1000),
        headers: { connection: 'close' },
      });
      await res.arrayBuffer();
      if (res.ok)
        return { pid: child.pid, port, url, stop, alive, exitInfo: () => exit, stderrTail: () => lastLines(stderr) };
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err.cause?.code || err.message;
    }
    await sleep(100);
  }
  await stop();
  throw new AppStartError(
    `${name}: ${health} on port ${port} never answered 2xx within ${timeoutMs / 1000} s (last: ` +
      `${last})${stderr.trim() ? `; stderr: ${lastLines(stderr)}` : ''}`,
  );
}

module.exports = { startApp, freePort, AppStartError };
