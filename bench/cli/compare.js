'use strict';
// `ctxbench compare a.json b.json [--max-regression PCT]`: a gate for a library's CI that
// fails closed: exit 1 on a significant slowdown beyond PCT %, 2 when it cannot tell, 3
// when the input is bad (so a CI script can tell "slower" from "not compared").
const { saveRun } = require('../../lib/run-file');
const { VERSION } = require('../../lib/run-schema');
const { parse, UsageError } = require('../../lib/cli');
const { setting } = require('../../lib/settings');
const { optionsOf, helpLines } = require('../../lib/settings-help');
const { loadRun } = require('../../lib/run-file');
const { compare, DEFAULT_MAX_REGRESSION } = require('../../analysis/compare');
const { compareText } = require('../../report/compare-text');

const HELP = `Is run b slower than run a by more than PCT %? Each configuration's change from a to b,
judged on its 95% interval (measures nothing: it reads two run JSON files).

usage: ctxbench compare a.json b.json [--max-regression PCT] [--out FILE]

Matches configurations by id; prints each one's change in throughput from a to b with a
95% CI (Welch t-test, unpaired: the runs were not interleaved). Exit codes:
  0  every config is shown not to be more than PCT % slower
  1  some config is significantly more than PCT % slower (Holm-corrected across configs)
  2  cannot tell: some config's interval cannot rule out a slowdown beyond PCT % (the
     table says how many blocks/rounds per run would settle it), or it has no data in b
  3  nothing compared: bad flags, or a file missing, unreadable or not a run
Two duet runs (the default preset) are compared on each configuration's ratio to its
baseline (CPU per request, both measured at the same time), not on their short solo
bursts; two instruction-count runs (--method instructions) on instructions per request
(docs/ci.md). Runs of different methods are refused.

${helpLines('compare', { column: 24, defaults: { 'max-regression': DEFAULT_MAX_REGRESSION } })}\
  --out FILE            save the comparison with both runs (kind "compare"), which ctxbench
                        report renders
`;

const BAD_INPUT = 3;

const OPTIONS = optionsOf('compare', ['out']);

async function main(args) {
  try {
    return await gate(args);
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(err.message, { exitCode: BAD_INPUT });
    throw err;
  }
}

async function gate(args) {
  const { values, positionals } = parse(args, OPTIONS, { allowPositionals: true });
  if (positionals.length !== 2)
    throw new UsageError('compare needs exactly two run JSON files: ctxbench compare a.json b.json');
  const maxRegression =
    setting('max-regression', values['max-regression']) ?? DEFAULT_MAX_REGRESSION;
  let result;
  try {
    result = compare(loadRun(positionals[0], 'first run'), loadRun(positionals[1], 'second run'), { maxRegression });
  } catch (err) {
    throw new UsageError(err.message.split('\n')[0]);
  }
  if (values.out) {
    const runs = positionals.map((file) => loadRun(file));
    saveRun(values.out, {
      schema: VERSION,
      kind: 'compare',
      title: `Gate: ${positionals[1]} against ${positionals[0]}`,
      command: ['ctxbench', 'compare', ...args].join(' '),
      files: positionals,
      maxRegression,
      runs,
      compare: result,
    });
  }
  process.stdout.write(compareText(result) + '\n');
  return result.exitCode;
}

module.exports = { main, help: HELP, OPTIONS, POSITIONALS: true };
