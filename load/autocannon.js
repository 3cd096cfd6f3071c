'use strict';
// The autocannon driver. Every request carries its own X-Cloud-Trace-Context id and every
// response body is checked against the id that request sent, so a run measures
// throughput and context integrity at once.
//
// How a response is matched to its request: autocannon keeps one HTTP/1.1 connection per
// "client" and, with pipelining, the server answers a connection's requests in order. So
// each client keeps a FIFO of the ids it sent. autocannon's per-client `context` cannot
// hold it: with a one-entry `requests` list autocannon resets `context` to a fresh copy
// of `initialContext` before EVERY request (measured: 18579 setupRequest calls saw 18579
// distinct context objects), which loses the pipelined ids. So `setupClient` installs
// per-client closures on three members of autocannon 9's client, checked at start-up:
//   requestIterator.nextRequest  the next request = a template autocannon built once,
//                                with the id spliced in. Its documented `setupRequest`
//                                route rebuilds every request from objects (plus a deep
//                                clone of the context and a hyperid per request) and
//                                halved this driver's req/s per core
//                                (docs/investigations.md, "Figures that code comments carried").
//   requestIterator.recordBody   where autocannon hands each response to `onResponse`;
//                                replaced so no header object is built per response.
//   _connect                     a reconnect (timeout, reset, server closing) sends a
//                                fresh pipeline; the ids still queued on the old
//                                connection will never be answered and are dropped.
//                                Without this, one dropped connection turned every later
//                                response into a false "mismatch".
// These are not public API, so package.json pins autocannon to the exact version they
// were written against (9.0.0), and test/load.test.js fails loudly when the installed
// version differs from the pin or the members are gone. The public route was weighed and
// kept out: `requests: [{ setupRequest, onResponse }]` gets a fresh context per request
// (so no per-connection FIFO survives pipelining) and halves the load generator's
// req/s per core, which on a 2-core machine would make the client the bottleneck.
const { randomBytes } = require('node:crypto');
const { defaultOf } = require('../lib/settings');
const HEADER = 'X-Cloud-Trace-Context';
// autocannon notices that a burst is over only at its next sample tick (`sampleInt`, 1000 ms
// by default), so a 0.2-s duration ran for a second and an `amount` to the next whole one.
// No caller reads its per-tick counts, so ticks can be short (see `measure` below).
const SAMPLE_TICK_MS = 20;
// Required when a burst starts, not when this file loads: autocannon is most of a CLI's start-up,
// which a command refusing bad input never needs (test/bad-input.test.js). Every burst ends on
// time: the short tick unless a caller sets its own.
const autocannon = (opts, ...rest) => require('autocannon')({ sampleInt: SAMPLE_TICK_MS, ...opts }, ...rest);
// The load settings' defaults are declared with their bounds (lib/settings.js, 'autocannon').
const DEFAULTS = {
  path: undefined, // the URL's own path (usually '/')
  connections: defaultOf('connections', 'autocannon'),
  pipelining: defaultOf('pipelining', 'autocannon'),
  duration: defaultOf('duration', 'autocannon'),
  amount: undefined,
  warmup: defaultOf('warmup', 'autocannon'),
  timeout: 10,
  onProgress: undefined,
  signal: undefined,
};
const KNOWN = new Set(['url', ...Object.keys(DEFAULTS)]);

function fail(message) {
  throw new Error(message);
}

function show(value) {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function positiveInteger(name, value, max) {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    fail(`${name} must be an integer from 1 to ${max}, got ${show(value)}`);
  }
  return value;
}

function positiveNumber(name, value, { zero = false, max = 86400 } = {}) {
  const ok = typeof value === 'number' && Number.isFinite(value) && (zero ? value >= 0 : value > 0) && value <= max;
  if (!ok) fail(`${name} must be a number of seconds ${zero ? '>= 0' : '> 0'} and <= ${max}, got ${show(value)}`);
  return value;
}

// Validates measure()'s options; returns them complete. Throws an Error with one line.
function normalizeOptions(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    fail(`measure options must be an object, got ${show(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) fail(`unknown measure option ${show(key)} (known: ${[...KNOWN].join(', ')})`);
  }
  const o = { ...DEFAULTS };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) o[key] = value;

  if (typeof o.url !== 'string' || o.url === '')
    fail(`url must be an http(s) URL such as http://127.0.0.1:8080, got ${show(o.url)}`);
  let parsed;
  try {
    parsed = new URL(o.url);
  } catch {
    fail(`url must be an http(s) URL such as http://127.0.0.1:8080, got ${show(o.url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    fail(`url must start with http:// or https://, got ${show(o.url)}`);
  }
  if (parsed.username || parsed.password) fail(`url must not carry credentials, got ${show(o.url)}`);
  if (o.path === undefined) o.path = parsed.pathname + parsed.search;
  if (typeof o.path !== 'string' || !/^\/[\x21-\x7e]*$/.test(o.path)) {
    fail(`path must start with "/" and hold no spaces or control characters, got ${show(o.path)}`);
  }
  positiveInteger('connections', o.connections, 10000);
  positiveInteger('pipelining', o.pipelining, 1000);
  if (o.amount !== undefined) {
    positiveInteger('amount', o.amount, Number.MAX_SAFE_INTEGER);
    if (o.amount < o.connections) fail(`amount (${o.amount}) must be at least connections (${o.connections})`);
  } else {
    positiveNumber('duration', o.duration);
  }
  positiveNumber('warmup', o.warmup, { zero: true });
  positiveNumber('timeout', o.timeout, { max: 3600 });
  if (o.onProgress !== undefined && typeof o.onProgress !== 'function') {
    fail(`onProgress must be a function, got ${show(o.onProgress)}`);
  }
  if (o.signal !== undefined && !(o.signal instanceof AbortSignal))
    fail(`signal must be an AbortSignal, got ${show(o.signal)}`);
  o.origin = parsed.origin;
  o.target = parsed.origin + o.path;
  return o;
}

// One GET with a short deadline before the run, so a dead URL fails fast with one line
// instead of autocannon reconnecting in a loop for the whole duration. Any HTTP status
// counts as an answer (non-2xx responses are measured, not refused).
async function probe(target, timeoutS) {
  const id = randomBytes(16).toString('hex');
  try {
    const res = await fetch(target, {
      headers: { [HEADER]: `${id}/1;o=1`, connection: 'close' },
      signal: AbortSignal.timeout(timeoutS * 1000),
    });
    await res.arrayBuffer();
    return res.status;
  } catch (err) {
    const why =
      err.name === 'TimeoutError'
        ? `no answer within ${timeoutS} s`
        : err.cause?.code || err.cause?.message || err.message;
    throw new Error(`no response from ${target} (${why})`, { cause: err });
  }
}

function round(value, digits) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

// Options: url (base URL; its path is used unless `path` is given), path, connections
// (100), pipelining (1), duration (s, 10) or amount (requests; with pipelining > 1
// autocannon closes a connection once its share was SENT, so up to pipelining-1 answers
// per connection are never counted), warmup (s, 0: autocannon's own warm-up, not
// measured), timeout (s, 10), onProgress (called every second with { phase: 'warmup' |
// 'measure', elapsedS, requests, rps, errors, mismatches, lost }), signal (an
// AbortSignal that ends the run early; give a long duration and abort when done).
// Runs one measured burst. Resolves to
// { rps, latency: {p2_5,p50,p97_5,p99,avg,stdev,max} (ms), requests, errors, non2xx,
//   mismatches, lost, bytesPerSec, loadgenCpu, durationS }.
// Only 2xx responses are classified, so requests = kept + mismatches + lost + non2xx.
// durationS is timed here, from the first measured connection to the last one closing;
// rps = requests / durationS. Not autocannon's requests.average (a mean of per-second
// buckets) nor its result.duration (rounded to 10 ms, and it runs on to the next sample
// tick).
// loadgenCpu = this process's CPU time over the same span / durationS (1 = one core).
// finishLagS = from the last answer to autocannon resolving: time the burst occupies
// without measuring anything.
async function measure(options) {
  const o = normalizeOptions(options);
  await probe(o.target, Math.min(o.timeout, 10));
  const { state, setupClient } = clientSetup(o);
  const opts = autocannonOptions(o, setupClient);

  const startedAt = process.hrtime.bigint();
  // No callback: only autocannon's promise form runs its `warmup`.
  const instance = autocannon(opts);
  // signal: ends the run early (a duet's loads run until its windows are taken); what
  // was answered until then is the burst.
  const onAbort = () => instance.stop();
  if (o.signal?.aborted) onAbort();
  else o.signal?.addEventListener('abort', onAbort, { once: true });
  const progress = o.onProgress ? reportProgress(o, instance, state, startedAt) : {};
  let result;
  try {
    result = await instance;
  } catch (err) {
    throw state.setupError || err;
  } finally {
    clearInterval(progress.timer);
    o.signal?.removeEventListener('abort', onAbort);
  }

  const resolvedAt = process.hrtime.bigint();
  const end = state.mainEnd ?? { hr: resolvedAt, cpu: process.cpuUsage() };
  if (progress.error) throw progress.error;
  if (state.setupError) throw state.setupError;
  if (state.mainStart === undefined) throw new Error(`the run against ${o.target} never started`);
  return burstResult(o, result, state.main, state.mainStart, end, resolvedAt);
}

// The client set-up of one measure: `setupClient` for autocannon, and `state`, what it
// learns per client (the counts, when the measured clients started and ended, an error).
// The ids and the request counter live in this scope, as the send path reads them.
function clientSetup(o) {
  // Ids: 16 hex of a per-measure random prefix + a 16-hex counter. A 32-hex body with
  // this prefix that is not the request's own id is another request's: a leak.
  const prefix = randomBytes(8).toString('hex');
  let counter = 0;
  const ZEROS = '0000000000000000';

  const makeCounts = () => ({ responses: 0, kept: 0, mismatches: 0, lost: 0, errors: 0 });
  const state = {
    warm: makeCounts(),
    main: makeCounts(),
    warmupClients: o.warmup > 0 ? o.connections : 0,
    created: 0,
    mainRunning: 0,
    mainStart: undefined,
    mainEnd: undefined,
    setupError: undefined,
  };

  function setupClient(client) {
    const iterator = client.requestIterator;
    const connect = client._connect;
    checkInternals(client, state);
    const counts = countsFor(client, state);
    client.on('connError', () => counts.errors++);
    client.on('timeout', () => counts.errors++);

    let fifo = [];
    // A reconnect sends a fresh pipeline; ids still queued on the old connection are
    // dead. (Before the first connect the FIFO holds the prebuilt first request: keep it.)
    client._connect = function reconnect() {
      if (client.reqsMade > 0) fifo = [];
      return connect.apply(this, arguments);
    };
    // Replaces autocannon's onResponse plumbing (same call site, without building a
    // header object per response): status + body of the oldest pending request.
    iterator.recordBody = (request, status, body) => {
      const own = fifo.shift();
      counts.responses++;
      if (status < 200 || status > 299) return; // counted by autocannon as non2xx
      if (body === own) counts.kept++;
      else if (body.length === 32 && body.startsWith(prefix)) counts.mismatches++;
      else counts.lost++;
    };
    // The request is autocannon's own bytes (built once by its builder around a marker)
    // with the id spliced in: no per-request header objects, clones or ids of its own.
    const MARK = '\u0001'.repeat(32);
    iterator.setRequests([{ method: 'GET', path: o.path, headers: { [HEADER]: MARK + '/1;o=1' } }]);
    const current = iterator.currentRequest;
    const [head, tail] = current.requestBuffer.toString('latin1').split(MARK);
    if (tail === undefined) {
      state.setupError = new Error('autocannon did not build the request template load/autocannon.js expects');
      throw state.setupError;
    }
    iterator.nextRequest = function nextRequest() {
      const n = (counter++).toString(16);
      const id = prefix + ZEROS.slice(n.length) + n;
      fifo.push(id);
      current.requestBuffer = Buffer.from(head + id + tail, 'latin1');
      return current;
    };
    iterator.nextRequest();
  }
  return { state, setupClient };
}

// Throws (and records in state) unless the client has the autocannon 9 internals used here.
function checkInternals(client, state) {
  const iterator = client.requestIterator;
  const ok =
    iterator &&
    typeof client._connect === 'function' &&
    typeof client.reqsMade === 'number' &&
    ['setRequests', 'nextRequest', 'recordBody'].every((m) => typeof iterator[m] === 'function');
  if (!ok) {
    state.setupError = new Error(
      'the installed autocannon lacks the client internals load/autocannon.js uses (written for 9.0)',
    );
    throw state.setupError;
  }
}

// A new client's counts (the warm-up's or the measured ones'); a measured client's start
// and end time the burst: from the first one created to the last one done.
function countsFor(client, state) {
  const isMain = state.created++ >= state.warmupClients;
  if (isMain) {
    if (state.mainStart === undefined) {
      state.mainStart = { hr: process.hrtime.bigint(), cpu: process.cpuUsage() };
    }
    state.mainRunning++;
    client.once('done', () => {
      if (--state.mainRunning === 0) state.mainEnd = { hr: process.hrtime.bigint(), cpu: process.cpuUsage() };
    });
  }
  return isMain ? state.main : state.warm;
}

function autocannonOptions(o, setupClient) {
  const opts = {
    url: o.target,
    connections: o.connections,
    pipelining: o.pipelining,
    timeout: o.timeout,
    // autocannon only notices that a burst is over at its next sample tick (every
    // `sampleInt` ms, default 1000): with `amount`, a burst resolved only at the next whole
    // second, so much of a block was spent waiting (docs/investigations.md, "Where the
    // burst-to-burst noise comes from, and a second a burst lost to a tick").
    // Its per-tick request counts are not used here, so ticks can be short.
    sampleInt: SAMPLE_TICK_MS,
    setupClient,
  };
  if (o.amount !== undefined) opts.amount = o.amount;
  else opts.duration = o.duration;
  // autocannon's warmup inherits every option, amount included: run it by time only.
  if (o.warmup > 0) opts.warmup = { duration: o.warmup, amount: undefined };
  return opts;
}

// o.onProgress every second; -> { timer, error }: an error onProgress threw stops the run
// and is thrown by measure once autocannon resolved.
function reportProgress(o, instance, state, startedAt) {
  const progress = { timer: undefined, error: undefined };
  let lastPhase = 'warmup';
  let lastCount = 0;
  progress.timer = setInterval(() => {
    const phase = state.mainStart === undefined ? 'warmup' : 'measure';
    const c = phase === 'measure' ? state.main : state.warm;
    if (phase !== lastPhase) lastCount = 0;
    const since = phase === 'measure' ? state.mainStart.hr : startedAt;
    try {
      o.onProgress({
        phase,
        elapsedS: round(Number(process.hrtime.bigint() - since) / 1e9, 3),
        requests: c.responses,
        rps: c.responses - lastCount,
        errors: c.errors,
        mismatches: c.mismatches,
        lost: c.lost,
      });
    } catch (err) {
      progress.error = err;
      clearInterval(progress.timer);
      if (typeof instance.stop === 'function') instance.stop();
    }
    lastPhase = phase;
    lastCount = c.responses;
  }, 1000);
  progress.timer.unref();
  return progress;
}

// What measure resolves to, from autocannon's result and the measured clients' counts and span.
function burstResult(o, result, main, mainStart, end, resolvedAt) {
  const cpuUs = end.cpu.user + end.cpu.system - mainStart.cpu.user - mainStart.cpu.system;
  const wallUs = Number(end.hr - mainStart.hr) / 1000;
  const durationS = wallUs / 1e6;
  const requests = result.requests.total;
  if (requests === 0) {
    const err = new Error(
      `no response from ${o.target} during the run (${result.errors} errors, ${result.timeouts} timeouts)`,
    );
    err.code = 'ERR_NO_RESPONSES'; // alive (it answered the probe), nothing completed in the burst
    throw err;
  }
  const lat = result.latency;
  return {
    rps: round(requests / durationS, 1),
    latency: {
      p2_5: lat.p2_5,
      p50: lat.p50,
      p97_5: lat.p97_5,
      p99: lat.p99,
      avg: lat.average,
      stdev: lat.stddev,
      max: lat.max,
    },
    requests,
    errors: result.errors,
    non2xx: result.non2xx,
    mismatches: main.mismatches,
    lost: main.lost,
    bytesPerSec: Math.round(result.throughput.total / durationS),
    loadgenCpu: round(cpuUs / wallUs, 3),
    durationS: round(durationS, 3),
    finishLagS: round(Number(resolvedAt - end.hr) / 1e9, 3),
  };
}

module.exports = { measure, normalizeOptions, HEADER, autocannon };
