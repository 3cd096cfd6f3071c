'use strict';
// Fastify 5: the platformatic study's fastify-base.js, with the same routes, bodies,
// headers and status codes as servers/express.js.
//
// The request's context is entered in the route handler, around the chain (as in
// servers/http.js), not in an onRequest hook: @fastify/otel (otel-selective, otel-full)
// runs every hook and the handler inside a context rebuilt from the one it saved at
// onRequest, so a context entered by an earlier hook would not reach the handler. In the
// handler it works the same for every strategy.
const Fastify = require('fastify');

const TEXT = 'text/plain; charset=utf-8';

function createServer(service) {
  const app = Fastify({ logger: false });
  // Strategies that are Fastify plugins (fastify-request-context) hook in before the routes.
  if (service.strategy.fastifyPlugin) service.strategy.fastifyPlugin(app);

  const sendId = (reply, id) => {
    reply.header('content-type', TEXT);
    // A strategy that lost the context answers with an empty body: the client counts it lost.
    if (typeof id !== 'string') return reply.send('');
    reply.header('x-trace-id', id).send(id);
  };
  const fail = (reply) => reply.code(500).header('content-type', TEXT).send('internal error\n');

  // Not async on purpose: the reply is sent from inside the strategy's context, and a
  // handler returning undefined tells Fastify the reply comes later.
  const answer = (request, reply, depth) => {
    const req = request.raw;
    service.enter(req, () =>
      service.run(req, depth).then(
        (id) => sendId(reply, id),
        () => fail(reply),
      ),
    );
  };

  app.get('/healthz', (request, reply) => {
    reply.header('content-type', TEXT).send('ok');
  });
  app.get('/__stats', (request, reply) => {
    reply.send(service.stats());
  });
  app.get('/', (request, reply) => {
    answer(request, reply, service.config.depth);
  });
  app.get('/depth/:n', (request, reply) => {
    const depth = service.parseDepth(request.params.n);
    if (depth === undefined) reply.code(400).header('content-type', TEXT).send(service.badDepth);
    else answer(request, reply, depth);
  });

  // Integrity scenarios (`ctxbench integrity`), as in express.js: an unknown name is 404
  // before any context is opened. Scenarios read POST bodies from the raw request
  // themselves, so in this scope every content type is accepted and left unread.
  app.register((scope, opts, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (request, payload, parsed) => parsed(null));
    const scenario = (request, reply) => {
      const run = service.scenario(request.params.name);
      if (!run) {
        reply.code(404).header('content-type', TEXT).send('unknown scenario\n');
        return;
      }
      const req = request.raw;
      service.enter(req, () =>
        run(req).then(
          (id) => {
            if (req.ctxbenchFailedRead) reply.header('x-ctxbench-failed-read', req.ctxbenchFailedRead);
            sendId(reply, id);
          },
          () => fail(reply),
        ),
      );
    };
    scope.get('/scenario/:name', scenario);
    scope.post('/scenario/:name', scenario);
    done();
  });
  // Bench only: exists when the server runs with CTXBENCH_ALLOW_GC=1 and --expose-gc.
  if (service.gc) {
    app.post('/__gc', (request, reply) => {
      reply.send(service.gc());
    });
  }

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).header('content-type', TEXT).send('not found\n');
  });

  return serverOf(app);
}

// app.js drives a plain http.Server (listen, close, closeIdleConnections). Fastify
// only routes once its plugins have loaded, so listen() waits for ready().
function serverOf(app) {
  const server = app.server;
  const listen = server.listen;
  server.listen = function listenWhenReady(...args) {
    app.ready().then(
      () => listen.apply(server, args),
      (err) => server.emit('error', err),
    );
    return server;
  };
  return server;
}

module.exports = { createServer };
