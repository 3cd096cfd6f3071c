'use strict';
// BURN_US: a fixed amount of CPU work per request, the known cost used to check that
// the harness recovers what it is given. The work is a fixed iteration count sized once
// at start-up (not a wall-clock spin, which does less work whenever the process is
// descheduled); each call is timed so the server can report what it really took.

let sink = 0;

function spin(iterations) {
  let x = sink | 1;
  for (let i = 0; i < iterations; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
  sink = x;
}

function iterationsFor(targetUs) {
  const probe = 200000;
  spin(probe); // let the JIT compile the loop before timing it
  const times = [];
  for (let i = 0; i < 7; i++) {
    const t0 = process.hrtime.bigint();
    spin(probe);
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  const usPerIteration = times[3] / probe;
  return Math.max(1, Math.round(targetUs / usPerIteration));
}

function makeBurner(targetUs, stats) {
  if (!targetUs) return undefined;
  const iterations = iterationsFor(targetUs);
  return () => {
    const t0 = process.hrtime.bigint();
    spin(iterations);
    stats.burnNs += process.hrtime.bigint() - t0;
  };
}

module.exports = { makeBurner, iterationsFor };
