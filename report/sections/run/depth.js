'use strict';
// A run page's depth sweep (the App Engine study's layout), the LOG effect, and the
// charts (SVG files beside the pages).
const fs = require('node:fs');
const path = require('node:path');
const f = require('../../format');
const { depthChart } = require('../../charts');
const { logEffect, meanLatency, isControl, latencyImpact } = require('../../../analysis');
const { BROKEN } = require('../../verdict-text');
const { uniq, strategyOrder, nodeLabel, logOf, groupKey, groupLabel, validSamples } = require('./common');

const share = (x) => `${Math.round(x * 100)}%`;

function depthGroups(rows) {
  const groups = new Map();
  for (const r of rows) {
    const k = groupKey(r.config);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  return [...groups.values()].filter((g) => uniq(g.map((r) => r.config.depth)).length >= 2);
}

// One group's table rows: per strategy its latency and req/s at each depth, then its
// change against the baseline and (the study's curl client) the mean latency's.
function sweepRows(run, g, baseline, strat) {
  const depths = uniq(g.map((r) => r.config.depth)).sort((a, b) => a - b);
  const strategies = uniq(g.map((r) => r.config.strategy)).sort((a, b) => strat(a) - strat(b));
  const at = (s, d) => g.find((r) => r.config.strategy === s && r.config.depth === d);
  const body = [];
  for (const s of strategies) {
    body.push([
      f.code(s) + (isControl(s) ? ' (control)' : ''),
      ...depths.map((d) => {
        const r = at(s, d);
        if (!r || !r.summary.n) return r && r.config.error ? 'failed' : f.DASH;
        const lat = meanLatency(r.config);
        const { estimate, ci95 } = r.summary.rps;
        const pm = ci95 && estimate ? ` [${f.int(ci95[0])}–${f.int(ci95[1])}]` : '';
        return `${f.num(lat)} ms · ${f.int(estimate)}${pm} req/s`;
      }),
    ]);
    const hasRatio = depths.some(
      (d) => at(s, d) && at(s, d).summary.ratio && f.isNum(at(s, d).summary.ratio.estimate),
    );
    if (s !== baseline && strategies.includes(baseline) && hasRatio) {
      body.push([
        `↳ vs ${f.code(baseline)}`,
        ...depths.map((d) => {
          const r = at(s, d);
          const q = r && r.summary.ratio;
          if (!q || !f.isNum(q.estimate)) return f.DASH;
          if (r.summary.broken) return BROKEN;
          if (r.summary.clientBound) return '⚠ client-bound, no verdict';
          const ci = q.ci95 ? ` [${f.change(q.ci95[0])}, ${f.change(q.ci95[1])}]` : '';
          const sig = q.pValue !== null && q.pValue < 0.05 ? '' : ' n.s.';
          return `${f.change(q.estimate)}${ci}${sig}`;
        }),
      ]);
    }
    // The study's own row, where its own method measured: the mean latency's change.
    if (s !== baseline && strategies.includes(baseline) && run.settings?.driver === 'curl') {
      body.push([
        `↳ Impact (mean latency; + = slower) vs ${f.code(baseline)}`,
        ...depths.map((d) => {
          const r = at(s, d);
          const q = r && latencyImpact(r.config, run.configs, baseline);
          if (!q) return f.DASH;
          if (r.summary.broken) return BROKEN;
          // Either side's mean latency the client's queue: their change is the client's too.
          if (r.summary.clientBound || at(baseline, d)?.summary.clientBound) return '⚠ client-bound';
          const ci = q.ci95 ? ` [${f.change(q.ci95[0])}, ${f.change(q.ci95[1])}]` : '';
          return `${f.change(q.estimate)}${ci}${q.pValue !== null && q.pValue < 0.05 ? '' : ' n.s.'}`;
        }),
      ]);
    }
  }
  return { depths, body };
}

function depthSweepSection(run, rows, baseline) {
  const groups = depthGroups(rows);
  if (!groups.length) return '';
  const strat = strategyOrder(run);
  const out = [
    f.heading(3, 'Depth sweep'),
    '',
    'Laid out like the App Engine study (seed 004): one row per strategy, one column per call depth. ' +
      'Cells: mean latency (median across samples) · req/s (geometric mean) [its 95% CI]. ' +
      (run.settings?.driver === 'curl'
        ? `"Impact" rows: the study's own, the mean latency's change against ${
            baseline ? f.code(baseline) : 'the baseline'
          }, each sample against the adjacent baseline burst, log ratios per block, t-interval over blocks. `
        : '') +
      `"vs ${baseline ? f.code(baseline) : 'baseline'}" rows: ` +
      (run.settings?.method === 'duet'
        ? "change in capacity (baseline CPU µs per request ÷ this one's, measured in duet)"
        : 'change in req/s') +
      ` ` +
      `with its 95% CI; n.s. = not significant (p ≥ 0.05).`,
    '',
  ];
  for (const g of groups) {
    const { depths, body } = sweepRows(run, g, baseline, strat);
    if (groups.length > 1) out.push(`**${groupLabel(g[0].config)}**`, '');
    // The study's client is part of what it measured: a curl process a request.
    const busy = g.flatMap((r) => validSamples(r.config).map((x) => x.loadCpu)).filter(f.isNum);
    if (busy.length)
      out.push(
        `The client's own cost: xargs and its curl processes kept the load CPU busy ` +
          `${share(Math.min(...busy))}–${share(Math.max(...busy))} of each measured burst (median ` +
          `${share(busy.sort((a, b) => a - b)[busy.length >> 1])}); a closed loop sends no faster than it ` +
          'spawns curls, so where that CPU is near 100% the figures are the client\'s as much as the server\'s.',
        '',
      );
    out.push(f.table(['Strategy', ...depths.map((d) => `Call depth ${d}`)], body, ['l', ...depths.map(() => 'r')]), '');
  }
  return out.join('\n').trimEnd();
}

// The App Engine study's servers logged a line per level: each strategy's ratio to the
// baseline without and with that (analysis/index.js logEffect).
function logSection(run, baseline) {
  const logged = logEffect(run);
  if (!logged) return '';
  const base = baseline ? f.code(baseline) : 'the baseline';
  const cell = (r) => (!r ? f.DASH : r.broken ? 'ids lost' : f.withCi(r.estimate, r.ci95, f.pctOf));
  const body = logged.rows.map((r) => [
    f.code(r.strategy) + (isControl(r.strategy) ? ' (control)' : ''),
    ...r.cells.map((c) => (c.none || c.stdout ? `${cell(c.none)} → ${cell(c.stdout)}` : f.DASH)),
  ]);
  return [
    f.heading(4, 'With a log line per level (`LOG=none` → `LOG=stdout`)'),
    '',
    `% of ${base} without and with a Cloud Logging line written at every level, as the App Engine study's ` +
      `servers did. ` +
      `In ${logged.closer} of ${logged.cells} cells (strategies that kept their ids) the logged ratio is nearer 100%` +
      (logged.cells && logged.closer >= 0.8 * logged.cells
        ? `: formatting and writing the lines is a fixed cost per level that ${base} pays too, so it dilutes ` +
          `the context's share of the work — a study that logs at every level sees a smaller relative cost than ` +
          `one that does not.`
        : '.') +
      ' "ids lost": the strategy lost the context there (see the table above), so its cost is not comparable.',
    '',
    f.table(['Strategy', ...logged.depths.map((d) => `Call depth ${d}`)], body, ['l', ...logged.depths.map(() => 'r')]),
  ].join('\n');
}

async function chartsSection(run, rows, ctx) {
  const groups = depthGroups(rows);
  if (!groups.length || !ctx || !ctx.chartsDir) return '';
  const multi = groups.length > 1;
  const points = [];
  for (const g of groups) {
    for (const r of g) {
      if (!r.summary.n) continue;
      points.push({
        series: multi
          ? `${r.config.strategy} ` +
            `(` +
            [
              r.config.framework,
              r.config.hop,
              nodeLabel(r.config),
              ...(logOf(r.config) === 'none' ? [] : [`LOG=${logOf(r.config)}`]),
            ].join('/') +
            `)`
          : r.config.strategy,
        depth: r.config.depth,
        rps: r.summary.rps.estimate,
        lo: r.summary.rps.ci95 ? r.summary.rps.ci95[0] : null,
        hi: r.summary.rps.ci95 ? r.summary.rps.ci95[1] : null,
        p99: r.summary.p99.median,
        blocks: r.summary.blocks || null,
      });
    }
  }
  if (!points.length) return '';
  const strat = strategyOrder(run);
  points.sort((a, b) => strat(a.series.split(' ')[0]) - strat(b.series.split(' ')[0]) || a.depth - b.depth);
  const name = ctx.name || 'run';
  fs.mkdirSync(ctx.chartsDir, { recursive: true });
  const files = [
    {
      file: path.join(ctx.chartsDir, `${name}-throughput.svg`),
      alt: 'Throughput by call depth',
      spec: {
        title: 'Throughput by call depth (geometric mean req/s, 95% CI of the same)',
        y: 'rps',
        yTitle: 'req/s (geometric mean)',
        ci: true,
      },
    },
    {
      file: path.join(ctx.chartsDir, `${name}-p99.svg`),
      alt: 'p99 latency by call depth',
      spec: { title: 'p99 latency by call depth (median of rounds)', y: 'p99', yTitle: 'p99 latency (ms)', ci: false },
    },
  ];
  const out = [f.heading(3, 'Charts'), ''];
  for (const c of files) {
    const svg = await depthChart({ ...c.spec, points: points.filter((p) => f.isNum(p[c.spec.y])) });
    fs.writeFileSync(c.file, svg);
    if (Array.isArray(ctx.written)) ctx.written.push(c.file);
    const rel = ctx.relativeChartPath ? ctx.relativeChartPath(c.file) : c.file;
    out.push(`![${c.alt}](${encodeURI(rel)})`, '');
  }
  return out.join('\n').trimEnd();
}

module.exports = { depthSweepSection, logSection, chartsSection };
