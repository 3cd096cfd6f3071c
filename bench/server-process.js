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

function startServer(config, { nodePath = process.execPath, nodeArgs = [], cpu = null, env = {}, timeoutMs = 20000 } = {}) {
  const argv = [...nodeArgs, APP];
  const [command, args] = cpu === null ? [nodePath, argv] : ['taskset', ['-c', String(cpu), nodePath, ...argv]];
  const child = spawn(command, args, {
    env: {
      ...process.env,
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      STRATEGY: config.strategy,
      DEPTH: String(config.depth),
      HOP: config.hop,
      FRAMEWORK: config.framework,
      LOG: 'none',
      BURN_US: String(config.burnUs || 0),
      STORES: String(config.stores || 0),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  let stderr = '';
  let stdout = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-STDERR_TAIL);
  });
  const stderrTail = () => stderr.trim();
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const listening = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new ServerStartError(`server did not start within ${timeoutMs / 1000} s`, stderrTail())), timeoutMs);
    child.stdout.setEncoding('utf8');
    const onData = (d) => {
      stdout += d;
      const line = stdout.split('\n').find((l) => l.includes('"ctxbench listening"'));
      if (!line) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.resume(); // keep draining: a full pipe would block the server
      resolve(JSON.parse(line).port);
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

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(killer);
  };

  return listening.then(
    async (port) => {
      const url = `http://127.0.0.1:${port}`;
      try {
        await getText(`${url}/healthz`);
        const stats = await getJson(`${url}/__stats`);
        confirmIdentity(stats, config);
        return {
          url,
          pid: child.pid,
          nonce: stats.nonce,
          first: stats,
          stderrTail,
          alive: () => child.exitCode === null && child.signalCode === null,
          exited,
          stop,
        };
      } catch (err) {
        await stop();
        throw err instanceof ServerStartError ? err : new ServerStartError(err.message, stderrTail());
      }
    },
    async (err) => {
      await stop();
      throw err;
    },
  );
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

module.exports = { startServer, ServerStartError };
