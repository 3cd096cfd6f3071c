'use strict';
// Plain node:http: the platformatic study's base.js / simple.js.
const http = require('node:http');

const TEXT = 'text/plain; charset=utf-8';

function send(res, status, body, extra) {
  res.writeHead(status, { 'content-type': TEXT, 'content-length': Buffer.byteLength(body), ...extra });
  res.end(body);
}

function createServer(service) {
  const answer = (req, res, depth) =>
    service.enter(req, () =>
      service.run(req, depth).then(
        (id) => (typeof id === 'string' ? send(res, 200, id, { 'x-trace-id': id }) : send(res, 200, '')),
        () => send(res, 500, 'internal error\n'),
      ),
    );

  return http.createServer((req, res) => {
    if (req.method !== 'GET') return send(res, 404, 'not found\n');
    const url = req.url;
    if (url === '/') return answer(req, res, service.config.depth);
    if (url.startsWith('/depth/')) {
      const depth = service.parseDepth(url.slice(7));
      if (depth === undefined) return send(res, 400, 'depth must be an integer from 1 to 1024\n');
      return answer(req, res, depth);
    }
    if (url === '/healthz') return send(res, 200, 'ok');
    if (url === '/__stats') {
      const body = JSON.stringify(service.stats());
      return send(res, 200, body, { 'content-type': 'application/json' });
    }
    send(res, 404, 'not found\n');
  });
}

module.exports = { createServer };
