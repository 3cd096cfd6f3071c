'use strict';
// When a fresh server process is warm. A fixed warm-up is too short on a slow machine:
// in the first block-design default run `param` and `global`, which do the same server
// work as `none`, read well below it in each block's first round and above it in the
// second, because `none` (measured next to every strategy) had served several more bursts
// by then (docs/investigations.md, "The first block-design default run"). V8 compiles on a
// background thread that shares the pinned server CPU, so how many seconds tiering-up
// takes depends on the machine's state. So a process is warmed in bursts until its cost
// per request stops falling, and the bursts it took are recorded on its process record.

// A burst counts as no cheaper unless its cost per request is more than STEADY_FALL
// below the cheapest burst before it (more than the burst-to-burst noise of a warm
// process). Judged against the cheapest so far, not the previous burst, and only from
// the third burst on: in the first run with this rule judged burst to burst, a noisy
// second burst ended warm-ups still well short of steady (docs/investigations.md, "The
// first block-design default run", and "Figures that code comments carried").
const STEADY_FALL = 0.05;
const MIN_WARMUP_BURSTS = 3;
const MAX_WARMUP_BURSTS = 10;

// cost of one warm-up burst: server CPU µs per request when the server reports it (the
// same in closed and open loop), else the time per request the client saw.
function burstCost({ cpuUsPerRequest, rps }) {
  if (cpuUsPerRequest > 0) return cpuUsPerRequest;
  return rps > 0 ? 1e6 / rps : null;
}

// costs: the warm-up bursts' costs so far, in order. -> { more, atLimit, reason }: atLimit
// when the warm-up ended at maxBursts while the cost was still falling.
function warmMore(costs, { fall = STEADY_FALL, minBursts = MIN_WARMUP_BURSTS, maxBursts = MAX_WARMUP_BURSTS } = {}) {
  if (costs.length < minBursts) return { more: true, reason: 'too few bursts to judge' };
  if (!costs.every((c) => c > 0)) return { more: false, reason: 'cost not measurable' };
  const last = costs.at(-1);
  const best = Math.min(...costs.slice(0, -1));
  if (last >= best * (1 - fall)) return { more: false, reason: 'steady' };
  if (costs.length >= maxBursts) return { more: false, atLimit: true, reason: 'still getting faster at the limit' };
  return { more: true, reason: 'still getting faster' };
}

// burst() -> req/s, called until the req/s stops rising (warmMore on 1 / req/s): a process
// warmed closed loop where its CPU is not read per burst. -> [req/s per burst].
async function warmByThroughput(burst) {
  const bursts = [];
  do bursts.push(Math.round(await burst()));
  while (warmMore(bursts.map((x) => (x > 0 ? 1e6 / x : null))).more);
  return bursts;
}

// A burst that completed nothing on a live server (it answered the driver's probe): -> `empty`
// instead of the driver's error. A warm-up burst still warmed it; a capacity burst reads
// 0 req/s and the bursts go on (a pg-hop baseline on a loaded machine completed nothing in
// its first 1-s burst); a dead server still fails.
const burstOrEmpty = (burst, empty) =>
  burst.catch((err) => (err.code === 'ERR_NO_RESPONSES' ? empty : Promise.reject(err)));

module.exports = {
  burstOrEmpty,
  warmMore,
  warmByThroughput,
  burstCost,
  STEADY_FALL,
  MIN_WARMUP_BURSTS,
  MAX_WARMUP_BURSTS ,
};
