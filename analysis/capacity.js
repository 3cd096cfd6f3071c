'use strict';
// Capacity within an SLO (`--slo p99=100ms`), from a pair run over a ladder of rates
// (bench/measure/pair-windows.js; --instance stand-ins): for each deployment, the highest rate at which its
// chosen percentile stays within the bound, per block (a pair of fresh processes), and its
// 95% interval over blocks; the candidate's as % of the baseline's, paired by block (the
// baseline process beside it in the same pairs); and what that means in instances for a
// stated load. Per rate beside it: the deployment's percentiles, its CPU per request from
// the cgroup's own accounting, the share of CFS periods throttled and the time throttled,
// and its peak memory against the limit.
//
// A block's latencies at a rate come from every measured window of the pair at that rate
// (not only the windows the CPU ratio counts: a deployment that falls behind is over any
// SLO, and its partner's latencies are its own, each held to its own quota). A deployment
// that did not keep the rate there (fewer than 99% of its due requests sent) is over the
// SLO; where the generator's lateness at the percentile was over a tenth of the bound,
// the block has no figure at that rate (analysis/pair.js's rule).
const hdr = require('hdr-histogram-js');
const { describe, mean } = require('./stats');
const { isPairWindow, LATENESS_SHARE } = require('./pair');
const { percentiles, newHistogram, HELD_MIN } = require('../lib/histogram');
const { baselineFor } = require('./comparable');

// Instances for this load, when a run does not say otherwise.
const SERVE_RPS = 1000;
// The widest A/A twin's capacity interval (half of it, in points) at which a capacity ratio
// is published.
const RESOLVES_PP = 10;

function merged(windows, key) {
  const h = newHistogram();
  for (const w of windows) if (typeof w[key] === 'string') h.add(hdr.decodeFromCompressedBase64(w[key]));
  return h;
}

// The configuration a rate variant belongs to: its id without the rate part.
const deploymentOf = (c) => String(c.id).replace(/\/(r\d+(?:\.\d+)?|load\d+(?:\.\d+)?)$/, '');

// One side of the pairs at one rate in one block: { rate, p: {p50…}, held, lateness, instance }.
function sidePoint(windows, side) {
  const own = side === 'candidate';
  const sched = windows.map((w) => (own ? w.schedule : w.partnerSchedule)).filter(Boolean);
  const due = sched.reduce((a, s) => a + s.due, 0);
  const sent = sched.reduce((a, s) => a + s.sent, 0);
  const inst = windows.map((w) => (own ? w.instance : w.partnerInstance)).filter(Boolean);
  const sum = (k) => inst.reduce((a, x) => a + (x[k] || 0), 0);
  const periods = sum('periods');
  return {
    held: due > 0 && sent >= HELD_MIN * due,
    sentRatio: due ? sent / due : null,
    p: percentiles(merged(windows, own ? 'histogram' : 'partnerHistogram')),
    lateness: percentiles(merged(windows, 'latenessHistogram')),
    instance: inst.length
      ? {
          cpuUsPerRequest: mean(inst.map((x) => x.cpuUsPerRequest).filter(Number.isFinite)),
          throttledShare: periods > 0 ? sum('throttled') / periods : null,
          throttledMsPerS: sum('throttledMs') / (windows.reduce((a, w) => a + (w.wallMs || 0), 0) / 1000 || 1),
          memoryPeakMB: Math.max(...inst.map((x) => x.memoryPeakMB ?? 0)),
          oomKills: Math.max(...inst.map((x) => x.oomKills ?? 0)),
        }
      : null,
  };
}

// Whether a point is within the SLO: null when the generator could have made its figure.
function within(point, slo) {
  if (!point.held) return false;
  const v = point.p[slo.key];
  const late = point.lateness[slo.key];
  if (!Number.isFinite(v)) return false;
  if (Number.isFinite(late) && late > LATENESS_SHARE * slo.boundMs) return null;
  return v <= slo.boundMs;
}

// capacityOf(points, slo): points [{ rate, point }] sorted by rate -> { rate, censored:
// null | 'above' (within the SLO at every rate tried: at least this) | 'below' (over it at
// the lowest) | 'generator' (the generator could have made the figure) }. Between the
// last rate within the bound and the first over it, the crossing is interpolated on the
// log of the percentile; where the first one over it did not keep its rate (no figure),
// the last one within stands.
function capacityOf(points, slo) {
  if (!points.length) return null;
  let last = -1;
  for (let i = 0; i < points.length; i++) {
    const ok = within(points[i].point, slo);
    if (ok === null) return { rate: null, censored: 'generator' };
    if (!ok) break;
    last = i;
  }
  if (last < 0) return { rate: points[0].rate, censored: 'below' };
  if (last === points.length - 1) return { rate: points[last].rate, censored: 'above' };
  const a = points[last];
  const b = points[last + 1];
  const va = a.point.p[slo.key];
  const vb = b.point.p[slo.key];
  if (!b.point.held || !(vb > va) || !(va > 0)) return { rate: a.rate, censored: null };
  const f = (Math.log(slo.boundMs) - Math.log(va)) / (Math.log(vb) - Math.log(va));
  return { rate: a.rate + Math.min(1, Math.max(0, f)) * (b.rate - a.rate), censored: null };
}

function overBlocks(values) {
  const d = describe(values.map(Math.log));
  if (!d.n) return null;
  return { estimate: Math.exp(d.mean), ci95: d.ci95 ? d.ci95.map(Math.exp) : null, n: d.n };
}

// A sequential stand-in run's side at one rate in one block: its own open-loop samples
// (analysis/latency.js's rate samples). The generator's lateness is only its p99 there
// (clientLag), which stands for every percentile: the stricter reading.
function samplePoint(samples) {
  if (!samples.length) return null;
  const inst = samples.map((s) => s.instance).filter(Boolean);
  const sum = (k) => inst.reduce((a, x) => a + (x[k] || 0), 0);
  const periods = sum('periods');
  const late = Math.max(...samples.map((s) => s.clientLag?.p99 ?? 0));
  const h = newHistogram();
  for (const s of samples) h.add(hdr.decodeFromCompressedBase64(s.histogram));
  return {
    held: samples.every((s) => s.heldRate?.held),
    sentRatio: mean(samples.map((s) => s.heldRate?.sentRatio).filter(Number.isFinite)),
    p: percentiles(h),
    lateness: { p50: late, p90: late, p99: late, p99_9: late },
    instance: inst.length
      ? {
          cpuUsPerRequest: mean(inst.map((x) => x.cpuUsPerRequest).filter(Number.isFinite)),
          throttledShare: periods > 0 ? sum('throttled') / periods : null,
          throttledMsPerS: sum('throttledMs') / (samples.reduce((a, x) => a + (x.windowMs || 0), 0) / 1000 || 1),
          memoryPeakMB: Math.max(...inst.map((x) => x.memoryPeakMB ?? 0)),
          oomKills: Math.max(...inst.map((x) => x.oomKills ?? 0)),
        }
      : null,
  };
}

// Per counted window of a pair in which the quota did not bind, log(the baseline's CPU per
// request ÷ the candidate's). Why not where it binds: a server throttled in most periods
// uses its whole quota, and two that keep the same rate then read the same CPU per request
// whatever each costs (on F1 stand-ins past the knee every ratio read about 100%, where
// below it `otel` read dearer: docs/investigations.md, "Figures that code comments carried").
const QUOTA_BINDS = 0.5;
const throttled = (x) => (x && x.periods > 0 ? x.throttled / x.periods : 0);
const cpuLogs = (windows) =>
  windows
    .filter(
      (w) =>
        w.counted &&
        w.cpuUsPerRequest > 0 &&
        w.partnerCpuUsPerRequest > 0 &&
        throttled(w.instance) <= QUOTA_BINDS &&
        throttled(w.partnerInstance) <= QUOTA_BINDS,
    )
    .map((w) => Math.log(w.partnerCpuUsPerRequest) - Math.log(w.cpuUsPerRequest));

// CPU per request below the knee: the baseline's ÷ the candidate's (as the duet's and the
// pair's ratios read: 95% = about 5% more CPU per request), over the counted windows of
// the rungs up to the ladder's 100% in which neither's quota bound, per block (geometric
// mean of the window ratios), t-interval over blocks. A cost under the quota, and NOT a
// capacity: the capacity from it (the baseline's SLO crossing × this ratio, tried as issue
// 47's design change) understated a planted fixed cost (test/fixtures/planted-cost.js) on
// F1 stand-ins, whose candidate kept the schedule at far lower rates than `none`. Below the
// knee a Node server spends several times the CPU per request it spends near it (more
// requests per wake-up), and the two servers batch differently, so a ratio read there
// does not carry to the knee (docs/deploy.md, "How precise a capacity within p99 ≤ 100 ms
// is on an F1 stand-in, measured", and "How the ladder and the capacity are made").
const KNEE_LOAD = 1;
function cpuBelowKnee(cells, blocks) {
  const ratios = [];
  const rungs = new Set();
  for (const b of blocks) {
    const logs = cells
      .filter((x) => x.block === b && Array.isArray(x.cpuLogs) && (x.load === null || x.load <= KNEE_LOAD + 1e-9))
      .flatMap((x) => {
        if (x.cpuLogs.length) rungs.add(x.load ?? x.rate);
        return x.cpuLogs;
      });
    if (logs.length) ratios.push(Math.exp(mean(logs)));
  }
  return ratios.length ? { ratio: overBlocks(ratios), rungs: [...rungs].sort((x, y) => x - y) } : null;
}

const isRateSample = (s) => Boolean(s && typeof s.histogram === 'string' && s.heldRate);

// Every deployment's cells: [{ block, rate, load, candidate: point, baseline: point }], with
// the baseline deployment it was compared with. A pair run reads its windows (the
// baseline's side is the partner beside it); a sequential one the samples of each
// configuration and of its baseline at the same rate in the same block.
function cellsOf(run) {
  const configs = (run.configs || []).filter((c) => Array.isArray(c.samples));
  const out = new Map();
  const add = (config, baselineId, cell) => {
    const key = deploymentOf(config);
    if (!out.has(key)) out.set(key, { config, baselineId, cells: [] });
    out.get(key).cells.push(cell);
  };
  if (run.settings.method === 'pair') {
    for (const c of configs) {
      const windows = c.samples.filter(isPairWindow);
      if (!windows.length) continue;
      for (const block of new Set(windows.map((w) => w.block))) {
        for (const rate of new Set(windows.map((w) => w.rate))) {
          const ws = windows.filter((w) => w.block === block && w.rate === rate);
          if (ws.length)
            add(c, deploymentOf({ id: ws[0].partner }), {
              block,
              rate,
              load: c.load ?? null,
              candidate: sidePoint(ws, 'candidate'),
              baseline: sidePoint(ws, 'baseline'),
              cpuLogs: cpuLogs(ws),
            });
        }
      }
    }
    return out;
  }
  const arm = run.settings.baseline;
  for (const c of configs) {
    if ((c.arm ?? c.strategy) === arm) continue;
    const base = baselineFor(c, configs, arm);
    const mine = c.samples.filter(isRateSample);
    if (!base || !mine.length) continue;
    for (const block of new Set(mine.map((s) => s.block))) {
      const cand = samplePoint(mine.filter((s) => s.block === block));
      const b = samplePoint(base.samples.filter((s) => isRateSample(s) && s.block === block));
      if (cand && b)
        add(c, deploymentOf(base), { block, rate: c.rate, load: c.load ?? null, candidate: cand, baseline: b });
    }
  }
  return out;
}

// One deployment's capacity at each block, each side (the highest rate within the SLO), and
// the candidate's over the baseline's where both are positive.
function blockCapacities(blocks, rates, at, slo) {
  const capacities = { candidate: [], baseline: [] };
  const ratios = [];
  for (const b of blocks) {
    const caps = {};
    for (const side of ['candidate', 'baseline']) {
      const pts = rates.map((rate) => ({ rate, point: at(b, rate, side) })).filter((x) => x.point);
      caps[side] = capacityOf(pts, slo);
      if (caps[side]) capacities[side].push({ block: b, ...caps[side] });
    }
    if (caps.candidate?.rate > 0 && caps.baseline?.rate > 0)
      ratios.push({
        block: b,
        value: caps.candidate.rate / caps.baseline.rate,
        censored: caps.candidate.censored || caps.baseline.censored,
      });
  }
  return { capacities, ratios };
}

// One side's figures at each rate of the ladder, over the blocks.
function ratesOf(cells, blocks, rates, at, side) {
  return rates.map((rate) => {
    const pts = blocks.map((b) => at(b, rate, side)).filter(Boolean);
    const pick = (k) =>
      overBlocks(pts.filter((p) => p.held && Number.isFinite(p.p[k]) && p.p[k] > 0).map((p) => p.p[k]));
    const inst = pts.map((p) => p.instance).filter(Boolean);
    return {
      rate,
      load: cells.find((x) => x.rate === rate)?.load ?? null,
      held: pts.every((p) => p.held),
      heldBlocks: pts.filter((p) => p.held).length,
      blocks: pts.length,
      p50: pick('p50'),
      p90: pick('p90'),
      p99: pick('p99'),
      p99_9: pick('p99_9'),
      latenessP99: Math.max(...pts.map((p) => p.lateness.p99 ?? 0)),
      ...(inst.length && {
        cpuUsPerRequest: mean(inst.map((x) => x.cpuUsPerRequest).filter(Number.isFinite)),
        throttledShare: mean(inst.map((x) => x.throttledShare).filter(Number.isFinite)),
        throttledMsPerS: mean(inst.map((x) => x.throttledMsPerS).filter(Number.isFinite)),
        memoryPeakMB: Math.max(...inst.map((x) => x.memoryPeakMB)),
        oomKills: Math.max(...inst.map((x) => x.oomKills)),
      }),
    };
  });
}

const summarizeCaps = (list) => ({
  ...(overBlocks(list.filter((x) => x.rate > 0).map((x) => x.rate)) ?? { estimate: null, ci95: null, n: 0 }),
  censored: list.filter((x) => x.censored).map((x) => ({ block: x.block, censored: x.censored })),
});

// One deployment's row (without instances and resolvable, which read the other rows or the
// load to serve), and its baseline's capacities at each block.
function capacityRow(run, deployment, { config: first, baselineId, cells }, slo) {
  const blocks = [...new Set(cells.map((x) => x.block))].sort((a, b) => a - b);
  const rates = [...new Set(cells.map((x) => x.rate))].sort((a, b) => a - b);
  const at = (block, rate, side) => cells.find((x) => x.block === block && x.rate === rate)?.[side] ?? null;
  const { capacities, ratios } = blockCapacities(blocks, rates, at, slo);
  const row = {
    deployment,
    strategy: first.strategy,
    depth: first.depth,
    hop: first.hop,
    aa: first.arm === 'aa',
    baselineId,
    capacity: summarizeCaps(capacities.candidate),
    baselineCapacity: summarizeCaps(capacities.baseline),
    ratio: ratios.length
      ? { ...overBlocks(ratios.map((x) => x.value)), censored: ratios.filter((x) => x.censored).length }
      : null,
    cpuBelowKnee: run.settings.method === 'pair' ? cpuBelowKnee(cells, blocks) : null,
    rates: ratesOf(cells, blocks, rates, at, 'candidate'),
    baselineRates: ratesOf(cells, blocks, rates, at, 'baseline'),
  };
  return { row, baselineCaps: capacities.baseline };
}

// The instances a row's deployment needs to serve `serve` requests a second, and its baseline's.
function instancesOf(r, serve) {
  const n = (cap) => (cap > 0 ? Math.ceil(serve / cap) : null);
  // Rounded up at one load, a few % of cost is often no instance at all: per 100 of the
  // baseline's (100 ÷ the ratio, its interval the ratio's) is the scale a fleet reads.
  const per100 =
    r.ratio?.estimate > 0
      ? {
          estimate: 100 / r.ratio.estimate,
          ci95: r.ratio.ci95 ? [100 / r.ratio.ci95[1], 100 / r.ratio.ci95[0]] : null,
        }
      : null;
  return r.capacity.estimate && r.baselineCapacity.estimate
    ? {
        serve,
        candidate: n(r.capacity.estimate),
        baseline: n(r.baselineCapacity.estimate),
        candidateRange: r.capacity.ci95 ? [n(r.capacity.ci95[1]), n(r.capacity.ci95[0])] : null,
        per100,
      }
    : null;
}

// sloCapacity(run, { serve }) -> null unless the run has settings.slo and rate-mode
// figures (pair or sequential); else { slo, instance, serve, rule, rows: [{ deployment,
// strategy, depth, hop, baselineId, capacity: { estimate, ci95, n, censored: [...] },
// baselineCapacity, ratio: { estimate, ci95, n, censored } | null, instances, rates: [...],
// baselineRates: [...] }], baselines }
function sloCapacity(run, { serve = SERVE_RPS } = {}) {
  const slo = run?.settings?.slo;
  // At the autoscaler's operating point there is no ladder: analysis/operating-point.js.
  if (!slo || !['pair', 'sequential'].includes(run.settings.method) || run.settings.targetCpu) return null;
  const rows = [];
  const baselines = new Map();
  for (const [deployment, entry] of cellsOf(run)) {
    const { row, baselineCaps } = capacityRow(run, deployment, entry, slo);
    rows.push(row);
    if (!baselines.has(row.baselineId)) baselines.set(row.baselineId, []);
    baselines.get(row.baselineId).push(...baselineCaps);
  }
  for (const r of rows) r.instances = instancesOf(r, serve);
  // A capacity is published only where the A/A twin's (a baseline against a baseline, at
  // the same depth) is within RESOLVES_PP of 100%: on an F1 stand-in it read ±60–170 pp
  // (docs/deploy.md, "Capacity within an SLO"), and a figure that wide decides nothing.
  for (const r of rows) {
    const twin = rows.find((x) => x.aa && x.depth === r.depth && x.hop === r.hop);
    const ci = twin?.ratio?.ci95;
    const halfWidthPp = ci ? ((ci[1] - ci[0]) / 2) * 100 : null;
    r.resolvable = { twinHalfWidthPp: halfWidthPp, ok: halfWidthPp !== null && halfWidthPp <= RESOLVES_PP };
  }
  return {
    slo,
    instance: run.settings.instance ?? null,
    method: run.settings.method,
    serve,
    resolvesPp: RESOLVES_PP,
    // The CPU per request below the knee (a pair's): the rates it reads up to (a share of
    // the ladder) and the throttled share of CFS periods beyond which a window is not read.
    ...(run.settings.method === 'pair' && { cpuRule: { kneeLoad: KNEE_LOAD, quotaBinds: QUOTA_BINDS } }),
    rows,
    baselines: [...baselines].map(([id, caps]) => ({
      id,
      ...overBlocks(caps.filter((x) => x.rate > 0).map((x) => x.rate)),
    })),
  };
}

module.exports = { sloCapacity, capacityOf, within, deploymentOf, cpuBelowKnee, SERVE_RPS };
