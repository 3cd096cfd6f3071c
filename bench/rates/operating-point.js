'use strict';
// The autoscaler's operating point (`--target-cpu`, docs/deploy.md, "The deployment answer"):
// the rate at which a stand-in uses its target share of its CPU quota, found per block from
// its cgroup's CPU. An autoscaler (App Engine's target_cpu_utilization, Cloud Run's 60%)
// adds instances until each runs there, so that is where a deployment is judged, not at
// the knee, where a throttled period stalls a server inside the SLO's bound.
//
// The search: short steps of the pair at one rate (both sides sent it), each read as the
// share of the quota one side used (or, where it binds first, the share of the requests in
// flight an autoscaler allows, times the CPU target: spanLoad); the next rate from a line through the steps on the log
// of both (a server spends less CPU a request the more it is sent, so the share grows more
// slowly than the rate), until a step lands within TOLERANCE of the target.

// |share ÷ target − 1| within which a step is at the target, and a candidate at the
// baseline's rate is at its own operating point.
const TOLERANCE = 0.1;
const MAX_STEPS = 4;
// d ln(share) / d ln(rate) before two steps give their own, and the range a fitted one is
// held to (noise between two near rates can give any slope). Measured on F1 stand-ins:
// docs/deploy.md, "How the operating point is found".
const DEFAULT_SLOPE = 0.9;
const SLOPE_RANGE = [0.3, 1.5];
// No step moves the rate by more than this factor.
const MAX_FACTOR = 2;
// A step that fell behind its schedule used the whole quota: the next rate is at most this
// share of it.
const BEHIND_BACKOFF = 0.6;

const { concurrencyAllowed, instanceUsPerRequest } = require('../../lib/instances');

const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));

// The share of its quota member i used over several windows: their CPU over their wall time.
function spanShare(windows, i, instance) {
  let cpuUs = 0;
  let wallMs = 0;
  for (const w of windows) {
    const c = w?.members?.[i]?.instance?.cpuUs;
    if (!Number.isFinite(c) || !(w.wallMs > 0)) continue;
    cpuUs += c;
    wallMs += w.wallMs;
  }
  return wallMs > 0 && instance?.cpus > 0 ? cpuUs / (wallMs * 1000 * instance.cpus) : null;
}

// How loaded member i was over several windows, against the autoscaler's two targets (CPU
// share `target`, requests in flight concurrencyAllowed): { share: target × the larger of
// (its CPU share ÷ target) and (its requests in flight ÷ those allowed), so the search
// aims at `target` either way; cpuShare; concurrency (mean requests holding a connection);
// bound: 'cpu' or 'concurrency' }. A stand-in without a request limit, or windows without
// busy times: the CPU share alone. null without a CPU reading.
function spanLoad(windows, i, instance, target) {
  const cpuShare = spanShare(windows, i, instance);
  if (cpuShare === null) return null;
  let busyUs = 0;
  let wallMs = 0;
  for (const w of windows) {
    const b = w?.members?.[i]?.busyUs;
    if (!Number.isFinite(b) || !(w.wallMs > 0)) continue;
    busyUs += b;
    wallMs += w.wallMs;
  }
  const allowed = concurrencyAllowed(instance);
  const concurrency = wallMs > 0 ? busyUs / (wallMs * 1000) : null;
  const held = allowed && concurrency !== null ? (target * concurrency) / allowed : 0;
  return held > cpuShare
    ? { share: held, cpuShare, concurrency, bound: 'concurrency' }
    : { share: cpuShare, cpuShare, concurrency, bound: 'cpu' };
}

// A candidate's cost per request ÷ its partner's over pair windows (member indices of and
// partner): the geometric mean of the per-window ratios, from every window with both (one
// that fell behind too: it still served what it could with all its quota). The cost is the
// cgroup's CPU per request; with an instance and a CPU target, the instance's µs per request
// at whichever target binds first (lib/instances.js instanceUsPerRequest), which is that CPU
// ratio wherever the CPU binds on both sides.
function pairedCost(windows, of, partner, instance = null, target = null) {
  const cost = (m) =>
    instance
      ? instanceUsPerRequest({ cpuUs: m?.instance?.cpuUsPerRequest, busyUs: m?.busyUsPerRequest }, instance, target)
          ?.us
      : m?.instance?.cpuUsPerRequest;
  const logs = [];
  for (const w of windows) {
    const a = cost(w?.members?.[of]);
    const b = cost(w?.members?.[partner]);
    if (a > 0 && b > 0) logs.push(Math.log(a / b));
  }
  return logs.length ? Math.exp(logs.reduce((x, y) => x + y, 0) / logs.length) : null;
}

// steps [{ rate, share, behind }] -> the next rate toward `target` (a share of the quota).
// Least squares of ln(share) on ln(rate) over the steps that kept their schedule, the slope
// held to SLOPE_RANGE (DEFAULT_SLOPE with fewer than two distinct rates), anchored on the
// steps' mean; the move from the last rate at most MAX_FACTOR either way.
function nextRate(steps, target) {
  const last = steps.at(-1);
  const kept = steps.filter((s) => !s.behind && s.share > 0 && s.rate > 0);
  let rate;
  if (!kept.length) rate = last.rate * BEHIND_BACKOFF;
  else {
    const xs = kept.map((s) => Math.log(s.rate));
    const ys = kept.map((s) => Math.log(s.share));
    const mx = xs.reduce((a, x) => a + x, 0) / xs.length;
    const my = ys.reduce((a, y) => a + y, 0) / ys.length;
    const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
    const sxy = xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0);
    const slope = sxx > 1e-6 ? clamp(sxy / sxx, ...SLOPE_RANGE) : DEFAULT_SLOPE;
    rate = Math.exp(mx + (Math.log(target) - my) / slope);
    if (last.behind) rate = Math.min(rate, last.rate * BEHIND_BACKOFF);
  }
  return Math.max(1, Math.round(clamp(rate, last.rate / MAX_FACTOR, last.rate * MAX_FACTOR)));
}

const within = (s, target, tolerance) => !s.behind && s.share > 0 && Math.abs(s.share / target - 1) <= tolerance;

// searchOperatingPoint({ start, target, measure, tolerance, maxSteps, signal }): measure(rate)
// -> { share, behind, bound? } for one step. -> { rate, share, converged, steps }: the first step
// within the tolerance; else (maxSteps, or interrupted) the step that came nearest, not
// converged. A step with no share (no cgroup reading) ends the search.
async function searchOperatingPoint({
  start,
  target,
  measure,
  tolerance = TOLERANCE,
  maxSteps = MAX_STEPS,
  signal,
}) {
  if (!(target > 0 && target <= 1)) throw new Error(`target share must be in (0, 1], got ${target}`);
  const steps = [];
  let rate = Math.max(1, Math.round(start));
  while (steps.length < maxSteps && !signal?.aborted) {
    const m = await measure(rate);
    steps.push({ rate, share: m.share ?? null, behind: Boolean(m.behind), ...(m.bound && { bound: m.bound }) });
    if (!Number.isFinite(m.share)) break;
    if (within(steps.at(-1), target, tolerance)) return { rate, share: m.share, converged: true, steps };
    const next = nextRate(steps, target);
    if (steps.some((s) => s.rate === next)) {
      // The line sends it back to a rate already tried: the nearest of the two is the answer.
      break;
    }
    rate = next;
  }
  // Not within the tolerance in maxSteps: the rate the line through every step gives (a
  // step's share moves by a fifth with the machine: the line averages that out).
  const usable = steps.filter((s) => Number.isFinite(s.share));
  return { rate: usable.length ? nextRate(usable, target) : rate, share: null, converged: false, steps };
}

module.exports = {
  spanShare,
  spanLoad,
  pairedCost,
  BEHIND_BACKOFF,
  nextRate,
  searchOperatingPoint,
  TOLERANCE,
  DEFAULT_SLOPE,
};
