'use strict';
// Tier: quick (where a request's id comes from, and the server's echo and log lines on real servers)
// Where a request's id comes from (handlers/trace.js), and what the server does with
// it: echoes only safe ids, never raw client bytes, and logs one Cloud Logging line
// per level when LOG=stdout.
const test = require('node:test');
const assert = require('node:assert');
const net = require('node:net');
const { once } = require('node:events');
const { startServer, get } = require('./helpers/server');
const frameworks = require('../servers');
const { traceIdOf, fromCloudTrace, fromTraceparent, fromRequestId, generateId } = require('../handlers/trace');

const T1 = '4bf92f3577b34da6a3ce929d0e0e4736';
const T2 = '0af7651916cd43dd8448eb211c80319c';
const HEX32 = /^[0-9a-f]{32}$/;
const ZERO = '0'.repeat(32);

const cloud = (trace, span = '1234567890', o = ';o=1') => `${trace}/${span}${o}`;
const parent = (trace, { version = '00', span = 'b7ad6b7169203331', flags = '01' } = {}) =>
  `${version}-${trace}-${span}-${flags}`;

// Values no source may accept: control characters, quotes, backslashes, oversized,
// all-zero ids, wrong shapes.
const HOSTILE = [
  'abc\r\nx-evil: 1',
  'abc\nx-evil: 1',
  'abc\r',
  'a"b',
  '"}{"severity":"EMERGENCY',
  'a\\b',
  'a b',
  'tab\there',
  'nul\u0000',
  'del\u007f',
  'ünïcödé',
  '<script>alert(1)</script>x"',
  'x'.repeat(129),
  '',
];

test('X-Cloud-Trace-Context: TRACE/SPAN;o=N with a decimal span gives its trace id', () => {
  assert.strictEqual(fromCloudTrace(cloud(T1)), T1);
  assert.strictEqual(fromCloudTrace(cloud(T1, '1', ';o=0')), T1);
  assert.strictEqual(fromCloudTrace(cloud(T1, '18446744073709551615')), T1, 'largest 64-bit span');
  assert.strictEqual(fromCloudTrace(cloud(T1, '7', '')), T1, 'options are optional');
  assert.strictEqual(fromCloudTrace(cloud(T1.toUpperCase())), T1, 'normalised to lower case');
});

test('X-Cloud-Trace-Context: invalid values are ignored', () => {
  const invalid = [
    cloud(ZERO), // all-zero trace id
    cloud(T1, 'b7ad6b7169203331'), // hex span: App Engine's span is decimal
    cloud(T1, ''),
    cloud(T1, '1'.repeat(21)),
    cloud(T1, '1', ';o=x'),
    cloud(T1, '1', ';o=12'),
    cloud(T1.slice(1)), // 31 hex
    cloud(T1 + 'a'), // 33 hex
    cloud('g' + T1.slice(1)), // non-hex
    T1, // no span at all
    `${cloud(T1)}\r\nx-evil: 1`,
    ` ${cloud(T1)}`,
    `${cloud(T1)};o=1`,
    cloud(T1) + ' '.repeat(40),
    ...HOSTILE,
  ];
  for (const value of invalid) assert.strictEqual(fromCloudTrace(value), undefined, JSON.stringify(value));
  assert.strictEqual(fromCloudTrace(undefined), undefined);
  assert.strictEqual(fromCloudTrace(['a', 'b']), undefined);
});

test('traceparent: a valid W3C header gives its trace id', () => {
  assert.strictEqual(fromTraceparent(parent(T2)), T2);
  assert.strictEqual(fromTraceparent(parent(T2, { flags: '00' })), T2);
  assert.strictEqual(fromTraceparent(parent(T2, { version: '01' })), T2, 'future versions of the same length');
});

test('traceparent: invalid values are ignored', () => {
  const invalid = [
    parent(T2, { version: 'ff' }), // forbidden version
    parent(ZERO), // all-zero trace id
    parent(T2, { span: '0'.repeat(16) }), // all-zero parent id
    parent(T2, { version: '0' }),
    parent(T2, { span: 'b7ad6b716920333' }),
    parent(T2, { flags: '1' }),
    parent('z' + T2.slice(1)), // non-hex
    parent(T2, { span: 'b7ad6b716920333g' }),
    parent(T2) + '-extra',
    parent(T2).replace(/-/g, '_'),
    `${parent(T2)}\r\n`,
    ...HOSTILE,
  ];
  for (const value of invalid) assert.strictEqual(fromTraceparent(value), undefined, JSON.stringify(value));
  assert.strictEqual(fromTraceparent(undefined), undefined);
});

test('x-request-id: a printable id of at most 128 characters is used as is', () => {
  for (const value of ['req-1', 'a', 'x'.repeat(128), 'A.b_c:d/e+f=g~h!', '123e4567-e89b-12d3-a456-426614174000']) {
    assert.strictEqual(fromRequestId(value), value);
  }
});

test('x-request-id: CRLF, quotes, backslashes, spaces, non-ASCII, oversized and empty are ignored', () => {
  for (const value of HOSTILE) assert.strictEqual(fromRequestId(value), undefined, JSON.stringify(value));
  assert.strictEqual(fromRequestId(undefined), undefined);
});

test('generated ids are 32 lower-case hex, non-zero and distinct', () => {
  const seen = new Set();
  for (let i = 0; i < 1000; i++) {
    const id = generateId();
    assert.match(id, HEX32);
    assert.notStrictEqual(id, ZERO);
    seen.add(id);
  }
  assert.strictEqual(seen.size, 1000);
});

test('precedence: X-Cloud-Trace-Context > traceparent > x-request-id > generated', () => {
  const all = { 'x-cloud-trace-context': cloud(T1), traceparent: parent(T2), 'x-request-id': 'req-7' };
  assert.strictEqual(traceIdOf(all), T1);
  assert.strictEqual(traceIdOf({ ...all, 'x-cloud-trace-context': undefined }), T2);
  assert.strictEqual(traceIdOf({ 'x-request-id': 'req-7' }), 'req-7');
  assert.match(traceIdOf({}), HEX32);
  assert.notStrictEqual(traceIdOf({}), traceIdOf({}));
});

test('precedence: an invalid higher source falls through to the next valid one', () => {
  assert.strictEqual(traceIdOf({ 'x-cloud-trace-context': cloud(ZERO), traceparent: parent(T2) }), T2);
  assert.strictEqual(
    traceIdOf({ 'x-cloud-trace-context': 'junk', traceparent: parent(T2, { version: 'ff' }), 'x-request-id': 'req-8' }),
    'req-8',
  );
  for (const hostile of HOSTILE) {
    const id = traceIdOf({ 'x-cloud-trace-context': hostile, traceparent: hostile, 'x-request-id': hostile });
    assert.match(id, HEX32, JSON.stringify(hostile));
  }
});

// ---- against a real server --------------------------------------------------------

// One request over a raw socket, so that header bytes Node's client refuses to send
// (CR, LF, control characters, non-ASCII) reach the server as a hostile client sends them.
async function rawGet(port, path, headerLines) {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const chunks = [];
  socket.on('data', (c) => chunks.push(c));
  socket.write(
    Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headerLines}\r\n`, 'latin1'),
  );
  await once(socket, 'close');
  const raw = Buffer.concat(chunks).toString('latin1');
  const [head, ...rest] = raw.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  return { raw, status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

// Raw header values (bytes as a hostile client would send them) for the real server.
const RAW_HOSTILE = [
  'a"b',
  '"}{"severity":"EMERGENCY","x":"',
  'a\\b',
  '<script>alert("x")</script>',
  'sp ace',
  'x'.repeat(129),
  'y'.repeat(4000),
  '\u00fcnic\u00f6de',
  'abc\rinjected',
  'abc\u0001ctl',
];

for (const framework of frameworks.names) {
  test(
    `${framework}: hostile headers are never reflected raw in the body or x-trace-id`,
    { timeout: 600000 },
    async (t) => {
      const server = await startServer({ STRATEGY: 'als', HOP: 'immediate', FRAMEWORK: framework, DEPTH: '3' });
      t.after(() => server.stop());
      for (const value of RAW_HOSTILE) {
        for (const name of ['x-cloud-trace-context', 'traceparent', 'x-request-id']) {
          const res = await rawGet(server.port, '/', `${name}: ${value}\r\n`);
          const what = `${name}: ${JSON.stringify(value)}`;
          // The parser may refuse the request outright (400); if it answers, it answers
          // with a fresh id of its own.
          if (res.status === 200) {
            assert.match(res.body, HEX32, what);
            assert.strictEqual(res.headers['x-trace-id'], res.body, what);
          } else {
            assert.strictEqual(res.status, 400, what);
          }
          assert.ok(!res.raw.includes(value), `reflected raw: ${what}`);
          assert.ok(!/x-evil|injected|EMERGENCY|<script>/i.test(res.raw), what);
        }
      }
      // Well-formed but invalid trace headers: never their trace id, a fresh one instead.
      for (const [name, value, notId] of [
        ['x-cloud-trace-context', `${ZERO}/1;o=1`, ZERO],
        ['x-cloud-trace-context', `${T1}/b7ad6b7169203331;o=1`, T1],
        ['traceparent', `ff-${T2}-b7ad6b7169203331-01`, T2],
        ['traceparent', `00-${T2}-${'0'.repeat(16)}-01`, T2],
      ]) {
        const res = await rawGet(server.port, '/', `${name}: ${value}\r\n`);
        assert.strictEqual(res.status, 200);
        assert.match(res.body, HEX32);
        assert.notStrictEqual(res.body, notId, `${name}: ${value}`);
        assert.notStrictEqual(res.body, ZERO);
      }
      // Header injection: a CRLF in the value ends the header as far as HTTP is concerned;
      // the "injected" header must not reach the response.
      const res = await rawGet(server.port, '/', 'x-request-id: abc\r\nx-evil: 1\r\n');
      assert.strictEqual(res.status, 200);
      assert.strictEqual(res.body, 'abc');
      assert.strictEqual(res.headers['x-evil'], undefined);
      assert.ok(!/x-evil/i.test(res.raw));
    },
  );

  test(`${framework}: precedence holds end to end`, { timeout: 600000 }, async (t) => {
    const server = await startServer({ STRATEGY: 'cls-hooked', HOP: 'timeout', FRAMEWORK: framework, DEPTH: '3' });
    t.after(() => server.stop());
    const all = { 'x-cloud-trace-context': cloud(T1), traceparent: parent(T2), 'x-request-id': 'req-9' };
    const cases = [
      [all, T1],
      [{ traceparent: parent(T2), 'x-request-id': 'req-9' }, T2],
      [{ 'x-request-id': 'req-9' }, 'req-9'],
      [{ 'x-cloud-trace-context': cloud(T1.toUpperCase()) }, T1],
    ];
    for (const [headers, expected] of cases) {
      const res = await get(server.url + '/', { headers });
      assert.strictEqual(res.status, 200);
      assert.strictEqual(res.body, expected);
      assert.strictEqual(res.headers['x-trace-id'], expected);
      assert.match(res.headers['content-type'], /^text\/plain/);
    }
    const a = await get(server.url + '/');
    const b = await get(server.url + '/');
    assert.match(a.body, HEX32);
    assert.match(b.body, HEX32);
    assert.notStrictEqual(a.body, b.body);
  });
}

// Starts a server, collects everything it writes to stdout after its listening line
// until it is stopped.
async function withStdout(env, fn) {
  const server = await startServer(env);
  const chunks = [];
  server.child.stdout.on('data', (d) => chunks.push(d));
  try {
    await fn(server);
  } finally {
    const closed = once(server.child, 'close');
    await server.stop();
    await closed;
  }
  return chunks.join('');
}

const PROJECT = 'demo-project';

for (const framework of frameworks.names) {
  test(`${framework}: LOG=stdout writes one valid Cloud Logging JSON line per level`, { timeout: 600000 }, async () => {
    const ids = Array.from({ length: 40 }, (_, i) => (i + 1).toString(16).padStart(32, 'a'));
    const output = await withStdout(
      {
        STRATEGY: 'als',
        HOP: 'immediate',
        DEPTH: '4',
        LOG: 'stdout',
        FRAMEWORK: framework,
        GOOGLE_CLOUD_PROJECT: PROJECT,
      },
      async (server) => {
        const answers = await Promise.all(
          ids.map((id) => get(server.url + '/', { headers: { 'x-cloud-trace-context': `${id}/42;o=1` } })),
        );
        for (let i = 0; i < ids.length; i++) assert.strictEqual(answers[i].body, ids[i]);
        // Hostile values must not break a line either.
        for (const value of RAW_HOSTILE) await rawGet(server.port, '/', `x-request-id: ${value}\r\n`);
        // /depth/:n logs n lines.
        const deep = await get(server.url + '/depth/7', { headers: { 'x-request-id': 'deep-one' } });
        assert.strictEqual(deep.body, 'deep-one');
      },
    );
    assert.ok(output.endsWith('\n'), 'whole lines only');
    const lines = output.split('\n').slice(0, -1);
    const byTrace = new Map();
    for (const line of lines) {
      let entry;
      assert.doesNotThrow(() => (entry = JSON.parse(line)), `not JSON: ${line}`);
      assert.strictEqual(entry.severity, 'INFO', line);
      assert.strictEqual(typeof entry.message, 'string', line);
      assert.ok(Number.isInteger(entry.depth) && entry.depth >= 1, line);
      const trace = entry['logging.googleapis.com/trace'];
      assert.match(trace, new RegExp(`^projects/${PROJECT}/traces/[\\x21-\\x7e]+$`), line);
      const id = trace.slice(`projects/${PROJECT}/traces/`.length);
      if (!byTrace.has(id)) byTrace.set(id, []);
      byTrace.get(id).push(entry.depth);
    }
    for (const id of ids) {
      assert.deepStrictEqual(byTrace.get(id)?.sort(), [1, 2, 3, 4], `four lines, one per level, for ${id}`);
    }
    assert.deepStrictEqual(
      byTrace.get('deep-one').sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7],
    );
    // 40 requests x 4 + hostile requests the parser accepted x 4 + 7.
    const others = [...byTrace.keys()].filter((id) => !ids.includes(id) && id !== 'deep-one');
    for (const id of others) {
      assert.match(id, HEX32, 'hostile requests are logged under a generated id');
      assert.strictEqual(byTrace.get(id).length, 4);
    }
    assert.strictEqual(lines.length, ids.length * 4 + others.length * 4 + 7);
  });
}

test('LOG=none writes nothing per request', { timeout: 600000 }, async () => {
  const output = await withStdout({ STRATEGY: 'als', HOP: 'immediate', DEPTH: '4', LOG: 'none' }, async (server) => {
    for (let i = 0; i < 20; i++) assert.strictEqual((await get(server.url + '/')).status, 200);
    await get(server.url + '/depth/16');
  });
  assert.strictEqual(output, '');
});

test('LOG defaults to none', { timeout: 600000 }, async () => {
  const env = { STRATEGY: 'param', DEPTH: '4' };
  const output = await withStdout({ ...env, LOG: undefined }, async (server) => {
    for (let i = 0; i < 5; i++) await get(server.url + '/');
  });
  assert.strictEqual(output, '');
});
