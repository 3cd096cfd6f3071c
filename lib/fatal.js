'use strict';
// The one way a ctxbench process stops on bad input: one line on stderr, exit code 1,
// no stack trace.
function fatal(message, code = 1) {
  process.stderr.write(`ctxbench: ${message}\n`);
  process.exit(code);
}

module.exports = { fatal };
