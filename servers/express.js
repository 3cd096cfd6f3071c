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
    if (depth === undefined) return res.status(400).type('text').send('depth must be an integer from 1 to 1024\n');
    req.depth = depth;
    next();
  }, enter, async (req, res) => reply(res, await service.run(req, req.depth)));

  return http.createServer(app);
}

module.exports = { createServer };
