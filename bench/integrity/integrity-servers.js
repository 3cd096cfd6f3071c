'use strict';
// The integrity suite's servers: this process's own node as a target, a fresh server per
// strategy (and per soak), and a failed server's record.
const { startServer } = require('../processes/server-process');

const SERVER_DEPTH = 8;

// This process's own node, as a target (what resolveNodeTargets gives without --node).
function currentTarget() {
  const major = process.versions.node.split('.')[0];
  return { label: `node${major}`, major, version: process.version, path: process.execPath, args: [], expectAcf: null };
}

// A fresh server for one strategy; soak: with --expose-gc and /__gc. env: extra
// variables (tests plant a strategy with CTXBENCH_EXTRA_STRATEGY).
async function startFor(target, strategy, settings, { soak, env = {} }) {
  const server = await startServer(
    { strategy, depth: SERVER_DEPTH, hop: 'await', framework: settings.framework },
    {
      nodePath: target.path,
      nodeArgs: [...(target.args || []), ...(soak ? ['--expose-gc'] : [])],
      env: { ...env, CTXBENCH_ALLOW_GC: soak ? '1' : '0', CTXBENCH_LIBRARY_SCENARIOS: '1', CTXBENCH_SPAN_CHECK: '1' },
    },
  );
  if (target.expectAcf !== null && target.expectAcf !== undefined && server.first.acf !== target.expectAcf) {
    await server.stop();
    throw new Error(
      `asked for AsyncContextFrame ${target.expectAcf ? 'on' : 'off'} but the server reports it ` +
        `${server.first.acf ? 'on' : 'off'}`,
    );
  }
  return server;
}

// A server that failed to start or died: recorded in the run, said in the log.
function failServer({ result, progress }, target, strategy, purpose, err) {
  const message = String(err.message).split('\n')[0];
  result.errors.push({ node: target.label, strategy, purpose, message, stderrTail: err.stderrTail || '' });
  progress?.log(`${target.label} ${strategy}: ${purpose} server failed: ${message}`);
}

module.exports = { currentTarget, startFor, failServer };
