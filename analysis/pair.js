'use strict';
// What a pair at a fixed rate (bench/measure/pair-windows.js) says about latency, and when the load
// generator could have made it. The CPU ratio of a pair is the duet's arithmetic on its
// counted windows (analysis/summary.js duetRatios); here: per block (a pair of fresh
// processes), the latencies of its timed windows merged exactly (HDR histograms), the
// generator's lateness merged the same way, and the rules that decide what is published.
//
// The generator's rule (docs/how-it-measures.md, "The load generator is part of the
// measurement"). Every latency is timed from the request's intended send time, so it
// holds the generator's own lateness (intended time -> the generator noticed the request
// was due). Both servers of a pair get their requests at the same instants, in an order
// that alternates, so the lateness is the same for both:
//   - a server's own percentile (p50, p99 of `als` at this rate) is published only when,
//     in every counted block, the generator's lateness at that percentile was at most
//     LATENESS_SHARE of the baseline's at the same percentile: the generator made at most
//     a tenth of it (every block, because the rule reads the latency it guards: the blocks
//     that pass it are the slow ones);
//   - the added latency (candidate minus baseline, paired by block) cancels the lateness
//     common to both, so it is published for a block when the generator kept its schedule
//     (lateness p99 at most ADDED_LATENESS_P99_MS: every request left within about a
//     millisecond of its time); the A/A of the pair shows that no difference is made by
//     the generator (`ctxbench aa --method pair`).
// A block that fails a rule is "generator-bound" for that figure, with the lateness.
const hdr = require('hdr-histogram-js');
const { describe, oneSample, mean } = require('./stats');
const { percentiles, newHistogram, HELD_MIN } = require('../lib/histogram');
const { CLIENT_BOUND_CPU } = require('./summary');

const LATENESS_SHARE = 0.1;
const ADDED_LATENESS_P99_MS = 1;
const KEYS = ['p50', 'p90', 'p99', 'p99_9'];
const ALPHA = 0.05;

const isPairWindow = (s) => Boolean(s) && s.kind === 'window' && s.method === 'pair';
const isPairConfig = (c) => Boolean(c) && (c.samples || []).some(isPairWindow);

const decode = (b64) => hdr.decodeFromCompressedBase64(b64);
const round3 = (x) => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : null);

function merged(windows, key) {
  const h = newHistogram();
  for (const w of windows) if (typeof w[key] === 'string') h.add(decode(w[key]));
  return h;
}

// Whether a member kept its schedule over a set of windows: at least HELD_MIN of its due
// requests sent (the pair's window rule, summed).
function heldOver(windows, key) {
  const due = windows.reduce((a, w) => a + (w[key]?.due || 0), 0);
  const sent = windows.reduce((a, w) => a + (w[key]?.sent || 0), 0);
  return { due, sent, sentRatio: due ? sent / due : null, held: due > 0 && sent >= HELD_MIN * due };
}

// Off its schedule in a window: fewer than HELD_MIN of its due requests sent (behind), or
// more than its due ones by the same share and a request (catching up on a queue it built
// before: at a rate above the schedule's, so not a window of that rate either).
function scheduleState(m) {
  if (!m || !(m.due > 0)) return null;
  if (m.sent < HELD_MIN * m.due) return 'behind';
  return m.sent > m.due / HELD_MIN + 1 ? 'catching-up' : null;
}
const offSchedule = (m) => scheduleState(m) !== null;

// The blocks in which the candidate could not serve the rate its baseline kept: no window
// of the block counted, and in at least half of them the candidate was off its schedule
// while its baseline was not. Why per block: summed over its windows (heldOver) a candidate
// that falls behind and then drains its queue looks held: dd-trace at HOP=pg in the io
// study sent nearly all its due requests over its windows while a block's worth waited for
// a connection at the end of each window (docs/how-it-measures.md, "The pair at a fixed
// rate"; "Figures that code comments carried" in docs/investigations.md).
function blocksNotServed(windows) {
  const byBlock = new Map();
  for (const w of windows) byBlock.set(w.block, [...(byBlock.get(w.block) || []), w]);
  let notServed = 0;
  for (const ws of byBlock.values()) {
    const alone = ws.filter((w) => offSchedule(w.schedule) && !offSchedule(w.partnerSchedule)).length;
    if (!ws.some((w) => w.counted) && alone >= ws.length / 2) notServed++;
  }
  return { notServed, blocks: byBlock.size };
}

// The windows whose latencies are the servers': the counted ones, and in a block that
// has a counted window, those dropped only because a server was off its schedule. A
// server that falls behind for a moment and catches up is what a p99 is about (its queued
// requests are timed from their intended send times); dropping those windows took the
// queue out of the tail. A window whose load CPU was saturated (its timestamps wait for
// the CPU) or that had errors is not timed. Whether the rate was served at all is the
// block rule's (blocksNotServed), not this.
function timedWindows(ws) {
  if (!ws.some((w) => w.counted)) return [];
  const trusted = (w) =>
    !(Number.isFinite(w.loadCpu) && w.loadCpu >= CLIENT_BOUND_CPU) &&
    !(w.errors > 0) &&
    !(w.partnerSchedule?.errors > 0);
  return ws.filter((w) => w.counted || (trusted(w) && (offSchedule(w.schedule) || offSchedule(w.partnerSchedule))));
}

// blocks(config) -> [{ block, counted, candidate: percentiles, baseline: percentiles,
//   lateness: percentiles, absoluteOk: { p50: bool, … }, addedOk, held: { candidate,
//   baseline } }] per block of the config's pair windows.
function pairBlocks(config) {
  const windows = (config.samples || []).filter(isPairWindow);
  const byBlock = new Map();
  for (const w of windows) {
    if (!byBlock.has(w.block)) byBlock.set(w.block, []);
    byBlock.get(w.block).push(w);
  }
  return [...byBlock]
    .sort((a, b) => a[0] - b[0])
    .map(([block, ws]) => {
      const counted = ws.filter((w) => w.counted);
      const timed = timedWindows(ws);
      const candidate = percentiles(merged(timed, 'histogram'));
      const baseline = percentiles(merged(timed, 'partnerHistogram'));
      const lateness = percentiles(merged(timed, 'latenessHistogram'));
      const absoluteOk = Object.fromEntries(
        KEYS.map((k) => [
          k,
          counted.length > 0 &&
            lateness[k] !== null &&
            baseline[k] !== null &&
            lateness[k] <= LATENESS_SHARE * baseline[k],
        ]),
      );
      return {
        block,
        windows: ws.length,
        counted: counted.length,
        candidate,
        baseline,
        lateness,
        absoluteOk,
        addedOk: counted.length > 0 && lateness.p99 !== null && lateness.p99 <= ADDED_LATENESS_P99_MS,
        held: { candidate: heldOver(ws, 'schedule'), baseline: heldOver(ws, 'partnerSchedule') },
      };
    });
}

// Geometric mean over blocks with the t-interval of the log means (latencies are positive
// and right-skewed), as analysis/latency.js does for rate-mode runs.
function level(values) {
  const d = describe(values.map((x) => Math.log(x)));
  if (!d.n) return null;
  const back = (x) => round3(Math.exp(x));
  return { estimate: back(d.mean), ci95: d.ci95 ? d.ci95.map(back) : null, n: d.n };
}

// pairLatencySummary(config, baselineConfig) -> the shape of analysis/latency.js's
// latencySummary for a pair-measured configuration (the report's latency tables read both),
// plus `generator` (the lateness and how many blocks each rule left out) and `candidateHeld`
// (whether it is the candidate, not its baseline, that could not keep the rate).
function pairLatencySummary(config, baselineConfig = null) {
  const blocks = pairBlocks(config);
  const windows = (config.samples || []).filter(isPairWindow);
  const cand = heldOver(windows, 'schedule');
  const base = heldOver(windows, 'partnerSchedule');
  const served = blocksNotServed(windows);
  const candidateHeld = cand.held && served.notServed === 0;
  const mismatches = windows.reduce((a, s) => a + (s.mismatches || 0), 0);
  const lost = windows.reduce((a, s) => a + (s.lost || 0), 0);
  const late = blocks.filter((b) => b.counted).map((b) => b.lateness);
  const out = {
    unit: 'block',
    method: 'pair',
    units: blocks.length,
    rate: config.rate ?? windows[0]?.rate ?? null,
    load: config.load ?? null,
    held: {
      held: candidateHeld && base.held,
      scheduled: cand.due,
      sent: cand.sent,
      sentRatio: cand.sentRatio,
      answeredRatio: cand.sentRatio,
      clientLagP99: late.length ? Math.max(...late.map((l) => l.p99)) : null,
      minRatio: HELD_MIN,
      failing: [],
    },
    candidateHeld,
    baselineHeld: base.held,
    blocksNotServed: served.notServed,
    mismatches,
    lost,
    broken: false,
    generator: generatorOf(blocks, late),
    percentiles: null,
    baselinePercentiles: null,
    added: null,
    judgement: null,
  };
  if (!base.held) {
    out.judgement = { reason: 'baseline not held' };
    return out;
  }
  if (!candidateHeld) {
    out.judgement = { reason: 'fell behind', blocksNotServed: served.notServed, blocks: served.blocks };
    return out;
  }
  // Every counted block must pass: the rule reads the latency it guards (a block passes
  // when the baseline's percentile is large against the generator's lateness), so a mean
  // over the blocks that pass would be a mean over the slow ones (docs/how-it-measures.md,
  // "The load generator is part of the measurement").
  const counted = blocks.filter((b) => b.counted);
  out.percentiles = ownPercentiles(counted, 'candidate');
  out.baselinePercentiles = ownPercentiles(counted, 'baseline');
  if (baselineConfig) {
    out.added = addedLatency(blocks, baselineConfig, base);
    out.judgement = addedJudgement(out);
  }
  return out;
}

// The generator's lateness over the counted blocks (`late`) and how many blocks each rule left out.
function generatorOf(blocks, late) {
  return {
    latenessP50: late.length ? round3(mean(late.map((l) => l.p50))) : null,
    latenessP99: late.length ? round3(Math.max(...late.map((l) => l.p99))) : null,
    // The rule's numbers: a server's own percentile where the generator's lateness at it is at
    // most latenessShare of the baseline's; the added latency where its lateness p99 is at most
    // addedLatenessP99Ms.
    rule: { latenessShare: LATENESS_SHARE, addedLatenessP99Ms: ADDED_LATENESS_P99_MS },
    absoluteBound: Object.fromEntries(
      KEYS.map((k) => [k, blocks.filter((b) => b.counted && !b.absoluteOk[k]).length]),
    ),
    addedBound: blocks.filter((b) => b.counted && !b.addedOk).length,
  };
}

// One side's percentiles over the counted blocks: each only where every block passes the
// generator's rule for it.
function ownPercentiles(counted, side) {
  return Object.fromEntries(
    KEYS.map((k) => {
      const ok = counted.filter((b) => b.absoluteOk[k] && Number.isFinite(b[side][k]) && b[side][k] > 0);
      const l = ok.length === counted.length ? level(ok.map((b) => b[side][k])) : null;
      return [k, l ? { ...l, thin: false, generatorBound: 0 } : null];
    }),
  );
}

// The added latency (candidate minus baseline, paired by block) over the blocks where the
// generator kept its schedule.
function addedLatency(blocks, baselineConfig, base) {
  const usable = blocks.filter((b) => b.addedOk);
  return {
    baseline: baselineConfig.id ?? null,
    held: base.held,
    ...Object.fromEntries(
      KEYS.map((k) => {
        const diffs = usable.map((b) => b.candidate[k] - b.baseline[k]);
        const t = oneSample(diffs);
        const d = describe(diffs);
        return [
          k,
          { estimate: round3(d.mean), ci95: d.ci95 ? d.ci95.map(round3) : null, pValue: t.pValue, n: diffs.length },
        ];
      }),
    ),
  };
}

// The judgement of the added latency at percentile k (as analysis/latency.js judges it).
function addedJudgement(s, k = 'p99') {
  const x = s.added?.[k];
  if (!x || x.n === 0) {
    return { reason: 'generator-bound', latenessP99: s.generator.latenessP99, boundMs: ADDED_LATENESS_P99_MS };
  }
  if (x.pValue === null || x.pValue === undefined) return { reason: 'too few', unit: 'blocks' };
  if (x.pValue >= ALPHA) return { reason: 'no difference' };
  return { reason: 'significant', addedMs: x.estimate };
}

// A pair run's baseline: its own latencies, from its partner histograms in every pair it
// was in (each pair has its own fresh baseline process), merged per block.
function pairBaselineSummary(baselineConfig, candidates) {
  const windows = candidates.flatMap((c) =>
    (c.samples || []).filter((s) => isPairWindow(s) && s.partner === baselineConfig.id),
  );
  if (!windows.length) return null;
  const byBlock = new Map();
  const perBlock = new Map();
  for (const w of windows) perBlock.set(`${w.block}/${w.group}`, [...(perBlock.get(`${w.block}/${w.group}`) || []), w]);
  for (const w of [...perBlock.values()].flatMap(timedWindows)) {
    if (!byBlock.has(w.block)) byBlock.set(w.block, []);
    byBlock.get(w.block).push(w);
  }
  const blocks = [...byBlock.values()].map((ws) => ({
    p: percentiles(merged(ws, 'partnerHistogram')),
    late: percentiles(merged(ws, 'latenessHistogram')),
  }));
  const held = heldOver(windows, 'partnerSchedule');
  // Every block must pass, as for a candidate's own percentiles (pairLatencySummary).
  const percentilesOut = Object.fromEntries(
    KEYS.map((k) => {
      const ok = blocks.filter((b) => b.late[k] !== null && b.p[k] > 0 && b.late[k] <= LATENESS_SHARE * b.p[k]);
      const l = ok.length === blocks.length ? level(ok.map((b) => b.p[k])) : null;
      return [k, l ? { ...l, thin: false, generatorBound: 0 } : null];
    }),
  );
  return {
    unit: 'block',
    method: 'pair',
    units: blocks.length,
    rate: baselineConfig.rate ?? windows[0].rate,
    load: baselineConfig.load ?? null,
    held: {
      held: held.held,
      scheduled: held.due,
      sent: held.sent,
      sentRatio: held.sentRatio,
      answeredRatio: held.sentRatio,
      clientLagP99: blocks.length ? Math.max(...blocks.map((b) => b.late.p99 ?? 0)) : null,
      minRatio: HELD_MIN,
      failing: [],
    },
    mismatches: 0,
    lost: 0,
    broken: false,
    percentiles: held.held ? percentilesOut : null,
    added: null,
    judgement: held.held ? null : { reason: 'rate not held' },
  };
}

// The generator's own lateness over the pair windows beside one baseline (partner id), counted
// or not: the range of the windows' p99 (the progress lines print each) and whether any
// passed the bound the added latency needs. A rate no window kept counts no block, so
// pairLatencySummary's `generator` (counted blocks) says nothing of it; this does. null
// without such windows.
function generatorLateness(configs, partner) {
  const p99 = configs
    .flatMap((c) => (c.samples || []).filter((w) => isPairWindow(w) && w.partner === partner))
    .map((w) => w.lateness?.p99)
    .filter(Number.isFinite);
  if (!p99.length) return null;
  const max = Math.max(...p99);
  return {
    p99Min: round3(Math.min(...p99)),
    p99Max: round3(max),
    windows: p99.length,
    boundMs: ADDED_LATENESS_P99_MS,
    bound: max > ADDED_LATENESS_P99_MS,
  };
}

module.exports = {
  generatorLateness,
  pairLatencySummary,
  pairBaselineSummary,
  pairBlocks,
  blocksNotServed,
  scheduleState,
  isPairWindow,
  isPairConfig,
  LATENESS_SHARE,
  ADDED_LATENESS_P99_MS,
};
