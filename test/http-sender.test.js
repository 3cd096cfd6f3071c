'use strict';
// Tier: quick (real servers on free ports, each answer in milliseconds; nothing beyond Node)
// The open-loop generator's own HTTP/1.1 client (load/http-sender.js) against real servers
// on free ports: every answer reaches the request that asked for it, whatever the server's
// framing, and a request that cannot be answered fails with a reason instead of hanging.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const net = require('node:net');
const { once } = require('node:events');
const { createSender } = require('../load/http-sender');

const ID_HEADER = 'x-cloud-trace-context';

async function listen(server) {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${server.address().port}`;
}

const send = (sender, path, id) =>
  new Promise((resolve) =>
    sender.send(path, `X-Cloud-Trace-Context: ${id}/1;o=1\r\n`, (err, statusCode, body) =>
      resolve({ err, statusCode, body }),
    ),
  );

// Echoes the request's id; the path chooses how the answer is framed.
function echoServer() {
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    sockets.add(req.socket);
    const id = req.headers[ID_HEADER].split('/')[0];
    if (req.url === '/chunked') {
      res.write(id.slice(0, 10));
      setImmediate(() => res.end(id.slice(10)));
    } else if (req.url === '/close') {
      res.setHeader('connection', 'close');
      res.end(id);
    } else if (req.url === '/missing') {
      res.statusCode = 404;
      res.end('no');
    } else {
      res.end(id);
    }
  });
  return { server, sockets };
}

test('every answer reaches its own request, over few keep-alive connections, whatever the framing', async (t) => {
  const { server, sockets } = echoServer();
  t.after(() => server.close());
  const origin = await listen(server);
  const sender = createSender({ origin, connections: 4 });
  t.after(() => sender.destroy());
  const ids = Array.from({ length: 200 }, (_, i) => `id${String(i).padStart(30, '0')}`);
  const paths = ['/', '/chunked', '/close'];
  const answers = await Promise.all(ids.map((id, i) => send(sender, paths[i % 3], id)));
  answers.forEach((a, i) => {
    assert.strictEqual(a.err, null, `request ${i}: ${a.err?.message}`);
    assert.strictEqual(a.statusCode, 200);
    assert.strictEqual(a.body, ids[i], `request ${i} (${paths[i % 3]}) got another's answer`);
  });
  const missing = await send(sender, '/missing', ids[0]);
  assert.deepStrictEqual([missing.statusCode, missing.body], [404, 'no']);
  // At most `connections` at once; `Connection: close` answers each cost one more.
  assert.ok(sockets.size <= 4 + Math.ceil(200 / 3) + 4, `${sockets.size} connections`);
});

test('an answer framed by the end of its connection (no length, not chunked) is read whole', async (t) => {
  const server = net.createServer((socket) => {
    socket.once('data', (data) => {
      const id = /x-cloud-trace-context: ([^/]+)/i.exec(data.toString('latin1'))[1];
      socket.end(`HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n${id}`);
    });
  });
  t.after(() => server.close());
  const sender = createSender({ origin: await listen(server), connections: 2 });
  t.after(() => sender.destroy());
  const answers = await Promise.all(['e1', 'e2', 'e3'].map((id) => send(sender, '/', id)));
  assert.deepStrictEqual(
    answers.map((a) => [a.err?.message ?? null, a.statusCode, a.body]),
    [
      [null, 200, 'e1'],
      [null, 200, 'e2'],
      [null, 200, 'e3'],
    ],
  );
});

test('at most `connections` requests are on the wire at once; the rest wait for a free one', async (t) => {
  let inFlight = 0;
  let most = 0;
  const server = http.createServer((req, res) => {
    most = Math.max(most, ++inFlight);
    setTimeout(() => {
      inFlight--;
      res.end(req.headers[ID_HEADER].split('/')[0]);
    }, 5);
  });
  t.after(() => server.close());
  const sender = createSender({ origin: await listen(server), connections: 3 });
  t.after(() => sender.destroy());
  const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => send(sender, '/', `w${i}`)));
  assert.deepStrictEqual(
    answers.map((a) => a.body),
    Array.from({ length: 30 }, (_, i) => `w${i}`),
  );
  assert.strictEqual(most, 3);
});

test(
  'a server that never answers fails the request at its timeout; one that hangs up fails it at once',
  { timeout: 20000 },
  async (t) => {
    const silent = net.createServer(() => {});
    t.after(() => silent.close());
    const sender = createSender({ origin: await listen(silent), connections: 1, timeout: 0.3 });
    t.after(() => sender.destroy());
    const late = await send(sender, '/', 'a');
    assert.strictEqual(late.err?.code, 'UND_ERR_HEADERS_TIMEOUT');

    const rude = net.createServer((socket) => socket.destroy());
    t.after(() => rude.close());
    const hungUp = createSender({ origin: await listen(rude), connections: 1 });
    t.after(() => hungUp.destroy());
    const reset = await send(hungUp, '/', 'b');
    assert.ok(reset.err, 'a closed connection is an error, not an answer');

    const garbage = net.createServer((socket) => socket.end('this is not HTTP\r\n\r\n'));
    t.after(() => garbage.close());
    const confused = createSender({ origin: await listen(garbage), connections: 1 });
    t.after(() => confused.destroy());
    assert.ok((await send(confused, '/', 'c')).err, 'an unparseable answer is an error');
  },
);

test('nothing to connect to fails at once with the reason; a closed sender fails what waits', async (t) => {
  const probe = net.createServer();
  const origin = await listen(probe);
  await new Promise((r) => probe.close(r));
  const sender = createSender({ origin, connections: 1 });
  const refused = await send(sender, '/', 'a');
  assert.strictEqual(refused.err?.code, 'ECONNREFUSED');
  sender.destroy();
  assert.strictEqual((await send(sender, '/', 'b')).err?.code, 'ECONNRESET');

  const slow = http.createServer((req, res) => setTimeout(() => res.end('x'), 200));
  t.after(() => slow.close());
  const busy = createSender({ origin: await listen(slow), connections: 1 });
  const first = send(busy, '/', 'c');
  const queued = send(busy, '/', 'd');
  busy.destroy();
  assert.ok((await first).err && (await queued).err, 'destroy fails requests in flight and waiting');
  assert.throws(() => createSender({ origin: 'https://127.0.0.1:1', connections: 1 }), /plain http:\/\//);
});

// `ctxbench app --instance --id-header`: a team's service echoes its request id in a
// header, not in the body. The schedule puts the id in that header and reads it back.
test('an echoed header reaches the request that sent it; a schedule checks ids there, or not at all', async (t) => {
  const { startSchedule } = require('../load/open-loop');
  let swapped = null;
  const server = http.createServer((req, res) => {
    const id = req.headers['x-request-id'];
    // The path chooses: echo its own id, another request's (a context leak), none.
    if (req.url === '/leak') {
      res.setHeader('x-request-id', swapped ?? id);
      swapped = id;
    } else if (req.url !== '/none') res.setHeader('x-request-id', id ?? '');
    res.end('ok');
  });
  t.after(() => server.close());
  const origin = await listen(server);
  const sender = createSender({ origin, connections: 2, echoHeader: 'X-Request-Id' });
  t.after(() => sender.destroy());
  const answers = await Promise.all(
    ['a1', 'a2', 'a3'].map(
      (id) =>
        new Promise((resolve) =>
          sender.send('/', `x-request-id: ${id}\r\n`, (err, statusCode, body, echoed) =>
            resolve([err, statusCode, body, echoed]),
          ),
        ),
    ),
  );
  assert.deepStrictEqual(answers, [
    [null, 200, 'ok', 'a1'],
    [null, 200, 'ok', 'a2'],
    [null, 200, 'ok', 'a3'],
  ]);
  const counts = async (path, idHeader) => {
    const schedule = await startSchedule({
      thread: 'main',
      targets: [{ url: origin, path, idHeader }],
      rate: 200,
      connections: 1,
      timeout: 5,
      total: 20,
    });
    await schedule.done;
    await schedule.close();
    const { answered, kept, mismatches, lost, unchecked } = schedule.counts[0];
    return { answered, kept, mismatches, lost, unchecked };
  };
  assert.deepStrictEqual(await counts('/', 'x-request-id'), {
    answered: 20,
    kept: 20,
    mismatches: 0,
    lost: 0,
    unchecked: 0,
  });
  assert.deepStrictEqual(await counts('/leak', 'x-request-id'), {
    answered: 20,
    kept: 1,
    mismatches: 19,
    lost: 0,
    unchecked: 0,
  });
  assert.deepStrictEqual(await counts('/none', 'x-request-id'), {
    answered: 20,
    kept: 0,
    mismatches: 0,
    lost: 20,
    unchecked: 0,
  });
  assert.deepStrictEqual(await counts('/none', false), {
    answered: 20,
    kept: 0,
    mismatches: 0,
    lost: 0,
    unchecked: 20,
  });
});

test(
  'one schedule, each target at its own rate: a target at a quarter ' +
    'of the rate is sent every fourth instant, in the thread too',
  async (t) => {
    const { startSchedule } = require('../load/open-loop');
    const server = http.createServer((req, res) => res.end(String(req.headers[ID_HEADER] ?? '').split('/')[0]));
    t.after(() => server.close());
    const origin = await listen(server);
    for (const thread of ['main', 'worker']) {
      const schedule = await startSchedule({
        thread,
        targets: [
          { url: origin, path: '/' },
          { url: origin, path: '/' },
        ],
        rate: 400,
        rates: [400, 100],
        connections: 2,
        timeout: 5,
        total: 40,
      });
      await schedule.done;
      const counts = await schedule.refresh();
      await schedule.close();
      assert.deepStrictEqual(
        counts.map((c) => [c.due, c.answered, c.kept]),
        [
          [40, 40, 40],
          [10, 10, 10],
        ],
        thread,
      );
    }
    await assert.rejects(
      () =>
        startSchedule({
          thread: 'main',
          targets: [{ url: origin, path: '/' }],
          rate: 100,
          rates: [200],
          connections: 1,
          timeout: 5,
          total: 1,
        }),
      /each of rates must be at most the schedule's rate 100, got 200/,
    );
    await assert.rejects(
      () =>
        startSchedule({
          thread: 'main',
          targets: [{ url: origin, path: '/' }],
          rate: 100,
          rates: [50, 50],
          connections: 1,
          timeout: 5,
          total: 1,
        }),
      /rates must give one rate per target \(1\)/,
    );
  },
);

// An autoscaler's concurrency target is on the requests an instance holds: from when a request
// leaves on a connection to its answer (bench/rates/operating-point.js spanLoad), not its wait in the
// generator's queue for a connection, which its latency from the intended time includes.
test("a schedule's cut reports the time its answers held a connection, without their wait in its queue", async (t) => {
  const { startSchedule } = require('../load/open-loop');
  const HOLD_MS = 20;
  const server = http.createServer((req, res) => setTimeout(() => res.end('ok'), HOLD_MS));
  t.after(() => server.close());
  const origin = await listen(server);
  for (const thread of ['main', 'worker']) {
    // 10 requests due 10 ms apart on one connection, each held 20 ms: they queue behind it.
    const schedule = await startSchedule({
      thread,
      targets: [{ url: origin, path: '/', idHeader: false }],
      rate: 100,
      connections: 1,
      timeout: 5,
      total: 10,
    });
    await schedule.done;
    const cut = await schedule.cut();
    await schedule.close();
    const [target] = cut.targets;
    assert.strictEqual(target.answered, 10, thread);
    const heldMs = target.busyUs / 1000 / target.answered;
    assert.ok(heldMs >= HOLD_MS - 1, `${thread}: held ${heldMs} ms a request, the server holds each ${HOLD_MS}`);
    // The last waited ~90 ms for the connection: the latencies' mean is well above the time held.
    assert.ok(
      target.latency.mean / 1000 > heldMs + 20,
      `${thread}: latency ${target.latency.mean / 1000} ms, held ${heldMs}`,
    );
  }
});
