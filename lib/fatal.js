'use strict';
// The one way a ctxbench process stops on bad input: one line on stderr, exit code 1,
// no stack trace.
function fatal(message, code = 1) {
  process.stderr.write(`ctxbench: ${message}\n`);
  process.exit(code);
}

// An error whose message is all the user needs: bin/ctxbench.js prints it alone, one
// line, exit 1 (a missing server binary, a database that would not start).
class OneLineError extends Error {
  get oneLine() {
    return true;
  }
}

module.exports = { fatal, OneLineError };
