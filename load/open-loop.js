'use strict';
// The open-loop (rate) driver: requests leave on a fixed schedule, one every 1/rate s,
// whatever the answers do, and each latency is measured from the request's INTENDED send
// time. A closed-loop driver (autocannon, curl -P) sends a connection's next request only
// when the previous answer is back, so while a server stalls it stops sending, and the
// requests that should have gone out during the stall are never timed (coordinated
// omission). Here they are sent (or wait in our queue) and are timed from when they were
// due, so a stall counts in full.
//
// Every request carries its own X-Cloud-Trace-Context id and every 2xx body is checked
// against it, as in load/autocannon.js. At most `connections` requests are in flight
// (undici Pool, no pipelining); a request due while all are busy waits in our queue, and
// that wait is part of its latency. `sent` counts the requests that got onto a
// connection within the window, so a server (or client) that cannot keep the rate shows
// as sent < scheduled, and the report then refuses to print latencies for it.
const { randomBytes } = require('node:crypto');
const { performance } = require('node:perf_hooks');
const { Pool } = require('undici');
const hdr = require('hdr-histogram-js');
const { normalizeOptions, HEADER } = require('./autocannon');

// A configuration held its rate when at least this share of the scheduled requests went
// out within the window and was answered.
const HELD_MIN = 0.99;
// Histograms count microseconds from 1 µs to 1 h with 3 significant digits.
const HIST = { lowestDiscernibleValue: 1, highestTrackableValue: 3.6e9, numberOfSignificantValueDigits: 3 };

function newHistogram() {
  return hdr.build(HIST);
}

function fail(message) {
  throw new Error(message);
}

function round(value, digits) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

// Percentiles (ms) of a histogram of µs, in the names the run JSON uses.
function percentiles(h) {
  if (h.totalCount === 0) return { p50: null, p90: null, p99: null, p99_9: null, avg: null, max: null, count: 0 };
  const ms = (us) => round(us / 1000, 3);
  return {
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p99: ms(h.getValueAtPercentile(99)),
    p99_9: ms(h.getValueAtPercentile(99.9)),
    avg: ms(h.mean),
    stdev: ms(h.stdDeviation),
    max: ms(h.maxValue),
    count: h.totalCount,
  };
}

// Validates the rate-mode options (url, path, connections, duration, timeout through the
// autocannon driver's own checks; rate here). Throws one line.
function normalizeRateOptions(options) {
  if (options === null || typeof options !== 'object') fail(`measure options must be an object, got ${String(options)}`);
  const { rate, pipelining, amount, warmup, ...rest } = options;
  if (!(typeof rate === 'number' && Number.isFinite(rate) && rate > 0 && rate <= 1e6)) {
    fail(`rate must be a number of requests per second > 0 and <= 1000000, got ${JSON.stringify(rate)}`);
  }
  if (pipelining !== undefined && pipelining !== 1) fail(`rate mode sends one request per connection at a time (pipelining 1), got pipelining ${pipelining}`);
  if (amount !== undefined) fail('rate mode runs for a duration; amount is not supported');
  const o = normalizeOptions({ connections: 100, ...rest });
  return { ...o, rate, warmup: warmup ?? 0 };
}

// One GET with a deadline: a dead URL fails fast with one line.
async function probe(pool, o) {
  try {
    const res = await pool.request({ method: 'GET', path: o.path, headers: { [HEADER]: `${randomBytes(16).toString('hex')}/1;o=1` }, headersTimeout: 10000, bodyTimeout: 10000 });
    await res.body.dump();
  } catch (err) {
    fail(`no response from ${o.target} (${err.code || err.message})`);
  }
}

// Sends at `rate` for `seconds`; resolves to the counts and histograms of that window.
function schedule(pool, o, seconds, { prefix, nextId, onTick }) {
  const interval = 1000 / o.rate;
  const total = Math.max(1, Math.floor(seconds * o.rate));
  const latency = newHistogram();
  const lag = newHistogram();
  const clientLag = newHistogram();
  const counts = { scheduled: total, sent: 0, answered: 0, kept: 0, mismatches: 0, lost: 0, errors: 0, non2xx: 0 };
  const queue = [];
  let due = 0; // requests whose intended time has come (sent or queued)
  let inFlight = 0;
  let windowEnd;
  let finished = 0;
  let resolveAll;
  const done = new Promise((resolve) => (resolveAll = resolve));
  const start = performance.now() + 5; // a few ms for the timer to settle

  const complete = () => {
    inFlight--;
    finished++;
    pump();
    if (finished === total) resolveAll();
  };

  function send(intended) {
    const id = nextId();
    const now = performance.now();
    if (now <= windowEnd) counts.sent++;
    lag.recordValue(Math.max(1, Math.round((now - intended) * 1000)));
    inFlight++;
    pool
      .request({ method: 'GET', path: o.path, headers: { [HEADER]: `${id}/1;o=1` }, headersTimeout: o.timeout * 1000, bodyTimeout: o.timeout * 1000 })
      .then(async (res) => {
        const body = await res.body.text();
        const ms = performance.now() - intended;
        latency.recordValue(Math.max(1, Math.round(ms * 1000)));
        counts.answered++;
        if (res.statusCode < 200 || res.statusCode > 299) counts.non2xx++;
        else if (body === id) counts.kept++;
        else if (body.length === 32 && body.startsWith(prefix)) counts.mismatches++;
        else counts.lost++;
      })
      .catch(() => {
        counts.errors++;
      })
      .finally(complete);
  }

  function pump() {
    while (queue.length && inFlight < o.connections) send(queue.shift());
  }

  windowEnd = start + total * interval;
  let timer;
  const tick = () => {
    const now = performance.now();
    while (due < total && start + due * interval <= now) {
      const intended = start + interval * due++;
      clientLag.recordValue(Math.max(1, Math.round((now - intended) * 1000)));
      queue.push(intended);
    }
    pump();
    onTick?.(counts);
    if (due < total) timer = setTimeout(tick, Math.max(0, Math.min(start + due * interval - performance.now(), 50)));
  };
  timer = setTimeout(tick, 5);
  return {
    counts,
    done: done.then(() => ({ counts, latency, lag, clientLag, windowMs: total * interval })),
    stop: () => clearTimeout(timer),
  };
}

// Options: url, path, rate (req/s, required), duration (s, 10), connections (max in
// flight, 100), warmup (s at the same rate, unmeasured, 0), timeout (s per request, 10),
// onProgress ({ phase, elapsedS, requests, rps, errors, mismatches, lost }).
// Resolves to { rps, latency {p50,p90,p99,p99_9,avg,stdev,max} ms, requests, errors,
// non2xx, mismatches, lost, rate, scheduled, sent, heldRate, histogram, sendLag,
// durationS, loadgenCpu, bytesPerSec: null }.
//   scheduled  requests due in the window (rate × duration)
//   sent       of them, how many got onto a connection before the window closed
//   heldRate   { target, achieved (answered per second of window), sentRatio,
//                achievedRatio, held: both >= 0.99 }
//   histogram  the latencies (µs) as hdr-histogram-js compressed base64, so samples can
//              be merged exactly (analysis/latency.js)
//   sendLag    p50/p99/max ms between a request's intended and actual send time: the
//              client's own lateness plus any wait for a free connection
//   clientLag  p50/p99/max ms of the client's own lateness alone (its timer noticing a
//              request was due): part of every latency, and not the server's doing
// requests = answered requests (any status); rps = requests / window.
async function measure(options) {
  const o = normalizeRateOptions(options);
  const pool = new Pool(o.origin, { connections: o.connections, pipelining: 1, connect: { timeout: 10000 } });
  try {
    await probe(pool, o);
    const prefix = randomBytes(8).toString('hex');
    let counter = 0;
    const ZEROS = '0000000000000000';
    const nextId = () => {
      const n = (counter++).toString(16);
      return prefix + ZEROS.slice(n.length) + n;
    };
    if (o.warmup > 0) await schedule(pool, o, o.warmup, { prefix, nextId }).done;

    let progressTimer;
    const startedAt = performance.now();
    const cpu0 = process.cpuUsage();
    const run = schedule(pool, o, o.duration, { prefix, nextId });
    if (o.onProgress) {
      let last = 0;
      progressTimer = setInterval(() => {
        const c = run.counts;
        o.onProgress({ phase: 'measure', elapsedS: round((performance.now() - startedAt) / 1000, 3), requests: c.answered, rps: c.answered - last, errors: c.errors, mismatches: c.mismatches, lost: c.lost });
        last = c.answered;
      }, 1000);
      progressTimer.unref();
    }
    let result;
    try {
      result = await run.done;
    } finally {
      clearInterval(progressTimer);
      run.stop();
    }
    const cpu = process.cpuUsage(cpu0);
    const wallMs = performance.now() - startedAt;
    const { counts, latency, lag, clientLag, windowMs } = result;
    const durationS = windowMs / 1000;
    if (counts.answered === 0) fail(`no response from ${o.target} during the run (${counts.errors} errors)`);
    const achieved = counts.answered / durationS;
    const sentRatio = counts.sent / counts.scheduled;
    const achievedRatio = counts.answered / counts.scheduled;
    const lagP = percentiles(lag);
    const clientP = percentiles(clientLag);
    return {
      rps: round(achieved, 1),
      latency: percentiles(latency),
      requests: counts.answered,
      errors: counts.errors,
      non2xx: counts.non2xx,
      mismatches: counts.mismatches,
      lost: counts.lost,
      rate: o.rate,
      scheduled: counts.scheduled,
      sent: counts.sent,
      heldRate: {
        target: o.rate,
        achieved: round(achieved, 1),
        sentRatio: round(sentRatio, 4),
        achievedRatio: round(achievedRatio, 4),
        held: sentRatio >= HELD_MIN && achievedRatio >= HELD_MIN,
      },
      histogram: hdr.encodeIntoCompressedBase64(latency),
      sendLag: { p50: lagP.p50, p99: lagP.p99, max: lagP.max },
      clientLag: { p50: clientP.p50, p99: clientP.p99, max: clientP.max },
      bytesPerSec: null,
      loadgenCpu: round((cpu.user + cpu.system) / 1000 / wallMs, 3),
      durationS: round(durationS, 3),
    };
  } finally {
    await pool.close().catch(() => {});
  }
}

module.exports = { measure, normalizeRateOptions, percentiles, newHistogram, HELD_MIN, HIST };
