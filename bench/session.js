'use strict';
// What every measuring command shares: capture the machine, pin the load generator,
// show progress, turn Ctrl-C into "stop after this sample, keep everything", run the
// matrix, let the command add its analysis, and save.
const { execFileSync } = require('node:child_process');
const { runMatrix, duetGroups, DEFAULT_BLOCKS, DEFAULT_MIN_PER_CONNECTION } = require('./runner');
const { measurementOrder } = require('./matrix');
const { getDriver } = require('./drivers');
const { captureEnvironment } = require('./environment');
const { createProgress, onInterrupt } = require('./progress');
const { writeJsonAtomic } = require('../lib/cli');

// Pin this process (the load generator, every thread) to CPU 0; servers go to CPU 1.
function pinSelf() {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// analyze(run) -> the kind's own results, stored under run[kind] after every save point
// that matters (the end, or an interruption).
async function measureSession({ kind, title, command, settings, configs, out, remote = false, warnings = [], analyze, environment = captureEnvironment(), startedAt = Date.now(), serverEnv = {} }) {
  const pinned = !remote && environment.taskset && pinSelf();
  environment.taskset = pinned;
  settings.blocks ??= DEFAULT_BLOCKS;
  settings.minPerConnection ??= DEFAULT_MIN_PER_CONNECTION;
  const run = { schema: 2, kind, title, command, status: 'running', environment, settings, configs, warnings };

  const perBlock = settings.method === 'duet'
    ? duetGroups(configs, settings.baseline, { size: settings.groupSize }).length
    : settings.method === 'instructions' ? configs.length
    : (settings.warmup > 0 ? configs.length : 0) + settings.rounds * measurementOrder(configs, 0, settings.baseline).length;
  const progress = createProgress({ total: perBlock * settings.blocks, perBlock, label: `ctxbench ${kind}` });
  const stop = onInterrupt(progress);
  try {
    await runMatrix(run, { out, driver: getDriver(settings.driver), progress, stop, pinned, startedAt, serverEnv });
  } finally {
    progress.stop();
    stop.release();
  }
  if (analyze) {
    run[kind] = analyze(run);
    writeJsonAtomic(out, run);
  }
  process.stderr.write(`ctxbench: wrote ${out} (${run.status})\n`);
  return run;
}

module.exports = { measureSession, pinSelf };
