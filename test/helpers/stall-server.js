'use strict';
// A tiny server with a planted stall: it answers GET with the trace id of the request's
// X-Cloud-Trace-Context (as app.js does), and every STALL_EVERY_MS it blocks its own
// event loop for STALL_MS (0: never); WORK_MS caps its capacity. Run as a child process (so the stall cannot block the test's
// load generator); prints {"port": N} once listening.
const http = require('node:http');

const STALL_MS = Number(process.env.STALL_MS || 200);
const STALL_EVERY_MS = Number(process.env.STALL_EVERY_MS || 1000);
// WORK_MS: CPU time per request, so the server's capacity is about 1000/WORK_MS req/s.
const WORK_MS = Number(process.env.WORK_MS || 0);

function spin(ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: nothing else runs
  }
}

const server = http.createServer((req, res) => {
  if (WORK_MS > 0) spin(WORK_MS);
  const id = String(req.headers['x-cloud-trace-context'] || '').split('/')[0];
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(id);
});
server.keepAliveTimeout = 60000;
server.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
  if (STALL_MS > 0) setInterval(() => spin(STALL_MS), STALL_EVERY_MS);
});
process.on('SIGTERM', () => process.exit(0));
