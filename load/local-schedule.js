'use strict';
// The open-loop schedule itself (load/open-loop.js has the why): requests leave at their
// intended times whatever the answers do, timed from those times, in the thread that calls
// it (load/schedule.js runs it in a thread of its own). runSchedule is the generator's hot
// path: send, pump and tick share its variables directly, so it stays one function.
const { randomBytes } = require('node:crypto');
const { performance } = require('node:perf_hooks');
const { Worker } = require('node:worker_threads');
const { once } = require('node:events');
const { createSender } = require('./http-sender');
const { HEADER } = require('./autocannon');
const { newHistogram } = require('../lib/histogram');

// The wake-up thread sleeps at least this long (ms) between wake-ups: above ~10,000 due
// requests a second, several leave per wake-up rather than one wake-up each.
const MIN_SLEEP_MS = 0.1;
const TICKERS = ['worker', 'timer'];

function fail(message) {
  throw new Error(message);
}

const us = (ms) => Math.max(1, Math.round(ms * 1000));

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

// One target's state: its sender, its ids (a prefix of its own), its queue and its counters.
function targetState(t, share, connections, timeout) {
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
    // concurrency, which an autoscaler holds to a target (bench/rates/operating-point.js).
    busyUs: 0,
    total: emptyCounts(),
    window: emptyCounts(),
    latency: newHistogram(),
  };
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
  const states = targets.map((t, index) => targetState(t, shares[index], connections, timeout));
  const waker = ticker === 'worker' ? await startWaker() : null;
  return handleOf(states, runSchedule(states, { interval: 1000 / rate, connections, total, waker }));
}

// The schedule's running part: sends each instant's requests and counts their answers.
// What cut() and stop() need of it (lateness, the requests unfinished) they reach through
// takeLateness() and halt(), so the send path reads its own variables; -> { done, openedAt,
// takeLateness(), halt() }.
// Over 80 lines on purpose: send, pump and tick share the counters they change on every request (due,
// unfinished, lateness); split apart, each send would pay a property lookup or a call.
// eslint-disable-next-line max-lines-per-function -- the generator's send path (above)
function runSchedule(states, { interval, connections, total, waker }) {
  const n = states.length;
  let lateness = newHistogram();
  let due = 0;
  let stopped = false;
  let unfinished = 0;
  let resolveDone;
  const done = new Promise((resolve) => (resolveDone = resolve));
  const start = performance.now() + 5; // a few ms for the timer to settle
  const windowEnd = Number.isFinite(total) ? start + total * interval : Infinity;
  const openedAt = { at: performance.now(), cpu: process.cpuUsage() };

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
    done,
    openedAt,
    // The instants' lateness since the last cut; a fresh histogram from now on.
    takeLateness() {
      const out = lateness;
      lateness = newHistogram();
      return out;
    },
    // No more requests; those queued for a connection are dropped (counted as neither
    // sent nor answered), those in flight are awaited by `done`.
    halt() {
      stopped = true;
      for (const s of states) {
        unfinished -= s.queue.length;
        s.queue.length = 0;
      }
      const waker = stopWaking();
      maybeDone();
      return waker;
    },
  };
}

// What a schedule answers (startLocalSchedule's comment): cut() takes the window since the
// last one, stop() halts the schedule.
function handleOf(states, schedule) {
  let lastCut = schedule.openedAt;
  return {
    counts: states.map((s) => s.total),
    cut() {
      const now = performance.now();
      const cpu = process.cpuUsage(lastCut.cpu);
      const out = {
        wallMs: now - lastCut.at,
        cpuUs: cpu.user + cpu.system,
        lateness: schedule.takeLateness(),
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
      lastCut = { at: now, cpu: process.cpuUsage() };
      return out;
    },
    stop: () => schedule.halt(),
    done: schedule.done,
    prefixes: states.map((s) => s.prefix),
    close: async () => {
      for (const s of states) s.sender.destroy();
    },
  };
}

module.exports = { startLocalSchedule, checkRate, checkTicker, emptyCounts, fail, TICKERS };
