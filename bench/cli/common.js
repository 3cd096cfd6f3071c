'use strict';
// Options shared by the commands that measure one server configuration in several
// variants (calibrate: burn levels; aa: two identical copies).
const strategies = require('../../context');
const hops = require('../../handlers/hops');
const frameworks = require('../../servers');
const { UsageError, flags } = require('../../lib/cli');
const { setting } = require('../../lib/settings');
const { resolveNodeTargets } = require('../run/targets');
const { PRESETS } = require('../../lib/presets');
const strategyFile = require('../../context/strategy-file');

const SINGLE_OPTIONS = flags([
  'strategy',
  'depth',
  'hop',
  'framework',
  'connections',
  'pipelining',
  'duration',
  'warmup',
  'out',
  'report',
]);

const SINGLE_HELP = `  --strategy NAME        server strategy (default %strategy%)
  --depth N              call depth (default %depth%)
  --hop NAME             hop between levels (default %hop%)
  --framework NAME       express, http, fastify (default %framework%)
  --connections N        concurrent connections (default %connections%)
  --pipelining N         requests in flight per connection (default %pipelining%)
  --duration S           seconds per burst (default %duration%)
  --warmup S             seconds per unmeasured warm-up burst, until steady (default %warmup%)
  --out FILE             JSON (default results/%kind%.json)
  --report FILE          results.md to regenerate (default results.md; "none" to skip)
`;

// A command's defaults for these options: the default run's own setup (its connections
// and pipelining), at the point the command measures by default. The one object both
// its --help and its parsing read.
function singleDefaults({ kind, strategy = 'none', depth, hop, duration }) {
  return {
    kind,
    strategy,
    depth,
    hop,
    duration,
    framework: 'express',
    connections: PRESETS.default.connections,
    pipelining: PRESETS.default.pipelining,
    warmup: 1,
  };
}

function singleHelp(defaults) {
  return SINGLE_HELP.replace(/%(\w+)%/g, (_, k) => String(defaults[k]));
}

function oneOf(flag, value, valid, fallback) {
  if (value === undefined) return fallback;
  if (!valid.includes(value)) throw new UsageError(`--${flag} ${value} is not valid (valid: ${valid.join(', ')})`);
  return value;
}

function resolveSingle(values, defaults) {
  return {
    strategy: oneOf('strategy', values.strategy, strategies.names, defaults.strategy),
    depth: setting('depth', values.depth) ?? defaults.depth,
    hop: oneOf('hop', values.hop, hops.names, defaults.hop),
    framework: oneOf('framework', values.framework, frameworks.names, defaults.framework),
    connections:
      setting('connections', values.connections) ?? defaults.connections,
    pipelining: setting('pipelining', values.pipelining) ?? defaults.pipelining,
    duration: setting('duration', values.duration) ?? defaults.duration,
    warmup: setting('warmup', values.warmup) ?? defaults.warmup,
    driver: 'autocannon',
    acf: 'default',
  };
}

// calibrate and aa measure in duet as the default run does; --windows and --window shorten
// or lengthen its windows (a quick structural check, or a longer method check).
// --method pair measures at a fixed rate (--rate, each server), as `run --method pair`
// does: the method for a server that waits (HOP=pg, http, timeout, mixed) or runs below
// its capacity.
const DUET_OPTIONS = flags(['windows', 'window', 'rate']);
const DUET_HELP = `  --windows N            duet, pair: counted windows per pair of processes \
(default ${PRESETS.default.windows})
  --window S             duet, pair: seconds per window (default ${PRESETS.default.window})
  --rate R               pair: requests per second sent to each server of a pair (required
                         with --method pair)
`;
const PAIRED_METHODS = ['duet', 'pair'];

function duetSettings(values, method) {
  if (method !== 'pair' && values.rate !== undefined)
    throw new UsageError("--rate is the pair's setting: give --method pair");
  if (!PAIRED_METHODS.includes(method)) {
    if (values.windows !== undefined || values.window !== undefined)
      throw new UsageError('--windows and --window are duet and pair settings: not with --method sequential');
    return {};
  }
  const windows = {
    windows: setting('windows', values.windows, { method: 'duet' }) ?? PRESETS.default.windows,
    window: setting('window', values.window) ?? PRESETS.default.window,
  };
  if (method === 'pair') {
    if (values.rate === undefined)
      throw new UsageError('--method pair needs --rate R: the requests per second sent to each server of a pair');
    return { ...windows, rate: setting('rate', values.rate), pipelining: 1 };
  }
  return { ...windows, soloDuration: PRESETS.default.soloDuration, groupSize: 2 };
}

// --strategy-file (run, repro, integrity): each file inspected in a child process
// (context/strategy-file.js), registered in this process's registry and handed to every
// server through the environment. -> [{ name, describe, file }], in the order given.
function loadStrategyFiles(files) {
  if (!files?.length) return [];
  const builtIns = strategies.names.filter((n) => !strategies.info(n).userSupplied);
  let entries;
  try {
    entries = files.map((file) => strategyFile.inspect(file, builtIns));
  } catch (err) {
    throw new UsageError(err.message);
  }
  const seen = new Set();
  for (const e of entries) {
    if (seen.has(e.name)) throw new UsageError(`two strategy files export the name '${e.name}'`);
    seen.add(e.name);
  }
  process.env[strategyFile.ENV] = JSON.stringify(entries);
  strategies.register(entries);
  return entries;
}

// The default runtime (Node 24), as the one target of calibrate and aa.
async function defaultNodeTarget() {
  const { targets } = await resolveNodeTargets(null, 'default');
  return targets;
}

module.exports = {
  PAIRED_METHODS,
  SINGLE_OPTIONS,
  DUET_OPTIONS,
  DUET_HELP,
  duetSettings,
  singleDefaults,
  singleHelp,
  resolveSingle,
  defaultNodeTarget,
  loadStrategyFiles,
};
