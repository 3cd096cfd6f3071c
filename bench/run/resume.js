'use strict';
// Resuming a run that stopped (Ctrl-C, a failure, a machine that went away): a study that
// runs longer than one sitting goes on from its saved run JSON instead of starting again.
// The unit of a run is the block of fresh processes, so what is kept is every block that
// every configuration finished; the samples of a block cut short are dropped (a block
// half measured would weigh its configurations unevenly), then blocks are added as the
// run would have added them, with the run's own settings and deadline.
const { loadRun } = require('../../lib/run-file');

const RESUMABLE = ['interrupted', 'failed', 'running'];

// The configurations whose blocks count: a configuration that failed for good (a remote
// target, or one with no sample at all) cannot hold a block back.
const counting = (configs) => configs.filter((c) => c.samples.length > 0);

// The blocks every counting configuration finished, from block 0 on: 0..n-1 -> n. A
// configuration that joined the run on a resume (joinedBlock) counts from that block; one
// a held-out resume set resting (restingFrom) counts up to that block only.
function completeBlocks(configs) {
  const live = counting(configs);
  if (!live.length) return 0;
  const blocksOf = live.map((c) => ({
    from: c.joinedBlock ?? 0,
    until: c.restingFrom ?? Infinity,
    set: new Set(c.samples.map((s) => s.block)),
  }));
  // Every configuration resting: nothing bounds the count but the blocks they had.
  const last = Math.max(...blocksOf.map(({ until, set }) => (until === Infinity ? Infinity : Math.max(until, ...set))));
  let n = 0;
  while (n < last && blocksOf.every(({ from, until, set }) => n < from || n >= until || set.has(n))) n++;
  return n;
}

// A held-out resume (issue 61): from `fromBlock` on only the configurations of `keep` (ids)
// are measured; every other one rests (restingFrom), its blocks before kept as they were,
// for good: a later resume measures the run's active configurations only. Mutates
// run.configs -> the configurations set resting now.
function restAllBut(run, keep, fromBlock) {
  const rested = run.configs.filter((c) => !keep.has(c.id) && c.restingFrom === undefined);
  for (const c of rested) c.restingFrom = fromBlock;
  return rested;
}


// A preset that gained configurations since its run began (the cost model's studies gained
// their smallest fitted points so, issue 48): on resume the run measures the new ones too,
// from the block it goes on at, each marked with that block (joinedBlock) so that the blocks
// before it are neither held back by it nor read as its. `current`: the preset's
// configurations now, built as the run's were (bench/run/matrix.js); compared by id. Mutates
// run.configs (appended: the existing ones keep their order) -> the configurations added.
function joinNewConfigs(run, current, fromBlock) {
  const have = new Set(run.configs.map((c) => c.id));
  const added = current.filter((c) => !have.has(c.id));
  for (const c of added) c.joinedBlock = fromBlock;
  run.configs.push(...added);
  return added;
}

// run (a parsed run JSON) -> { fromBlock, dropped: { samples, processes }, counters,
// measuredSeconds }, with run.configs trimmed to the complete blocks (mutated). Throws one
// line when the run cannot be resumed.
// extendTo: the number of blocks a run is to go on to (--blocks with --resume): a complete
// run resumes when it has fewer.
function prepareResume(run, file, { extendTo } = {}) {
  if (run.kind !== 'run')
    throw new Error(`${file}: a ${run.kind ?? 'unknown'} run, not a \`ctxbench run\`: only runs of the matrix resume`);
  const extending = run.status === 'complete' && extendTo !== undefined;
  if (!RESUMABLE.includes(run.status) && !extending)
    throw new Error(
      `${file}: the run is ${run.status ?? 'of no status'}, nothing to resume (only ${RESUMABLE.join(', ')} ` +
        `runs resume; --blocks N adds blocks to a complete one)`,
    );
  if (run.configs.some((c) => c.target))
    throw new Error(
      `${file}: a run of deployed targets (--target) does not resume: their processes are not ours to start afresh`,
    );
  if (!run.settings?.method)
    throw new Error(`${file}: no settings.method: written by an older ctxbench, it cannot resume`);
  const fromBlock = completeBlocks(run.configs);
  if (extending && extendTo <= fromBlock)
    throw new Error(`${file}: the run already has ${fromBlock} complete blocks; --blocks ${extendTo} adds none`);
  const dropped = { samples: 0, processes: 0 };
  const counters = { round: 0, seq: 0, group: 0 };
  for (const c of run.configs) {
    const keptSamples = c.samples.filter((s) => s.block < fromBlock);
    dropped.samples += c.samples.length - keptSamples.length;
    c.samples = keptSamples;
    const keptProcesses = (c.processes || []).filter((p) => p.block < fromBlock);
    dropped.processes += (c.processes || []).length - keptProcesses.length;
    c.processes = keptProcesses;
    // A failure is measured again in the next block's fresh process, as in a run.
    if (c.status === 'failed' && c.samples.length) c.status = 'ok';
    for (const s of c.samples) {
      if (Number.isInteger(s.round)) counters.round = Math.max(counters.round, s.round + 1);
      if (Number.isInteger(s.seq)) counters.seq = Math.max(counters.seq, s.seq + 1);
      if (Number.isInteger(s.group)) counters.group = Math.max(counters.group, s.group + 1);
    }
  }
  return {
    fromBlock,
    dropped,
    counters,
    measuredSeconds: Number.isFinite(run.measuringSeconds) ? run.measuringSeconds : 0,
  };
}

// How each configuration's server is started is not in the JSON (bench/run/matrix.js keeps it
// off the record: paths of this machine); the Node targets the run names are resolved
// again and each configuration gets its own back, by label. A label no longer resolvable
// is one line.
function relaunch(configs, targets, file) {
  const byLabel = new Map(targets.map((t) => [t.label, t]));
  for (const c of configs) {
    const t = byLabel.get(c.nodeLabel);
    if (!t)
      throw new Error(
        `${file}: ${c.id} ran on ${c.nodeLabel}, which cannot be resolved here now (resolved: ` +
          `${[...byLabel.keys()].join(', ') || 'none'})`,
      );
    Object.defineProperty(c, 'launch', {
      value: { nodePath: t.path, nodeArgs: t.args || [] },
      enumerable: false,
      configurable: true,
    });
  }
}

// The run JSON at `file`, ready to go on (options: prepareResume's) -> { run, resume }.
function loadForResume(file, options) {
  const run = loadRun(file, 'run', { kinds: ['run'] });
  return { run, resume: prepareResume(run, file, options) };
}

module.exports = {
  completeBlocks,
  prepareResume,
  loadForResume,
  relaunch,
  joinNewConfigs,
  restAllBut,
};
