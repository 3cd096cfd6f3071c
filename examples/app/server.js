'use strict';
// A worked example for `ctxbench app`: a small Express service whose request handler
// awaits three levels of "business logic" and logs at the deepest one. With CONTEXT=als,
// a middleware keeps the request id (and a per-request logger) in AsyncLocalStorage, the
// way a team's logging wrapper does; without it, the id is passed down as an argument.
// Either way the answer echoes the X-Request-Id it was sent, so ctxbench checks each one.
//
//   npx ctxbench app --baseline "node examples/app/server.js" \
//     --candidate "CONTEXT=als node examples/app/server.js" \
//     --health /healthz --id-header x-request-id
const { AsyncLocalStorage } = require('node:async_hooks');
const express = require('express');

const useAls = process.env.CONTEXT === 'als';
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

const tick = () => new Promise((resolve) => setImmediate(resolve));
async function level(n, id) {
  await tick();
  if (n > 1) return level(n - 1, id);
  const ctx = useAls ? storage.getStore() : null;
  if (ctx) ctx.log('deepest level');
  else log({ id }, 'deepest level');
  return ctx ? ctx.id : id;
}

app.get('/', async (req, res) => {
  const id = await level(3, useAls ? undefined : req.get('x-request-id') || '-');
  res.set('x-request-id', id).send('done');
});

app.listen(Number(process.env.PORT || 3000), '127.0.0.1');
