'use strict';
// A TCP port free on loopback right now (the OS picks it; another process may still take
// it before the caller binds, which the callers handle by retrying or failing clearly).
const net = require('node:net');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

module.exports = { freePort };
