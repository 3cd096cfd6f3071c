'use strict';
// When a fresh server process is warm. A fixed warm-up is too short on a slow machine:
// the first block-design default run (docs/investigations.md) gave `param` and
// `global`, which do the same server work as `none`, 55-83% of it in each block's first
// round and 102-107% in the second, because `none` (measured next to every strategy)
// had served several more bursts by then. V8 compiles on a background thread that
// shares the pinned server CPU, so how many seconds tiering-up takes depends on the
// machine's state. So a process is warmed in bursts until its cost per request stops
// falling, and the bursts it took are recorded on its process record.

// A burst counts as no cheaper than the one before unless its cost per request fell by
// more than STEADY_FALL (burst-to-burst noise on a warm process here is about ±8%).
const STEADY_FALL = 0.05;
const MAX_WARMUP_BURSTS = 10;

// cost of one warm-up burst: server CPU µs per request when the server reports it (the
// same in closed and open loop), else the time per request the client saw.
function burstCost({ cpuUsPerRequest, rps }) {
  if (cpuUsPerRequest > 0) return cpuUsPerRequest;
  return rps > 0 ? 1e6 / rps : null;
}

// costs: the warm-up bursts' costs so far, in order. -> { more, reason }.
// At least two bursts, so there is a fall to judge; at most maxBursts.
function warmMore(costs, { fall = STEADY_FALL, maxBursts = MAX_WARMUP_BURSTS } = {}) {
  if (costs.length < 2) return { more: true, reason: 'first burst' };
  const [previous, last] = costs.slice(-2);
  if (!(previous > 0) || !(last > 0)) return { more: false, reason: 'cost not measurable' };
  const steady = last >= previous * (1 - fall);
  if (steady) return { more: false, reason: 'steady' };
  if (costs.length >= maxBursts) return { more: false, reason: 'still getting faster at the limit' };
  return { more: true, reason: 'still getting faster' };
}

module.exports = { warmMore, burstCost, STEADY_FALL, MAX_WARMUP_BURSTS };
