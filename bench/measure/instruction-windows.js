'use strict';
// Instructions per request of one server process under callgrind (bench/measure/callgrind.js):
// warm-up windows until the count stops falling, then `windows` measured windows, each a
// fixed number of requests between a counter zero and a dump.
//
// Why windows of a fixed number of requests, in a fixed schedule: a process started with
// --single-threaded repeats another's count window by window, even before it has settled,
// so counts taken at the same request index are comparable from process to process and
// from run to run. What keeps the count falling is V8 still compiling: batches of Turbofan
// compilations (on the main thread under --single-threaded), then single ones, for
// thousands of requests. Lowering V8's tier-up thresholds gets there sooner but to dearer
// code, so the warm-up is long instead. Figures and the trace: docs/investigations.md,
// "Instruction counts: what keeps the count falling, and what makes it repeat", and
// "Figures that code comments carried".
const { getJson } = require('./http-client');
const { checkIdentity } = require('./sample');
const { mean } = require('../../analysis/stats');

// Steady: the last STEADY_WINDOWS warm-up windows all within ±STEADY_SPREAD of their
// median. All of them, not a mean: a window with a compile batch between two quiet ones
// is the JIT still at work, and a mean or median of a few windows reads the plateaus
// between compile batches as steady. Six within ±2%, not four within ±3%: four within ±3%
// ended a warm-up one window before a late Turbofan batch, and single compilations keep
// landing for thousands of requests more (docs/investigations.md, "Instruction counts:
// what keeps the count falling, and what makes it repeat", and "Figures that code
// comments carried").
const STEADY_WINDOWS = 6;
const STEADY_SPREAD = 0.02;
const DEFAULT_MAX_WARMUP_WINDOWS = 40;
// Deep chains get small windows (their chain functions tier up within a few requests;
// the request-level ones still take thousands) and fewer of them: a deep request under
// Valgrind is slow (docs/investigations.md, "Figures that code comments carried").
const SMALL_WINDOW_MAX_WARMUP = 16;
const REQUEST_TIMEOUT_S = 120;
// A process not steady at the limit measures this many times `windows`. Three windows are
// too few where the count moves from window to window: cls-hooked at depth 8 alternates
// between two levels (a collection every other window), so three windows caught one level
// in one run and the other in the next, while means over many windows agreed
// (docs/investigations.md, "Instruction counts that alternate", and "Figures that code
// comments carried").
const UNSETTLED_WINDOW_FACTOR = 8;
// An arm that never settled while its baseline did is compared with the baseline on its
// mean (analysis/summary.js instructionRatio: their windows are not at the same request
// indices), and a mean of N windows of a count that alternates is off by up to one
// window's swing ÷ N, depending on where in its cycle the process happened to be: one
// collection more or fewer in N windows is the whole difference between two runs
// (docs/investigations.md, "One collection in 24 windows"). So such a process goes on past
// `unsettledWindows` until (max - min) ÷ N of its windows is at most UNSETTLED_BOUND_PCT of
// their mean, capped at UNSETTLED_CAP_FACTOR × `unsettledWindows`. 0.2%, not a quarter of
// the 0.5% a repro must hold: two runs then differ by at most one such step plus the
// count's own process-to-process difference (docs/investigations.md, "A bound instead of
// 24 windows"). Processes compared window by window with their baseline (same warm-up, so
// same request indices) do not need it: their GC steps fall at the same index in both.
const UNSETTLED_BOUND_PCT = 0.2;
const UNSETTLED_CAP_FACTOR = 4;

// warmedUp(counts, opts) -> { more, reason } for the warm-up windows' instructions per
// request so far.
function warmedUp(
  counts,
  {
    steadyWindows = STEADY_WINDOWS,
    spread = STEADY_SPREAD,
    maxWindows = DEFAULT_MAX_WARMUP_WINDOWS,
    minWindows = 0,
  } = {},
) {
  if (counts.length < Math.min(minWindows, maxWindows))
    return { more: true, reason: 'not yet as long as its baseline' };
  if (counts.length >= steadyWindows) {
    const last = counts.slice(-steadyWindows);
    const mid = [...last].sort((a, b) => a - b)[Math.floor(steadyWindows / 2)];
    if (last.every((c) => Math.abs(c / mid - 1) <= spread)) return { more: false, reason: 'steady' };
  }
  if (counts.length >= maxWindows) return { more: false, reason: 'not steady at the limit' };
  return { more: true, reason: counts.length < steadyWindows ? 'too few windows to judge' : 'still changing' };
}

// Requests per window by call depth: about 2e8 instructions per window (docs/method.md,
// "Windows of a fixed number of requests"), fewer requests for deeper chains, never fewer
// than 100.
function windowRequestsFor(depth) {
  return Math.max(100, Math.min(1000, Math.round(8000 / Math.max(1, depth) / 50) * 50));
}

// The warm-up cap for a window size: DEFAULT_MAX_WARMUP_WINDOWS windows of 1,000 requests
// (40,000 requests at depth 8), SMALL_WINDOW_MAX_WARMUP of anything smaller.
function maxWarmupWindowsFor(requests) {
  return requests >= 1000 ? DEFAULT_MAX_WARMUP_WINDOWS : SMALL_WINDOW_MAX_WARMUP;
}

// One window: the counter zeroed, `requests` requests, the counter dumped. The /__stats
// readings stay outside it, so a window's count is the measured requests' alone.
async function oneWindow({ config, server, counter, driver, connections, requests, signal }) {
  const before = await getJson(`${server.url}/__stats`);
  checkIdentity(before, config, server);
  await counter.zero();
  const m = await driver({
    url: server.url,
    path: config.path || '/',
    connections,
    pipelining: 1,
    amount: requests,
    timeout: REQUEST_TIMEOUT_S,
    signal,
  });
  const instructions = await counter.dump();
  const after = await getJson(`${server.url}/__stats`);
  checkIdentity(after, config, server);
  const served = after.requests - before.requests;
  return {
    requests: served,
    instructions,
    perRequest: served > 0 ? instructions / served : null,
    wallMs: m.durationS * 1000,
    errors: m.errors,
    non2xx: m.non2xx,
    mismatches: m.mismatches,
    lost: m.lost,
  };
}

// The step one window more or less of the swing would make in the mean of these counts, in
// percent of the mean: (max - min) ÷ N ÷ mean × 100.
function windowStepPct(counts) {
  if (!counts.length) return null;
  return ((Math.max(...counts) - Math.min(...counts)) / counts.length / mean(counts)) * 100;
}

// Whether a process has measured enough windows: `planned` at least, then, while `bound` is
// set (percent), until windowStepPct is within it or `cap` windows are in.
function measuredEnough(counts, { planned, bound = null, cap = planned }) {
  if (counts.length < planned) return false;
  if (!(bound > 0) || counts.length >= cap) return true;
  return windowStepPct(counts) <= bound;
}

// measureProcess(...) -> { warmup: [window], windows: [window], settled, stepPct }.
// onWindow(phase, index, window, planned, cap) after every window (progress, saving);
// planned = the measured windows this process takes at least (`windows`, or
// `unsettledWindows` where it never settled), cap = at most. minWarmupWindows: the warm-up
// of this block's baseline process, so that an arm is never measured at earlier request
// indices than the baseline it is compared with. stepPct: windowStepPct of the measured
// windows where the process was held to `unsettledBound` (null elsewhere).
async function measureProcess({
  config,
  server,
  counter,
  driver,
  connections,
  requests,
  windows,
  unsettledWindows = windows * UNSETTLED_WINDOW_FACTOR,
  unsettledBound = UNSETTLED_BOUND_PCT,
  maxWarmupWindows = DEFAULT_MAX_WARMUP_WINDOWS,
  minWarmupWindows = 0,
  signal,
  onWindow = () => {},
}) {
  const warmup = [];
  let verdict = maxWarmupWindows > 0 ? { more: true } : { more: false, reason: 'no warm-up asked for' };
  while (verdict.more && !signal?.aborted) {
    const w = await oneWindow({ config, server, counter, driver, connections, requests, signal });
    warmup.push(w);
    onWindow('warmup', warmup.length, w);
    verdict = warmedUp(
      warmup.map((x) => x.perRequest),
      { maxWindows: maxWarmupWindows, minWindows: minWarmupWindows },
    );
  }
  const settled = verdict.reason === 'steady';
  const planned = settled ? windows : Math.max(windows, unsettledWindows);
  // Compared on its mean: an arm (its baseline's warm-up known) that warmed up longer than
  // its baseline and never settled.
  const byMean = !settled && minWarmupWindows > 0 && warmup.length !== minWarmupWindows && unsettledBound > 0;
  const limits = byMean ? { planned, bound: unsettledBound, cap: planned * UNSETTLED_CAP_FACTOR } : { planned };
  const measured = [];
  // A window that served no request reads 0: the step then stays wide and the cap ends it.
  const counts = () => measured.map((x) => x.perRequest ?? 0);
  while (!measuredEnough(counts(), limits) && !signal?.aborted) {
    const w = await oneWindow({ config, server, counter, driver, connections, requests, signal });
    measured.push(w);
    onWindow('window', measured.length, w, planned, limits.cap ?? planned);
  }
  return { warmup, windows: measured, settled, stepPct: byMean ? windowStepPct(counts()) : null };
}

module.exports = {
  measureProcess,
  measuredEnough,
  windowStepPct,
  warmedUp,
  windowRequestsFor,
  maxWarmupWindowsFor,
  STEADY_WINDOWS,
  STEADY_SPREAD,
  DEFAULT_MAX_WARMUP_WINDOWS,
  SMALL_WINDOW_MAX_WARMUP,
  UNSETTLED_WINDOW_FACTOR,
  UNSETTLED_BOUND_PCT,
  UNSETTLED_CAP_FACTOR,
};
