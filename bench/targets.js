'use strict';
// Which node binaries to run servers under. Without --node: this process's own node.
// With --node: bench/node-versions.js resolves each major (installing from npm once).

async function resolveNodeTargets(majors, acf) {
  const current = process.versions.node.split('.')[0];
  if ((!majors || (majors.length === 1 && majors[0] === current)) && acf === 'default') {
    return { targets: [{ label: `node${current}`, major: current, version: process.version, path: process.execPath, args: [], expectAcf: null }], errors: [] };
  }
  const { resolveTargets } = require('./node-versions');
  return resolveTargets(majors || [current], acf);
}

module.exports = { resolveNodeTargets };
