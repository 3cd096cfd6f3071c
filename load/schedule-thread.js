'use strict';
// The load generator's own thread (load/open-loop.js startSchedule): one schedule
// (startLocalSchedule) on an event loop nothing else uses. Answers the study's thread:
// 'cut' (the window's counters, latencies and lateness as compressed histograms), 'counts'
// (running totals), 'stop'; says 'started', 'done' (every request answered) and 'error'.
const { parentPort, workerData } = require('node:worker_threads');
const hdr = require('hdr-histogram-js');
const { startLocalSchedule } = require('./open-loop');

const encode = (h) => hdr.encodeIntoCompressedBase64(h);

async function main() {
  let schedule;
  try {
    schedule = await startLocalSchedule(workerData);
  } catch (err) {
    parentPort.postMessage({ type: 'error', message: err.message });
    return;
  }
  parentPort.postMessage({ type: 'started', prefixes: schedule.prefixes });
  schedule.done.then(() => parentPort.postMessage({ type: 'done', counts: schedule.counts }));
  parentPort.on('message', async ({ type, id }) => {
    try {
      if (type === 'cut') {
        const cut = schedule.cut();
        const targets = cut.targets.map((t) => ({ ...t, latency: encode(t.latency) }));
        parentPort.postMessage({
          type,
          id,
          counts: schedule.counts,
          cut: { wallMs: cut.wallMs, cpuUs: cut.cpuUs, lateness: encode(cut.lateness), targets },
        });
      } else if (type === 'counts') {
        parentPort.postMessage({ type, id, counts: schedule.counts });
      } else if (type === 'stop') {
        await schedule.stop();
        parentPort.postMessage({ type, id, counts: schedule.counts });
      }
    } catch (err) {
      parentPort.postMessage({ type: 'error', message: err.message });
    }
  });
}

main();
