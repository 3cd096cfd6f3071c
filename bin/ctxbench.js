#!/usr/bin/env node
'use strict';
// Thin CLI: `ctxbench <command> [options]`. Each command lives in bench/cli/<command>.js
// and exports main(args) -> exit code. Bad input ends as one line and exit 1 (compare: 3).
const { UsageError } = require('../lib/cli');

const COMMANDS = {
  run: 'measure the strategy matrix and write results/<name>.json + results.md',
  report: 'render results.md from every results/*.json',
  compare: 'regression gate between two run JSON files: exit 0 ok, 1 slower, 2 inconclusive',
  micro: 'micro benchmarks of context operations per strategy',
  integrity: 'which strategies keep, lose or leak the context, per scenario',
  calibrate: 'check the harness recovers a known per-request cost (BURN_US)',
  aa: 'compare a configuration against itself: the false-positive rate',
  overhead: 'the request path vs an Express hello-world (must reach 90%)',
  repro: 'measure the matrix twice (or --compare two runs): do the ratios reproduce?',
  app: 'your own service: two start commands measured side by side (duet), ids checked',
};

function usage() {
  const lines = Object.entries(COMMANDS).map(([name, text]) => `  ${name.padEnd(10)} ${text}`);
  return `usage: ctxbench <command> [options]\n\n${lines.join('\n')}\n\nctxbench <command> --help for its options\n`;
}

async function main(argv) {
  const [command, ...args] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(usage());
    return command ? 0 : 1;
  }
  if (!Object.hasOwn(COMMANDS, command)) throw new UsageError(`unknown command '${command}' (valid: ${Object.keys(COMMANDS).join(', ')})`);
  const cli = require(`../bench/cli/${command}.js`);
  // Every command's --help, here once: its text, exit 0, nothing else parsed or started.
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(typeof cli.help === 'function' ? cli.help() : cli.help);
    return 0;
  }
  return cli.main(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code ?? 0;
  },
  (err) => {
    if (err instanceof UsageError || err?.oneLine) {
      process.stderr.write(`ctxbench: ${err.message}\n`);
      process.exitCode = err.exitCode ?? 1;
      return;
    }
    process.stderr.write(`ctxbench: internal error: ${err?.stack || err}\n`);
    process.exitCode = 2;
  },
);
