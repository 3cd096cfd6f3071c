'use strict';
// The pair method (bench/measure/pair-windows.js): per block, each arm and a fresh baseline process
// started together in the block's positions, both sent the same open-loop schedule at the
// configuration's rate from the load CPU, read every window, then stopped. A sample is a
// window of the candidate (kind 'window', method 'pair': the CPU ratio's and the paired
// latencies' unit) or a pair's totals on each member (kind 'pair').
const pair = require('../measure/pair-windows');
const { positionsFor } = require('../measure/duet-windows');
const { duetGroups } = require('./duet');
const { AA_ARM } = require('../run/matrix');
const { percentiles, HELD_MIN } = require('../../lib/histogram');
const { refreshSummaries, warnOnce, blockFailed, startMembers, stopBlock, fmtRatio } = require('../processes/block');
const { getDriver } = require('../measure/drivers');
const { warmByThroughput, burstOrEmpty } = require('../measure/warmup');
const { deploymentOf } = require('../../analysis/capacity');
const { measureAtTarget, pairSample, windowKeeper } = require('../rates/at-target');

// Starts a pair's members (fresh processes in the block's positions) and warms them closed
// loop: -> { ordered: the servers in member order, warm: the warm-up's req/s per burst }.
async function startWarmed(ctx, members, block, servers) {
  await startMembers(ctx, members, block, servers);
  ctx.save();
  const ordered = members.map((c) => servers.get(c));
  const warm = await warmClosedLoop(ordered, members, ctx.run.settings);
  ordered.forEach((server) => Object.assign(server.record, { closedLoopWarmup: warm }));
  ctx.save();
  return { ordered, warm };
}

async function pairBlock(ctx, block, counters) {
  const { run, progress, stop } = ctx;
  const s = run.settings;
  const groups = duetGroups(run.configs, s.baseline, { block, size: 2, excluded: ctx.excluded });
  for (const group of groups) {
    if (stop.requested) break;
    if (group.some((c) => ctx.excluded.has(c))) continue;
    const [base, other] = group;
    const members = positionsFor(block, group);
    const groupSeq = counters.group++;
    const rate = other.rate;
    progress?.status(`block ${block + 1}: ${other.id} with ${base.id}, warming closed loop`);
    const servers = new Map();
    try {
      // Warmed closed loop first, as a ladder's pair is (ladderBlock says why): V8 tiers a
      // function up after so much work, not so many seconds, and the open-loop warm-up's
      // few seconds at a low rate are a few thousand requests. Measured before this
      // (scripts/pair-threads.js): OpenTelemetry's extra CPU was several times its cost at
      // saturation in the first windows, V8's helper threads busy, and the pair method's
      // windows after its open-loop warm-up read it too dear (docs/model.md, "The method
      // check: may the pair stand in for the duet?").
      await startWarmed(ctx, members, block, servers);
      progress?.status(`block ${block + 1}: ${other.id} with ${base.id} at ${rate} req/s each`);
      const baseAt = members.indexOf(base);
      const otherAt = members.indexOf(other);
      const keepWindow = windowKeeper({ save: () => ctx.save() }, other, {
        of: otherAt,
        partner: baseAt,
        partnerId: base.id,
        block,
        group: groupSeq,
        rate,
      });
      const result = await pair.measurePair({
        servers: members.map((c) => servers.get(c)),
        configs: members,
        rate,
        load: { connections: s.connections, timeout: s.timeout ?? 10 },
        windowS: s.window,
        windows: s.windows,
        signal: stop.signal,
        onWindow: keepWindow,
        loadPids: ctx.loadPids ?? [],
      });
      const counted = result.windows.filter((w) => w.counted);
      members.forEach((config, i) => {
        servers.get(config).record.warmup = result.warmup.map((w) => ({
          cpuUsPerRequest: w.members[i].cpuUsPerRequest,
          requests: w.members[i].requests,
          kept: pair.whyDropped(w) === null,
        }));
        config.samples.push(pairSample(result, members, i, { block, group: groupSeq, rate }));
      });
      for (const w of result.windows.filter((x) => !x.counted))
        warnOnce(run, `pair windows dropped: ${pair.DROP_WARNINGS[w.dropKind]}`, null);
      if (counted.length < s.windows && !stop.requested)
        warnOnce(run, `${other.id}: fewer than ${s.windows} counted windows in block ${block + 1}`, progress);
      const late = percentiles(mergeLateness(result.windows));
      if (late.count)
        progress?.log(`block ${block + 1} ${other.id}: generator late ${late.p50} ms p50, ${late.p99} ms p99`);
      refreshSummaries(run);
    } catch (err) {
      await blockFailed(ctx, err, { servers, measured: [other], block });
    } finally {
      await stopBlock(servers);
      ctx.save();
    }
    progress?.tick(`${other.strategy}${other.arm === AA_ARM ? ' (A/A)' : ''} ${fmtRatio(other.summary)}`);
  }
  counters.round++;
}

// A ladder judged against an SLO (settings.slo; its 100% the baseline's open-loop knee,
// bench/rates/capacity.js): per block, each candidate and a fresh baseline process started once,
// warmed closed loop, then sent each rate of the ladder in turn, lowest first. Why not a
// fresh pair per rate: on F1 stand-ins a fresh pair spent more CPU a request, was throttled
// far more often and had a far worse p99 than a pair warmed closed loop at about the same
// rate (docs/deploy.md, "Capacity within an SLO: a study-page figure"). On a quarter of a CPU
// the JIT takes ten seconds or more of load to warm (the capacity probe's bursts keep
// rising: docs/investigations.md, "Figures that code comments carried"), more than a
// pair's open-loop warm-up gives, so every rung measured a cold process. A deployment's
// instance is a warm, long-running process; the unit is still the pair of fresh processes
// of a block. After a rate both fell behind, the higher ones are not sent (over the SLO is
// the answer there).
const WARM_BURST_S = 1;
const MIN_WARM_BURST_S = 0.1;

async function ladderBlock(ctx, block, counters) {
  const { run, progress, stop } = ctx;
  const s = run.settings;
  const ladders = new Map();
  for (const group of duetGroups(run.configs, s.baseline, { block, size: 2, excluded: ctx.excluded })) {
    const key = deploymentOf(group[1]);
    if (!ladders.has(key)) ladders.set(key, []);
    ladders.get(key).push(group);
  }
  for (const rungs of ladders.values()) {
    if (stop.requested) break;
    rungs.sort((x, y) => x[1].rate - y[1].rate);
    const [firstBase, firstOther] = rungs[0];
    const members = positionsFor(block, rungs[0]);
    const servers = new Map();
    const groupSeq = counters.group++;
    let skipped = rungs.length;
    try {
      progress?.status(
        `block ${block + 1}: ${deploymentOf(firstOther)} with ${deploymentOf(firstBase)}, warming closed loop`,
      );
      const { ordered } = await startWarmed(ctx, members, block, servers);
      for (const [base, other] of rungs) {
        if (stop.requested || ctx.excluded.has(other)) break;
        skipped--;
        const rate = other.rate;
        progress?.status(`block ${block + 1}: ${other.id} with ${base.id} at ${rate} req/s each`);
        const rateMembers = members.map((c) => (c === firstBase ? base : other));
        const baseAt = rateMembers.indexOf(base);
        const otherAt = rateMembers.indexOf(other);
        const result = await pair.measurePair({
          servers: ordered,
          configs: rateMembers,
          rate,
          load: { connections: s.connections, timeout: s.timeout ?? 10 },
          windowS: s.window,
          windows: s.windows,
          signal: stop.signal,
          onWindow: windowKeeper({ save: () => ctx.save() }, other, {
            of: otherAt,
            partner: baseAt,
            partnerId: base.id,
            block,
            group: groupSeq,
            rate,
          }),
          loadPids: ctx.loadPids ?? [],
        });
        rateMembers.forEach((config, i) => {
          config.samples.push(pairSample(result, rateMembers, i, { block, group: groupSeq, rate, ladder: true }));
        });
        for (const w of result.windows.filter((x) => !x.counted))
          warnOnce(run, `pair windows dropped: ${pair.DROP_WARNINGS[w.dropKind]}`, null);
        const late = percentiles(mergeLateness(result.windows));
        if (late.count)
          progress?.log(`block ${block + 1} ${other.id}: generator late ${late.p50} ms p50, ${late.p99} ms p99`);
        refreshSummaries(run);
        progress?.tick(
          `${other.strategy}${other.arm === AA_ARM ? ' (A/A)' : ''} ${rate} req/s ${fmtRatio(other.summary)}`,
        );
        if (result.totals.every((t) => t.due > 0 && t.sent < HELD_MIN * t.due)) {
          progress?.log(
            `block ${block + 1} ${deploymentOf(other)}: both fell behind ${rate} req/s; the higher rates are not sent`,
          );
          break;
        }
      }
    } catch (err) {
      await blockFailed(ctx, err, { servers, measured: rungs.map((g) => g[1]), block });
    } finally {
      await stopBlock(servers);
      ctx.save();
    }
    for (let i = 0; i < skipped; i++) progress?.tick('');
  }
  counters.round++;
}

// The autoscaler's operating point (settings.targetCpu): per block, each candidate and a
// fresh baseline process started together and warmed closed loop (as a ladder's pair is),
// then measured there (bench/rates/at-target.js).
async function operatingBlock(ctx, block, counters) {
  const { run, progress, stop } = ctx;
  const s = run.settings;
  run.learned.operatingPoints ??= [];
  const io = {
    status: (text) => progress?.status(text),
    save: () => ctx.save(),
    warn: (text) => warnOnce(run, text, null),
    refresh: () => refreshSummaries(run),
    stopped: () => stop.requested,
  };
  for (const group of duetGroups(run.configs, s.baseline, { block, size: 2, excluded: ctx.excluded })) {
    if (stop.requested) break;
    if (group.some((c) => ctx.excluded.has(c))) continue;
    const [base, other] = group;
    const members = positionsFor(block, group);
    const groupSeq = counters.group++;
    const servers = new Map();
    const label = `${other.strategy}${other.arm === AA_ARM ? ' (A/A)' : ''}`;
    try {
      progress?.status(`block ${block + 1}: ${other.id} with ${base.id}, warming closed loop`);
      const { ordered, warm } = await startWarmed(ctx, members, block, servers);
      const common = {
        servers: ordered,
        configs: members,
        load: { connections: s.connections, timeout: s.timeout ?? 10 },
        windowS: s.window,
        signal: stop.signal,
        loadPids: ctx.loadPids ?? [],
      };
      await measureAtTarget({
        common,
        members,
        base,
        other,
        label,
        warm,
        settings: s,
        block,
        group: groupSeq,
        found: run.learned.operatingPoints,
        io,
      });
    } catch (err) {
      await blockFailed(ctx, err, { servers, measured: [other], block });
    } finally {
      await stopBlock(servers);
      ctx.save();
    }
    progress?.tick(`${label} ${fmtRatio(other.summary)}`);
  }
  counters.round++;
}

// Closed-loop bursts on both servers at once until their req/s stops rising: -> [req/s
// per burst, the mean of the two].
function warmClosedLoop(servers, configs, s) {
  const driver = getDriver('autocannon');
  return warmByThroughput(async () => {
    const results = await Promise.all(
      servers.map((server, i) =>
        burstOrEmpty(
          driver({
            url: server.url,
            path: configs[i].path || '/',
            connections: s.connections,
            pipelining: 1,
            // Each burst lasts --warmup seconds (1 in every pair preset), as sequential's do.
            duration: Math.max(MIN_WARM_BURST_S, s.warmup ?? WARM_BURST_S),
          }),
          { rps: 0 },
        ),
      ),
    );
    return results.reduce((a, r) => a + r.rps, 0) / results.length;
  });
}

// Whether a run's pairs form ladders: rates judged against an SLO, anchored on a knee.
const isLadder = (run) =>
  Boolean(run.settings.slo && run.settings.loads && run.learned?.capacity?.groups?.some((g) => g.knee));

function mergeLateness(windows) {
  const [first, ...rest] = windows.map((w) => w.lateness);
  if (!first) return { totalCount: 0 };
  for (const h of rest) first.add(h);
  return first;
}

// The progress bar's steps per block: one per pair.
function stepsPerBlock(configs, settings) {
  return duetGroups(configs, settings.baseline, { size: 2 }).length;
}

module.exports = {
  name: 'pair',
  stepsPerBlock,
  measureBlock: (ctx, block, counters) =>
    ctx.run.settings.targetCpu
      ? operatingBlock(ctx, block, counters)
      : isLadder(ctx.run)
        ? ladderBlock(ctx, block, counters)
        : pairBlock(ctx, block, counters),
};
