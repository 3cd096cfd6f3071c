'use strict';
// The call chain every request runs: each level reads the context, logs if asked,
// crosses one hop and calls the next level. The deepest level's read is the answer.
const { HOPS, mixedHop, createIoHop } = require('./hops');

function makeChain({ strategy, hop, log, config = {} }) {
  const current = strategy.current;

  // Real I/O (HOP=pg, HOP=http): the level sends the id it read; when the other side
  // saw a different one, that wrong id is the answer, so the client counts it.
  const io = createIoHop(hop, config);
  if (io) {
    const level = async (req, n) => {
      const id = current(req);
      if (log) log(id, n);
      if (n <= 1) return id;
      const seen = await io(n, id);
      if (seen !== String(id)) return seen;
      return level(req, n - 1);
    };
    return level;
  }

  if (hop === 'sync') {
    const level = (req, n) => {
      const id = current(req);
      if (log) log(id, n);
      return n <= 1 ? id : level(req, n - 1);
    };
    return (req, depth) => Promise.resolve(level(req, depth));
  }

  const cross = hop === 'mixed' ? mixedHop : HOPS[hop];
  const level = async (req, n) => {
    const id = current(req);
    if (log) log(id, n);
    if (n <= 1) return id;
    await cross(n);
    return level(req, n - 1);
  };
  return level;
}

module.exports = { makeChain };
