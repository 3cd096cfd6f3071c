'use strict';
// Options shared by the commands that measure one server configuration in several
// variants (calibrate: burn levels; aa: two identical copies).
const strategies = require('../../context');
const hops = require('../../handlers/hops');
const frameworks = require('../../servers');
const { UsageError } = require('../../lib/cli');
const { setting, defaultOf } = require('../../lib/settings');
const { helpLines } = require('../../lib/settings-help');
const { resolveNodeTargets } = require('../run/targets');
const { PRESETS } = require('../../lib/presets');
const strategyFile = require('../../context/strategy-file');

// Their own flags (the settings they share, --depth, --connections and the rest, are
// declared for aa and calibrate in lib/settings.js).
const SINGLE_WORDS = ['strategy', 'hop', 'framework', 'out', 'report'];
// The settings of the one configuration, in --help beside its strategy and hop.
const SINGLE_SETTINGS = ['depth', 'connections', 'pipelining', 'duration', 'warmup'];

const COLUMN = 27;
const SINGLE_HELP = `  --strategy NAME          server strategy (default %strategy%)
  --hop NAME               hop between levels (default %hop%)
  --framework NAME         express, http, fastify (default %framework%)
%settings%  --out FILE               JSON (default results/%kind%.json)
  --report FILE            results.md to regenerate (default results.md; "none" to skip)
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
    warmup: defaultOf('warmup', 'single'),
    // --method duet and pair (duetSettings): the default run's windows.
    windows: PRESETS.default.windows,
    window: PRESETS.default.window,
  };
}

// The --help lines of a command's other settings (trials, --method, …; `defaults` as
// singleDefaults gives them), then those of its one configuration (singleHelp).
const settingsHelp = (defaults) =>
  helpLines(defaults.kind, { column: COLUMN, defaults, except: SINGLE_SETTINGS });

function singleHelp(defaults) {
  const settings = helpLines(defaults.kind, { column: COLUMN, defaults, only: SINGLE_SETTINGS });
  return SINGLE_HELP.replace(/%(\w+)%/g, (_, k) => (k === 'settings' ? settings : String(defaults[k])));
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
  SINGLE_WORDS,
  duetSettings,
  singleDefaults,
  settingsHelp,
  singleHelp,
  resolveSingle,
  defaultNodeTarget,
  loadStrategyFiles,
};
