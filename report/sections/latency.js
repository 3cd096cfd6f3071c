'use strict';
// The results.md section of a rate-mode run (`ctxbench run --rate/--load`, preset
// `latency`): latency at a given load instead of throughput at saturation. report/index.js
// uses it in place of the run section for runs whose samples came from a rate driver.
const fs = require('node:fs');
const path = require('node:path');
const f = require('../format');
const { isRateConfig, PERCENTILES } = require('../../analysis/latency');
const { latencySummaries } = require('../../analysis');
const { latencyVerdictText } = require('../verdict-text');
const { loadChart } = require('../charts');

const LABEL = { p50: 'p50', p90: 'p90', p99: 'p99', p99_9: 'p99.9' };

// A pair run (--method pair) is at a fixed rate too, but its figure is a CPU ratio with
// latencies beside it: the run section shows it (report/sections/run/pair.js).
function isRateRun(run) {
  if (!run || run.kind !== 'run' || run.settings?.method === 'pair') return false;
  if (run.settings && (run.settings.rates || run.settings.loads)) return true;
  return Array.isArray(run.configs) && run.configs.some(isRateConfig);
}

function loadKey(c) {
  return c.load !== null && c.load !== undefined ? c.load : c.rate;
}

function loadLabel(c) {
  if (c.load !== null && c.load !== undefined)
    return `${Math.round(c.load * 1000) / 10}% of capacity (${f.int(c.rate)} req/s)`;
  return `${f.int(c.rate)} req/s`;
}

// What tells the rows of one load apart: the strategy, and whatever else varies.
function rowLabeller(configs) {
  const varies = (k) => new Set(configs.map((c) => c[k])).size > 1;
  const extra = ['framework', 'hop', 'nodeLabel'].filter(varies);
  return (c) =>
    [c.strategy ?? c.id, ...extra.map((k) => c[k])].filter((x) => x !== null && x !== undefined).join(' · ');
}

function percentileCell(s, k) {
  const p = s.percentiles?.[k];
  if (!p) return f.DASH;
  return f.withCi(p.estimate, p.ci95, f.num) + (p.thin ? ' *' : '');
}

function addedCell(s, k = 'p99') {
  const a = s.added?.[k];
  if (!a || !f.isNum(a.estimate)) return f.DASH;
  const sign = (x) => (x > 0 ? '+' : x < 0 ? '−' : '') + f.num(Math.abs(x));
  return a.ci95 ? `${sign(a.estimate)} [${sign(a.ci95[0])}…${sign(a.ci95[1])}]` : sign(a.estimate);
}

function idsCell(config, s) {
  const bad = s.mismatches + s.lost;
  if (bad === 0) return '✅ 0';
  const text = `${f.int(s.mismatches)} mismatched, ${f.int(s.lost)} lost`;
  // Not broken: the control that must leak, or a strategy without context (`none`).
  return s.broken ? `❌ ${text}` : `⚠ ${text} (expected)`;
}

function heldCell(s) {
  const h = s.held;
  const pct = (x) => f.pctOf(x);
  // The client's own lateness is in every latency; say so when it is not negligible.
  const late =
    f.isNum(h.clientLagP99) && h.clientLagP99 >= 1 ? `; client late up to ${f.num(h.clientLagP99)} ms (p99)` : '';
  return (
    `${h.held ? '✅' : '❌'} ${f.int(h.sent)}/${f.int(h.scheduled)} sent (${pct(h.sentRatio)}), ` +
    `${pct(h.answeredRatio)} answered${late}`
  );
}

function meta(run, ctx) {
  const e = run.environment || {};
  const parts = [];
  if (ctx.file) parts.push(`from ${f.code(ctx.file)}`);
  if (run.status) parts.push(`status ${run.status}`);
  if (e.date) parts.push(String(e.date).slice(0, 10));
  if (e.cpu || e.cpuModel) parts.push(`${e.cpu || e.cpuModel}${e.cores ? ` × ${e.cores}` : ''}`);
  if (run.settings?.driver) parts.push(`driver ${run.settings.driver}`);
  return `*${parts.join(' · ')}*`;
}

function capacitySection(run) {
  const cap = run.learned?.capacity;
  if (!cap || !Array.isArray(cap.groups)) return '';
  const rows = cap.groups.map((g) => [g.baseline, f.int(g.rps), (g.bursts || []).map(f.int).join(', ')]);
  return [
    f.heading(3, 'Capacity of the baseline (measured first)'),
    '',
    `Loads are fractions of this: ${cap.method}.`,
    '',
    f.table(['Baseline configuration', 'Capacity req/s', 'Bursts req/s'], rows, ['l', 'r', 'r']),
  ].join('\n');
}

function loadTables(rows, label) {
  const byLoad = new Map();
  for (const r of rows) {
    const k = loadKey(r.config);
    if (!byLoad.has(k)) byLoad.set(k, []);
    byLoad.get(k).push(r);
  }
  const out = [];
  for (const k of [...byLoad.keys()].sort((a, b) => a - b)) {
    const group = byLoad.get(k);
    out.push(f.heading(3, `Latency at ${loadLabel(group[0].config)}`), '');
    const body = group.map(({ config, s }) => {
      const depth = config.depth ?? f.DASH;
      if (!s.held.held) {
        return [label(config), depth, 'rate not held', f.DASH, f.DASH, f.DASH, f.DASH, heldCell(s), idsCell(config, s)];
      }
      const added = s.added ? `${addedCell(s)} (${latencyVerdictText(s.judgement)})` : 'baseline';
      const percentiles = PERCENTILES.map(({ key }) => percentileCell(s, key));
      return [label(config), depth, ...percentiles, added, heldCell(s), idsCell(config, s)];
    });
    out.push(
      f.table(
        ['Strategy', 'Depth', 'p50 ms', 'p90 ms', 'p99 ms', 'p99.9 ms', 'Added p99 ms vs baseline', 'Rate held', 'Ids'],
        body,
        ['l', 'r', 'r', 'r', 'r', 'r', 'l', 'l', 'l'],
      ),
      '',
    );
  }
  return out.join('\n').trimEnd();
}

// The App Engine study's layout: rows strategy, columns call depth, at the load nearest
// 50% (or the first rate).
function studyTable(rows, baselineArm) {
  const depths = [...new Set(rows.map((r) => r.config.depth).filter(f.isNum))].sort((a, b) => a - b);
  if (depths.length < 2) return '';
  const keys = [...new Set(rows.map((r) => loadKey(r.config)))];
  const useLoad = rows.some((r) => r.config.load !== null && r.config.load !== undefined);
  const pick = useLoad
    ? keys.reduce((a, b) => (Math.abs(b - 0.5) < Math.abs(a - 0.5) ? b : a))
    : keys.sort((a, b) => a - b)[0];
  const at = rows.filter((r) => loadKey(r.config) === pick);
  const strategies = [...new Set(at.map((r) => r.config.strategy))];
  strategies.sort((a, b) => (a === baselineArm ? -1 : b === baselineArm ? 1 : 0));
  const cell = (strategy, depth, fn) => {
    const r = at.find((x) => x.config.strategy === strategy && x.config.depth === depth);
    if (!r) return f.DASH;
    if (!r.s.held.held) return 'rate not held';
    return fn(r);
  };
  const out = [
    f.heading(
      3,
      `By call depth at ${useLoad ? `${Math.round(pick * 1000) / 10}% load` : `${f.int(pick)} req/s`} (the ` +
        `App Engine study's layout)`,
    ),
    '',
  ];
  for (const k of ['p50', 'p99']) {
    const body = [];
    for (const st of strategies)
      body.push([`${st} ${LABEL[k]} ms`, ...depths.map((d) => cell(st, d, (r) => percentileCell(r.s, k)))]);
    for (const st of strategies.filter((x) => x !== baselineArm)) {
      body.push([
        `added by ${st} (${LABEL[k]} ms)`,
        ...depths.map((d) =>
          cell(st, d, (r) =>
            r.s.broken
              ? 'context broken'
              : `${addedCell(r.s, k)}${r.s.added?.[k]?.pValue < 0.05 ? ' (significant)' : ''}`,
          ),
        ),
      ]);
    }
    out.push(f.table(['', ...depths.map((d) => `Call depth ${d}`)], body, ['l', ...depths.map(() => 'r')]), '');
  }
  return out.join('\n').trimEnd();
}

async function chartSection(rows, ctx) {
  if (!ctx || !ctx.chartsDir) return '';
  const keys = new Set(rows.map((r) => loadKey(r.config)));
  if (keys.size < 2) return '';
  const useLoad = rows.some((r) => r.config.load !== null && r.config.load !== undefined);
  const unit = rows[0]?.s.unit ?? 'round';
  const byDepth = new Map();
  for (const r of rows) {
    if (!r.s.held.held || !r.s.percentiles) continue;
    const d = `${r.config.depth ?? ''}`;
    if (!byDepth.has(d)) byDepth.set(d, []);
    const p = r.s.percentiles.p99;
    byDepth.get(d).push({
      series: r.config.strategy ?? r.config.id,
      x: useLoad ? r.config.load * 100 : r.config.rate,
      y: p.estimate,
      lo: p.ci95?.[0] ?? null,
      hi: p.ci95?.[1] ?? null,
      blocks: r.s.units ?? null,
    });
  }
  const out = [f.heading(3, 'p99 latency vs load'), ''];
  fs.mkdirSync(ctx.chartsDir, { recursive: true });
  for (const [depth, points] of byDepth) {
    if (!points.length) continue;
    const file = path.join(ctx.chartsDir, `${ctx.name || 'latency'}-p99-vs-load${depth ? `-d${depth}` : ''}.svg`);
    const svg = await loadChart({
      title: `p99 latency vs load${depth ? ` at call depth ${depth}` : ''} (geometric mean of ${unit}s, 95% CI)`,
      points: points.sort((a, b) => a.x - b.x),
      xTitle: useLoad ? "load (% of the baseline's capacity)" : 'rate (req/s)',
      yTitle: 'p99 latency (ms)',
    });
    fs.writeFileSync(file, svg);
    if (Array.isArray(ctx.written)) ctx.written.push(file);
    out.push(
      `![p99 latency vs ` +
        `load${depth ? ` at depth ${depth}` : ''}](` +
        `${encodeURI(ctx.relativeChartPath ? ctx.relativeChartPath(file) : file)})`,
      '',
    );
  }
  return out.length > 2 ? out.join('\n').trimEnd() : '';
}

const summaries = latencySummaries;

async function render(run, ctx = {}) {
  const baselineArm = run.settings?.baseline;
  const label = rowLabeller((run.configs || []).filter((c) => c && Array.isArray(c.samples)));
  const rows = summaries(run);
  const unit = rows[0]?.s.unit ?? 'round';
  // Two runs of one preset with different drivers must not share a heading.
  const driver = run.settings?.driver && run.settings.driver !== 'autocannon' ? ` (${run.settings.driver} driver)` : '';
  const out = [f.heading(2, `${run.title || 'Latency at a given load'}${driver}`), '', meta(run, ctx), ''];
  if (run.command) out.push(f.fence(run.command, 'sh'), '');
  out.push(
    '**Rate mode (open loop).** Requests were sent on a fixed schedule whatever the answers did, and each latency is ' +
      "counted from the request's *intended* send time, so a stall counts in full (no coordinated omission). " +
      `Percentiles are read from HDR histograms merged per ${unit} (not averaged); figures are the geometric ` +
      `mean over ${unit}s with a 95% interval across them. ` +
      '**Added p99** is the strategy minus its baseline at the same load, paired ' +
      unit +
      ' by ' +
      unit +
      '. ' +
      "**Client late** is the load generator's own lateness (p99, worst sample): it is part of every latency " +
      "and not the server's doing. " +
      'A configuration that did not keep its rate (fewer than 99% of the scheduled requests sent within the ' +
      'window, or answered) reports no latencies: its queue grew, so any percentile would only measure how ' +
      'long the sample ran.',
    '',
  );
  if (rows.some((r) => r.s.percentiles && Object.values(r.s.percentiles).some((p) => p.thin))) {
    out.push(
      `\\* fewer requests per ${unit} than ~10 beyond that percentile: the figure is imprecise whatever its ` +
        `interval says.`,
      '',
    );
  }
  const notHeld = rows.filter((r) => !r.s.held.held);
  if (notHeld.length) {
    out.push(
      `**Rate not held** by ${notHeld.length} configuration${notHeld.length === 1 ? '' : 's'} ` +
        `(${notHeld.map((r) => f.code(r.config.id)).join(', ')}): no latencies are reported for ` +
        `${notHeld.length === 1 ? 'it' : 'them'}.`,
      '',
    );
  }
  const cap = capacitySection(run);
  if (cap) out.push(cap, '');
  // A stand-in run one at a time (--instance above half the server CPU): its capacity
  // within the SLO, as a pair run's page shows it.
  const slo = run.settings?.slo ? await require('./run/capacity').capacitySection(run, ctx) : '';
  if (slo) out.push(slo, '');
  else if (run.settings?.instance) {
    const method = run.settings.method;
    const { standInNote } = require('./run/capacity');
    out.push(standInNote(run.settings.instance, { method, environment: run.environment }), '');
  }
  const study = studyTable(rows, baselineArm);
  if (study) out.push(study, '');
  out.push(loadTables(rows, label), '');
  const chart = await chartSection(rows, ctx);
  if (chart) out.push(chart, '');
  const failed = (run.configs || []).filter((c) => c && c.error);
  if (failed.length) {
    out.push(
      f.heading(3, 'Failed configurations'),
      '',
      ...failed.map((c) => `- ${f.code(c.id)}: ${f.cell(c.error.message)}`),
      '',
    );
  }
  if (Array.isArray(run.warnings) && run.warnings.length)
    out.push(f.heading(3, 'Warnings'), '', ...run.warnings.map((w) => `- ${f.cell(w)}`), '');
  return out.join('\n').trimEnd() + '\n';
}

module.exports = { render, isRateRun, summaries, percentileCell, addedCell, capacitySection };
