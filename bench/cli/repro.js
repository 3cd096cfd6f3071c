'use strict';
// `ctxbench repro [--preset NAME] [run flags]`: measure the same matrix twice end to end
// (fresh processes each time, through `run`'s own measureRun: rate mode, PostgreSQL and the
// downstream service, profiles, all as `run` measures them) and report whether
// the second run's ratios fall inside the first's intervals and vice versa.
// `ctxbench repro --compare a.json b.json`: the same comparison for two existing runs.
const { saveRun } = require('../../lib/run-file');
const { VERSION } = require('../../lib/run-schema');
const fs = require('node:fs');
const path = require('node:path');
const { writeReport } = require('./write-report');
const { OPTIONS: RUN_OPTIONS, resolveSettings, measureOptions } = require('./run-plan');
const { measureRun } = require('../run/measure-run');
const { PRESETS } = require('../../lib/presets');
const { redactArgs } = require('../services/services');
const { reproCompare } = require('../../analysis/repro');
const { reproText } = require('../../report/repro-text');
const { UsageError, parse } = require('../../lib/cli');
const { loadRun } = require('../../lib/run-file');

const HELP = `Do the ratios reproduce? The matrix measured twice end to end, each time as \`ctxbench run\`
measures it (in duet by default), and every ratio of one run set against the other's.

usage: ctxbench repro [--preset NAME] [run flags]
       ctxbench repro --compare a.json b.json [--out FILE]

Runs the matrix twice end to end with fresh server processes and writes
results/repro-<preset>.json with both runs and, per ratio: both estimates, their
difference, whether each run's 95% CI covers the other's estimate, the share of ratios
that agree and the median ratio half-width. Takes the flags of \`ctxbench run\`
(except --target); --report as run: results.md is regenerated when --out is in
results/. With --compare, compares two existing run files instead.
`;

const OPTIONS = { ...RUN_OPTIONS, compare: { type: 'boolean' } };
delete OPTIONS.target;

async function main(args) {
  const { values, positionals } = parse(args, OPTIONS, { allowPositionals: true });
  if (values.compare) {
    if (positionals.length !== 2) throw new UsageError('repro --compare needs exactly two run JSON files');
    let result;
    try {
      result = reproCompare(loadRun(positionals[0]), loadRun(positionals[1]));
    } catch (err) {
      throw new UsageError(err.message.split('\n')[0]);
    }
    if (values.out)
      saveRun(values.out, {
        schema: VERSION,
        kind: 'repro',
        title: `Reproducibility: ${positionals[0]} against ${positionals[1]}`,
        files: positionals,
        repro: result,
      });
    process.stdout.write(reproText(result));
    return 0;
  }
  if (positionals.length)
    throw new UsageError(`unexpected argument '${positionals[0]}' (files are compared with --compare)`);
  const settings = resolveSettings(values);
  const name = settings.quick ? 'quick' : settings.preset;
  const out = values.out ?? path.join('results', `repro-${name}.json`);
  const runs = [];
  for (const which of ['a', 'b']) {
    const run = await measureRun({
      settings,
      options: measureOptions(values, settings),
      out: out.replace(/\.json$/, `.${which}.json`),
      command: ['ctxbench', 'repro', ...redactArgs(args)].join(' '),
      title: `${settings.title} (repro run ${which})`,
    });
    runs.push(run);
    if (run.status === 'interrupted') break;
  }
  const result = runs.length === 2 ? reproCompare(runs[0], runs[1]) : null;
  saveRun(out, {
    schema: VERSION,
    kind: 'repro',
    title: `Reproducibility: ${settings.title} measured twice`,
    command: ['ctxbench', 'repro', ...redactArgs(args)].join(' '),
    status: result ? 'complete' : 'interrupted',
    runs,
    repro: result,
  });
  // Each run's own file was its crash-safe progress; the repro file now holds both.
  for (const which of ['a', 'b']) fs.rmSync(out.replace(/\.json$/, `.${which}.json`), { force: true });
  process.stderr.write(`ctxbench: wrote ${out}\n`);
  await writeReport(out, values.report);
  if (!result) return 130;
  process.stdout.write(reproText(result));
  return runs.some((r) => r.status === 'failed') ? 1 : 0;
}

module.exports = { main, help: HELP, OPTIONS, POSITIONALS: true, PRESETS };
