'use strict';
// `ctxbench compare a.json b.json [--max-regression PCT]`: for a library's CI. Exit 1
// when any configuration of b is significantly slower than in a by more than PCT %.
const { parse, number, UsageError } = require('../../lib/cli');
const { compare, formatCompare } = require('../compare');

const HELP = `usage: ctxbench compare a.json b.json [--max-regression PCT]

Matches configurations by id; prints each one's change in throughput from a to b with a
95% CI and a verdict. Exits 1 when any is significantly slower by more than PCT percent
(default 0: any significant slowdown).
`;

async function main(args) {
  const { values, positionals } = parse(args, { 'max-regression': { type: 'string' }, help: { type: 'boolean', short: 'h' } }, { allowPositionals: true });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError('compare needs exactly two run JSON files: ctxbench compare a.json b.json');
  const maxRegression = number('max-regression', values['max-regression'], { min: 0, max: 100 }) ?? 0;
  let result;
  try {
    result = compare(positionals[0], positionals[1], { maxRegression });
  } catch (err) {
    throw new UsageError(err.message.split('\n')[0]);
  }
  process.stdout.write(formatCompare(result) + '\n');
  return result.failed ? 1 : 0;
}

module.exports = { main };
