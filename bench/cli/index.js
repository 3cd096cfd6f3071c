'use strict';
const { UsageError, parse, presetNamed } = require('../../lib/cli');
// The commands of `ctxbench`: one registry, each entry a literal require the layering
// lint can read. Loaded on use: requiring all eleven costs far more than one command's
// own (docs/investigations.md, "Figures that code comments carried"), paid by every command start,
// and npm test starts ~150 of them.
const COMMANDS = {
  run: {
    summary: 'measure the strategy matrix and write results/<name>.json + results.md',
    load: () => require('./run'),
  },
  headline: {
    summary: "every timed column of the headline measured on this machine, resumable",
    load: () => require('./headline'),
  },
  report: { summary: 'render results.md from every results/*.json', load: () => require('./report') },
  compare: {
    summary: 'regression gate between two run JSON files: exit 0 ok, 1 slower, 2 cannot tell',
    load: () => require('./compare'),
  },
  micro: { summary: 'micro benchmarks of context operations per strategy', load: () => require('./micro') },
  integrity: {
    summary: 'which strategies keep, lose or leak the context, per scenario',
    load: () => require('./integrity'),
  },
  calibrate: {
    summary: 'check the harness recovers a known per-request cost (BURN_US)',
    load: () => require('./calibrate'),
  },
  aa: { summary: 'compare a configuration against itself: the false-positive rate', load: () => require('./aa') },
  overhead: {
    summary: 'the request path vs an Express hello-world (must reach 90%)',
    load: () => require('./overhead'),
  },
  repro: {
    summary: 'measure the matrix twice (or --compare two runs): do the ratios reproduce?',
    load: () => require('./repro'),
  },
  probe: {
    summary: 'count the async resources per request of every point of a run (for the cost model)',
    load: () => require('./probe'),
  },
  deploy: {
    summary: "app_*.yaml on local stand-ins: each strategy's cost at the autoscaler's operating point",
    load: () => require('./deploy'),
  },
  app: {
    summary: 'your own service: two start commands measured side by side (duet), ids checked',
    load: () => require('./app'),
  },
};

// A command's --help text (a string, or a function for texts built on use).
function helpOf(command) {
  const { help } = COMMANDS[command].load();
  return typeof help === 'function' ? help() : help;
}

// The command of that name, or the one line that says there is none.
function commandNamed(name) {
  if (!Object.hasOwn(COMMANDS, name))
    throw new UsageError(`unknown command '${name}' (valid: ${Object.keys(COMMANDS).join(', ')})`);
  return COMMANDS[name];
}

// Whether a command line would be accepted, without running anything: the command exists,
// its own parser (its OPTIONS, twins and all) takes every option, positionals only where
// it takes them, and a --preset names one of its presets (scripts/docs-commands.js checks
// every command a page suggests with it). Throws the UsageError the command would end with.
function checkArgs(name, args) {
  const mod = commandNamed(name).load();
  if (args.includes('--help') || args.includes('-h')) return;
  const { values } = parse(args, mod.OPTIONS, { allowPositionals: Boolean(mod.POSITIONALS) });
  if (values.preset !== undefined) presetNamed(values.preset, mod.PRESETS ?? {});
}

module.exports = { COMMANDS, helpOf, commandNamed, checkArgs };
