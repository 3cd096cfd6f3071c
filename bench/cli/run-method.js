'use strict';
// `run`'s method: which one measures the plan (chooseMethod: it follows what is measured,
// not the preset's name) and the settings that method takes from the flags and preset.
const hops = require('../../handlers/hops');
const { DEFAULTS } = require('../../lib/presets');
const { UsageError } = require('../../lib/cli');
const { setting } = require('../../lib/settings');
const { findValgrind, INSTALL_HINT, NODE_ARGS } = require('../measure/callgrind');
const { UNSETTLED_WINDOW_FACTOR, UNSETTLED_BOUND_PCT } = require('../measure/instruction-windows');

const METHODS = ['duet', 'pair', 'sequential', 'instructions'];
// The pair's rate when neither --rate nor --load is given: half the baseline's capacity.
const PAIR_DEFAULT_LOAD = 0.5;
// The frameworks whose servers, two on one CPU, out-run one load-generator CPU.
const OUT_RUN_THE_LOAD_GENERATOR = ['http', 'fastify'];

// The method follows what is measured, not the preset's name. Every timed method but
// sequential needs servers this process starts and pins (not --target) and its own load
// generator (autocannon's side by side, or the open-loop schedule), so other drivers and
// remote targets are sequential. A duet needs both servers busy through every window:
// a server waiting on I/O or timers is not, a fixed arrival rate fixes the throughput it
// would compare, and node:http and Fastify out-run one load-generator CPU. Those are the
// pair's (bench/measure/pair-windows.js): the CPU per request of a baseline and a candidate on the same
// open-loop schedule at once. -> { method, why }.
function chooseMethod(values, preset, settings) {
  const reasons = methodReasons(values, settings);
  const forStandIn = standInMethod(values, settings, reasons);
  if (forStandIn) return forStandIn;
  if (values.method !== undefined) return askedMethod(values, reasons);
  return presetMethod(preset, settings, reasons);
}

// Each reason a method is ruled in or out: { flag, why } (the flag that brought it, and why),
// or null. -> { solo, rated, waits, notDuet, standIn }.
function methodReasons(values, settings) {
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
  return { solo, rated, waits, notDuet, standIn };
}

// Stand-ins (--instance) -> { method, why }: the pair, or one at a time where two do not fit
// or a closed loop of their own drives them; null when there are none.
function standInMethod(values, settings, { solo, standIn }) {
  if (!standIn) return null;
  if (values.method !== undefined && !['pair', 'sequential'].includes(values.method)) {
    const why = `${standIn.flag}: ${standIn.why}`;
    throw new UsageError(`--method ${values.method} cannot be used with ${why} (--method pair)`);
  }
  // Two stand-ins above half a CPU each do not fit at once on the one server CPU: one at a
  // time then, each with the CPU to itself, in adjacent bursts at each rate.
  const alone =
    2 * settings.instance.cpus > 1
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
  if (solo) {
    if (values.method === 'pair') throw new UsageError(`--method pair cannot be used with ${solo.flag}: ${solo.why}`);
    return {
      method: 'sequential',
      why:
        `sequential: ${solo.flag} with ${standIn.flag}: a closed loop of its own drives one server at a time, ` +
        'each stand-in alone on the server CPU, held to its quota',
    };
  }
  return { method: 'pair', why: `the pair at a fixed rate: ${standIn.flag}: ${standIn.why}` };
}

// --method given: the one asked for, or the one line that says why it cannot measure this.
function askedMethod(values, { solo, rated, notDuet }) {
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

// No --method: the preset's, unless what is measured rules it out.
function presetMethod(preset, settings, { solo, rated, waits, notDuet }) {
  const pairFor = rated ?? (waits.length ? notDuet : null);
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
      setting('windows', values.windows, { method: 'duet' }) ?? preset.windows ?? DEFAULTS.windows;
    out.window = setting('window', values.window) ?? preset.window ?? DEFAULTS.window;
    out.precision =
      setting('precision', values.precision) ??
      (settings.preset === 'custom' ? null : preset.precision) ??
      null;
    if (values['group-size'] !== undefined)
      throw new UsageError('--group-size is a duet setting: a pair is two servers');
  } else if (method === 'duet') {
    // A duet compares: the baseline is always measured, named or not.
    if (!settings.configs && !settings.strategies.includes(settings.baseline))
      out.strategies = [settings.baseline, ...settings.strategies];
    out.windows =
      setting('windows', values.windows, { method: 'duet' }) ?? preset.windows ?? DEFAULTS.windows;
    out.window = setting('window', values.window) ?? preset.window ?? DEFAULTS.window;
    out.soloDuration = preset.soloDuration ?? DEFAULTS.soloDuration;
    out.groupSize =
      setting('group-size', values['group-size']) ??
      preset.groupSize ??
      DEFAULTS.groupSize;
  } else if (['windows', 'window', 'group-size'].some((k) => values[k] !== undefined)) {
    throw new UsageError(
      '--windows, --window and --group-size are duet and pair settings: give --method duet or --method pair',
    );
  }
  return out;
}

// Instruction counts (bench/measure/instruction-windows.js): each configuration alone under callgrind.
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
    setting('windows', values.windows) ?? preset.windows ?? DEFAULTS.windows;
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
    // A count still moving at the end of the warm-up is measured longer (bench/measure/instruction-windows.js).
    unsettledWindows:
      setting('unsettled-windows', values['unsettled-windows']) ??
      windows * UNSETTLED_WINDOW_FACTOR,
    unsettledBound: setting('unsettled-bound', values['unsettled-bound']) ?? UNSETTLED_BOUND_PCT,
    windowRequests:
      setting('window-requests', values['window-requests']) ??
      preset.windowRequests ??
      null,
    // null: by window size (bench/measure/instruction-windows.js maxWarmupWindowsFor).
    maxWarmupWindows:
      setting('max-warmup-windows', values['max-warmup-windows']) ??
      preset.maxWarmupWindows ??
      null,
    warmup: 0,
    rounds: 1,
  };
}

module.exports = { chooseMethod, methodSettings };
