'use strict';
// What a run's page shows beyond each configuration's summary (analysis/summary.js): the
// warm-up each process needed, the precision achieved, the per-configuration detail in
// autocannon's layout, how the duet ratios were measured (with the same configurations
// measured one after the other, when kept), and regime shifts in a baseline's series.
// report/sections/run.js formats these objects.
const stats = require('./stats');
const { pairedRatio, summaryOf, samplePairs, invertRatio } = require('./summary');
const { baselineFor, armOf } = require('./comparable');

const { isNum } = stats;
const validSamples = (config) => (config.samples || []).filter((s) => s && isNum(s.rps));
const isAaTwin = (config) => config.arm === 'aa';
const windowsOf = (config) => (config.samples || []).filter((x) => x && x.kind === 'window');

// Warm-up bursts per process (the steady rule of bench/measure/warmup.js): { min, max, median }
// or null. The median is the upper middle of the sorted counts.
function warmupCounts(run) {
  const counts = (run.configs || [])
    .flatMap((c) => (c.processes || []).map((p) => (Array.isArray(p.warmup) ? p.warmup.length : null)))
    .filter(isNum);
  if (!counts.length) return null;
  const sorted = [...counts].sort((a, b) => a - b);
  return { min: sorted[0], max: sorted.at(-1), median: sorted[Math.floor(sorted.length / 2)] };
}

// How precise a set of ratios is, from their half-widths (or spreads): { median (the
// lower middle), worst }, or null when none is a number.
function widthSummary(widths) {
  const w = widths.filter(isNum).sort((a, b) => a - b);
  if (!w.length) return null;
  return { median: w[Math.floor((w.length - 1) / 2)], worst: w[w.length - 1] };
}

// The half-widths of the "% of baseline" intervals in percentage points.
const precisionAchieved = (rows) => widthSummary(rows.map((r) => r.summary.ratio && r.summary.ratio.halfWidthPct));

// The spread of per-round figures across rounds (not per-second variation).
function acrossRounds(values) {
  const v = values.filter(isNum);
  if (!v.length) return null;
  const d = stats.describe(v);
  return {
    p2_5: stats.quantile(v, 0.025),
    p50: d.median,
    p97_5: stats.quantile(v, 0.975),
    p99: stats.quantile(v, 0.99),
    avg: d.mean,
    stdev: d.sd,
    max: Math.max(...v),
  };
}

const LATENCY_COLUMNS = ['p2_5', 'p50', 'p97_5', 'p99', 'avg', 'stdev', 'max'];

// One configuration in autocannon's layout: latency columns (each the median across
// rounds of what autocannon reported), req/s and bytes/s across rounds, RSS, the load
// generator's highest CPU, requests served. null without valid samples.
function configDetail(config) {
  const samples = validSamples(config);
  if (!samples.length) return null;
  const latency = Object.fromEntries(
    LATENCY_COLUMNS.map((k) => [k, stats.median(samples.map((x) => x.latency && x.latency[k]))]),
  );
  const loadgen = samples.map((x) => x.loadgenCpu).filter(isNum);
  const requests = samples.map((x) => x.requests).filter(isNum);
  return {
    rounds: samples.length,
    latency,
    rps: acrossRounds(samples.map((x) => x.rps)),
    bytesPerSec: acrossRounds(samples.map((x) => x.bytesPerSec)),
    rssMB: stats.median(samples.map((x) => x.rssMB)),
    loadgenCpuMax: loadgen.length ? Math.max(...loadgen) : null,
    requests: requests.length ? requests.reduce((a, b) => a + b, 0) : null,
  };
}

// The depth sweep's latency: the median across samples of autocannon's mean latency.
const meanLatency = (config) => stats.median(validSamples(config).map((x) => x.latency && x.latency.avg));

function tally(xs) {
  const m = new Map();
  for (const x of xs) m.set(x, (m.get(x) || 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1]);
}

// How a duet run measured its ratios: windows counted and dropped (and why), the warm-up
// and life of a pair, the CPU share each server got, the A/A twins, the arms whose
// shared-CPU req/s and CPU per request disagree, and the same configurations measured one
// after the other (sequential: the companion { file, run }, or null). null when the run
// is not a duet or has no windows.
function duetMethod(run, rows, sequential = null) {
  if (run.settings?.method !== 'duet') return null;
  const arms = rows.filter((r) => windowsOf(r.config).length);
  if (!arms.length) return null;
  const all = arms.flatMap((r) => windowsOf(r.config));
  const counted = all.filter((w) => w.counted);
  const pairTimes = run.configs.flatMap((c) =>
    (c.processes || [])
      .filter((p) => p.startedAt && p.endedAt)
      .map((p) => (Date.parse(p.endedAt) - Date.parse(p.startedAt)) / 1000),
  );
  const warm = run.configs
    .flatMap((c) => (c.processes || []).map((p) => (Array.isArray(p.warmup) ? p.warmup.length : null)))
    .filter(isNum);
  const share = (key) => stats.median(counted.map((w) => w[key]));
  // The arm's share of its pair's CPU, median over counted windows.
  const pairShare = (r) =>
    stats.median(
      windowsOf(r.config)
        .filter((w) => w.counted)
        .map((w) => w.share / (w.share + w.partnerShare)),
    );
  const differ = rows
    .filter((r) => r.summary.sharedRatio && r.summary.disagree && !isAaTwin(r.config))
    .map((r) => ({ ...r, share: pairShare(r) }));
  return {
    windows: all.length,
    counted: counted.length,
    // Why windows were dropped, the same reasons together: [[reason, count]], most first.
    dropped: tally(
      all
        .filter((w) => !w.counted)
        .map((w) =>
          String(w.dropped)
            .replace(/server \d+/, 'a server')
            .replace(/\d+%/g, 'N%'),
        ),
    ),
    warmup: warm.length ? { min: Math.min(...warm), max: Math.max(...warm), median: stats.median(warm) } : null,
    pairSeconds: pairTimes.length ? stats.median(pairTimes) : null,
    shares: { arm: share('share'), partner: share('partnerShare'), loadgen: share('loadgenCpu') },
    aa: rows
      .filter((r) => isAaTwin(r.config) && r.summary.ratio)
      .map((r) => {
        const q = r.summary.ratio;
        return { ...r, covers: Array.isArray(q.ci95) && q.ci95[0] <= 1 && q.ci95[1] >= 1 };
      }),
    differ,
    // The explanation measured here holds where the arm's process took more (or less)
    // than its half of the CPU; elsewhere the two figures differ for a reason not known.
    uneven: differ.some((r) => Math.abs(r.share - 0.5) >= 0.005),
    sequential: sequential ? sequentialTwin(rows, sequential) : null,
  };
}

// This duet run's ratios beside the same configurations measured one after the other.
function sequentialTwin(rows, { file, run }) {
  const seq = new Map((run.configs || []).map((c) => [c.id, summaryOf(c, run.configs, run.settings?.baseline)]));
  const pairs = rows
    .filter((r) => r.summary.ratio && !isAaTwin(r.config) && seq.get(r.config.id)?.ratio)
    .map((r) => ({ config: r.config, sequential: seq.get(r.config.id).ratio, duet: r.summary.ratio }));
  if (!pairs.length) return null;
  return {
    file,
    blocks: Math.max(0, ...(run.configs || []).map((c) => seq.get(c.id)?.ratio?.blocks ?? 0)) || null,
    measuringSeconds: run.measuringSeconds ?? null,
    commit: run.environment?.commit ?? null,
    rows: pairs,
    medianHalfWidth: {
      sequential: stats.median(pairs.map((p) => p.sequential.halfWidthPct)),
      duet: stats.median(pairs.map((p) => p.duet.halfWidthPct)),
    },
  };
}

// A baseline's samples in time order (schema 2: seq; schema 1: round).
function timeOrder(samples) {
  const key = (x) => (Number.isInteger(x.seq) ? x.seq : x.round);
  return validSamples({ samples })
    .slice()
    .sort((a, b) => key(a) - key(b));
}

// A level shift in a baseline's series (stats.levelShift) splits the run into two
// regimes; each ratio of that group is then computed per regime, because a busy machine
// can change a ratio as well as the level, and one average would hide that.
// -> [{ config (the baseline), unit, first: [from, to], second: [from, to], shift, rows:
//    [{ config, perRegime: [ratio, ratio], whole }] }]
function regimeShifts(rows, baseline) {
  const out = [];
  for (const b of rows.filter((r) => armOf(r.config) === baseline)) {
    const series = timeOrder(b.config.samples || []);
    const shift = stats.levelShift(series.map((x) => x.rps));
    if (!shift) continue;
    const unit = Number.isInteger(series[0].seq) ? 'samples' : 'rounds';
    const label = (i) => (unit === 'rounds' ? series[i].round : i);
    const position = new Map(series.map((x, i) => [Number.isInteger(x.seq) ? `s${x.seq}` : `r${x.round}`, i]));
    const regimeOf = (x) => {
      const i = position.get(Number.isInteger(x.pairSeq) ? `s${x.pairSeq}` : `r${x.round}`);
      return i === undefined ? null : i < shift.at ? 0 : 1;
    };
    const compared = rows
      .filter((x) => x !== b && baselineFor(x.config, [b.config], baseline) === b.config)
      .map((r) => {
        const samples = validSamples(r.config);
        return {
          config: r.config,
          perRegime: [0, 1].map((k) =>
            pairedRatio(
              samples.filter((x) => regimeOf(x) === k),
              b.config.samples,
            ),
          ),
          whole: r.summary.ratio,
        };
      });
    out.push({
      config: b.config,
      unit,
      first: [label(0), label(shift.at - 1)],
      second: [label(shift.at), label(series.length - 1)],
      shift,
      rows: compared,
    });
  }
  return out;
}

// The App Engine study's "Impact" row: a strategy's mean latency ÷ its baseline's, each sample
// against the adjacent baseline burst it is paired with (as its ratio is), log ratios
// averaged per block, t-interval over blocks: { estimate, ci95, … } (stats.twoLevel) or null.
function latencyImpact(config, configs, baseline) {
  const b = baselineFor(config, configs, baseline);
  if (!b || b === config) return null;
  const avg = (x) => x?.latency?.avg;
  const ok = (s, x) => isNum(avg(s)) && avg(s) > 0 && isNum(avg(x)) && avg(x) > 0;
  const r = stats.twoLevel(
    samplePairs(config.samples, b.samples, ok).map(({ sample, base, unit }) => ({
      block: unit,
      d: Math.log(avg(sample)) - Math.log(avg(base)),
    })),
  );
  return r.estimate === null ? null : r;
}

// A sequential run's CPU column read like its throughput: the baseline's server CPU per
// request ÷ this configuration's (summary.cpuRatio inverted, its interval 1/upper–1/lower),
// so below 1 costs more, as % of baseline does. null without a CPU ratio.
function cpuOfBaseline(summary) {
  const c = summary?.cpuRatio;
  if (!c || !isNum(c.estimate) || c.estimate <= 0) return null;
  const r = invertRatio(c);
  return { ...r, ci95: Array.isArray(c.ci95) && c.ci95.every((x) => isNum(x) && x > 0) ? r.ci95 : null };
}

module.exports = {
  cpuOfBaseline,
  latencyImpact,
  warmupCounts,
  widthSummary,
  precisionAchieved,
  configDetail,
  LATENCY_COLUMNS,
  meanLatency,
  duetMethod,
  regimeShifts,
};
