'use strict';
// Tier: quick (LOG as a dimension of the matrix, and one LOG=stdout server under 2 s of load)
// LOG as a dimension of the matrix (the depth sweep measures LOG=stdout beside LOG=none,
// as the App Engine study logged a line per level): configs of each LOG are their own
// groups, and a LOG=stdout server started by the runner survives a line per level at
// depth 1024 under concurrent load with every id kept.
const test = require('node:test');
const assert = require('node:assert');
const { expandConfigs } = require('../bench/run/matrix');
const { groupKey, baselineFor } = require('../analysis/comparable');
const { startServer } = require('../bench/processes/server-process');
const { measure } = require('../load/autocannon');

const TARGET = { label: 'nodeX', version: process.version, path: process.execPath, args: [] };

test('logs: every strategy once per LOG, each LOG its own group with its own baseline', () => {
  const settings = {
    strategies: ['param', 'als'],
    depths: [8],
    hops: ['await'],
    frameworks: ['express'],
    logs: ['none', 'stdout'],
    baseline: 'param',
    aa: true,
  };
  const configs = expandConfigs(settings, [TARGET]);
  assert.deepStrictEqual(
    configs.map((c) => c.id),
    [
      'express/param/d8/await/nodeX',
      'express/als/d8/await/nodeX',
      'express/param/d8/await/nodeX/aa',
      'express/param/d8/await/nodeX/log-stdout',
      'express/als/d8/await/nodeX/log-stdout',
      'express/param/d8/await/nodeX/log-stdout/aa',
    ],
  );
  const [param, als, , paramLogged, alsLogged] = configs;
  assert.strictEqual(
    param.log,
    undefined,
    'LOG=none adds nothing: ids and groups of runs without logs stay as they were',
  );
  assert.strictEqual(alsLogged.log, 'stdout');
  assert.notStrictEqual(groupKey(als), groupKey(alsLogged));
  assert.strictEqual(baselineFor(alsLogged, configs, 'param'), paramLogged);
  assert.strictEqual(baselineFor(als, configs, 'param'), param);
  assert.deepStrictEqual(
    expandConfigs({ ...settings, logs: undefined, aa: false }, [TARGET]).map((c) => c.id),
    ['express/param/d8/await/nodeX', 'express/als/d8/await/nodeX'],
  );
});

// The load of a duet: autocannon keeps 20 requests in flight. With the server's stdout a
// pipe back to the runner, ~150 KB of lines a request queued in the server until a write
// failed (EINVAL) and it died within the first second. 200 requests, however long they take:
// a cold server at this depth completed none in 2 s with six test files at once.
test('a LOG=stdout server at depth 1024 keeps serving (and every id) under autocannon load', async (t) => {
  const [config] = expandConfigs(
    { strategies: ['als'], depths: [1024], hops: ['immediate'], frameworks: ['express'], logs: ['stdout'] },
    [TARGET],
  );
  const server = await startServer(config, { nodePath: TARGET.path });
  t.after(() => server.stop());
  assert.strictEqual(server.first.log, 'stdout');
  // Nothing to drain: a reader that falls behind (the runner shares its CPU with the load
  // generator) would let the lines pile up in the server (bench/processes/server-process.js).
  assert.strictEqual(server.child.stdout, null, "the server's stdout is not a pipe back to the runner");
  const result = await measure({ url: server.url, connections: 20, amount: 200 });
  assert.ok(server.alive(), `the server died: ${server.stderrTail()}`);
  assert.ok(result.requests >= 200, `${result.requests} requests`);
  assert.deepStrictEqual(
    { errors: result.errors, mismatches: result.mismatches, lost: result.lost },
    { errors: 0, mismatches: 0, lost: 0 },
  );
});

// A synthetic duet depth sweep: cls-hooked costs 2.5x param without logging and 1.5x with
// it (the lines are a fixed cost both pay); the report must say logging brings it nearer.
test('logEffect: each strategy with and without LOG=stdout, and the report says which is nearer 100%', () => {
  const { logEffect } = require('../analysis');
  const { render } = require('../report/sections/run');
  const config = (strategy, log, cost) => {
    const samples = [];
    for (let block = 0; block < 3; block++) {
      samples.push({
        kind: 'solo',
        block,
        rps: 1000 / cost,
        cpuUsPerRequest: 100 * cost,
        mismatches: 0,
        lost: 0,
        requests: 500,
      });
      if (strategy === 'param') continue;
      for (let window = 0; window < 3; window++) {
        const jitter = 1 + 0.01 * ((block + window) % 3);
        samples.push({
          kind: 'window',
          block,
          window,
          counted: true,
          cpuUsPerRequest: 100 * cost * jitter,
          partnerCpuUsPerRequest: 100 * jitter,
          requests: 400,
          partnerRequests: 400 * cost,
          share: 0.5,
          partnerShare: 0.5,
        });
      }
    }
    return {
      id: `express/${strategy}/d8/await/node24${log ? '/log-stdout' : ''}`,
      framework: 'express',
      strategy,
      depth: 8,
      hop: 'await',
      node: 'v24.0.0',
      ...(log && { log }),
      samples,
      processes: [],
      status: 'ok',
      error: null,
    };
  };
  const run = {
    schema: 2,
    kind: 'run',
    title: 'synthetic sweep',
    status: 'complete',
    settings: {
      preset: 'custom',
      method: 'duet',
      baseline: 'param',
      strategies: ['param', 'cls-hooked'],
      depths: [8],
      hops: ['await'],
      logs: ['none', 'stdout'],
    },
    configs: [
      config('param'),
      config('cls-hooked', undefined, 2.5),
      config('param', 'stdout'),
      config('cls-hooked', 'stdout', 1.5),
    ],
  };
  const effect = logEffect(run);
  assert.deepStrictEqual({ closer: effect.closer, cells: effect.cells }, { closer: 1, cells: 1 });
  const [cell] = effect.rows.find((r) => r.strategy === 'cls-hooked').cells;
  assert.ok(
    Math.abs(cell.none.estimate - 0.4) < 0.01 && Math.abs(cell.stdout.estimate - 1 / 1.5) < 0.01,
    JSON.stringify(cell),
  );
  assert.strictEqual(
    logEffect({ ...run, configs: run.configs.filter((c) => !c.log) }),
    null,
    'no LOG=stdout, no table',
  );
  return Promise.resolve(render(run, {})).then((md) => {
    assert.match(md, /With a log line per level/);
    assert.match(md, /In 1 of 1 cells .* nearer 100%: formatting and writing the lines/);
    assert.match(md, /\| `cls-hooked` \| 40\.0%.* → 66\.7%/);
  });
});
