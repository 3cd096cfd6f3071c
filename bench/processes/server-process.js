'use strict';
// One server under test: `node app.js` in its own process on a free port, pinned to the
// server CPU when taskset exists, confirmed ready (/healthz) and confirmed to be the
// server we asked for (/__stats strategy, depth, hop, framework and its nonce), so a
// measurement can never land on somebody else's server.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const { freePort } = require('../../lib/free-port');
const path = require('node:path');
const { getJson, getText } = require('../measure/http-client');
const strategies = require('../../context');
const { envOf } = require('../../servers/config');
const { ensureAgent } = require('../../lib/agents');
const { joinCommand, JOIN_FAILED } = require('./cgroup');

const APP = path.resolve(__dirname, '..', '..', 'app.js');
const STDERR_TAIL = 4000;

class ServerStartError extends Error {
  constructor(message, stderrTail) {
    super(message);
    this.stderrTail = stderrTail;
  }
}

// Every child still running when this process exits (a second Ctrl-C calls
// process.exit) is killed, so no server outlives the command that started it.
const running = new Set();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

// The port from a listening line: app.js logs {"msg":"ctxbench listening","port":N},
// handlers/downstream.js {"message":"ctxbench downstream listening","port":N} (and
// bench/services/agent-sink.js "ctxbench agent sink listening"),
// bench/processes/hello-world.js prints "listening N".
function listeningPort(text) {
  for (const line of text.split('\n')) {
    if (/"ctxbench (downstream |agent sink )?listening"/.test(line)) return JSON.parse(line).port;
    const m = /^listening (\d+)\s*$/.exec(line);
    if (m) return Number(m[1]);
  }
  return null;
}

// THE spawn-and-wait-for-the-listening-line helper (the runner, overhead, the downstream
// service of bench/services/services.js and the tests use it). Resolves { child, port, pid, stderrTail(), exited:
// Promise<{code, signal}>, alive(), stop() } once the child printed its port; rejects with a ServerStartError
// (stderr tail attached) when it exits first or says nothing within timeoutMs.
//
// discardStdout: the child's stdout goes to /dev/null and it listens on a free port this
// process picks (PORT), ready once that port accepts a connection. For LOG=stdout
// servers: a Node child's stdout pipe is a socket, written asynchronously, so a line per
// level at depth 1024 (~150 KB a request) queued faster than any reader drains it until
// a writev of over IOV_MAX buffers failed (EINVAL) and the server died (measured here).
// /dev/null takes each write at once, as a logging agent on its own core would: the
// server pays for formatting and writing its lines, not for where they go.
//
// detached: its own process group, so a terminal's Ctrl-C reaches the runner only (the
// downstream service outlives the sample being finished). unrefPipes: once listening,
// its pipes do not keep this process alive; their closing is what tells the child to go.
async function spawnListening(
  command,
  args,
  {
    env = process.env,
    cwd,
    timeoutMs = 20000,
    discardStdout = false,
    detached = false,
    unrefPipes = false,
    joinsCgroup = false,
  } = {},
) {
  const fixedPort = discardStdout ? await freePort() : null;
  const devNull = discardStdout ? fs.openSync('/dev/null', 'w') : null;
  // stdin is a pipe from this process: app.js (CTXBENCH_PARENT_PIPE=1) stops when it
  // closes, so a server never outlives a runner that was SIGKILLed (no exit handler runs).
  const child = spawn(command, args, {
    env: { ...env, CTXBENCH_PARENT_PIPE: '1', ...(fixedPort !== null && { PORT: String(fixedPort) }) },
    cwd,
    stdio: ['pipe', devNull ?? 'pipe', 'pipe'],
    detached,
  });
  if (detached) child.unref();
  if (devNull !== null) fs.closeSync(devNull);
  child.stdin.on('error', () => {});
  child.stdin.unref?.();
  running.add(child);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-STDERR_TAIL);
  });
  const stderrTail = () => stderr.trim();
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (!alive()) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(killer);
  };
  let settled = false;
  const listening = listeningOn(child, {
    command,
    timeoutMs,
    joinsCgroup,
    fixedPort,
    unrefPipes,
    exited,
    stderrTail,
    keepTrying: () => alive() && !settled,
  });
  listening.finally(() => (settled = true)).catch(() => {});
  return listening.then(
    (port) => ({ child, port, pid: child.pid, url: `http://127.0.0.1:${port}`, stderrTail, exited, alive, stop }),
    async (err) => {
      await stop();
      throw err;
    },
  );
}

// Resolves the port once the child listens: its listening line on stdout, or (fixedPort)
// the port accepting a connection while keepTrying(); rejects with a ServerStartError
// when it cannot start, exits first or says nothing within timeoutMs.
function listeningOn(
  child,
  { command, timeoutMs, joinsCgroup, fixedPort, unrefPipes, exited, stderrTail, keepTrying },
) {
  let stdout = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ServerStartError(`server did not start within ${timeoutMs / 1000} s`, stderrTail())),
      timeoutMs,
    );
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new ServerStartError(`cannot start ${command}: ${err.message}`, ''));
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      // bench/processes/cgroup.js joinCommand exits 97 when it cannot write the group's cgroup.procs.
      if (joinsCgroup && code === JOIN_FAILED)
        reject(
          new ServerStartError(
            'the server could not join its instance cgroup (cgroup.procs not writable)',
            stderrTail(),
          ),
        );
      reject(new ServerStartError(`server exited (${signal || `code ${code}`}) before listening`, stderrTail()));
    });
    if (fixedPort !== null) {
      acceptsConnections(fixedPort, keepTrying).then(() => {
        clearTimeout(timer);
        resolve(fixedPort);
      });
      return;
    }
    child.stdout.setEncoding('utf8');
    const onData = (d) => {
      stdout += d;
      const port = listeningPort(stdout);
      if (port === null) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.resume(); // keep draining: a full pipe would block the server
      if (unrefPipes) for (const stream of [child.stdout, child.stderr]) stream.unref?.();
      resolve(port);
    };
    child.stdout.on('data', onData);
  });
}

// Resolves once 127.0.0.1:port accepts a TCP connection; stops trying (never resolves)
// when keepTrying() turns false (the child exited or the start timed out).
async function acceptsConnections(port, keepTrying) {
  while (keepTrying()) {
    const ok = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return new Promise(() => {});
}

// How a process ended, in words: "killed by SIGKILL" or "exit code 1".
function describeExit(exit) {
  return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}

// config: { strategy, depth, hop, framework, burnUs } for app.js; or { script } for
// another server (bench/processes/hello-world.js), which has no /__stats and is confirmed by its
// answer to GET / alone. wrap: a command prefix for node (Valgrind, bench/measure/callgrind.js).
// cgroup: an instance stand-in's group (bench/processes/cgroup.js, created): the server joins it
// before its first instruction, so it runs under the instance's CPU quota and memory limit.
async function startServer(
  config,
  {
    nodePath = process.execPath,
    nodeArgs = [],
    cpu = null,
    env = {},
    timeoutMs = 20000,
    script = null,
    wrap = [],
    cgroup = null,
  } = {},
) {
  if (cgroup) {
    const joined = joinCommand(cgroup);
    wrap = [...joined.wrap, ...wrap];
    env = { ...env, ...joined.env };
  }
  // An APM agent strategy loads its package from the cache: installed by the first run
  // that needs it, before its first server, never inside a measured one.
  const agent = !script && strategies.names.includes(config.strategy) && strategies.info(config.strategy).agent;
  if (agent) await ensureAgent(agent, { log: (line) => process.stderr.write(`ctxbench: ${line}\n`) });
  const argv = [...wrap, nodePath, ...nodeArgs, script || APP];
  const [command, args] = cpu === null ? [argv[0], argv.slice(1)] : ['taskset', ['-c', String(cpu), ...argv]];
  const proc = await spawnListening(command, args, {
    joinsCgroup: Boolean(cgroup),
    timeoutMs,
    discardStdout: !script && config.log === 'stdout',
    env: {
      ...process.env,
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      ...(!script && envOf(config)),
    },
  });
  // Confirming it is part of starting it, within the same limit: under Valgrind a server
  // that was listening took over 5 s (the probes' own default) to answer /healthz on a
  // loaded host.
  const probe = { timeoutMs };
  try {
    if (script) {
      await getText(`${proc.url}/`, probe);
      return { ...proc, nonce: null, first: null, stats: false };
    }
    await getText(`${proc.url}/healthz`, probe);
    const stats = await getJson(`${proc.url}/__stats`, probe);
    confirmIdentity(stats, config);
    return { ...proc, nonce: stats.nonce, first: stats, stats: true };
  } catch (err) {
    await proc.stop();
    throw err instanceof ServerStartError ? err : new ServerStartError(err.message, proc.stderrTail());
  }
}

function confirmIdentity(stats, config) {
  for (const key of ['strategy', 'depth', 'hop', 'framework']) {
    if (stats[key] !== config[key]) {
      throw new ServerStartError(
        `server reports ${key}=${stats[key]}, expected ${config[key]}: not the server we started`,
        '',
      );
    }
  }
  if (stats.log !== undefined && stats.log !== (config.log || 'none')) {
    throw new ServerStartError(
      `server reports log=${stats.log}, expected ${config.log || 'none'}: not the server we started`,
      '',
    );
  }
  if ((stats.stores ?? 0) !== (config.stores || 0)) {
    throw new ServerStartError(
      `server reports stores=${stats.stores}, expected ${config.stores || 0}: not the server we started`,
      '',
    );
  }
}

module.exports = { startServer, spawnListening, listeningPort, describeExit, ServerStartError };
