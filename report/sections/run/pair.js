'use strict';
// A pair run's summary table (bench/measure/pair-windows.js, analysis/pair.js): per configuration its CPU
// per request at the rate against the baseline beside it, its own latencies and what it
// adds to the baseline's, and the load generator's lateness, which decides what may be
// published.
const f = require('../../format');
const { latencySummaries } = require('../../../analysis');
const { scheduleState } = require('../../../analysis/pair');
const { latencyVerdictText } = require('../../verdict-text');
const { isBaselineRow, strategyCell, uniq, nodeLabel, logOf } = require('./common');
const { verdictCell } = require('./summary');

function leakCell(config, count, carries) {
  if (!carries) return 'n/a';
  return f.isNum(count) ? (count === 0 ? '0' : `⚠ ${f.int(count)}`) : f.DASH;
}

function msCell(p, why) {
  if (!p) return why;
  return f.withCi(p.estimate, p.ci95, f.num);
}

const sign = (x) => (x > 0 ? '+' : x < 0 ? '−' : '') + f.num(Math.abs(x));

function addedCell(s) {
  const a = s?.added?.p99;
  if (!a || !f.isNum(a.estimate)) return latencyVerdictText(s?.judgement) ?? f.DASH;
  const text = a.ci95 ? `${sign(a.estimate)} [${sign(a.ci95[0])}…${sign(a.ci95[1])}]` : sign(a.estimate);
  return `${text}${a.pValue < 0.05 ? ' (significant)' : ''}`;
}

function rateCell(c) {
  const load = f.isNum(c.load) ? ` (${Math.round(c.load * 1000) / 10}%)` : '';
  return `${f.int(c.rate)}${load}`;
}

// The table's columns and their alignment; hop and Node only where they vary.
function pairColumns(base, showHop, showNode) {
  const header = [
    'Strategy',
    'Depth',
    ...(showHop ? ['Hop'] : []),
    ...(showNode ? ['Node'] : []),
    'req/s each (% of capacity)',
    `% of ${base}: CPU/req at the rate [95% CI]`,
    'Verdict',
    'p50 ms',
    'p99 ms',
    `p99 added vs ${base} ms [95% CI]`,
    'Generator late p50 / p99 ms',
    'CPU µs/req',
    'Mismatches',
    'Lost',
  ];
  const align = [
    'l',
    'r',
    ...(showHop ? ['l'] : []),
    ...(showNode ? ['l'] : []),
    'r',
    'r',
    'l',
    'r',
    'r',
    'l',
    'r',
    'r',
    'r',
    'r',
  ];
  return { header, align };
}

// One configuration's row: its CPU ratio at the rate (or that it could not serve it), its
// latencies, the generator's lateness and the ids it lost.
function pairRow({ config: c, summary: s }, { latency, configs, baseline, base, showHop, showNode }) {
  const l = latency.get(c);
  const isBase = isBaselineRow(c, baseline);
  const notHeld =
    l && !isBase && l.candidateHeld === false
      ? `cannot serve ${f.int(c.rate)} req/s (fell ` +
        `behind${l.blocksNotServed ? ` in ${l.blocksNotServed} of ${l.units} blocks` : ''}; ${base} kept it)`
      : null;
  const cpuPerReq = (c.samples || []).filter((x) => x.kind === 'window' && x.counted).map((x) => x.cpuUsPerRequest);
  const baseCpu = configs
    .filter((o) => o !== c)
    .flatMap((o) =>
      (o.samples || [])
        .filter((x) => x.kind === 'window' && x.counted && x.partner === c.id)
        .map((x) => x.partnerCpuUsPerRequest),
    );
  const cpu = (isBase ? baseCpu : cpuPerReq).filter(f.isNum).sort((a, b) => a - b);
  const carries = !['none'].includes(c.strategy);
  return [
    strategyCell(c),
    c.depth,
    ...(showHop ? [c.hop] : []),
    ...(showNode ? [nodeLabel(c)] : []),
    rateCell(c),
    isBase
      ? 'baseline'
      : (notHeld ??
        (s.ratio && f.isNum(s.ratio.estimate) ? f.withCi(s.ratio.estimate, s.ratio.ci95, f.pctOf) : f.DASH)),
    isBase ? '' : notHeld ? '' : verdictCell(s),
    msCell(l?.percentiles?.p50 ?? (isBase ? null : null), l?.percentiles ? 'generator-bound' : f.DASH),
    msCell(l?.percentiles?.p99, l?.percentiles ? 'generator-bound' : f.DASH),
    isBase ? 'baseline' : notHeld ? f.DASH : addedCell(l),
    l?.generator
      ? `${f.num(l.generator.latenessP50)} / ${f.num(l.generator.latenessP99)}`
      : f.isNum(l?.held?.clientLagP99)
        ? `— / ${f.num(l.held.clientLagP99)}`
        : f.DASH,
    cpu.length ? f.num(cpu[cpu.length >> 1]) : f.DASH,
    leakCell(c, s.mismatches, carries),
    leakCell(c, s.lost, carries),
  ];
}

// What every configuration shares, said once above the table.
function commonLine(configs, showHop, showNode) {
  const common = [];
  if (configs.length) common.push(`framework ${f.code(configs[0].framework)}`);
  if (!showHop && configs.length) common.push(`hop ${f.code(configs[0].hop)}`);
  if (configs.length && logOf(configs[0]) !== 'none') common.push(f.code(`LOG=${logOf(configs[0])}`));
  if (!showNode && configs.length) common.push(`Node ${nodeLabel(configs[0])}`);
  return common.length ? `All configurations: ${common.join(', ')}.` : '';
}

// rows: [{ config, summary }] of the run (analysis summaries).
function pairSummarySection(run, rows, baseline) {
  const latency = new Map(latencySummaries(run).map(({ config, s }) => [config, s]));
  const configs = rows.map((r) => r.config);
  const varies = (k) => uniq(configs.map((c) => (k === 'node' ? nodeLabel(c) : c[k]))).length > 1;
  const showHop = varies('hop');
  const showNode = varies('node');
  const base = baseline ? f.code(baseline) : 'baseline';
  const { header, align } = pairColumns(base, showHop, showNode);
  const body = rows.map((row) => pairRow(row, { latency, configs, baseline, base, showHop, showNode }));
  const out = [];
  const common = commonLine(configs, showHop, showNode);
  if (common) out.push(common, '');
  out.push(f.table(header, body, align), '', pairNote(run));
  const early = catchingUpCounted(run);
  if (early.catching)
    out.push(
      '',
      `⚠ ${f.int(early.catching)} of the ${f.int(early.counted)} counted windows of this run are ones in ` +
        `which a server was catching up on a queue (it sent more than its due requests by over 1%): the run was ` +
        `measured before such windows were dropped (3b4128c), so its CPU ratios include them; measure it again ` +
        `for ratios by today's rule.`,
    );
  return out.join('\n');
}

// Runs measured before a window in which a server catches up stopped counting: how many of
// their counted windows are such (the page says so rather than claim today's rule).
function catchingUpCounted(run) {
  const windows = (run.configs || []).flatMap((c) =>
    (c.samples || []).filter((w) => w.kind === 'window' && w.method === 'pair' && w.counted),
  );
  const catching = windows.filter(
    (w) => scheduleState(w.schedule) === 'catching-up' || scheduleState(w.partnerSchedule) === 'catching-up',
  ).length;
  return { catching, counted: windows.length };
}

function pairNote(run) {
  const s = run.settings || {};
  return (
    `*% of baseline* is measured in a **pair at a fixed rate**: the configuration and a fresh baseline ` +
    `process on the server CPU, each sent the same open-loop schedule ` +
    `(${s.connections} connections each at most) at the rate shown from the load CPU, at the same time; per ` +
    `${s.window}-s window, the baseline's server CPU µs per request ÷ this one's ` +
    '(95% = about 5% more CPU per request at this rate: below saturation a request also pays for the wake-ups ' +
    "that serve it, so a strategy's share of the cost is smaller than at saturation). " +
    'A window counts when both servers kept their schedule (at least 99% of their due requests sent and not ' +
    'more than their due ones by the same share and a request, which is catching up on a queue; none answered ' +
    'with an error) and the load CPU (the generator, and PostgreSQL and the downstream service beside it) was ' +
    'busy less than 85% of the time. ' +
    'The log ratios are averaged per block (a pair of fresh processes) and the 95% CI is a t-interval over blocks. ' +
    "*p50*, *p99*: latencies from each request's intended send time, merged per block over the counted " +
    'windows and those a server fell behind or caught up in (its queue is the tail; HDR histograms), ' +
    'geometric mean over blocks; ' +
    "shown only when, in every block, the generator's own lateness at that percentile was at most 10% of the " +
    'baseline\'s ("generator-bound" otherwise). ' +
    "*p99 added*: this configuration's p99 minus its baseline's in the same block (the generator's lateness " +
    "is the same for both and cancels), mean over the blocks where the generator's lateness p99 was at most 1 " +
    'ms; t-interval over blocks. ' +
    "*Generator late*: the load generator's own lateness (intended send time to the moment it noticed the " +
    'request was due), p50 mean and p99 worst over blocks. ' +
    '"cannot serve": the configuration fell behind a rate its baseline kept — in at least one block no window ' +
    'counted and it, not its baseline, was off its schedule in at least half of them; the windows it kept ' +
    'elsewhere are those it caught up in — that is the answer at this rate, and it has no figure there.'
  );
}

module.exports = { pairSummarySection, catchingUpCounted };
