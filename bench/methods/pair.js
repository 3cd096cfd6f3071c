'use strict';
// The pair method (bench/pair-windows.js): per block, each arm and a fresh baseline process
// started together in the block's positions, both sent the same open-loop schedule at the
// configuration's rate from the load CPU, read every window, then stopped. A sample is a
// window of the candidate (kind 'window', method 'pair': the CPU ratio's and the paired
// latencies' unit) or a pair's totals on each member (kind 'pair').
const pair = require('../pair-windows');
const { positionsFor } = require('../duet-windows');
const { duetGroups } = require('./duet');
const { AA_ARM } = require('../matrix');
const { percentiles, HELD_MIN } = require('../../lib/histogram');
const { scheduleState } = require('../../analysis/pair');
const { refreshSummaries, warnOnce, blockFailed, startMembers, stopBlock, fmtRatio } = require('../block');
const { getDriver } = require('../drivers');
const { warmByThroughput } = require('../warmup');
const { deploymentOf } = require('../../analysis/capacity');
const op = require('../operating-point');

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

// A pair's totals as one sample per member (kind 'pair'): what its schedule sent and what
// came back. extra: fields the caller adds (a ladder's mark, the phase).
function pairSample(result, members, i, { block, group, rate, ...extra }) {
  const t = result.totals[i];
  return {
    kind: 'pair',
    block,
    group,
    position: i,
    members: members.map((c) => c.id),
    rate,
    ...extra,
    due: t.due,
    sent: t.sent,
    requests: t.answered,
    errors: t.errors,
    non2xx: t.non2xx,
    mismatches: t.mismatches,
    lost: t.lost,
    countedWindows: result.windows.filter((w) => w.counted).length,
  };
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
      const keepWindow = (w) => {
        other.samples.push(
          ...pair.windowSamples([w], {
            of: otherAt,
            partner: baseAt,
            partnerId: base.id,
            block,
            group: groupSeq,
            rate,
          }),
        );
        ctx.save();
      };
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
// bench/capacity.js): per block, each candidate and a fresh baseline process started once,
// warmed closed loop, then sent each rate of the ladder in turn, lowest first. Why not a
// fresh pair per rate: on F1 stand-ins a fresh pair spent more CPU a request, was throttled
// far more often and had a far worse p99 than a pair warmed closed loop at about the same
// rate (docs/deploy.md, "How the ladder and the capacity are made"). On a quarter of a CPU
// the JIT takes ten seconds or more of load to warm (the capacity probe's bursts keep
// rising: docs/investigations.md, "Figures that code comments carried"), more than a
// pair's open-loop warm-up gives, so every rung measured a cold process. A deployment's
// instance is a warm, long-running process; the unit is still the pair of fresh processes
// of a block. After a rate both fell behind, the higher ones are not sent (over the SLO is
// the answer there).
const WARM_BURST_S = 1;

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
          onWindow: (w) => {
            other.samples.push(
              ...pair.windowSamples([w], {
                of: otherAt,
                partner: baseAt,
                partnerId: base.id,
                block,
                group: groupSeq,
                rate,
              }),
            );
            ctx.save();
          },
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

// The autoscaler's operating point (settings.targetCpu; bench/operating-point.js): per block,
// each candidate and a fresh baseline process started together and warmed closed loop (as
// a ladder's pair is), then (1) the rate at which the baseline uses its target share of the
// quota, searched in short steps of the pair, and both sent it for the measured windows
// (phase 'base'); (2) where the candidate's share there is not within the tolerance of the
// target, the rate at which it is, and both sent that (phase 'own': the candidate at its
// own operating point). Every step is kept in learned.operatingPoints; the figures are
// analysis/operating-point.js's.
const SEARCH_WARMUP = { min: 2, max: 4 };
// The candidate's own rate: the first guess from its cost at the baseline's, and one more.
const OWN_ATTEMPTS = 2;
// A cost this far from the baseline's at its rate and the candidate is measured at its own:
// CPU per request moves with the rate (by about a tenth of a rate's change near the
// target: docs/deploy.md), so within 5% the two rates read the same to half a point.
const OWN_TOLERANCE = 0.05;
// Before any pair of a run has found it: this share of the closed-loop warm-up's req/s
// (on F1 stand-ins the baseline's operating point at 60% lay near 40% of it: docs/deploy.md).
const FIRST_GUESS = 0.4;

async function operatingBlock(ctx, block, counters) {
  const { run, progress, stop } = ctx;
  const s = run.settings;
  const target = s.targetCpu;
  run.learned.operatingPoints ??= [];
  const found = run.learned.operatingPoints;
  for (const group of duetGroups(run.configs, s.baseline, { block, size: 2, excluded: ctx.excluded })) {
    if (stop.requested) break;
    if (group.some((c) => ctx.excluded.has(c))) continue;
    const [base, other] = group;
    const members = positionsFor(block, group);
    const baseAt = members.indexOf(base);
    const otherAt = members.indexOf(other);
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
      const step = (at, who) => async (rate) => {
        progress?.status(`block ${block + 1}: ${label}: ${rate} req/s each, reading ${who}'s share of its quota`);
        const r = await pair.measurePair({ ...common, rate, windows: 1, maxWindows: 1, warmupWindows: SEARCH_WARMUP });
        const w = r.windows.at(-1);
        // The share over the step's warm-up after its first half-window and its window: one
        // window's share moves by a fifth from second to second (docs/deploy.md).
        return {
          share: op.spanShare([...r.warmup.slice(1), ...r.windows], at, s.instance),
          // Behind on its own side (the other side falling behind says nothing of this one).
          behind: Boolean(w) && scheduleState(w.members[at]) === 'behind',
        };
      };
      const point = { block, group: groupSeq, baseline: base.id, candidate: other.id, target };
      found.push(point);
      const earlier = found.filter((p) => p.baseline === base.id && p.base?.rate).at(-1)?.base.rate;
      const start = earlier ?? FIRST_GUESS * warm.at(-1);
      point.base = await op.searchOperatingPoint({
        start,
        target,
        measure: step(baseAt, base.strategy),
        signal: stop.signal,
      });
      ctx.save();
      // rates: [baseline's, candidate's]; both the same in phase 'base'.
      const measureAt = async ([baseRate, rate], phase, again = false) => {
        // A second try at the candidate's rate replaces the first one's windows.
        if (again) other.samples = other.samples.filter((x) => !(x.block === block && x.phase === phase));
        const each = baseRate === rate ? `${rate} req/s each` : `${rate} req/s, ${base.strategy} ${baseRate}`;
        progress?.status(`block ${block + 1}: ${label} with ${base.strategy} at ${each} (${phase})`);
        const rates = members.map((c) => (c === base ? baseRate : rate));
        const result = await pair.measurePair({
          ...common,
          ...(baseRate === rate ? { rate } : { rates }),
          windows: s.windows,
          onWindow: (w) => {
            other.samples.push(
              ...pair
                .windowSamples([w], {
                  of: otherAt,
                  partner: baseAt,
                  partnerId: base.id,
                  block,
                  group: groupSeq,
                  rate,
                  partnerRate: baseRate,
                })
                .map((x) => ({ ...x, phase })),
            );
            ctx.save();
          },
        });
        members.forEach((config, i) => {
          config.samples.push(pairSample(result, members, i, { block, group: groupSeq, rate: rates[i], phase }));
        });
        for (const w of result.windows.filter((x) => !x.counted))
          warnOnce(run, `pair windows dropped: ${pair.DROP_WARNINGS[w.dropKind]}`, null);
        refreshSummaries(run);
        return result;
      };
      const baseRate = point.base.rate;
      let measured = stop.requested ? null : await measureAt([baseRate, baseRate], 'base');
      // Whether the candidate is at its own operating point at the baseline's rate: its CPU
      // per request ÷ the baseline's in the same windows (= its share of the quota ÷ the
      // baseline's), paired, since both move by a fifth from window to window. Beyond
      // OWN_TOLERANCE each side is sent its own rate at once: the baseline its operating
      // point, the candidate the rate at which its share would be the baseline's (the
      // search's log-log slope); again where it fell behind there or its share, paired with
      // the baseline's in the same windows, was still beyond the search's tolerance.
      let rate = baseRate;
      for (let attempt = 0; measured && !stop.requested && attempt <= OWN_ATTEMPTS; attempt++) {
        const ws = measured.windows;
        const behind = ws.filter((w) => scheduleState(w.members[otherAt]) === 'behind').length > ws.length / 2;
        // The candidate's share ÷ the baseline's: at the same rate its cost, at its own the
        // shares' ratio (the rates' ratio put back).
        const relative = op.pairedCost(ws, otherAt, baseAt) * (rate / baseRate);
        if (attempt === 0) point.candidateAtBase = { cost: relative, behind };
        const limit = attempt === 0 ? OWN_TOLERANCE : op.TOLERANCE;
        if (!Number.isFinite(relative) || (!behind && Math.abs(relative - 1) <= limit) || attempt === OWN_ATTEMPTS)
          break;
        const from = { rate, relative, behind };
        const backoff = behind ? op.BEHIND_BACKOFF : 1;
        rate = Math.max(1, Math.round(rate * backoff * relative ** (-1 / op.DEFAULT_SLOPE)));
        point.own = { rate, from };
        ctx.save();
        measured = await measureAt([baseRate, rate], 'own', attempt > 0);
      }
      ctx.save();
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
        driver({
          url: server.url,
          path: configs[i].path || '/',
          connections: s.connections,
          pipelining: 1,
          duration: WARM_BURST_S,
        }),
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
