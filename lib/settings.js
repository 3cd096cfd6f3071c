'use strict';
// Each setting a command takes, declared once: its flag, what it parses to and its bounds,
// its default per command, and the plan field or server variable it becomes. Commands parse
// a flag with `setting(flag, raw, { command })` (the bounds, the error line and the default
// all come from here), lib/plan.js takes the plan's defaults from `default.plan`, and
// servers/config.js checks DEPTH against the same bounds as --depth and --depths. Adding a
// setting with a bound is one entry here and the code that uses it (docs/architecture.md).
const { number } = require('./cli');

// The call chain's depth: what GET /depth/:n, DEPTH and every --depth(s) accept.
const MAX_DEPTH = 1024;

// flag -> { integer?, min, max, minFor?: { method: min }, maxFor?, default?: { command: value },
//           plan?: the plan field it fills, env?: the server variable }
// default.plan is the plan's fallback (lib/plan.js); default.single the one-configuration
// commands' (aa, calibrate: bench/cli/common.js); default.autocannon the load driver's.
const SETTINGS = {
  depth: { integer: true, min: 1, max: MAX_DEPTH, env: 'DEPTH', plan: 'depth', default: { server: 8 } },
  depths: { integer: true, min: 1, max: MAX_DEPTH, env: 'DEPTH', plan: 'depths' },
  connections: {
    integer: true,
    min: 1,
    max: 10000,
    plan: 'connections',
    default: { app: 10, overhead: 100, autocannon: 100 },
  },
  pipelining: { integer: true, min: 1, max: 100, plan: 'pipelining', default: { overhead: 10, autocannon: 1 } },
  duration: { min: 0.5, max: 3600, plan: 'duration', default: { overhead: 2, autocannon: 10 } },
  warmup: { min: 0, max: 3600, plan: 'warmup', default: { app: 3, overhead: 1, single: 1, autocannon: 0 } },
  blocks: {
    integer: true,
    min: 3,
    max: 1000,
    minFor: { instructions: 1 },
    plan: 'blocks',
    default: { plan: 3, app: 5, calibrate: 5, overhead: 6, deploy: 3 },
  },
  rounds: {
    integer: true,
    min: 1,
    max: 1000,
    minFor: { micro: 2 },
    maxFor: { micro: 100 },
    plan: 'rounds',
    default: { aa: 2, calibrate: 3, overhead: 4 },
  },
  windows: {
    integer: true,
    min: 1,
    max: 1000,
    // A duet's or a pair's ratio is a mean over windows: one window has no spread.
    minFor: { duet: 2, pair: 2 },
    plan: 'windows',
    default: { plan: 3, app: 3, deploy: 3, 'micro-counts': 5 },
  },
  window: { min: 0.2, max: 60, plan: 'window', default: { plan: 1, app: 1 } },
  margin: { min: 0.1, max: 50, plan: 'margin', default: { plan: 2 } },
  // Flags whose value is a word, declared here for their defaults (their checks are their commands').
  names: { plan: 'names', default: { app: 'baseline,candidate' } },
  health: { plan: 'health', default: { app: '/' } },
  slo: { plan: 'slo', default: { deploy: 'p99=100ms' } },
  method: { plan: 'method', default: { aa: 'duet', calibrate: 'duet' } },
  precision: { min: 0.1, max: 100, plan: 'precision', default: { deploy: 5 } },
  'max-time': { min: 1, max: 86400, plan: 'maxTime', default: { plan: 120, deploy: 600 } },
  'min-per-connection': { integer: true, min: 1, max: 1e6, plan: 'minPerConnection', default: { plan: 30 } },
  'group-size': { integer: true, min: 2, max: 8, plan: 'groupSize', default: { plan: 2 } },
  'solo-duration': { min: 0.1, max: 60, plan: 'soloDuration', default: { plan: 0.5 } },
  rate: { min: 1, max: 1e6, plan: 'rate' },
  'cfs-period': { integer: true, min: 1000, max: 1000000 },
  'cfs-burst': { integer: true, min: 0, max: 1000000 },
  'target-cpu': { min: 0.05, max: 0.95, plan: 'targetCpu' },
  'startup-timeout': { min: 1, max: 600, plan: 'startupTimeout', default: { app: 30 } },
  trials: { integer: true, min: 1, max: 1000, plan: 'trials', default: { aa: 20 } },
  'blocks-per-trial': { integer: true, min: 2, max: 100, plan: 'blocksPerTrial', default: { aa: 3 } },
  burns: { integer: true, min: 0, max: 100000, plan: 'burns' },
  'max-regression': { min: 0, max: 100 },
  'held-out': { min: 60, max: 86400 },
  amount: { integer: true, min: 1, max: 1e8, plan: 'amount' },
  'window-requests': { integer: true, min: 10, max: 1e7, plan: 'windowRequests' },
  'max-warmup-windows': { integer: true, min: 0, max: 1000, plan: 'maxWarmupWindows' },
  'unsettled-windows': { integer: true, min: 1, max: 1000, plan: 'unsettledWindows' },
  'unsettled-bound': { min: 0, max: 100, plan: 'unsettledBound' },
  requests: { integer: true, min: 1, max: 1e7, plan: 'requests' },
  concurrency: { integer: true, min: 1, max: 10000, plan: 'concurrency' },
  'soak-requests': { integer: true, min: 1, max: 1e8, plan: 'soakRequests' },
  node: { integer: true, min: 0, max: 99 },
};

function declared(flag) {
  const s = SETTINGS[flag];
  if (!s) throw new Error(`lib/settings.js declares no setting --${flag}`);
  return s;
}

// The bounds of a flag, for a method where they differ (windows: 2 in a duet or a pair).
function boundsOf(flag, method = null) {
  const s = declared(flag);
  return { min: s.minFor?.[method] ?? s.min, max: s.maxFor?.[method] ?? s.max, integer: Boolean(s.integer) };
}

// A command's default for a flag: its own, else the plan's (undefined where neither is).
// Without a command, none: `run` takes a preset's value before the plan's.
function defaultOf(flag, command) {
  const d = declared(flag).default;
  return command ? (d?.[command] ?? d?.plan) : undefined;
}

// The one check of a value against its declaration: the value, or one line naming the flag
// and its bounds (lib/cli.js number). raw undefined -> the command's default, if any.
function setting(flag, raw, { command = null, method = null } = {}) {
  if (raw === undefined) return defaultOf(flag, command);
  return number(flag, raw, boundsOf(flag, method));
}

// The plan's fallbacks (lib/plan.js FIELDS): { blocks: 3, … } by plan field.
const PLAN_DEFAULTS = Object.fromEntries(
  Object.values(SETTINGS)
    .filter((s) => s.plan && s.default && 'plan' in s.default)
    .map((s) => [s.plan, s.default.plan]),
);

module.exports = { SETTINGS, MAX_DEPTH, PLAN_DEFAULTS, setting, defaultOf, boundsOf };
