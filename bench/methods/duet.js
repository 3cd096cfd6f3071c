'use strict';
// The duet method: per block, each arm and a fresh baseline process started as a group
// (pairs by default) in the block's positions, loaded together on the server CPU while
// bench/measure/duet-windows.js reads every window, then each member's own solo burst, then stopped. A
// sample is a window (kind 'window', the CPU ratio's unit), a group's load ('duet') or a
// solo burst ('solo').
const duet = require('../measure/duet-windows');
const { takeSample } = require('../measure/sample');
const { AA_ARM } = require('../run/matrix');
const { groupConfigs, armOf } = require('../../analysis/comparable');
const { roundOrder } = require('../../lib/round-order');
const { refreshSummaries, warnOnce, blockFailed, startMembers, stopBlock, fmtRatio } = require('../processes/block');

// The duet groups of a run: per comparable group, the baseline with `size - 1` other arms
// at a time (size 2: pairs), the arms rotated by block before they are cut into groups,
// so that an arm's companions and its place in the block change from block to block.
function duetGroups(configs, baselineArm, { block = 0, size = 2, excluded = new Set() } = {}) {
  const out = [];
  for (const group of groupConfigs(configs).values()) {
    const base = group.find((c) => armOf(c) === baselineArm);
    if (!base || excluded.has(base)) continue;
    const others = roundOrder(
      group.filter((c) => c !== base && !excluded.has(c)),
      block,
    );
    for (let i = 0; i < others.length; i += size - 1) out.push([base, ...others.slice(i, i + size - 1)]);
  }
  return out;
}

// The baseline's own solo burst is taken once per block and comparable group, in the
// group that holds the A/A arm (the baseline's twin) or, without one, in its first group.
function soloMembers(group, groups) {
  const [base, ...others] = group;
  const withBase =
    groups.find((g) => g[0] === base && g.some((c) => c.arm === AA_ARM)) ?? groups.find((g) => g[0] === base);
  return withBase === group ? group : others;
}

// One block of duet groups: each pair started fresh (in its block's positions), measured
// under load together (bench/measure/duet-windows.js), each member's own solo burst, stopped.
async function duetBlock(ctx, block, counters) {
  const { run, progress, stop } = ctx;
  const s = run.settings;
  const groups = duetGroups(run.configs, s.baseline, { block, size: s.groupSize, excluded: ctx.excluded });
  for (const group of groups) {
    if (stop.requested) break;
    if (group.some((c) => ctx.excluded.has(c))) continue;
    const [base, ...others] = group;
    const members = duet.positionsFor(block, group);
    const groupSeq = counters.group++;
    progress?.status(`block ${block + 1}: ${others.map((c) => c.id).join(', ')} with ${base.id}`);
    const servers = new Map();
    try {
      await startMembers(ctx, members, block, servers);
      ctx.save();
      const baseAt = members.indexOf(base);
      // Each window is kept (and the run saved) as soon as it is judged: a run stopped
      // mid-group, however it is stopped, keeps the windows it took.
      const keepWindow = (w) => {
        members.forEach((config, i) => {
          if (config !== base)
            config.samples.push(
              ...duet.windowSamples(
                { windows: [w] },
                { of: i, partner: baseAt, partnerId: base.id, block, group: groupSeq },
              ),
            );
        });
        ctx.save();
      };
      const result = await duet.measureGroup({
        servers: members.map((c) => servers.get(c)),
        configs: members,
        driver: ctx.driver,
        load: { connections: s.connections, pipelining: s.pipelining },
        windowS: s.window,
        windows: s.windows,
        signal: stop.signal,
        onWindow: keepWindow,
      });
      keepLoads(result, members, servers, block, groupSeq);
      // One warning per kind of reason (the window records keep the exact figures).
      for (const w of result.windows.filter((x) => !x.counted))
        warnOnce(run, `duet windows dropped: ${duet.DROP_WARNINGS[w.dropKind]}`, null);
      if (result.windows.filter((w) => w.counted).length < s.windows && !stop.requested) {
        warnOnce(
          run,
          `${others.map((c) => c.id).join(', ')}: fewer than ${s.windows} counted windows in block ${block + 1}`,
          progress,
        );
      }
      await soloBursts(ctx, block, counters, { solo: soloMembers(group, groups), members, servers, result });
      refreshSummaries(run);
    } catch (err) {
      await blockFailed(ctx, err, { servers, measured: others, block });
    } finally {
      await stopBlock(servers);
      ctx.save();
    }
    progress?.tick(
      others.map((c) => `${c.strategy}${c.arm === AA_ARM ? ' (A/A)' : ''} ${fmtRatio(c.summary)}`).join(', '),
    );
  }
  counters.round++;
}

// Each member's load in the group as a sample (kind 'duet'), and its warm-up on its process record.
function keepLoads(result, members, servers, block, groupSeq) {
  members.forEach((config, i) => {
    servers.get(config).record.warmup = result.warmup.map((w) => ({
      cpuUsPerRequest: w.members[i].cpuUsPerRequest,
      requests: w.members[i].requests,
    }));
    const load = result.loads[i];
    config.samples.push({
      kind: 'duet',
      block,
      group: groupSeq,
      position: i,
      members: members.map((c) => c.id),
      requests: load.requests,
      errors: load.errors,
      non2xx: load.non2xx,
      mismatches: load.mismatches,
      lost: load.lost,
      loadgenCpu: load.loadgenCpu,
      durationS: load.durationS,
    });
  });
}

// Solo bursts: each configuration's own req/s and latency, with the CPU to itself,
// sized from its rate in the group (it had 1/n of the CPU there). solo: whose bursts
// (soloMembers); members: the group in its positions, as measureGroup had it.
async function soloBursts(ctx, block, counters, { solo, members, servers, result }) {
  const { run, progress, stop } = ctx;
  const s = run.settings;
  for (const config of solo) {
    if (stop.requested) break;
    const i = members.indexOf(config);
    const seconds = result.windows.reduce((a, w) => a + w.wallMs, 0) / 1000;
    const rate =
      seconds > 0
        ? (result.windows.reduce((a, w) => a + w.members[i].requests, 0) / seconds) * members.length
        : null;
    const sample = await takeSample({
      config,
      server: servers.get(config),
      driver: ctx.driver,
      settings: { ...s, duration: s.soloDuration },
      rate,
      signal: stop.signal,
    });
    config.samples.push({
      kind: 'solo',
      block,
      round: counters.round,
      seq: counters.seq++,
      pairSeq: null,
      ...sample,
    });
    if (sample.errors > 0 || sample.non2xx > 0)
      warnOnce(run, `${config.id} had errors or non-2xx responses (block ${block + 1})`, progress);
  }
}

// The progress bar's steps per block: one per group.
function stepsPerBlock(configs, settings) {
  return duetGroups(configs, settings.baseline, { size: settings.groupSize }).length;
}

module.exports = { name: 'duet', stepsPerBlock, measureBlock: duetBlock, duetGroups, soloMembers };
