'use strict';
// `run`'s flags and the plan they resolve to with the preset (resolveSettings), shared by
// the commands that measure the matrix as `run` does (`repro`, `deploy`): not a command.
const path = require('node:path');
const strategies = require('../../context');
const hops = require('../../handlers/hops');
const frameworks = require('../../servers');
const logs = require('../../handlers/log');
const { PRESETS, DEFAULTS, quick } = require('../../lib/presets');
const { DRIVERS } = require('../measure/drivers');
const { parseRates, parseLoads } = require('../rates/capacity');
const { freezePlan } = require('../../lib/plan');
const { UsageError, list, acfFlag, presetNamed } = require('../../lib/cli');
const { setting } = require('../../lib/settings');
const { optionsOf } = require('../../lib/settings-help');
const { loadStrategyFiles } = require('./common');
const { parseInstance, DEFAULT_PERIOD_US } = require('../../lib/instances');
const { parseSlo, parseTargetCpu, DEFAULT_SLO, SLO_LOADS, SEQUENTIAL_SLO_LOADS } = require('./slo');
const { methodSettings } = require('./run-method');

// `run`'s flags: its own below, and the settings lib/settings.js declares for `run`.
const OPTIONS = optionsOf(
  'run',
  [
    'resume',
    'strategies',
    'hops',
    'logs',
    'frameworks',
    'acf',
    'load',
    'driver',
    'target',
    'baseline',
    'preset',
    'out',
    'report',
    'pg-url',
    'strategy-file',
    'instance',
  ],
  { booleans: ['quick', 'profile', 'aa'], multiple: ['target', 'strategy-file'] },
);

const MATRIX_FLAGS = ['strategies', 'depths', 'hops', 'logs', 'frameworks', 'target'];

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
    setting('depths', d),
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
    ...matrixSettings(values, preset, { own, depths, custom, acf }),
    ...measuringSettings(values, preset, custom),
    driver,
    // The App Engine study's baseline service runs `param` (app_baseline.yaml).
    baseline: values.baseline ?? (targets.length ? 'param' : preset.baseline),
    ...(targets.length && { targets }),
    margin: setting('margin', values.margin) ?? DEFAULTS.margin,
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
  settings = standInTitle(settings);
  settings = { ...settings, ...operatingSettings(values, preset, settings) };
  settings = { ...settings, ...rateSettings(values, preset, settings) };
  settings = { ...settings, ...methodSettings(values, preset, settings) };
  if (!strategies.names.includes(settings.baseline))
    throw new UsageError(`--baseline ${settings.baseline} is not a strategy (valid: ${strategies.names.join(', ')})`);
  return freezePlan(settings);
}

// What is measured: the strategies (a team's own among them), depths, hops, frameworks,
// LOG, the preset's own configurations and the Node runtimes.
function matrixSettings(values, preset, { own, depths, custom, acf }) {
  return {
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
      list('node', values.node)?.map((n) => String(setting('node', n))) ??
      preset.node ??
      null,
    acf,
  };
}

// How each block loads the servers, and for how long the run goes on adding blocks.
function measuringSettings(values, preset, custom) {
  return {
    connections: setting('connections', values.connections) ?? preset.connections,
    pipelining: setting('pipelining', values.pipelining) ?? preset.pipelining,
    duration: setting('duration', values.duration) ?? preset.duration,
    warmup: setting('warmup', values.warmup) ?? preset.warmup,
    rounds: setting('rounds', values.rounds) ?? preset.rounds,
    blocks: setting('blocks', values.blocks, { method: 'instructions' }) ?? preset.blocks ?? DEFAULTS.blocks,
    minPerConnection:
      setting('min-per-connection', values['min-per-connection']) ??
      preset.minPerConnection ??
      DEFAULTS.minPerConnection,
    amount: setting('amount', values.amount) ?? preset.amount ?? null,
    // A preset's precision target and time cap are budgeted for its own matrix; a custom
    // matrix sets its own with --precision and --max-time. Given a deadline alone, a custom
    // matrix spends it on the preset's target (a budget that stopped at --blocks bought nothing).
    precision:
      setting('precision', values.precision) ??
      (custom && values['max-time'] === undefined ? null : preset.precision) ??
      null,
    maxTime:
      setting('max-time', values['max-time']) ??
      (custom ? null : preset.maxTime) ??
      DEFAULTS.maxTime,
  };
}

// A stand-in's period and burst are part of what a study measured: its title says them
// when they are not the kernel's defaults, so two such studies are told apart.
function standInTitle(settings) {
  const inst = settings.instance;
  if (!(inst && (inst.periodUs !== DEFAULT_PERIOD_US || inst.burstUs))) return settings;
  return {
    ...settings,
    title:
      `${settings.title} (${(inst.periodUs / 1000).toLocaleString('en-US')}-ms CFS period` +
      `${inst.burstUs ? `, a burst of ${(inst.burstUs / 1000).toLocaleString('en-US')} ms` : ''})`,
  };
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

// LOG as a dimension: recorded only when some server logs, so a run without it keeps the
// settings (and config ids) it always had.
function logSettings(values, preset) {
  const chosen = list('logs', values.logs, logs.names) ?? preset.logs ?? DEFAULTS.logs;
  return chosen.some((l) => l !== 'none') ? { logs: chosen } : {};
}

// --instance CLASS: every server held to an instance's CPU quota and memory limit
// (lib/instances.js, bench/processes/cgroup.js), its request limit the connections per server, in a
// pair at fixed rates; --slo: the latency bound capacity is judged against.
function instanceSettings(values, preset, settings) {
  const periodUs = setting('cfs-period', values['cfs-period']);
  const burstUs = setting('cfs-burst', values['cfs-burst']);
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

// Whether a run's ladder is anchored on the open-loop knee of two baseline processes: an
// SLO judged in pairs (not --method sequential, a deployed --target, another driver, or
// stand-ins too large to pair on the server CPU).
function kneeAnchored(values, settings) {
  if (!settings.slo || values.method === 'sequential' || values.target || settings.driver !== 'autocannon')
    return false;
  return !(settings.instance && 2 * settings.instance.cpus > 1);
}

// --target-cpu SHARE (or a preset's targetCpu): the pairs of stand-ins measured at the
// autoscaler's operating point (bench/rates/operating-point.js), not at rates given beforehand.
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
  // Judged against an SLO in a pair, a ladder's 100% is the open-loop knee (bench/rates/capacity.js),
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

module.exports = { OPTIONS, resolveSettings, measureOptions, parseTargets };
