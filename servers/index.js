'use strict';
// Framework registry: FRAMEWORK=name -> servers/name.js, loaded only when chosen. Lazy on
// purpose: a measured server must not carry the other frameworks in its heap, and loading
// all three takes about twice as long as Express alone (docs/investigations.md, "Figures
// that code comments carried"), paid by every server start.
const LOADERS = {
  express: () => require('./express'),
  http: () => require('./http'),
  fastify: () => require('./fastify'),
};
const names = Object.keys(LOADERS);

function load(name) {
  if (!Object.hasOwn(LOADERS, name)) throw new Error(`unknown framework '${name}' (valid: ${names.join(', ')})`);
  return LOADERS[name]();
}

module.exports = { names, load };
