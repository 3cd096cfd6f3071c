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
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { performance } = require('node:perf_hooks');
const { Worker } = require('node:worker_threads');
const { once } = require('node:events');
const { createSender } = require('./http-sender');
const hdr = require('hdr-histogram-js');
const { normalizeOptions, HEADER } = require('./autocannon');
// The histogram's range, percentiles and the held mark: lib/histogram.js (analysis reads them too).
const { newHistogram, percentiles, HELD_MIN } = require('../lib/histogram');

// The wake-up thread sleeps at least this long (ms) between wake-ups: above ~10,000 due
// requests a second, several leave per wake-up rather than one wake-up each.
const MIN_SLEEP_MS = 0.1;
const TICKERS = ['worker', 'timer'];

function fail(message) {
  throw new Error(message);
}

function round(value, digits) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

const us = (ms) => Math.max(1, Math.round(ms * 1000));

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

function checkRate(rate) {
  if (!(typeof rate === 'number' && Number.isFinite(rate) && rate > 0 && rate <= 1e6)) {
    fail(`rate must be a number of requests per second > 0 and <= 1000000, got ${JSON.stringify(rate)}`);
  }
  return rate;
}

// rates: undefined (every target at `rate`) or one rate per target, each in (0, rate]
// -> each target's share of `rate`.
function checkRates(rates, rate, n) {
  if (rates === undefined || rates === null) return Array(n).fill(1);
  if (!Array.isArray(rates) || rates.length !== n)
    fail(`rates must give one rate per target (${n}), got ${JSON.stringify(rates)}`);
  return rates.map((r) => {
    checkRate(r);
    if (r > rate) fail(`each of rates must be at most the schedule's rate ${rate}, got ${r}`);
    return r / rate;
  });
}

function checkTicker(ticker = 'worker') {
  if (!TICKERS.includes(ticker)) fail(`ticker must be ${TICKERS.join(' or ')}, got ${JSON.stringify(ticker)}`);
  return ticker;
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

// The thread that wakes the schedule on time: it sleeps (Atomics.wait, sub-millisecond)
// until the next request is due, then posts; the schedule's own tick decides what is due
// by its own clock, so a late or lost wake-up only delays, never miscounts. Shared memory:
// [state (0 waiting for the start, 1 running, 2 stopped)] and [start (ms since the epoch),
// interval (ms)]; started before the schedule, so its start-up (tens of ms: docs/
// investigations.md, "Figures that code comments carried") is no request's.
const WAKER = `
const { workerData: { shared, minSleep }, parentPort } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const state = new Int32Array(shared, 0, 1);
const [startAbs, interval] = (Atomics.wait(state, 0, 0), new Float64Array(shared, 8, 2));
const now = () => performance.timeOrigin + performance.now();
let k = 0;
while (Atomics.load(state, 0) === 1) {
  const t = now();
  k = Math.max(k, Math.floor((t - startAbs) / interval) + 1);
  if (Atomics.wait(state, 0, 1, Math.max(minSleep, startAbs + k * interval - t)) !== 'timed-out') break;
  parentPort.postMessage(0);
}
`;

async function startWaker() {
  const shared = new SharedArrayBuffer(24);
  const state = new Int32Array(shared, 0, 1);
  const worker = new Worker(WAKER, { eval: true, workerData: { shared, minSleep: MIN_SLEEP_MS } });
  worker.on('error', () => {});
  await once(worker, 'online');
  worker.unref();
  return {
    begin(startAbs, interval, onWake) {
      new Float64Array(shared, 8, 2).set([startAbs, interval]);
      worker.on('message', onWake);
      Atomics.store(state, 0, 1);
      Atomics.notify(state, 0);
    },
    stop() {
      Atomics.store(state, 0, 2);
      Atomics.notify(state, 0);
      return worker.terminate().catch(() => {});
    },
  };
}

// Counters of one target since the last cut (and in all).
function emptyCounts() {
  return { due: 0, sent: 0, answered: 0, kept: 0, mismatches: 0, lost: 0, unchecked: 0, errors: 0, non2xx: 0 };
}

// startLocalSchedule({ targets: [{ url, path, idHeader }], rate, connections, timeout, total,
// ticker }) sends one request to every target at each intended time start + k/rate until
// stopped (or `total` instants), in this thread. Each target's ids are its own (a prefix per
// target), so a mismatch names the server that answered another's id. A ctxbench server
// answers with the id of X-Cloud-Trace-Context in its body; a target with `idHeader` (a
// team's service, `ctxbench app --id-header`) gets the id in that header and must echo it
// there; with `idHeader: false` no id is checked (answered 2xx counts as `unchecked`). -> {
//   cut() -> { wallMs, lateness: histogram, cpuUs, targets: [{ ...counts, backlog,
//             inFlight, busyUs, latency: histogram }] }: what happened since the last cut;
//   counts: the running totals per target; stop(): no more sends; done: resolves when
//   every request sent has been answered (or failed) after stop() or `total`;
//   close(): its connections closed }.
// latency: answers received in the cut, from each request's intended time; lateness:
// intended time -> the generator noticed it was due, for the instants of the cut.
//
// rates (optional, one per target, each at most `rate`): a target of a lower rate is sent a
// request at those instants k of the schedule where floor((k + 1) × its share of `rate`)
// steps up, so each side of a pair may run at its own rate on one clock (the autoscaler's
// operating point of each: bench/methods/pair.js); its latencies count from those instants.
async function startLocalSchedule({ targets, rate, rates, connections, timeout, total = Infinity, ticker = 'worker' }) {
  checkRate(rate);
  checkTicker(ticker);
  const shares = checkRates(rates, rate, targets.length);
  const interval = 1000 / rate;
  const n = targets.length;
  const states = targets.map((t, index) => {
    const share = shares[index];
    const prefix = randomBytes(8).toString('hex');
    let counter = 0;
    const idHeader = t.idHeader ?? null;
    return {
      path: t.path,
      header: idHeader || HEADER,
      checked: idHeader !== false,
      echoed: typeof idHeader === 'string',
      sender: createSender({
        origin: new URL(t.url).origin,
        connections,
        timeout,
        echoHeader: typeof idHeader === 'string' ? idHeader : null,
      }),
      prefix,
      nextId: () => {
        const x = (counter++).toString(16);
        return prefix + '0000000000000000'.slice(x.length) + x;
      },
      // Whether this target is sent a request at instant k.
      sendsAt: share === 1 ? () => true : (k) => Math.floor((k + 1) * share) > Math.floor(k * share),
      queue: [],
      inFlight: 0,
      // µs requests held a connection (send to answer) in the window: the instance's
      // concurrency, which an autoscaler holds to a target (bench/operating-point.js).
      busyUs: 0,
      total: emptyCounts(),
      window: emptyCounts(),
      latency: newHistogram(),
    };
  });
  const waker = ticker === 'worker' ? await startWaker() : null;
  let lateness = newHistogram();
  let due = 0;
  let stopped = false;
  let unfinished = 0;
  let resolveDone;
  const done = new Promise((resolve) => (resolveDone = resolve));
  const start = performance.now() + 5; // a few ms for the timer to settle
  const windowEnd = Number.isFinite(total) ? start + total * interval : Infinity;
  let lastCut = { at: performance.now(), cpu: process.cpuUsage() };

  const maybeDone = () => {
    if ((stopped || due >= total) && unfinished === 0) resolveDone();
  };

  function send(s, intended) {
    const id = s.nextId();
    s.window.sent++;
    if (performance.now() <= windowEnd) s.total.sent++;
    s.inFlight++;
    const sentAt = performance.now();
    s.sender.send(
      s.path,
      s.echoed ? `${s.header}: ${id}\r\n` : `${s.header}: ${id}/1;o=1\r\n`,
      (err, statusCode, body, echoed) => {
        s.inFlight--;
        unfinished--;
        s.busyUs += (performance.now() - sentAt) * 1000;
        if (err) {
          s.total.errors++;
          s.window.errors++;
        } else {
          s.latency.recordValue(us(performance.now() - intended));
          const got = s.echoed ? (echoed ?? '') : body;
          const kind =
            statusCode < 200 || statusCode > 299
              ? 'non2xx'
              : !s.checked
                ? 'unchecked'
                : got === id
                  ? 'kept'
                  : got.length === 32 && got.startsWith(s.prefix)
                    ? 'mismatches'
                    : 'lost';
          for (const c of [s.total, s.window]) {
            c.answered++;
            c[kind]++;
          }
        }
        pump(s);
        maybeDone();
      },
    );
  }

  function pump(s) {
    while (s.queue.length && s.inFlight < connections) send(s, s.queue.shift());
  }

  function tick() {
    if (stopped) return;
    const now = performance.now();
    while (due < total && start + due * interval <= now) {
      const intended = start + interval * due;
      lateness.recordValue(us(now - intended));
      // Alternate which target's request of this instant leaves first.
      for (let j = 0; j < n; j++) {
        const s = states[due % 2 === 0 ? j : n - 1 - j];
        if (!s.sendsAt(due)) continue;
        s.total.due++;
        s.window.due++;
        unfinished++;
        s.queue.push(intended);
        pump(s);
      }
      due++;
    }
    if (due >= total) {
      stopWaking();
      maybeDone();
    }
  }

  // With ticker 'timer' the schedule is Node's timers (whole milliseconds); with the
  // waker thread they only back it up, every 50 ms.
  let timer = null;
  const timerTick = () => {
    tick();
    if (!stopped && due < total)
      timer = setTimeout(timerTick, waker ? 50 : Math.max(0, Math.min(start + due * interval - performance.now(), 50)));
  };
  timer = setTimeout(timerTick, 5);
  waker?.begin(performance.timeOrigin + start, interval, tick);
  let wakerStopped = null;
  function stopWaking() {
    clearTimeout(timer);
    wakerStopped ??= waker ? waker.stop() : Promise.resolve();
    return wakerStopped;
  }

  return {
    counts: states.map((s) => s.total),
    cut() {
      const now = performance.now();
      const cpu = process.cpuUsage(lastCut.cpu);
      const out = {
        wallMs: now - lastCut.at,
        cpuUs: cpu.user + cpu.system,
        lateness,
        targets: states.map((s) => {
          const t = {
            ...s.window,
            backlog: s.queue.length,
            inFlight: s.inFlight,
            busyUs: s.busyUs,
            latency: s.latency,
          };
          s.window = emptyCounts();
          s.busyUs = 0;
          s.latency = newHistogram();
          return t;
        }),
      };
      lateness = newHistogram();
      lastCut = { at: now, cpu: process.cpuUsage() };
      return out;
    },
    // No more requests; those queued for a connection are dropped (counted as neither
    // sent nor answered), those in flight are awaited by `done`.
    stop() {
      stopped = true;
      for (const s of states) {
        unfinished -= s.queue.length;
        s.queue.length = 0;
      }
      const waker = stopWaking();
      maybeDone();
      return waker;
    },
    done,
    prefixes: states.map((s) => s.prefix),
    close: async () => {
      for (const s of states) s.sender.destroy();
    },
  };
}

// startSchedule(options): startLocalSchedule's schedule in a thread of its own (the
// default; thread: 'main' keeps it in this one), with the same answers, cut() and stop()
// now resolving. The thread that runs a study also saves its run file, encodes
// histograms, reads /proc and collects a heap that grows with the run; on the generator's
// own event loop none of that delays a send (docs/method.md, "The thread, and the services'
// priority"; docs/investigations.md, "Figures that code comments carried"). counts are refreshed by
// every answer from the thread;
// refresh() asks for them.
async function startSchedule({ thread = 'worker', ...options }) {
  checkRate(options.rate);
  checkTicker(options.ticker);
  if (thread === 'main') {
    const local = await startLocalSchedule(options);
    return { ...local, cut: async () => local.cut(), refresh: async () => local.counts };
  }
  if (thread !== 'worker') fail(`thread must be worker or main, got ${JSON.stringify(thread)}`);
  const worker = new Worker(path.join(__dirname, 'schedule-thread.js'), { workerData: options });
  const counts = options.targets.map(() => emptyCounts());
  const pending = new Map();
  let seq = 0;
  let failed = null;
  let started;
  const ready = new Promise((resolve, reject) => (started = { resolve, reject }));
  let finished;
  const done = new Promise((resolve, reject) => (finished = { resolve, reject }));
  done.catch(() => {});
  const failAll = (err) => {
    failed ??= err;
    started.reject(err);
    finished.reject(err);
    for (const { reject } of pending.values()) reject(err);
    pending.clear();
  };
  worker.on('message', (m) => {
    if (m.counts) m.counts.forEach((c, i) => Object.assign(counts[i], c));
    if (m.type === 'started') started.resolve(m.prefixes);
    else if (m.type === 'done') finished.resolve();
    else if (m.type === 'error') failAll(new Error(m.message));
    else if (pending.has(m.id)) {
      pending.get(m.id).resolve(m);
      pending.delete(m.id);
    }
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the load generator's thread ended (exit code ${code})`)));
  const ask = (type) => {
    if (failed) return Promise.reject(failed);
    const id = ++seq;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ type, id });
    });
  };
  const prefixes = await ready;
  const decode = (b64) => hdr.decodeFromCompressedBase64(b64);
  return {
    counts,
    prefixes,
    done,
    async cut() {
      const { cut } = await ask('cut');
      return {
        ...cut,
        lateness: decode(cut.lateness),
        targets: cut.targets.map((t) => ({ ...t, latency: decode(t.latency) })),
      };
    },
    async refresh() {
      await ask('counts');
      return counts;
    },
    async stop() {
      await ask('stop');
    },
    async close() {
      worker.removeAllListeners('exit');
      await worker.terminate().catch(() => {});
    },
  };
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
  if (o.warmup > 0) {
    const w = await startSchedule({ ...common, total: Math.max(1, Math.floor(o.warmup * o.rate)) });
    try {
      await w.done;
      await w.stop();
    } finally {
      await w.close();
    }
  }
  const total = Math.max(1, Math.floor(o.duration * o.rate));
  const startedAt = performance.now();
  const cpu0 = process.cpuUsage();
  let progressTimer;
  const run = await startSchedule({ ...common, total });
  let cut;
  try {
    if (o.onProgress) {
      let last = 0;
      progressTimer = setInterval(() => {
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
    }
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
  const counts = run.counts[0];
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
