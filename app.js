#!/usr/bin/env node
'use strict';
// Entry point: configuration from the environment -> server -> listen.
const { loadConfig, ConfigError } = require('./servers/config');
const { fatal } = require('./lib/fatal');
const { DEFAULT_MAJOR } = require('./lib/node-versions');

let config;
try {
  config = loadConfig(process.env);
} catch (err) {
  if (err instanceof ConfigError) fatal(err.message);
  throw err;
}

const { createService } = require('./handlers/service');
const frameworks = require('./servers');

let service;
try {
  service = createService(config);
} catch (err) {
  // A strategy that cannot start (an agent not installed) says so in one line.
  if (err.oneLine) fatal(err.message);
  throw err;
}
const server = frameworks.load(config.framework).createServer(service);

server.on('error', (err) => {
  const reason = err.code === 'EADDRINUSE' ? 'is already in use' : `cannot be used (${err.code || err.message})`;
  fatal(`PORT=${config.port} on HOST=${config.host} ${reason}`);
});

server.listen(config.port, config.host, () => {
  const { port } = server.address();
  // A structured line: under LOG=stdout it sits among the Cloud Logging lines; the
  // runner reads the port from it when it starts a server with PORT=0.
  process.stdout.write(
    JSON.stringify({
      severity: 'INFO',
      message: 'ctxbench listening',
      port,
      host: config.host,
      strategy: config.strategy,
      depth: config.depth,
      hop: config.hop,
      framework: config.framework,
      pid: process.pid,
    }) + '\n',
  );
  process.stderr.write(`ctxbench: ${runtimeLine(service.stats())}\n`);
});

// Which Node serves, said at start: `npm start` runs the Node on PATH, while the headline
// figures are Node DEFAULT_MAJOR's with AsyncContextFrame (docs/server.md).
function runtimeLine({ node, acf }) {
  const see = 'docs/server.md#which-node-runs-it';
  if (!acf) {
    return (
      `Node ${node}: context propagation uses async_hooks here, not AsyncContextFrame, so figures differ ` +
      `from the headline's (Node ${DEFAULT_MAJOR}, AsyncContextFrame; ${see})`
    );
  }
  const major = /^v(\d+)/.exec(node)[1];
  return major === DEFAULT_MAJOR
    ? `Node ${node}, AsyncLocalStorage on AsyncContextFrame: the runtime of the headline figures (${see})`
    : `Node ${node}, AsyncLocalStorage on AsyncContextFrame; the headline figures are Node ${DEFAULT_MAJOR}'s (${see})`;
}

// SIGTERM (App Engine, Cloud Run, the runner): stop accepting, let requests in flight
// finish, then exit 0. Keep-alive connections that fall idle are closed as they do.
process.once('SIGTERM', shutdown);

// Started by ctxbench (bench/processes/server-process.js): stdin is a pipe from the runner. When it
// closes the runner is gone (even SIGKILLed, when no exit handler of its runs), and a
// server left behind would load the CPU of the next benchmark: stop as on SIGTERM.
if (process.env.CTXBENCH_PARENT_PIPE === '1') {
  process.stdin.on('data', () => {});
  process.stdin.once('end', shutdown);
  process.stdin.once('error', shutdown);
}

let closing = false;
function shutdown() {
  if (closing) return;
  closing = true;
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  sweep.unref();
  setTimeout(() => {
    server.closeAllConnections();
    process.exit(0);
  }, 10000).unref();
}
