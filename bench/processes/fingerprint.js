'use strict';
// A machine-speed fingerprint: server CPU µs per request of the cheapest server
// (`STRATEGY=none DEPTH=1 HOP=sync`) in a short burst before anything is measured, so
// runs on differently fast machines (or one machine in a slower state) can be told apart.
const { startServer } = require('./server-process');
const { getJson } = require('../measure/http-client');
const { settle, cpuPerRequest } = require('../measure/sample');
const { measure } = require('../../load/autocannon');

const FLOOR = { strategy: 'none', depth: 1, hop: 'sync', framework: 'express' };
const CONNECTIONS = 10;
const SECONDS = 0.5;

async function fingerprint({ cpu = null, env = {}, launch = {} } = {}) {
  const server = await startServer(FLOOR, { cpu, env, nodePath: launch.nodePath, nodeArgs: launch.nodeArgs });
  try {
    await measure({ url: server.url, connections: CONNECTIONS, duration: 0.3 });
    await settle(server.url);
    const before = await getJson(`${server.url}/__stats`);
    const m = await measure({ url: server.url, connections: CONNECTIONS, duration: SECONDS });
    const after = await getJson(`${server.url}/__stats`);
    return {
      cpuUsPerRequest: cpuPerRequest(before, after),
      rps: m.rps,
      what:
        `express STRATEGY=none DEPTH=1 HOP=sync on Node ${after.node ?? server.first.node}, ${CONNECTIONS} ` +
        `connections, ${SECONDS} s after 0.3 s of warm-up (autocannon)`,
    };
  } finally {
    await server.stop();
  }
}

module.exports = { fingerprint };
