'use strict';
// Runs the ctxbench CLI as a user would (a child process, from the repo root unless `cwd`) and resolves
// with its exit code, signal and output; onSpawn gets the child (to signal it mid-run), onStderr
// the stderr so far and the child after every chunk (to act on what the run says).
const { spawn } = require('node:child_process');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'bin', 'ctxbench.js');

// The pid of every ctxbench process this test file started: what it made (a cgroup named
// by its pid, bench/processes/cgroup.js) is told apart from what other files' runs make meanwhile.
const spawned = new Set();

// Runs skip the machine fingerprint (a server and a second of load per run, which no test
// but the runner's reads) unless env asks for it.
function runCli(args, { env = {}, cwd = ROOT, timeoutMs = 600000, onSpawn, onStderr } = {}) {
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
    child.stderr.on('data', (d) => {
      stderr += d;
      onStderr?.(stderr, child);
    });
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

// Runs `ctxbench <args> --out <out> --report none` expecting exit 0: resolves as runCli does,
// plus `run`, the run JSON it wrote.
async function runCliJson(args, out, options) {
  const r = await runCli([...args, '--out', out, '--report', 'none'], options);
  require('node:assert').strictEqual(r.code, 0, r.stderr);
  return { ...r, run: JSON.parse(require('node:fs').readFileSync(out, 'utf8')) };
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

// Runs the CLI and, as soon as when(child) says the run reached the step (polled every
// `everyMs`; never after a fixed sleep), calls then(value, child) once with what when() gave.
// Resolves as runCli does, plus `acted`.
async function runCliUntil(args, { when, then, everyMs = 10, ...options }) {
  let acted = false;
  const result = await runCli(args, {
    ...options,
    onSpawn(child) {
      const poll = setInterval(() => {
        const value = when(child);
        if (!value) return;
        clearInterval(poll);
        acted = true;
        then(value, child);
      }, everyMs);
      child.once('exit', () => clearInterval(poll));
    },
  });
  return { ...result, acted };
}

// Runs the CLI and sends one SIGINT (or `signal`) as soon as when() says the run reached the
// step. Resolves as runCli does, plus `sent`.
async function runCliInterrupted(args, { signal = 'SIGINT', ...options }) {
  const { acted, ...result } = await runCliUntil(args, { ...options, then: (value, child) => child.kill(signal) });
  return { ...result, sent: acted };
}

// Whether process pid (a server a run started) is still running.
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
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

module.exports = {
  runCli,
  runCliJson,
  runCliUntil,
  runCliInterrupted,
  readRunSoFar,
  running,
  assertServerGone,
  spawned,
};
