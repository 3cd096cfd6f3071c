'use strict';
// Real servers for tests: `node app.js` on a free port (PORT=0), stopped afterwards.
const { spawn } = require('node:child_process');
const { spawnListening } = require('../../bench/processes/server-process');
const http = require('node:http');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

// Starts app.js with env; resolves once it printed its listening line (the runner's own
// spawn helper, so tests start servers exactly as the benchmark does).
// cwd and app: another copy of the server (a production-only tree in appengine.test.js).
async function startServer(
  env = {},
  { args = [], nodePath = process.execPath, timeoutMs = 60000, cwd = ROOT, app = path.join(ROOT, 'app.js') } = {},
) {
  let proc;
  try {
    proc = await spawnListening(nodePath, [...args, app], {
      cwd,
      env: { ...process.env, PORT: '0', ...env },
      timeoutMs,
    });
  } catch (err) {
    throw new Error(`${err.message}; stderr: ${err.stderrTail}`, { cause: err });
  }
  const { child, port, url } = proc;
  return { child, port, url, stderr: proc.stderrTail, stop: () => stopChild(child) };
}

// One server per name ({ name: env }), started before the test file's tests and stopped after
// them: the object returned is filled with them once they all listen.
function serversFor(envs) {
  const test = require('node:test');
  const servers = {};
  test.before(async () => {
    const started = await Promise.all(Object.values(envs).map((env) => startServer(env)));
    Object.keys(envs).forEach((name, i) => (servers[name] = started[i]));
  });
  test.after(() => Promise.all(Object.values(servers).map((s) => s.stop())));
  return servers;
}

function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

// Runs app.js expecting it to exit; resolves { code, stdout, stderr }.
function runToExit(env = {}, { timeoutMs = 60000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'app.js')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`app.js did not exit in ${timeoutMs} ms; stdout: ${stdout}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

// An http.Server of the test's own (ctxbench's agent sink, a stand-in) listening on a free
// loopback port; resolves its URL.
function listen(server) {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)),
  );
}

// One GET; resolves { status, headers, body }.
function get(url, { headers = {}, agent } = {}) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

// A distinct, valid 32-hex trace id for request i of a test.
function traceId(i, prefix = 'c0ffee') {
  return (prefix + i.toString(16)).padStart(32, '0').slice(-32);
}

// Fires `total` GETs, `concurrency` at a time, each with its own trace id; returns
// counts of kept (own id), leaked (another issued id) and lost (anything else).
async function fireConcurrent(url, { total = 2000, concurrency = 200 } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const issued = new Set();
  const counts = { kept: 0, leaked: 0, lost: 0, errors: 0 };
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const id = traceId(next++);
      issued.add(id);
      try {
        const res = await get(url, { agent, headers: { 'x-cloud-trace-context': `${id}/1;o=1` } });
        if (res.body === id) counts.kept++;
        else if (issued.has(res.body)) counts.leaked++;
        else counts.lost++;
      } catch {
        counts.errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return counts;
}

module.exports = { ROOT, startServer, serversFor, runToExit, listen, get, traceId, fireConcurrent };
