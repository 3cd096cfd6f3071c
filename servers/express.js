'use strict';
const http = require('node:http');
const express = require('express');

const TEXT = 'text/plain; charset=utf-8';

function createServer(service) {
  const app = express();
  const enter = (req, res, next) => service.enter(req, next);
  const reply = (res, id) => {
    res.setHeader('content-type', TEXT);
    // A strategy that lost the context answers with an empty body: the client counts it lost.
    if (typeof id !== 'string') return res.send('');
    res.setHeader('x-trace-id', id);
    res.send(id);
  };

  app.get('/healthz', (req, res) => res.type('text').send('ok'));
  app.get('/__stats', (req, res) => res.json(service.stats()));
  app.get('/', enter, async (req, res) => reply(res, await service.run(req, service.config.depth)));
  app.get('/depth/:n', (req, res, next) => {
    const depth = service.parseDepth(req.params.n);
    if (depth === undefined) return res.status(400).type('text').send(service.badDepth);
    req.depth = depth;
    next();
  }, enter, async (req, res) => reply(res, await service.run(req, req.depth)));

  // Integrity scenarios (`ctxbench integrity`), after the measured routes so that
  // GET / and /depth/:n never reach them; an unknown name is 404 before any context.
  const scenario = [(req, res, next) => {
    req.scenario = service.scenario(req.params.name);
    if (!req.scenario) return res.status(404).type('text').send('unknown scenario\n');
    next();
  }, enter, async (req, res) => {
    const id = await req.scenario(req);
    if (req.ctxbenchFailedRead) res.setHeader('x-ctxbench-failed-read', req.ctxbenchFailedRead);
    reply(res, id);
  }];
  app.get('/scenario/:name', ...scenario);
  app.post('/scenario/:name', ...scenario);
  // Bench only: exists when the server runs with CTXBENCH_ALLOW_GC=1 and --expose-gc.
  if (service.gc) app.post('/__gc', (req, res) => res.json(service.gc()));

  return http.createServer(app);
}

module.exports = { createServer };
