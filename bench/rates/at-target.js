'use strict';
// One pair of fresh stand-ins at the autoscaler's operating point (settings.targetCpu;
// docs/deploy.md, "The deployment answer at the autoscaler's target"), the same for `run`
// and `deploy` (bench/methods/pair.js) and for `app --instance` (bench/app/app.js): both started
// and warmed closed loop by the caller, then (1) the rate at which the baseline uses its
// target share of the quota (or holds the requests in flight its concurrency target allows,
// where that comes first), searched in short steps of the pair (bench/rates/operating-point.js),
// and both sent it for the measured windows (phase 'base'); (2) where the candidate's cost
// there is not within OWN_TOLERANCE of the baseline's, the rate at which its share is the
// baseline's, and both sides sent their own (phase 'own'). Every step goes on the point,
// kept in learned.operatingPoints; the figures are analysis/operating-point.js's.
const pair = require('../measure/pair-windows');
const op = require('./operating-point');
const { scheduleState } = require('../../analysis/pair');
const { instanceUsPerRequest } = require('../../lib/instances');

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
    ...(t.kept !== undefined && { kept: t.kept, unchecked: t.unchecked }),
    mismatches: t.mismatches,
    lost: t.lost,
    countedWindows: result.windows.filter((w) => w.counted).length,
  };
}

// The onWindow callback of a pair: each window's samples go on the candidate's record as they
// come, and the record is saved, so an interrupted run keeps them. At a target (settings with
// instance and targetCpu), each side's µs of an instance per request at whichever of the
// autoscaler's targets binds first, and which (lib/instances.js instanceUsPerRequest): what
// analysis/operating-point.js reads the figure from.
function windowKeeper(io, other, at, phase, settings = null) {
  const atTarget = (x) => {
    const cost = (side) =>
      instanceUsPerRequest(
        side === 'candidate'
          ? { cpuUs: x.instance?.cpuUsPerRequest, busyUs: x.busyUsPerRequest }
          : { cpuUs: x.partnerInstance?.cpuUsPerRequest, busyUs: x.partnerBusyUsPerRequest },
        settings.instance,
        settings.targetCpu,
      );
    const [me, partner] = [cost('candidate'), cost('baseline')];
    return {
      ...x,
      ...(me && { instanceUsPerRequest: Math.round(me.us * 10) / 10, bound: me.bound }),
      ...(partner && { partnerInstanceUsPerRequest: Math.round(partner.us * 10) / 10, partnerBound: partner.bound }),
    };
  };
  return (w) => {
    let samples = pair.windowSamples([w], at);
    if (settings?.instance && settings.targetCpu) samples = samples.map(atTarget);
    other.samples.push(...(phase ? samples.map((x) => ({ ...x, phase })) : samples));
    io.save();
  };
}

// One step of the operating point's search (op.searchOperatingPoint's measure): the pair at
// `rate` for a short warm-up and one window -> the share of the quota side `at` used there.
function searchStep({ common, settings: s, io, block, label }, at, who) {
  const target = s.targetCpu;
  return async (rate) => {
    io.status(`block ${block + 1}: ${label}: ${rate} req/s each, reading ${who}'s share of its quota`);
    const r = await pair.measurePair({ ...common, rate, windows: 1, maxWindows: 1, warmupWindows: SEARCH_WARMUP });
    const w = r.windows.at(-1);
    // The share over the step's warm-up after its first half-window and its window: one
    // window's share moves by a fifth from second to second (docs/deploy.md). The share of
    // the CPU target or of the concurrency target, whichever binds first.
    const load = op.spanLoad([...r.warmup.slice(1), ...r.windows], at, s.instance, target);
    return {
      share: load?.share ?? null,
      bound: load?.bound,
      // Behind on its own side (the other side falling behind says nothing of this one).
      behind: Boolean(w) && scheduleState(w.members[at]) === 'behind',
    };
  };
}

// measureAtTarget({ common, members, base, other, label, warm, settings, block, group,
// found, io }) -> the point. common: measurePair's arguments for this pair (servers in
// member order, configs, load, windowS, signal, loadPids); label: the candidate as the
// progress line names it; warm: the closed-loop warm-up's req/s per burst (the first guess
// when found has no earlier point of this baseline); found: the run's operating points,
// this pair's appended; io: { status(text), save(), warn(text), refresh(), stopped() }.
// The samples go on base's and other's records.
async function measureAtTarget({ common, members, base, other, label, warm, settings: s, block, group, found, io }) {
  const target = s.targetCpu;
  const baseAt = members.indexOf(base);
  const otherAt = members.indexOf(other);
  const point = { block, group, baseline: base.id, candidate: other.id, target };
  found.push(point);
  const earlier = found.filter((p) => p.baseline === base.id && p.base?.rate).at(-1)?.base.rate;
  point.base = await op.searchOperatingPoint({
    start: earlier ?? FIRST_GUESS * warm.at(-1),
    target,
    measure: searchStep({ common, settings: s, io, block, label }, baseAt, base.strategy ?? base.name),
    signal: common.signal,
  });
  io.save();
  // rates: [baseline's, candidate's]; both the same in phase 'base'.
  const measureAt = async ([baseRate, rate], phase, again = false) => {
    // A second try at the candidate's rate replaces the first one's windows.
    if (again) other.samples = other.samples.filter((x) => !(x.block === block && x.phase === phase));
    const each = baseRate === rate ? `${rate} req/s each` : `${rate} req/s, ${base.strategy ?? base.name} ${baseRate}`;
    io.status(`block ${block + 1}: ${label} with ${base.strategy ?? base.name} at ${each} (${phase})`);
    const rates = members.map((c) => (c === base ? baseRate : rate));
    const at = { of: otherAt, partner: baseAt, partnerId: base.id, block, group, rate, partnerRate: baseRate };
    const result = await pair.measurePair({
      ...common,
      ...(baseRate === rate ? { rate } : { rates }),
      windows: s.windows,
      onWindow: windowKeeper(io, other, at, phase, s),
    });
    members.forEach((config, i) => {
      config.samples.push(pairSample(result, members, i, { block, group, rate: rates[i], phase }));
    });
    for (const w of result.windows.filter((x) => !x.counted))
      io.warn(`pair windows dropped: ${pair.DROP_WARNINGS[w.dropKind]}`);
    io.refresh();
    return result;
  };
  const baseRate = point.base.rate;
  let measured = io.stopped() ? null : await measureAt([baseRate, baseRate], 'base');
  // Whether the candidate is at its own operating point at the baseline's rate: its CPU
  // per request ÷ the baseline's in the same windows (= its share of the quota ÷ the
  // baseline's), paired, since both move by a fifth from window to window. Beyond
  // OWN_TOLERANCE each side is sent its own rate at once: the baseline its operating
  // point, the candidate the rate at which its share would be the baseline's (the
  // search's log-log slope); again where it fell behind there or its share, paired with
  // the baseline's in the same windows, was still beyond the search's tolerance.
  let rate = baseRate;
  for (let attempt = 0; measured && !io.stopped() && attempt <= OWN_ATTEMPTS; attempt++) {
    const ws = measured.windows;
    const behind = ws.filter((w) => scheduleState(w.members[otherAt]) === 'behind').length > ws.length / 2;
    // The candidate's share ÷ the baseline's: at the same rate its cost, at its own the
    // shares' ratio (the rates' ratio put back).
    const relative = op.pairedCost(ws, otherAt, baseAt, s.instance, target) * (rate / baseRate);
    if (attempt === 0) point.candidateAtBase = { cost: relative, behind };
    const limit = attempt === 0 ? OWN_TOLERANCE : op.TOLERANCE;
    if (!Number.isFinite(relative) || (!behind && Math.abs(relative - 1) <= limit) || attempt === OWN_ATTEMPTS)
      break;
    const from = { rate, relative, behind };
    const backoff = behind ? op.BEHIND_BACKOFF : 1;
    rate = Math.max(1, Math.round(rate * backoff * relative ** (-1 / op.DEFAULT_SLOPE)));
    point.own = { rate, from };
    io.save();
    measured = await measureAt([baseRate, rate], 'own', attempt > 0);
  }
  io.save();
  return point;
}

module.exports = { measureAtTarget, pairSample, windowKeeper };
