'use strict';
// `ctxbench probe RUN.json`: the async resources per request of every point a run measured,
// counted in probe processes (bench/probes/probe-run.js) and written into the run JSON as
// `probes`: what the cost model needs beside the run's CPU figures. A run whose preset
// asks for it (the model presets) is probed when its blocks are done; this is for a run
// measured without it, or to count again.
const { parse, flags, UsageError } = require('../../lib/cli');
const { loadRun, saveRun } = require('../../lib/run-file');
const { resolveNodeTargets } = require('../run/targets');
const { relaunch } = require('../run/resume');
const { probeRun, unprobed, PROBE } = require('../probes/probe-run');
const { writeReport } = require('./write-report');
const { pointName } = require('../../analysis/model');

const HELP = `How many async resources does one request create, at every point of a run? Counted by an
async_hooks counter in a fresh server per point (nothing timed); the cost model reads them.

usage: ctxbench probe RUN.json [--report FILE]

Counts the async resources one request creates at every point (framework, depth, hop,
stores, Node) of a \`ctxbench run\`: per point a fresh server of the run's baseline with an
async_hooks init counter preloaded (never a measured process), ${PROBE.warmup} requests to
warm it, then ${PROBE.requests} counted at the run's connections. Only the points without a
count are counted (a run that has them all is counted again). Writes them into
RUN.json as "probes" (docs/run-json.md), which the cost model reads
(docs/model.md). Nothing is timed.

  --report FILE   results.md to regenerate ("none" to skip; default results.md when
                  RUN.json is in results/, else none)
Exit 0 counted, 1 bad input or a server that would not start, 130 interrupted.
`;

const OPTIONS = flags(['report']);

async function main(args) {
  const { values, positionals } = parse(args, OPTIONS, { allowPositionals: true });
  if (positionals.length !== 1)
    throw new UsageError('probe needs one run JSON file: ctxbench probe results/model.json');
  const [file] = positionals;
  let run;
  try {
    run = loadRun(file, 'run', { kinds: ['run'] });
  } catch (err) {
    throw new UsageError(err.message.split('\n')[0]);
  }
  if (run.kind !== 'run')
    throw new UsageError(
      `${file}: a ${run.kind ?? 'unknown'} run, not a \`ctxbench run\`: only runs of the matrix are probed`,
    );
  if (run.configs.some((c) => c.target))
    throw new UsageError(
      `${file}: a run of deployed targets (--target): their servers are not ours to start with a probe`,
    );
  const { targets } = await resolveNodeTargets(run.settings?.node, run.settings?.acf ?? 'default');
  try {
    relaunch(run.configs, targets, file);
  } catch (err) {
    throw new UsageError(err.message);
  }
  const stop = { requested: false };
  const onSignal = () => {
    stop.requested = true;
  };
  process.once('SIGINT', onSignal);
  try {
    // The points without a count (a study resumed with new points keeps the counts it has);
    // a run whose every point has one is counted again.
    await probeRun(run, { stop, all: unprobed(run).length === 0 });
  } finally {
    process.removeListener('SIGINT', onSignal);
  }
  if (stop.requested) {
    process.stderr.write(`ctxbench: interrupted: ${file} left as it was\n`);
    return 130;
  }
  saveRun(file, run);
  for (const p of run.probes)
    process.stdout.write(
      `${p.framework} ${pointName(p)} ${p.nodeLabel}: ${p.perRequest.total.toFixed(1)} async resources per request\n`,
    );
  await writeReport(file, values.report);
  return 0;
}

module.exports = { main, help: HELP, OPTIONS, POSITIONALS: true };
