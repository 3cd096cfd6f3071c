'use strict';
// The pair method (bench/pair.js): per block, each arm and a fresh baseline process
// started together in the block's positions, both sent the same open-loop schedule at the
// configuration's rate from the load CPU, read every window, then stopped. A sample is a
// window of the candidate (kind 'window', method 'pair': the CPU ratio's and the paired
// latencies' unit) or a pair's totals on each member (kind 'pair').
const pair = require('../pair');
const { positionsFor } = require('../duet');
const { duetGroups } = require('./duet');
const { AA_ARM } = require('../matrix');
const { percentiles } = require('../../load/open-loop');
const { refreshSummaries, warnOnce, blockFailed, startMembers, stopBlock, fmtRatio } = require('../block');

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
    progress?.status(`block ${block + 1}: ${other.id} with ${base.id} at ${rate} req/s each`);
    const servers = new Map();
    try {
      await startMembers(ctx, members, block, servers);
      ctx.save();
      const baseAt = members.indexOf(base);
      const otherAt = members.indexOf(other);
      const keepWindow = (w) => {
        other.samples.push(...pair.windowSamples([w], { of: otherAt, partner: baseAt, partnerId: base.id, block, group: groupSeq, rate }));
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
        servers.get(config).record.warmup = result.warmup.map((w) => ({ cpuUsPerRequest: w.members[i].cpuUsPerRequest, requests: w.members[i].requests, kept: pair.whyDropped(w) === null }));
        const t = result.totals[i];
        config.samples.push({ kind: 'pair', block, group: groupSeq, position: i, members: members.map((c) => c.id), rate, due: t.due, sent: t.sent, requests: t.answered, errors: t.errors, non2xx: t.non2xx, mismatches: t.mismatches, lost: t.lost, countedWindows: counted.length });
      });
      for (const w of result.windows.filter((x) => !x.counted)) warnOnce(run, `pair windows dropped: ${pair.DROP_WARNINGS[w.dropKind]}`, null);
      if (counted.length < s.windows && !stop.requested) warnOnce(run, `${other.id}: fewer than ${s.windows} counted windows in block ${block + 1}`, progress);
      const late = percentiles(mergeLateness(result.windows));
      if (late.count) progress?.log(`block ${block + 1} ${other.id}: generator late ${late.p50} ms p50, ${late.p99} ms p99`);
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

module.exports = { name: 'pair', stepsPerBlock, measureBlock: pairBlock };
