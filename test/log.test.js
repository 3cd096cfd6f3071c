'use strict';
// LOG as a dimension of the matrix (the depth sweep measures LOG=stdout beside LOG=none,
// as the App Engine study logged a line per level): configs of each LOG are their own
// groups, and a LOG=stdout server started by the runner survives a line per level at
// depth 1024 under concurrent load with every id kept.
const test = require('node:test');
const assert = require('node:assert');
const { expandConfigs } = require('../bench/matrix');
const { groupKey, baselineFor } = require('../bench/comparable');
const { startServer } = require('../bench/server-process');
const { measure } = require('../load/autocannon');

const TARGET = { label: 'nodeX', version: process.version, path: process.execPath, args: [] };

test('logs: every strategy once per LOG, each LOG its own group with its own baseline', () => {
  const settings = { strategies: ['param', 'als'], depths: [8], hops: ['await'], frameworks: ['express'], logs: ['none', 'stdout'], baseline: 'param', aa: true };
  const configs = expandConfigs(settings, [TARGET]);
  assert.deepStrictEqual(configs.map((c) => c.id), [
    'express/param/d8/await/nodeX',
    'express/als/d8/await/nodeX',
    'express/param/d8/await/nodeX/aa',
    'express/param/d8/await/nodeX/log-stdout',
    'express/als/d8/await/nodeX/log-stdout',
    'express/param/d8/await/nodeX/log-stdout/aa',
  ]);
  const [param, als, , paramLogged, alsLogged] = configs;
  assert.strictEqual(param.log, undefined, 'LOG=none adds nothing: ids and groups of runs without logs stay as they were');
  assert.strictEqual(alsLogged.log, 'stdout');
  assert.notStrictEqual(groupKey(als), groupKey(alsLogged));
  assert.strictEqual(baselineFor(alsLogged, configs, 'param'), paramLogged);
  assert.strictEqual(baselineFor(als, configs, 'param'), param);
  assert.deepStrictEqual(expandConfigs({ ...settings, logs: undefined, aa: false }, [TARGET]).map((c) => c.id), ['express/param/d8/await/nodeX', 'express/als/d8/await/nodeX']);
});

// The load of a duet: autocannon keeps 20 requests in flight for 2 s. With the server's
// stdout a pipe back to the runner, ~150 KB of lines a request queued in the server until
// a write failed (EINVAL) and it died within the first second.
test('a LOG=stdout server at depth 1024 keeps serving (and every id) under 2 s of autocannon load', async (t) => {
  const [config] = expandConfigs({ strategies: ['als'], depths: [1024], hops: ['immediate'], frameworks: ['express'], logs: ['stdout'] }, [TARGET]);
  const server = await startServer(config, { nodePath: TARGET.path });
  t.after(() => server.stop());
  assert.strictEqual(server.first.log, 'stdout');
  // Nothing to drain: a reader that falls behind (the runner shares its CPU with the load
  // generator) would let the lines pile up in the server (bench/server-process.js).
  assert.strictEqual(server.child.stdout, null, 'the server\'s stdout is not a pipe back to the runner');
  const result = await measure({ url: server.url, connections: 20, duration: 2 });
  assert.ok(server.alive(), `the server died: ${server.stderrTail()}`);
  assert.ok(result.requests > 0);
  assert.deepStrictEqual({ errors: result.errors, mismatches: result.mismatches, lost: result.lost }, { errors: 0, mismatches: 0, lost: 0 });
});
