'use strict';
// The measuring loop, in blocks. Each block is measured by the run's method
// (bench/methods/: sequential, duet, pair, instructions; one module each behind one interface:
// stepsPerBlock(configs, settings) for the plan, measureBlock(ctx, block, counters)),
// every process fresh. Blocks are added until the stopping rule (bench/run/stopping.js) says
// enough: at least settings.blocks, then, with settings.precision, until every ratio is
// that precise or the next block would not end before settings.maxTime. So whatever one
// process got by luck (JIT decisions, heap layout) is a level of variation inside every
// interval. The run JSON is rewritten atomically after every sample.
const { saveRun } = require('../../lib/run-file');
const { decide, nextBlockSeconds } = require('./stopping');
const { fingerprint } = require('../processes/fingerprint');
const noise = require('./noise');
const { refreshSummaries, warnOnce } = require('../processes/block');
const { cpus } = require('../../lib/cpus');
const { standInLayout } = require('../processes/cgroup');

const METHODS = {
  sequential: require('../methods/sequential'),
  duet: require('../methods/duet'),
  pair: require('../methods/pair'),
  instructions: require('../methods/instructions'),
};

// The progress bar's steps per block for a run's method.
function stepsPerBlock(configs, settings) {
  const active = configs.filter((c) => c.restingFrom === undefined);
  return METHODS[settings.method].stepsPerBlock(active, settings);
}

// Inputs of the stopping rule from the run as it stands. A strategy that lost or leaked
// ids gets no cost verdict (summary.broken), so its precision buys nothing.
function ratiosOf(run, excluded) {
  return run.configs
    .filter((c) => c.summary?.ratio && !c.summary.broken && !excluded.has(c))
    .map((c) => ({
      id: c.id,
      halfWidthPct: c.summary.ratio.halfWidthPct,
      blocks: new Set(c.samples.map((x) => x.block)).size,
    }));
}

// run: the run JSON skeleton (settings, environment, configs …); mutated and saved.
// startedAt: when the command began (settings.maxTime is a deadline for the whole run).
// resume: { fromBlock, counters } to go on with a stopped run (bench/run/resume.js): its
// complete blocks kept, its machine fingerprint too.
async function runMatrix(
  run,
  {
    out,
    driver,
    progress,
    stop = { requested: false },
    pinned = false,
    serverEnv = {},
    startedAt = Date.now(),
    resume = null,
    loadPids = [],
  },
) {
  const s = run.settings;
  for (const c of run.configs) {
    c.processes ??= [];
    c.status ??= 'ok';
  }
  // --instance: every server in a cgroup of its own with the instance's limits.
  const instance = s.instance ?? null;
  const ctx = {
    run,
    driver,
    progress,
    stop,
    pinned,
    serverEnv,
    loadPids,
    instance,
    cgroups: instance ? standInLayout({ log: (line) => warnOnce(run, line, progress) }) : null,
    // A held-out resume's resting configurations are measured no more (bench/run/resume.js).
    excluded: new Set(run.configs.filter((c) => c.restingFrom !== undefined)),
    save: () => saveRun(out, run),
  };
  const noiseBefore = noise.snapshot();
  const counters = { round: 0, seq: 0, group: 0, ...resume?.counters };
  const blockSeconds = [];
  run.status = 'running';
  ctx.save();
  try {
    await takeFingerprint(ctx, resume);
    for (let block = resume?.fromBlock ?? 0; !stop.requested; block++) {
      const { elapsedS, decision } = decideBlock(ctx, block, { startedAt, resume, blockSeconds });
      if (block > 0)
        progress?.log(`block ${block} done: ${decision.more ? 'another block' : 'stopping'} (${decision.reason})`);
      if (!decision.more || run.configs.every((c) => ctx.excluded.has(c))) break;
      progress?.plan?.({
        block,
        minBlocks: s.blocks,
        precision: s.precision,
        missing: decision.missing,
        elapsedS,
        maxTimeS: s.precision ? s.maxTime : null,
      });
      const t0 = Date.now();
      const steps = stepsPerBlock(run.configs, s);
      await METHODS[s.method].measureBlock(ctx, block, counters);
      blockSeconds.push((Date.now() - t0) / 1000 / Math.max(1, steps));
    }
    run.measuringSeconds = (Date.now() - startedAt) / 1000;
  } finally {
    endRun(ctx, noiseBefore);
  }
  return run;
}

// Before the first block of a fresh run with a local server: the machine's fingerprint
// (a resumed run keeps its own).
async function takeFingerprint(ctx, resume) {
  const { run, progress, stop, pinned, serverEnv } = ctx;
  const local = resume ? null : run.configs.find((c) => !c.target);
  if (!resume) run.environment.fingerprint = null;
  // CTXBENCH_FINGERPRINT=0 skips it (null in the run JSON): the test suite's short
  // structural runs, where a second of load per run adds up and nothing reads it.
  if (local && !stop.requested && process.env.CTXBENCH_FINGERPRINT !== '0') {
    progress?.status('machine fingerprint');
    run.environment.fingerprint = await fingerprint({
      cpu: pinned ? cpus().server : null,
      env: serverEnv,
      launch: local.launch,
    }).catch((err) => {
      warnOnce(run, `no machine fingerprint: ${err.message}`, progress);
      return null;
    });
    ctx.save();
  }
}

// The stopping rule before block `block` (bench/run/stopping.js), its state on run.precision
// where the run has a precision target. -> { elapsedS, decision }.
// A time budget is spent where it buys precision: past the minimum of blocks, a duet's or a
// pair's configuration whose ratio is already within the target rests (restingFrom, as a
// held-out resume's do), so the blocks that follow are shorter and go to the wide ones.
function decideBlock(ctx, block, { startedAt, resume, blockSeconds }) {
  const { run } = ctx;
  const s = run.settings;
  const elapsedS = (Date.now() - startedAt) / 1000;
  restPrecise(ctx, block);
  const decision = decide({
    elapsedS,
    maxTimeS: s.precision ? s.maxTime : null,
    budgetS: resume?.budgetS ?? null,
    // blockSeconds are seconds per step (a group): the next block has as many as are active.
    nextBlockS: nextBlockSeconds(blockSeconds) * stepsPerBlock(run.configs, s),
    precision: s.precision,
    ratios: ratiosOf(run, ctx.excluded),
    blocks: block,
    minBlocks: s.blocks,
  });
  if (s.precision) {
    run.precision = {
      target: s.precision,
      reached: decision.reached,
      elapsedS: Math.round(elapsedS),
      maxTimeS: s.maxTime,
      blocks: block,
      missing: decision.missing,
    };
  }
  return { elapsedS, decision };
}

function restPrecise(ctx, block) {
  const { run, progress } = ctx;
  const s = run.settings;
  if (!s.precision || block < s.blocks || !['duet', 'pair'].includes(s.method)) return;
  const precise = ratiosOf(run, ctx.excluded).filter((r) => r.halfWidthPct <= s.precision);
  if (!precise.length) return;
  const ids = new Set(precise.map((r) => r.id));
  for (const c of run.configs.filter((x) => ids.has(x.id))) {
    c.restingFrom = block;
    ctx.excluded.add(c);
  }
  progress?.log(`within ±${s.precision} pp, measured no more: ${precise.map((r) => r.id).join(', ')}`);
}

// However the loop ended: the machine's noise over the run, the final status, the
// summaries, saved.
function endRun(ctx, noiseBefore) {
  const { run, progress, stop } = ctx;
  const s = run.settings;
  const ownLoad =
    s.driver === 'curl'
      ? `the curl driver's own processes (xargs -P ${s.connections} curl) are in the load average`
      : null;
  run.environment.noise = noise.assess(noiseBefore, noise.snapshot(), { ownLoad });
  for (const flag of run.environment.noise.flags) warnOnce(run, `noisy machine: ${flag}`, progress);
  if (stop.requested) run.status = 'interrupted';
  else run.status = run.configs.some((c) => c.status === 'failed') ? 'failed' : 'complete';
  refreshSummaries(run);
  ctx.save();
}

module.exports = { runMatrix, stepsPerBlock, restPrecise, METHODS };
