'use strict';
// BURN_US: a fixed amount of CPU work per request, the known cost used to check that
// the harness recovers what it is given. The work is a fixed iteration count sized once
// at start-up (not a wall-clock spin, which does less work whenever the process is
// descheduled); each call is timed so the server can report what it really took.

let sink = 0;

// xorshift32: int32 bitwise operations only. The earlier LCG (Math.imul + add) ran at a
// different speed in each JIT tier on Node 24 and 26, so a count sized at start-up burned
// far from its target (docs/investigations.md, "`BURN_US` burned 3-5× its target on Node
// 24"); this loop stays
// within a few percent of its target on Node 20, 24 and 26.
function spin(iterations) {
  let x = sink | 1;
  for (let i = 0; i < iterations; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  sink = x;
}

function iterationsFor(targetUs) {
  const probe = 200000;
  // Many separate calls, so the JIT reaches the tier the request path runs in (one long
  // call is compiled on the stack, which can run at another speed).
  for (let i = 0; i < 50; i++) spin(probe / 10);
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
