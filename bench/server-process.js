'use strict';
// One server under test: `node app.js` in its own process on a free port, pinned to the
// server CPU when taskset exists, confirmed ready (/healthz) and confirmed to be the
// server we asked for (/__stats strategy, depth, hop, framework and its nonce), so a
// measurement can never land on somebody else's server.
const { spawn } = require('node:child_process');
const path = require('node:path');
const { getJson, getText } = require('./http-client');

const APP = path.resolve(__dirname, '..', 'app.js');
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
// bench/hello-world.js prints "listening N".
function listeningPort(text) {
  for (const line of text.split('\n')) {
    if (line.includes('"ctxbench listening"')) return JSON.parse(line).port;
    const m = /^listening (\d+)\s*$/.exec(line);
    if (m) return Number(m[1]);
  }
  return null;
}

// THE spawn-and-wait-for-the-listening-line helper (the runner, overhead and the tests
// use it). Resolves { child, port, pid, stderrTail(), exited: Promise<{code, signal}>,
// alive(), stop() } once the child printed its port; rejects with a ServerStartError
// (stderr tail attached) when it exits first or says nothing within timeoutMs.
function spawnListening(command, args, { env = process.env, cwd, timeoutMs = 20000 } = {}) {
  // stdin is a pipe from this process: app.js (CTXBENCH_PARENT_PIPE=1) stops when it
  // closes, so a server never outlives a runner that was SIGKILLed (no exit handler runs).
  const child = spawn(command, args, { env: { ...env, CTXBENCH_PARENT_PIPE: '1' }, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => {});
  child.stdin.unref?.();
  running.add(child);
  let stderr = '';
  let stdout = '';
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
  const listening = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new ServerStartError(`server did not start within ${timeoutMs / 1000} s`, stderrTail())), timeoutMs);
    child.stdout.setEncoding('utf8');
    const onData = (d) => {
      stdout += d;
      const port = listeningPort(stdout);
      if (port === null) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.resume(); // keep draining: a full pipe would block the server
      resolve(port);
    };
    child.stdout.on('data', onData);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new ServerStartError(`cannot start ${command}: ${err.message}`, ''));
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new ServerStartError(`server exited (${signal || `code ${code}`}) before listening`, stderrTail()));
    });
  });
  return listening.then(
    (port) => ({ child, port, pid: child.pid, url: `http://127.0.0.1:${port}`, stderrTail, exited, alive, stop }),
    async (err) => {
      await stop();
      throw err;
    },
  );
}

// How a process ended, in words: "killed by SIGKILL" or "exit code 1".
function describeExit(exit) {
  return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}

// config: { strategy, depth, hop, framework, burnUs } for app.js; or { script } for
// another server (bench/hello-world.js), which has no /__stats and is confirmed by its
// answer to GET / alone. wrap: a command prefix for node (Valgrind, bench/callgrind.js).
async function startServer(config, { nodePath = process.execPath, nodeArgs = [], cpu = null, env = {}, timeoutMs = 20000, script = null, wrap = [] } = {}) {
  const argv = [...wrap, nodePath, ...nodeArgs, script || APP];
  const [command, args] = cpu === null ? [argv[0], argv.slice(1)] : ['taskset', ['-c', String(cpu), ...argv]];
  const proc = await spawnListening(command, args, {
    timeoutMs,
    env: {
      ...process.env,
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      ...(!script && {
        STRATEGY: config.strategy,
        DEPTH: String(config.depth),
        HOP: config.hop,
        FRAMEWORK: config.framework,
        LOG: 'none',
        BURN_US: String(config.burnUs || 0),
        STORES: String(config.stores || 0),
      }),
    },
  });
  try {
    if (script) {
      await getText(`${proc.url}/`);
      return { ...proc, nonce: null, first: null, stats: false };
    }
    await getText(`${proc.url}/healthz`);
    const stats = await getJson(`${proc.url}/__stats`);
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
      throw new ServerStartError(`server reports ${key}=${stats[key]}, expected ${config[key]}: not the server we started`, '');
    }
  }
  if ((stats.stores ?? 0) !== (config.stores || 0)) {
    throw new ServerStartError(`server reports stores=${stats.stores}, expected ${config.stores || 0}: not the server we started`, '');
  }
}

module.exports = { startServer, spawnListening, listeningPort, describeExit, ServerStartError };
