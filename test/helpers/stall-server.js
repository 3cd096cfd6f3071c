'use strict';
// A tiny server with a planted stall: it answers GET with the trace id of the request's
// X-Cloud-Trace-Context (as app.js does), and every STALL_EVERY_MS it blocks its own
// event loop for STALL_MS (0: never); WORK_MS of CPU per request caps its capacity.
// Run as a child process (so the stall cannot block the test's load generator); prints
// {"port": N} once listening.
//
// `node --test test/` runs every .js under test/, this file too: it serves only when
// started by test/helpers/child.js (CTXBENCH_STALL_SERVER=1), else it exits at once.
const http = require('node:http');

function spin(ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: nothing else runs
  }
}

function serve(env) {
  const stallMs = Number(env.STALL_MS || 200);
  const everyMs = Number(env.STALL_EVERY_MS || 1000);
  const workMs = Number(env.WORK_MS || 0);
  const server = http.createServer((req, res) => {
    if (workMs > 0) spin(workMs);
    const id = String(req.headers['x-cloud-trace-context'] || '').split('/')[0];
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(id);
  });
  server.keepAliveTimeout = 60000;
  server.listen(Number(env.PORT || 0), '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
    if (stallMs > 0) setInterval(() => spin(stallMs), everyMs);
  });
  process.on('SIGTERM', () => process.exit(0));
}

if (process.env.CTXBENCH_STALL_SERVER === '1') serve(process.env);
