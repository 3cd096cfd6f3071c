'use strict';
// Framework registry: FRAMEWORK=name -> servers/name.js, loaded only when chosen.
const names = ['express', 'http', 'fastify'];

function load(name) {
  if (!names.includes(name)) throw new Error(`unknown framework '${name}' (valid: ${names.join(', ')})`);
  return require(`./${name}.js`);
}

module.exports = { names, load };
