'use strict';
// The open-loop generator's HTTP/1.1 client (load/open-loop.js): at most `connections`
// keep-alive sockets to one origin, one request in flight on each, every request's bytes
// written at once, every answer parsed by http-parser-js (the parser autocannon's
// lib/httpClient.js sends with). Why not undici's Pool, which the generator used before:
// its per-request machinery (a request object, its dispatcher handlers, promises, a body
// stream) cost the generator's thread much CPU per request and left its own lateness p99
// above what it measures at the rates studies need (docs/method.md, "The generator's
// ceiling"; results/method-check/generator-ceiling.md; the per-request CPU:
// docs/investigations.md, "Figures that code comments carried"). Here a
// request is one string written to a socket, and an answer a few parser callbacks.
const net = require('node:net');
const { HTTPParser } = require('http-parser-js');

// How often in-flight requests are checked against their timeout (ms).
const TIMEOUT_CHECK_MS = 250;

function fail(message) {
  throw new Error(message);
}

function requestError(code, message) {
  const err = new Error(message);
  err.code = code;
  return err;
}

// Where the sender connects, and the header lines it writes once per request.
function targetOf(origin, echoHeader) {
  const url = new URL(origin);
  if (url.protocol !== 'http:') fail(`the open-loop generator sends plain http://, got ${url.protocol}//`);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || 80),
    hostHeader: `Host: ${url.host}\r\n`,
    echoName: echoHeader ? echoHeader.toLowerCase() : null,
  };
}

// A new connection's parser callbacks: an answer's status, keep-alive, echoed id and body,
// handed to its request's `done` once complete. Called once per connection opened (none per
// request); the callbacks read conn, echoName, retire and release from this scope.
function parseAnswers(parser, conn, echoName, retire, release) {
  parser[HTTPParser.kOnHeadersComplete] = (info) => {
    conn.statusCode = info.statusCode;
    conn.keepAlive = info.shouldKeepAlive;
    if (echoName) {
      const at = info.headers.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === echoName);
      conn.echoed = at >= 0 ? info.headers[at + 1] : null;
    }
  };
  parser[HTTPParser.kOnBody] = (chunk, start, length) => {
    conn.body += chunk.toString('latin1', start, start + length);
  };
  parser[HTTPParser.kOnMessageComplete] = () => {
    const { current, statusCode, body, echoed } = conn;
    conn.current = null;
    conn.body = '';
    conn.echoed = null;
    if (!conn.keepAlive) retire(conn, null);
    else release(conn);
    current?.(null, statusCode, body, echoed);
  };
}

// A new connection's socket events: its bytes to the parser; a connect timeout, a bad answer,
// an error or a close retire it. Called once per connection opened, as parseAnswers.
function watchSocket(socket, parser, conn, origin, connectTimeout, retire) {
  socket.setTimeout(connectTimeout * 1000, () => {
    if (!conn.connected) retire(conn, requestError('UND_ERR_CONNECT_TIMEOUT', `connecting to ${origin} timed out`));
  });
  socket.once('connect', () => {
    conn.connected = true;
    socket.setTimeout(0);
  });
  socket.on('data', (data) => {
    const err = parser.execute(data);
    if (err instanceof Error)
      retire(conn, requestError('HPE_INVALID', `bad HTTP answer from ${origin}: ${err.message}`));
  });
  // An answer framed by the end of the connection (no length, not chunked) completes here.
  socket.on('end', () => {
    const err = parser.finish();
    if (err instanceof Error)
      retire(conn, requestError('HPE_INVALID', `bad HTTP answer from ${origin}: ${err.message}`));
  });
  socket.on('error', (err) => retire(conn, err));
  socket.on('close', () => retire(conn, requestError('ECONNRESET', `${origin} closed the connection`)));
}

// Requests past their timeout fail and take their socket with them.
function watchTimeouts(all, retire, timeout, origin) {
  const timer = setInterval(() => {
    const limit = Date.now() - timeout * 1000;
    for (const conn of all) {
      if (conn.current && conn.since < limit)
        retire(conn, requestError('UND_ERR_HEADERS_TIMEOUT', `no answer from ${origin} within ${timeout} s`));
    }
  }, TIMEOUT_CHECK_MS);
  timer.unref();
  return timer;
}

// createSender({ origin, connections, timeout (s per request), connectTimeout (s), echoHeader })
//   -> {
//   send(path, headerLines, done(err, statusCode, body, echoed)): one GET; headerLines is the raw
//     text of its extra header lines, each ending in \r\n. It waits for a free connection
//     when all are busy (the schedule itself keeps at most `connections` in flight);
//   destroy(): every socket closed, requests in flight failed. }
// echoHeader: a header name; its value in each answer is handed to done as `echoed` (a
// team's service echoes its request id there, not in the body: `ctxbench app --id-header`).
// A socket is opened on first need and kept while the server keeps it alive; an answer the
// server marks `Connection: close`, a parse error, a timeout or a socket error retires it.
// send, dispatch, release and retire share this scope's variables: the send path.
function createSender({ origin, connections, timeout = 10, connectTimeout = 10, echoHeader = null }) {
  const { host, port, hostHeader, echoName } = targetOf(origin, echoHeader);
  const free = [];
  const waiting = [];
  const all = new Set();
  let destroyed = false;

  function open() {
    const socket = net.connect({ host, port, noDelay: true });
    const parser = new HTTPParser(HTTPParser.RESPONSE);
    const conn = {
      socket,
      parser,
      current: null,
      since: 0,
      statusCode: 0,
      body: '',
      echoed: null,
      keepAlive: true,
      connected: false,
    };
    all.add(conn);
    parseAnswers(parser, conn, echoName, retire, release);
    watchSocket(socket, parser, conn, origin, connectTimeout, retire);
    return conn;
  }

  // A socket that will not be used again: closed, its request (if any) failed.
  function retire(conn, err) {
    if (!all.delete(conn)) return;
    const i = free.indexOf(conn);
    if (i >= 0) free.splice(i, 1);
    conn.socket.destroy();
    const current = conn.current;
    conn.current = null;
    if (current) current(err ?? requestError('ECONNRESET', `${origin} closed the connection`));
    // A request waiting for a connection gets the place this one left.
    if (!destroyed && waiting.length && all.size < connections) dispatch(open(), waiting.shift());
  }

  function release(conn) {
    if (waiting.length) dispatch(conn, waiting.shift());
    else free.push(conn);
  }

  function dispatch(conn, [path, headerLines, done]) {
    conn.current = done;
    conn.since = Date.now();
    conn.socket.write(`GET ${path} HTTP/1.1\r\n${hostHeader}${headerLines}\r\n`, 'latin1');
  }

  const timer = watchTimeouts(all, retire, timeout, origin);

  return {
    send(path, headerLines, done) {
      if (destroyed) {
        done(requestError('ECONNRESET', 'the sender is closed'));
        return;
      }
      const request = [path, headerLines, done];
      // The most recently freed socket first: at a low rate few connections stay warm.
      const conn = free.pop() ?? (all.size < connections ? open() : null);
      if (conn) dispatch(conn, request);
      else waiting.push(request);
    },
    destroy() {
      destroyed = true;
      clearInterval(timer);
      for (const [, , done] of waiting.splice(0)) done(requestError('ECONNRESET', 'the sender is closed'));
      for (const conn of [...all]) retire(conn, requestError('ECONNRESET', 'the sender is closed'));
    },
  };
}

module.exports = { createSender };
