'use strict';
// Runs the ctxbench CLI as a user would (a child process, from the repo root unless `cwd`) and resolves
// with its exit code, signal and output; onSpawn gets the child (to signal it mid-run).
const { spawn } = require('node:child_process');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'bin', 'ctxbench.js');

// The pid of every ctxbench process this test file started: what it made (a cgroup named
// by its pid, bench/processes/cgroup.js) is told apart from what other files' runs make meanwhile.
const spawned = new Set();

// Runs skip the machine fingerprint (a server and a second of load per run, which no test
// but the runner's reads) unless env asks for it.
function runCli(args, { env = {}, cwd = ROOT, timeoutMs = 600000, onSpawn } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { CTXBENCH_FINGERPRINT: '0', ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    spawned.add(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    onSpawn?.(child);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ctxbench ${args.join(' ')} did not finish; stderr: ${stderr}`));
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

// The run JSON a command is still writing, or null before its first save (or between a
// write and its rename).
function readRunSoFar(file) {
  try {
    return JSON.parse(require('node:fs').readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

// Runs the CLI and sends one SIGINT as soon as when() says the run reached the step (polled
// every 10 ms; never after a fixed sleep). Resolves as runCli does, plus `sent`.
async function runCliInterrupted(args, { when, signal = 'SIGINT', ...options }) {
  let sent = false;
  const result = await runCli(args, {
    ...options,
    onSpawn(child) {
      const poll = setInterval(() => {
        if (!when(child)) return;
        clearInterval(poll);
        sent = true;
        child.kill(signal);
      }, 10);
      child.once('exit', () => clearInterval(poll));
    },
  });
  return { ...result, sent };
}

// A server process a run started and recorded ({ pid, dir }): stopped, its folder removed.
function assertServerGone(server, what) {
  const assert = require('node:assert');
  assert.ok(
    server && Number.isInteger(server.pid) && typeof server.dir === 'string',
    `${what}: ${JSON.stringify(server)}`,
  );
  assert.throws(() => process.kill(server.pid, 0), /ESRCH/, `${what} ${server.pid} is still running`);
  assert.ok(!require('node:fs').existsSync(server.dir), `${server.dir} was not removed`);
}

module.exports = { runCli, runCliInterrupted, readRunSoFar, assertServerGone, spawned };
