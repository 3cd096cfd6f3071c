'use strict';
// Instructions per request of one server process under callgrind (bench/callgrind.js):
// warm-up windows until the count stops falling, then `windows` measured windows, each a
// fixed number of requests between a counter zero and a dump.
//
// Why windows of a fixed number of requests, in a fixed schedule: a process started with
// --single-threaded repeats another's count window by window, even before it has settled
// (two `none` servers: 363,781 / 249,393 / 212,385 and 364,251 / 249,779 / 212,465), so
// counts taken at the same request index are comparable from process to process and from
// run to run. What keeps the count falling is V8 still compiling: in a window with a batch
// of Turbofan compilations (on the main thread under --single-threaded) a request costs
// 2-3x; at depth 8 the batches end after ~13,000 requests and single compilations go on
// until ~25,000 (docs/investigations.md, with
// the trace). Lowering V8's tier-up thresholds gets there sooner but to code 3-4% dearer,
// so the warm-up is long instead.
const { getJson } = require('./http-client');
const { checkIdentity } = require('./sample');

// Steady: the last STEADY_WINDOWS warm-up windows all within ±STEADY_SPREAD of their
// median. All of them, not a mean: a window with a compile batch between two quiet ones
// is the JIT still at work, and a mean or median of a few windows read plateaus between
// compile batches as steady (depth 8: 230, 238, 245 then 204, 195 then 160). Six within
// ±2%, not four within ±3%: with one request in flight, `none` at depth 8 read 190, 190,
// 191, 190 after 17,000 requests and then 244 in the next window (a late Turbofan batch);
// single compilations keep landing until ~25,000 requests (docs/investigations.md).
const STEADY_WINDOWS = 6;
const STEADY_SPREAD = 0.02;
const DEFAULT_MAX_WARMUP_WINDOWS = 40;
// Deep chains get small windows (their chain functions tier up within a few requests;
// the request-level ones still take thousands) and fewer of them: at depth 256 a request
// under Valgrind takes 10-100 ms.
const SMALL_WINDOW_MAX_WARMUP = 16;
const REQUEST_TIMEOUT_S = 120;
// A process not steady at the limit measures this many times `windows`. Three windows are
// too few where the count moves from window to window: cls-hooked at depth 8 alternates
// ~423k / ~483k instructions per request (a collection every other window), so three
// windows read 483, 434, 484 in one run and 422, 422, 493 in the next (4.9% apart);
// the means of their last 20 warm-up windows were 0.7% apart (docs/investigations.md).
const UNSETTLED_WINDOW_FACTOR = 8;

// warmedUp(counts, opts) -> { more, reason } for the warm-up windows' instructions per
// request so far.
function warmedUp(counts, { steadyWindows = STEADY_WINDOWS, spread = STEADY_SPREAD, maxWindows = DEFAULT_MAX_WARMUP_WINDOWS, minWindows = 0 } = {}) {
  if (counts.length < Math.min(minWindows, maxWindows)) return { more: true, reason: 'not yet as long as its baseline' };
  if (counts.length >= steadyWindows) {
    const last = counts.slice(-steadyWindows);
    const mid = [...last].sort((a, b) => a - b)[Math.floor(steadyWindows / 2)];
    if (last.every((c) => Math.abs(c / mid - 1) <= spread)) return { more: false, reason: 'steady' };
  }
  if (counts.length >= maxWindows) return { more: false, reason: 'not steady at the limit' };
  return { more: true, reason: counts.length < steadyWindows ? 'too few windows to judge' : 'still changing' };
}

// Requests per window by call depth: about 2e8 instructions per window at depth 8 (1,000
// requests of ~160k), fewer requests for deeper chains, never fewer than 100.
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
  const m = await driver({ url: server.url, path: config.path || '/', connections, pipelining: 1, amount: requests, timeout: REQUEST_TIMEOUT_S, signal });
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

// measureProcess(...) -> { warmup: [window], windows: [window], settled }. onWindow(phase,
// index, window, planned) after every window (progress, saving); planned = the measured
// windows this process will take (`windows`, or `unsettledWindows` where it never settled).
// minWarmupWindows: the warm-up of this block's baseline process, so that an arm is never
// measured at earlier request indices than the baseline it is compared with.
async function measureProcess({ config, server, counter, driver, connections, requests, windows, unsettledWindows = windows * UNSETTLED_WINDOW_FACTOR, maxWarmupWindows = DEFAULT_MAX_WARMUP_WINDOWS, minWarmupWindows = 0, signal, onWindow = () => {} }) {
  const warmup = [];
  let verdict = maxWarmupWindows > 0 ? { more: true } : { more: false, reason: 'no warm-up asked for' };
  while (verdict.more && !signal?.aborted) {
    const w = await oneWindow({ config, server, counter, driver, connections, requests, signal });
    warmup.push(w);
    onWindow('warmup', warmup.length, w);
    verdict = warmedUp(warmup.map((x) => x.perRequest), { maxWindows: maxWarmupWindows, minWindows: minWarmupWindows });
  }
  const settled = verdict.reason === 'steady';
  const planned = settled ? windows : Math.max(windows, unsettledWindows);
  const measured = [];
  while (measured.length < planned && !signal?.aborted) {
    const w = await oneWindow({ config, server, counter, driver, connections, requests, signal });
    measured.push(w);
    onWindow('window', measured.length, w, planned);
  }
  return { warmup, windows: measured, settled };
}

module.exports = { measureProcess, warmedUp, windowRequestsFor, maxWarmupWindowsFor, STEADY_WINDOWS, STEADY_SPREAD, DEFAULT_MAX_WARMUP_WINDOWS, UNSETTLED_WINDOW_FACTOR };
