'use strict';
// A worked example for `ctxbench app`: a small Express service whose request handler
// awaits three levels of "business logic" and logs at the deepest one. With CONTEXT=als,
// a middleware keeps the request id (and a per-request logger) in AsyncLocalStorage, the
// way a team's logging wrapper does; with CONTEXT=sentry, Sentry traces every request and
// the id lives on Sentry's isolation scope (instrument-sentry.js); without either, the id
// is passed down as an argument. CONTEXT=middleware passes it down too, behind a
// middleware that does nothing: the ALS candidate's Express layer without ALS, the
// baseline that sets ALS alone apart (the model's `als` strategy adds no layer). Either
// way the answer echoes the X-Request-Id it was sent, so ctxbench checks each one.
//
//   npx ctxbench app --baseline "node examples/app/server.js" \
//     --candidate "CONTEXT=als node examples/app/server.js" \
//     --health /healthz --id-header x-request-id
//   npx ctxbench app --with sink --baseline "node examples/app/server.js" \
//     --candidate "CONTEXT=sentry node examples/app/server.js" \
//     --health /healthz --id-header x-request-id
const CONTEXTS = ['param', 'middleware', 'als', 'sentry'];
const context = process.env.CONTEXT || 'param';
if (!CONTEXTS.includes(context)) {
  process.stderr.write(`CONTEXT=${context} is not one of ${CONTEXTS.join(', ')}\n`);
  process.exit(1);
}
// Sentry before anything else: it instruments http and Express as they are required.
const Sentry = context === 'sentry' ? require('./instrument-sentry') : null;
const { AsyncLocalStorage } = require('node:async_hooks');
const express = require('express');

const useAls = context === 'als';
// Decided once: the request path of each side does only its own work.
const passesId = context === 'param' || context === 'middleware';
const storage = new AsyncLocalStorage();
const lines = [];
// A logger that keeps its last lines in memory (a real one would write them out).
const log = (fields, msg) => {
  lines.push({ ...fields, msg });
  if (lines.length > 1000) lines.length = 0;
};

const app = express();
app.get('/healthz', (_req, res) => res.send('ok'));
if (useAls) {
  app.use((req, _res, next) => {
    const id = req.get('x-request-id') || '-';
    storage.run({ id, log: (msg) => log({ id }, msg) }, next);
  });
}
if (context === 'middleware') app.use((_req, _res, next) => next());
if (Sentry) {
  // Sentry's http instrumentation forked an isolation scope for this request: what is set
  // on it here is what every later step of the request reads back.
  app.use((req, _res, next) => {
    Sentry.getIsolationScope().setUser({ id: req.get('x-request-id') || '-' });
    next();
  });
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
async function level(n, id) {
  await tick();
  if (n > 1) return level(n - 1, id);
  const ctx = useAls ? storage.getStore() : null;
  if (ctx) {
    ctx.log('deepest level');
    return ctx.id;
  }
  const own = Sentry ? Sentry.getIsolationScope().getUser()?.id : id;
  log({ id: own }, 'deepest level');
  return own;
}

app.get('/', async (req, res) => {
  const id = await level(3, passesId ? req.get('x-request-id') || '-' : undefined);
  res.set('x-request-id', id).send('done');
});
if (Sentry) Sentry.setupExpressErrorHandler(app);

app.listen(Number(process.env.PORT || 3000), '127.0.0.1');
