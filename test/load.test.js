'use strict';
// Tier: quick (the load drivers' id checks on real servers, the control caught leaking, their refusals)
// The load drivers against real servers (app.js on free ports): the integrity check must
// pass when context propagates, catch the deliberately broken `global` strategy, and
// count every answer of `none` as lost. Only structure and correctness are asserted,
// never timing or throughput. Progress reports, non-2xx answers and curl.sh under real
// load: test/all/load.test.js.
const test = require('node:test');
const assert = require('node:assert');
const net = require('node:net');
const { serversFor } = require('./helpers/server');
const { assertShape, curlSh } = require('./helpers/load-drivers');
const { measure } = require('../load/autocannon');

const servers = serversFor({
  als: { STRATEGY: 'als', HOP: 'immediate' },
  global: { STRATEGY: 'global', HOP: 'immediate' },
  none: { STRATEGY: 'none' },
});

// A port on 127.0.0.1 where nothing listens.
function deadPort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

for (const pipelining of [1, 10]) {
  test(`measure(): als keeps every id (pipelining ${pipelining})`, async () => {
    const r = await measure({ url: servers.als.url, connections: 20, pipelining, duration: 1 });
    assertShape(r);
    assert.strictEqual(r.mismatches, 0);
    assert.strictEqual(r.lost, 0);
    assert.strictEqual(r.errors, 0);
    assert.strictEqual(r.non2xx, 0);
  });
}

// (With pipelining > 1 autocannon stops each connection once `amount` requests were SENT,
// dropping up to pipelining-1 answers per connection, so exactness holds for pipelining 1.)
test('measure(): amount counts exactly that many requests, warm-up excluded', async () => {
  const r = await measure({ url: servers.als.url, connections: 10, amount: 500, warmup: 0.5 });
  assertShape(r);
  assert.strictEqual(r.requests, 500);
  // Not a speed claim: with autocannon's default 1-s sample tick this ~20 ms burst would
  // resolve ~1 s after its last answer; the tick the driver sets ends it within ~20 ms.
  assert.ok(
    r.finishLagS < 0.5,
    `the burst ends soon after its last answer, not at a whole-second tick (lag ${r.finishLagS} s)`,
  );
  assert.strictEqual(r.mismatches, 0);
  assert.strictEqual(r.lost, 0);
});

test('measure(): the global control is caught leaking', async () => {
  const r = await measure({ url: servers.global.url, connections: 50, duration: 1 });
  assertShape(r);
  assert.ok(r.mismatches > 0, `global must leak, got ${r.mismatches} mismatches of ${r.requests}`);
});

test('measure(): strategy none loses every id', async () => {
  const r = await measure({ url: servers.none.url, connections: 20, pipelining: 4, duration: 1 });
  assertShape(r);
  assert.strictEqual(r.mismatches, 0);
  assert.strictEqual(r.lost, r.requests);
});

test('measure(): a dead port rejects at once with one line', async () => {
  const port = await deadPort();
  const started = Date.now();
  await assert.rejects(measure({ url: `http://127.0.0.1:${port}`, duration: 30 }), (err) => {
    assert.strictEqual(err.message, `no response from http://127.0.0.1:${port}/ (ECONNREFUSED)`);
    return true;
  });
  assert.ok(Date.now() - started < 10000, 'did not run the 30 s duration');
});

test('measure(): bad options throw one clear line', async () => {
  const url = 'http://127.0.0.1:1';
  const cases = [
    [undefined, /options must be an object/],
    [{}, /^url must be an http\(s\) URL/],
    [{ url: 'ftp://127.0.0.1/' }, /^url must start with http/],
    [{ url: 'not a url' }, /^url must be/],
    [{ url, connections: 0 }, /^connections must be an integer/],
    [{ url, connections: '10' }, /^connections must be an integer/],
    [{ url, pipelining: 1.5 }, /^pipelining must be an integer/],
    [{ url, duration: -1 }, /^duration must be a number of seconds/],
    [{ url, duration: 'ten' }, /^duration must be a number of seconds/],
    [{ url, amount: 5 }, /^amount \(5\) must be at least connections \(100\)/],
    [{ url, warmup: -1 }, /^warmup must be/],
    [{ url, timeout: 0 }, /^timeout must be/],
    [{ url, path: 'depth/8' }, /^path must start with "\/"/],
    [{ url, onProgress: 'yes' }, /^onProgress must be a function/],
    [{ url, durations: 5 }, /^unknown measure option "durations"/],
  ];
  for (const [options, pattern] of cases) {
    await assert.rejects(measure(options), (err) => {
      assert.match(err.message, pattern);
      assert.ok(!err.message.includes('\n'), 'one line');
      return true;
    });
  }
});

test('curl.sh runs as a command: no URL is one usage line and exit 1', async () => {
  // execFile runs the file itself, so this also fails when it lost its executable bit.
  const { code, stdout, stderr } = await curlSh([]);
  assert.strictEqual(code, 1);
  assert.strictEqual(stdout, '');
  assert.match(stderr, /^curl\.sh: missing URL \(usage: load\/curl\.sh URL/);
});

// load/autocannon.js reaches into autocannon's client internals (see its header): the
// pin in package.json must be exact and match what is installed, and the members it
// replaces must exist, or an upgrade would silently change what is measured.
test('autocannon is pinned to the exact version the driver was written for, and its internals are there', async () => {
  const pinned =
    require('../package.json').devDependencies?.autocannon ?? require('../package.json').dependencies?.autocannon;
  assert.match(pinned, /^\d+\.\d+\.\d+$/, `package.json must pin autocannon exactly, not ${pinned}`);
  assert.strictEqual(require('autocannon/package.json').version, pinned, 'installed autocannon differs from the pin');
  const seen = [];
  const r = await measure({ url: servers.als.url, connections: 2, amount: 20 });
  assert.strictEqual(r.requests, 20);
  const autocannon = require('autocannon');
  await new Promise((resolve, reject) => {
    const inst = autocannon(
      {
        url: servers.als.url,
        connections: 1,
        amount: 1,
        setupClient: (client) => {
          seen.push(
            typeof client._connect,
            typeof client.requestIterator?.nextRequest,
            typeof client.requestIterator?.recordBody,
            typeof client.reqsMade,
          );
        },
      },
      (err) => (err ? reject(err) : resolve()),
    );
    void inst;
  });
  assert.deepStrictEqual(seen, ['function', 'function', 'function', 'number']);
});

test('curl.sh: a dead URL exits 1 with one line', async () => {
  const port = await deadPort();
  const { code, stdout, stderr } = await curlSh([`http://127.0.0.1:${port}/`, '10', '2']);
  assert.strictEqual(code, 1);
  assert.strictEqual(stdout, '');
  assert.match(stderr, new RegExp(`^curl\\.sh: no response from http://127\\.0\\.0\\.1:${port}/ \\(.+\\)\\n$`));
});

test('curl.sh: a bad N or P exits 1 with one line', async () => {
  for (const args of [['abc'], ['0'], ['10', 'x'], ['10', '-3']]) {
    const { code, stdout, stderr } = await curlSh([servers.als.url + '/', ...args]);
    assert.strictEqual(code, 1, `args ${args}`);
    assert.strictEqual(stdout, '');
    assert.match(stderr, /^curl\.sh: .+\n$/);
  }
});
