#!/usr/bin/env node
'use strict';
// Thin CLI: `ctxbench <command> [options]`. Each command lives in bench/cli/<command>.js
// and exports main(args) -> exit code. Bad input ends as one line and exit 1 (compare: 3).
const { UsageError } = require('../lib/cli');
const { COMMANDS, helpOf, commandNamed } = require('../bench/cli');

function usage() {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return (
    'What request-context propagation (cls-hooked, AsyncLocalStorage, OpenTelemetry, …) costs a Node.js\n' +
    'HTTP service, and whether every request keeps its own context. Measured in duet by default: each\n' +
    'strategy beside its baseline, loaded at the same time, CPU per request compared window by window.\n\n' +
    `usage: ctxbench <command> [options]\n\n${lines.join('\n')}\n\nctxbench <command> --help for its options\n`
  );
}

async function main(argv) {
  const [command, ...args] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(usage());
    return command ? 0 : 1;
  }
  const { load } = commandNamed(command);
  // Every command's --help, here once: its text, exit 0, nothing else parsed or started.
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(helpOf(command));
    return 0;
  }
  return load().main(args);
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
