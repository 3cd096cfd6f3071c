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
// against it, as in load/autocannon.js. At most `connections` requests are in flight per
// target (load/http-sender.js, no pipelining); a request due while all are busy waits in our
// queue, and that wait is part of its latency. `sent` counts the requests that got onto a
// connection within the window, so a server (or client) that cannot keep the rate shows
// as sent < scheduled, and the report then refuses to print latencies for it.
//
// One schedule may drive several targets at once (the pair method, bench/methods/pair.js):
// every target gets a request at each intended time, and the order in which the targets'
// requests of one instant leave alternates from one instant to the next, so that neither
// server's request always goes out (and reaches the shared server CPU) first (an A/A with
// one always first read a few percent apart: docs/how-it-measures.md).
//
// The generator is part of the measurement: its own lateness (a request's intended time
// to the moment the generator noticed it was due) is recorded beside every latency, so a
// figure it could have made is never published as the server's (analysis/pair.js). Node's
// timers fire on whole milliseconds, so a worker thread sleeps to the next due time with
// Atomics.wait (sub-millisecond) and wakes this thread; it sends with its own client
// (load/http-sender.js: raw sockets, http-parser-js), not undici's Pool, whose per-request
// machinery made the generator late at the rates a study needs. The figures of both
// choices, and the generator's ceiling: docs/how-it-measures.md, docs/method.md
// (scripts/generator-ceiling.js).
//
// Here: the options, the probe and measure(); the schedule is load/local-schedule.js, and
// load/schedule.js runs it in a thread of its own.
const { randomBytes } = require('node:crypto');
const { performance } = require('node:perf_hooks');
const { createSender } = require('./http-sender');
const hdr = require('hdr-histogram-js');
const { normalizeOptions, HEADER } = require('./autocannon');
// The histogram's range, percentiles and the held mark: lib/histogram.js (analysis reads them too).
const { percentiles, HELD_MIN } = require('../lib/histogram');
const { startLocalSchedule, checkRate, checkTicker, fail, TICKERS } = require('./local-schedule');
const { startSchedule } = require('./schedule');

function round(value, digits) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

// Validates the rate-mode options (url, path, connections, duration, timeout through the
// autocannon driver's own checks; rate here). Throws one line.
function normalizeRateOptions(options) {
  if (options === null || typeof options !== 'object')
    fail(`measure options must be an object, got ${String(options)}`);
  const { rate, pipelining, amount, warmup, ticker, ...rest } = options;
  checkRate(rate);
  if (pipelining !== undefined && pipelining !== 1)
    fail(`rate mode sends one request per connection at a time (pipelining 1), got pipelining ${pipelining}`);
  if (amount !== undefined) fail('rate mode runs for a duration; amount is not supported');
  const o = normalizeOptions({ connections: 100, ...rest });
  return { ...o, rate, warmup: warmup ?? 0, ticker: checkTicker(ticker) };
}

// One GET with a deadline, through the generator's own client: a dead URL fails fast with
// one line. o: { origin, path, target (for the message) }.
async function probe(o) {
  const sender = createSender({ origin: o.origin, connections: 1, timeout: 10 });
  try {
    await new Promise((resolve, reject) => {
      sender.send(o.path, `${HEADER}: ${randomBytes(16).toString('hex')}/1;o=1\r\n`, (err) =>
        err ? reject(err) : resolve(),
      );
    });
  } catch (err) {
    fail(`no response from ${o.target} (${err.code || err.message})`);
  } finally {
    sender.destroy();
  }
}

// Options: url, path, rate (req/s, required), duration (s, 10), connections (max in
// flight, 100), warmup (s at the same rate, unmeasured, 0), timeout (s per request, 10),
// ticker ('worker' (default) or 'timer'), onProgress ({ phase, elapsedS, requests, rps,
// errors, mismatches, lost }).
// Resolves to { rps, latency {p50,p90,p99,p99_9,avg,stdev,max} ms, requests, errors,
// non2xx, mismatches, lost, rate, scheduled, sent, heldRate, histogram, sendLag,
// durationS, loadgenCpu, bytesPerSec: null }.
//   scheduled  requests due in the window (rate × duration)
//   sent       of them, how many got onto a connection before the window closed
//   heldRate   { target, achieved (answered per second of window), sentRatio,
//                achievedRatio, held: both >= 0.99 }
//   histogram  the latencies (µs) as hdr-histogram-js compressed base64, so samples can
//              be merged exactly (analysis/latency.js)
//   clientLag  p50/p99/max ms of the generator's own lateness (its intended time to the
//              moment it noticed the request was due): part of every latency, and not
//              the server's doing
// requests = answered requests (any status); rps = requests / window.
async function measure(options) {
  const o = normalizeRateOptions(options);
  await probe(o);
  const common = {
    targets: [{ url: o.origin, path: o.path }],
    rate: o.rate,
    connections: o.connections,
    timeout: o.timeout,
    ticker: o.ticker,
  };
  if (o.warmup > 0) await warmUp({ ...common, total: Math.max(1, Math.floor(o.warmup * o.rate)) });
  const total = Math.max(1, Math.floor(o.duration * o.rate));
  const startedAt = performance.now();
  const cpu0 = process.cpuUsage();
  let progressTimer;
  const run = await startSchedule({ ...common, total });
  let cut;
  try {
    if (o.onProgress) progressTimer = startProgress(run, o, startedAt);
    try {
      await run.done;
    } finally {
      clearInterval(progressTimer);
      await run.stop();
    }
    cut = await run.cut();
  } finally {
    await run.close();
  }
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - startedAt;
  return resultOf(o, { counts: run.counts[0], cut, total, cpu, wallMs });
}

// The warm-up: a schedule at the measured rate whose answers are not kept.
async function warmUp(options) {
  const w = await startSchedule(options);
  try {
    await w.done;
    await w.stop();
  } finally {
    await w.close();
  }
}

// onProgress once a second, from the running counts of the schedule's thread.
function startProgress(run, o, startedAt) {
  let last = 0;
  const progressTimer = setInterval(() => {
    run.refresh().then(
      ([c]) => {
        o.onProgress({
          phase: 'measure',
          elapsedS: round((performance.now() - startedAt) / 1000, 3),
          requests: c.answered,
          rps: c.answered - last,
          errors: c.errors,
          mismatches: c.mismatches,
          lost: c.lost,
        });
        last = c.answered;
      },
      () => {},
    );
  }, 1000);
  progressTimer.unref();
  return progressTimer;
}

// measure's answer (its comment) from the window's counts and cut.
function resultOf(o, { counts, cut, total, cpu, wallMs }) {
  const durationS = (total * 1000) / o.rate / 1000;
  if (counts.answered === 0) fail(`no response from ${o.target} during the run (${counts.errors} errors)`);
  const achieved = counts.answered / durationS;
  const sentRatio = counts.sent / total;
  const achievedRatio = counts.answered / total;
  const clientP = percentiles(cut.lateness);
  return {
    rps: round(achieved, 1),
    latency: percentiles(cut.targets[0].latency),
    requests: counts.answered,
    errors: counts.errors,
    non2xx: counts.non2xx,
    mismatches: counts.mismatches,
    lost: counts.lost,
    rate: o.rate,
    scheduled: total,
    sent: counts.sent,
    heldRate: {
      target: o.rate,
      achieved: round(achieved, 1),
      sentRatio: round(sentRatio, 4),
      achievedRatio: round(achievedRatio, 4),
      held: sentRatio >= HELD_MIN && achievedRatio >= HELD_MIN,
    },
    histogram: hdr.encodeIntoCompressedBase64(cut.targets[0].latency),
    clientLag: { p50: clientP.p50, p99: clientP.p99, max: clientP.max },
    ticker: o.ticker,
    bytesPerSec: null,
    loadgenCpu: round((cpu.user + cpu.system) / 1000 / wallMs, 3),
    durationS: round(durationS, 3),
  };
}

module.exports = { measure, startSchedule, startLocalSchedule, probe, normalizeRateOptions, TICKERS };
