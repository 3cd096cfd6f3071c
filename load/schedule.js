'use strict';
// The open-loop schedule in a thread of its own (load/schedule-thread.js), or in this one:
// the study's thread asks it for cuts and counts (load/open-loop.js has the why).
const path = require('node:path');
const { Worker } = require('node:worker_threads');
const hdr = require('hdr-histogram-js');
const { startLocalSchedule, checkRate, checkTicker, emptyCounts, fail } = require('./local-schedule');

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

module.exports = { startSchedule };
