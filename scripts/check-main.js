'use strict';
// The command line of a check over the tree (scripts/check-*.js): the folder from `flag`
// (default the project), one stderr line a failure, exit 1 on any, the ok line otherwise.
// A check that throws fails with its message's first line.
const path = require('node:path');

function runCheck(name, check, { flag = '--root', ok }) {
  const at = process.argv.indexOf(flag);
  const root = at > 0 ? path.resolve(process.argv[at + 1] ?? '.') : path.join(__dirname, '..');
  let failures;
  try {
    failures = check(root);
  } catch (err) {
    failures = [String(err?.message ?? err).split('\n')[0]];
  }
  for (const x of failures) process.stderr.write(`${name}: ${x}\n`);
  if (failures.length) process.exitCode = 1;
  else if (ok) process.stdout.write(`${name}: ${ok}\n`);
}

module.exports = { runCheck };
