'use strict';
// Starts a test server script (test/helpers/stall-server.js) that prints one JSON line
// {"port": N} when listening.
const { spawn } = require('node:child_process');

function startScript(file, env = {}, { timeoutMs = 60000 } = {}) {
  const child = spawn(process.execPath, [file], {
    env: { ...process.env, PORT: '0', CTXBENCH_STALL_SERVER: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} did not start: ${err}`));
    }, timeoutMs);
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      const { port } = JSON.parse(line);
      resolve({
        url: `http://127.0.0.1:${port}`,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code}: ${err}`));
    });
  });
}

module.exports = { startScript };
