'use strict';
// `ctxbench headline [--dir DIR]`: every timed column of the headline measured on this
// machine, one study after another, each as `ctxbench run --preset P --out DIR/P.json`
// measures it. Run again after a stop (Ctrl-C, a failure, a reboot): a complete study is
// kept, a stopped one resumed, the rest measured; a study from another machine is never
// overwritten (one table is one machine's answer: docs/reading.md).
const fs = require('node:fs');
const path = require('node:path');
const { UsageError, parse, flags, list, displayPath } = require('../../lib/cli');
const { PRESETS, HEADLINE_PRESETS } = require('../../lib/presets');
const { resolveSettings, measureOptions } = require('./run-plan');
const { measureRun, resumeRun } = require('../run/measure-run');
const { writeReport } = require('./write-report');
const { machineIdentity } = require('../run/environment');

const budget = (presets) => presets.reduce((s, p) => s + PRESETS[p].maxTime, 0);

const minutes = (presets) => Math.round(budget(presets) / 60);

const HELP = () => `Every timed column of the headline measured on this machine, so that a new machine can answer
the whole table: at most ${minutes(HEADLINE_PRESETS)} minutes of measuring, one study after another.

usage: ctxbench headline [--dir DIR] [--only a,b] [--quick]

The studies: ${HEADLINE_PRESETS.join(', ')}, each as \`ctxbench run
--preset NAME\` measures it, within its own --max-time. Writes DIR/<preset>.json for each
(after every sample) and, at the end, DIR/results.md and its pages: the headline of this one
machine. Resumable: the same command again keeps a complete study, resumes a stopped one from
its last complete block and measures the rest. A file in DIR measured on another machine (CPU
model, cores, kernel) is refused, never overwritten: move it (results/runs/ keeps other
machines' default runs for the across-machines page) or give another DIR. Exit 0 when every
study is complete, 1 when a configuration failed, 130 when interrupted.

  --dir DIR     where the studies go (default results/machine-<cpu>-<cores>)
  --only a,b    only these of the studies (${HEADLINE_PRESETS.join(', ')})
  --quick       each study's smoke run, as run --quick (imprecise: for trying the command)
  --report FILE results.md to write from DIR ("none" to skip; default DIR/results.md)
`;

const OPTIONS = flags(['dir', 'only', 'report'], { booleans: ['quick'] });

const slug = (m) =>
  `machine-${m.cpuModel
    .toLowerCase()
    .replace(/\((r|tm)\)/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}-${m.cores}`;

// Each study's state in DIR: 'new', 'complete' or 'stopped' (interrupted or failed: resumed).
// Refuses, in one line, a file that is not this study's or comes from another machine.
function stateOf(file, preset, machine, quickRun) {
  if (!fs.existsSync(file)) return 'new';
  let run;
  try {
    run = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`${displayPath(file)} is not a run file (${err.message.split('\n')[0]}): move it away`);
  }
  if (run.kind !== 'run' || run.settings?.preset !== preset || Boolean(run.settings?.quick) !== quickRun)
    throw new UsageError(
      `${displayPath(file)} is not ${quickRun ? 'a quick run of ' : ''}the ${preset} preset's run: move it away`,
    );
  const e = run.environment || {};
  const other = ['cpuModel', 'cores', 'kernel'].filter((k) => e[k] !== machine[k]);
  if (other.length)
    throw new UsageError(
      `${displayPath(file)} was measured on another machine (${other.map((k) => `${k} ${e[k]}`).join(', ')}; ` +
        `this one: ${other.map((k) => machine[k]).join(', ')}): move it or give another --dir`,
    );
  return run.status === 'complete' ? 'complete' : 'stopped';
}

async function main(args) {
  const { values } = parse(args, OPTIONS);
  const presets = list('only', values.only, HEADLINE_PRESETS) ?? HEADLINE_PRESETS;
  const machine = machineIdentity();
  const dir = values.dir ?? path.join('results', slug(machine));
  const quickRun = Boolean(values.quick);
  const plan = presets.map((preset) => {
    const file = path.join(dir, `${preset}.json`);
    return { preset, file, state: stateOf(file, preset, machine, quickRun) };
  });
  fs.mkdirSync(dir, { recursive: true });
  const left = plan.filter((p) => p.state !== 'complete');
  process.stderr.write(
    `ctxbench headline: ${plan.length} ${plan.length === 1 ? 'study' : 'studies'} into ${displayPath(dir)} ` +
      `on ${machine.cpuModel} × ${machine.cores}` +
      `${left.length < plan.length ? ` (${plan.length - left.length} complete, kept)` : ''}; ` +
      `at most ${minutes(left.map((p) => p.preset))} min of measuring left` +
      `${quickRun ? ' (quick: far less)' : ''}\n`,
  );
  const command = ['ctxbench', 'headline', ...args].join(' ');
  let failed = 0;
  for (const [i, { preset, file, state }] of plan.entries()) {
    if (state === 'complete') continue;
    process.stderr.write(`ctxbench headline: study ${i + 1}/${plan.length}, ${preset}\n`);
    let run;
    if (state === 'stopped') {
      run = await resumeRun({ file, extend: {}, commandLine: command });
    } else {
      const settings = resolveSettings({ preset, quick: quickRun });
      run = await measureRun({ settings, options: measureOptions({}, settings), out: file, command });
    }
    if (run.status === 'interrupted') {
      process.stderr.write(`ctxbench headline: stopped; go on with: ${command}\n`);
      return 130;
    }
    if (run.status === 'failed') failed++;
  }
  await writeReport(path.join(dir, `${plan[0].preset}.json`), values.report ?? path.join(dir, 'results.md'));
  if (failed) {
    process.stderr.write(`ctxbench headline: a configuration failed in ${failed} of the studies (details in each)\n`);
    return 1;
  }
  return 0;
}

// stateOf: test/headline.test.js reads a study's state as the command does.
module.exports = { main, help: HELP, OPTIONS, stateOf };
