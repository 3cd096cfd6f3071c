'use strict';
// `node scripts/check-subjects.js [--since REV]`: every commit since REV (default: the last
// commit before the rule, 60e55f8) has a subject of at most 72 characters, so `git log
// --oneline` reads as one line a change; the body says the rest. .ci/run runs it over the
// submitted history; one line per commit over the limit, exit 1. Older subjects stay as
// they were (history is not rewritten).
const { execFileSync } = require('node:child_process');

const LIMIT = 72;
const SINCE = '60e55f8';

// -> [{ commit, subject }] of the commits over LIMIT, from `git log` lines "hash<TAB>subject".
function overLimit(logText, limit = LIMIT) {
  return logText
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      return { commit: line.slice(0, tab), subject: line.slice(tab + 1) };
    })
    .filter(({ subject }) => [...subject].length > limit);
}

function main(argv) {
  const at = argv.indexOf('--since');
  const since = at >= 0 ? argv[at + 1] : SINCE;
  const git = (...args) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    git('rev-parse', '--verify', '--quiet', `${since}^{commit}`);
  } catch {
    process.stderr.write(`check-subjects: ${since} is not in this clone's history (shallow?): nothing checked\n`);
    return 0;
  }
  const over = overLimit(git('log', '--format=%h%x09%s', `${since}..HEAD`));
  for (const { commit, subject } of over) {
    const n = [...subject].length;
    process.stderr.write(`check-subjects: ${commit}'s subject has ${n} characters (at most ${LIMIT})\n`);
  }
  return over.length ? 1 : 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { overLimit, LIMIT };
