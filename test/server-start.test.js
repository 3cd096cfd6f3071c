'use strict';
// Tier: quick (one tiny server of the test's own, slow to answer its first request)
// Starting a server includes confirming it answers, within the start's own limit: under
// Valgrind on a loaded host a listening server took over 5 s to answer its first request,
// which the probes' default of 5 s turned into a failed start.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { startServer } = require('../bench/processes/server-process');
const { testDir } = require('./helpers/tmp');

// Listens at once, answers nothing for 6 s.
const SLOW = `
const born = Date.now();
const server = require('node:http').createServer((req, res) =>
  setTimeout(() => res.end('ok'), Math.max(0, born + 6000 - Date.now())));
server.listen(Number(process.env.PORT || 0), '127.0.0.1', () =>
  process.stdout.write('listening ' + server.address().port + '\\n'));
process.once('SIGTERM', () => process.exit(0));
`;

test('a server slow to answer its first request starts within the start limit, not the probe default', async (t) => {
  const script = path.join(testDir(t, 'ctxbench-slow-start-'), 'slow.js');
  fs.writeFileSync(script, SLOW);
  const server = await startServer({}, { script, timeoutMs: 20000 });
  t.after(() => server.stop());
  assert.ok(server.url.startsWith('http://127.0.0.1:'));
});
