'use strict';
// Scenario 4, body: the client sends a POST body in pieces 20 ms apart; listeners
// registered inside the request read the id on each 'data' and on 'end'. Those events
// come from the socket (set up before the request's context existed) and from the
// stream's own nextTick. 'body-bound' applies the strategy's remedy first: cls-hooked's
// ns.bindEmitter(req) when the strategy has it, else strategy.bind on each listener.
const { firstWrong } = require('./reads');

function create({ strategy }) {
  const { current } = strategy;
  const bind = strategy.bind || ((fn) => fn);
  const readBody = (remedy) => (req) =>
    new Promise((resolve, reject) => {
      const reads = [];
      let wrap = (fn) => fn;
      if (remedy && strategy.bindEmitter) strategy.bindEmitter(req);
      else if (remedy) wrap = bind;
      req.on('data', wrap(() => reads.push(['in a data listener', current(req)])));
      req.on(
        'end',
        wrap(() => {
          reads.push(['in the end listener', current(req)]);
          resolve(firstWrong(req, reads));
        }),
      );
      req.on('error', reject);
    });
  return { body: readBody(false), 'body-bound': readBody(true) };
}

module.exports = { create };
