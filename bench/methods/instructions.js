'use strict';
// The instruction-count method: each configuration alone in a fresh process under
// Valgrind (callgrind), one request in flight, windows of a fixed number of requests. A
// sample is a window's count (kind 'instructions').
const fs = require('node:fs');
const callgrind = require('../measure/callgrind');
const { measureProcess, windowRequestsFor, maxWarmupWindowsFor } = require('../measure/instruction-windows');
const { baselineFor, armOf } = require('../../analysis/comparable');
const { roundOrder } = require('../../lib/round-order');
const { refreshSummaries, warnOnce, fail, explain, startOne, stopBlock } = require('../processes/block');

// Servers start under Valgrind in seconds, not milliseconds (docs/commands.md, the
// instructions preset); a loaded one can take longer, so the limit is generous.
const VALGRIND_START_MS = 180000;

// One block of instruction counts: each configuration in its own fresh process under
// callgrind (bench/measure/callgrind.js), one at a time on the server CPU; the baselines first,
// then the others, each list in an order rotated by block. Warm-up windows until the
// count is steady, and never fewer than the block's baseline process took (so an arm's
// windows sit at the same request indices as its baseline's, or later where the arm
// needed longer), then settings.windows measured windows (settings.unsettledWindows where
// the count never settled, more for an arm compared on its mean until settings.unsettledBound
// holds; bench/measure/instruction-windows.js), each saved as it is taken.
async function instructionsBlock(ctx, block) {
  const { run, progress, stop } = ctx;
  const s = run.settings;
  const identity = callgrind.identityEnv();
  // The flags the run records are the flags its servers get.
  s.nodeFlags ??= callgrind.NODE_ARGS;
  const live = run.configs.filter((c) => !ctx.excluded.has(c));
  const isBase = (c) => armOf(c) === s.baseline;
  for (const config of [
    ...roundOrder(live.filter(isBase), block),
    ...roundOrder(
      live.filter((c) => !isBase(c)),
      block,
    ),
  ]) {
    if (stop.requested) break;
    progress?.status(`block ${block + 1}: starting ${config.id} under Valgrind`);
    const dir = callgrind.outDir();
    let server = null;
    try {
      server = await startOne(ctx, config, block, {
        wrap: callgrind.wrapper(dir),
        nodeArgs: s.nodeFlags,
        env: identity,
        timeoutMs: VALGRIND_START_MS,
      });
      ctx.save();
      const requests = s.windowRequests ?? windowRequestsFor(config.depth);
      const warmup = [];
      server.record.warmup = warmup;
      server.record.windowRequests = requests;
      const result = await measureProcess({
        config,
        server,
        counter: callgrind.counter(server.pid, dir, identity),
        driver: ctx.driver,
        connections: s.connections,
        requests,
        windows: s.windows,
        ...(s.unsettledWindows != null && { unsettledWindows: s.unsettledWindows }),
        ...(s.unsettledBound !== undefined && { unsettledBound: s.unsettledBound }),
        maxWarmupWindows: s.maxWarmupWindows ?? maxWarmupWindowsFor(requests),
        minWarmupWindows: baselineWarmup(config, run, block),
        signal: stop.signal,
        onWindow: windowRecorder(ctx, config, block, warmup),
      });
      recordSettling(ctx, config, block, server, result);
    } catch (err) {
      if (!server) fail(ctx, config, err.message, { stderrTail: err.stderrTail || '', final: true });
      else {
        const { message, exit } = await explain(err, server);
        if (exit) Object.assign(server.record, { exit, dead: true, endedAt: new Date().toISOString() });
        fail(ctx, config, `${message} (block ${block + 1})`, { stderrTail: server.stderrTail?.() || '', exit });
      }
    } finally {
      if (server) await stopBlock(new Map([[config, server]]));
      fs.rmSync(dir, { recursive: true, force: true });
      ctx.save();
    }
    const level = config.summary?.instructions?.median;
    progress?.tick(`${config.id}${level ? ` ${Math.round(level / 1000)}k instructions/request` : ''}`);
  }
  refreshSummaries(run);
}

// measureProcess's onWindow for one process: a warm-up window goes on its process record,
// a measured one on the configuration's samples (saved at once, so a stopped run keeps it).
function windowRecorder(ctx, config, block, warmup) {
  const { run, progress } = ctx;
  const s = run.settings;
  return function onWindow(phase, index, w, planned, cap) {
    const perRequest = w.perRequest === null ? '-' : `${Math.round(w.perRequest / 1000)}k`;
    if (phase === 'warmup') {
      warmup.push({ requests: w.requests, perRequest: w.perRequest });
      progress?.status(
        `block ${block + 1}: warming ${config.id} under Valgrind (window ${index}: ${perRequest} ` +
          `instructions/request)`,
      );
    } else {
      config.samples.push({ kind: 'instructions', block, window: index - 1, ...w });
      progress?.status(
        `block ${block + 1}: ${config.id} window ` +
          `${index}/${planned}` +
          (cap > planned && index >= planned
            ? ` (until one window's swing is within ${s.unsettledBound}% of the mean, at most ${cap})`
            : '') +
          `: ` +
          `${perRequest} instructions/request`,
      );
      if (w.errors > 0 || w.non2xx > 0)
        warnOnce(run, `${config.id} had errors or non-2xx responses (block ${block + 1})`, progress);
      refreshSummaries(run);
    }
    ctx.save();
  };
}

// Whether the process's count settled, on its record, and a warning where it did not or
// its windows still swing beyond settings.unsettledBound.
function recordSettling(ctx, config, block, server, result) {
  const { run, progress, stop } = ctx;
  const s = run.settings;
  server.record.settled = result.settled;
  if (result.stepPct !== null) {
    server.record.windowStepPct = result.stepPct;
    if (result.stepPct > s.unsettledBound && !stop.requested) {
      warnOnce(
        run,
        `${config.id}: after ${result.windows.length} windows one window's swing is still ` +
          `${result.stepPct.toFixed(2)}% of the mean (block ${block + 1}; bound ${s.unsettledBound}%): a ` +
          `repro of its ratio may miss by that much`,
        progress,
      );
    }
  }
  if (!result.settled && !stop.requested) {
    warnOnce(
      run,
      `${config.id}: instructions per request still changing after ${result.warmup.length} warm-up ` +
        `windows (block ${block + 1}); its windows are comparable at the same request index only`,
      progress,
    );
  }
}

// Warm-up windows of the block's baseline process for config (0 for a baseline, or when
// the baseline was not measured in this block).
function baselineWarmup(config, run, block) {
  const base = baselineFor(config, run.configs, run.settings.baseline);
  if (!base || base === config) return 0;
  return base.processes.find((p) => p.block === block && Array.isArray(p.warmup))?.warmup.length ?? 0;
}

// The progress bar's steps per block: one per process.
function stepsPerBlock(configs) {
  return configs.length;
}

module.exports = { name: 'instructions', stepsPerBlock, measureBlock: instructionsBlock };
