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

  // Integrity scenarios (`ctxbench integrity`): reached only after the measured routes
  // missed; an unknown name is 404 before any context is opened.
  const scenario = (req, res, name) => {
    const run = service.scenario(name);
    if (!run) return send(res, 404, 'unknown scenario\n');
    service.enter(req, () =>
      run(req).then(
        (id) => {
          const extra = req.ctxbenchFailedRead ? { 'x-ctxbench-failed-read': req.ctxbenchFailedRead } : {};
          if (typeof id === 'string') send(res, 200, id, { 'x-trace-id': id, ...extra });
          else send(res, 200, '', extra);
        },
        () => send(res, 500, 'internal error\n'),
      ),
    );
  };
  const scenarioName = (url) => url.slice(10).split('?')[0];

  return http.createServer((req, res) => {
    // Routes ignore the query string, as Express and Fastify do.
    const q = req.url.indexOf('?');
    const url = q === -1 ? req.url : req.url.slice(0, q);
    if (req.method !== 'GET') {
      if (req.method === 'POST' && url.startsWith('/scenario/')) return scenario(req, res, scenarioName(url));
      // Bench only: exists when the server runs with CTXBENCH_ALLOW_GC=1 and --expose-gc.
      if (req.method === 'POST' && url === '/__gc' && service.gc)
        return send(res, 200, JSON.stringify(service.gc()), { 'content-type': 'application/json' });
      return send(res, 404, 'not found\n');
    }
    if (url === '/') return answer(req, res, service.config.depth);
    if (url.startsWith('/depth/')) {
      const depth = service.parseDepth(url.slice(7));
      if (depth === undefined) return send(res, 400, service.badDepth);
      return answer(req, res, depth);
    }
    if (url === '/healthz') return send(res, 200, 'ok');
    if (url === '/__stats') {
      const body = JSON.stringify(service.stats());
      return send(res, 200, body, { 'content-type': 'application/json' });
    }
    if (url.startsWith('/scenario/')) return scenario(req, res, scenarioName(url));
    send(res, 404, 'not found\n');
  });
}

module.exports = { createServer };
