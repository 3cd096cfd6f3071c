'use strict';
// The words of the headline's figure columns (report/strategy-summary.js): each column's
// title, its picture's panel and its note under the table.
const f = require('./format');

const pct = (x) => `${Math.round(x * 100)}%`;
const on = (col) => (col?.machine ? ` Measured on ${col.machine}.` : '');

// The words of each figure column analysis/strategy-summary.js FIGURE_COLUMNS declares, by
// its key: its short title, its cell, its note under the table (what it measures, on which
// machine), and the picture's panel for a % column. A column added there is worded here.
const COLUMN_TEXT = {
  shallow: {
    title: (summary) => `Depth ${summary.depths.shallow}`,
    panel: (summary) => `CPU, depth ${summary.depths.shallow}`,
    note: (summary, col) => {
      const s = summary.settings;
      const method =
        s.method === 'duet'
          ? 'CPU per request in a duet, the strategy and a fresh baseline process under load at once on one CPU'
          : s.method === 'instructions'
            ? 'instructions per request'
            : 'throughput';
      return (
        `Depth ${summary.depths.shallow}: the default run at ${summary.depths.shallow} nested calls, HOP=${s.hop}, ` +
        `Node ${s.node}: ${method}, as % of ${f.code(summary.baseline)} [95% CI]; read it like ` +
        `throughput on one CPU: 95% = about 5% more CPU per request.${on(col)}`
      );
    },
  },
  deep: {
    title: (summary) => `Depth ${summary.depths.deep}`,
    panel: (summary) => `CPU, depth ${summary.depths.deep}`,
    note: (summary, col) =>
      `Depth ${summary.depths.deep}: the same run and measure at ${summary.depths.deep} nested calls.${on(col)}`,
  },
  io: {
    title: () => 'Real I/O',
    panel: (summary) => `Real I/O (${summary.settings.io.hop}), CPU`,
    note: (summary, col) => {
      const io = summary.settings.io;
      return io.method === 'pair'
        ? `Real I/O: every level a real round trip (\`HOP=${io.hop}\`, depth ${io.depth}; the study's page has ` +
            `the other drivers), CPU per request of the strategy and a fresh ${f.code(io.baseline)} process ` +
            `sent the same open-loop schedule at once at ${pct(io.load ?? 0)} of ${f.code(io.baseline)}'s ` +
            `capacity, as % of it, read like the depth columns; "cannot serve": the strategy fell behind a rate ` +
            `${f.code(io.baseline)} kept.${on(col)}`
        : `Real I/O: \`HOP=${io.hop}\` (depth ${io.depth}), throughput of each configuration alone, ` +
            `sequential blocks, as % of ${f.code(io.baseline)}.${on(col)}`;
    },
  },
  latency: {
    title: () => 'p99 added',
    note: (summary, col) => {
      const l = summary.settings.latency;
      return l.method === 'pair'
        ? `p99 added (ms): the strategy's p99 minus a fresh ${f.code(l.baseline)} process's on the same ` +
            `open-loop schedule at once (HOP=${l.hop}, depth ${l.depth}), at ${pct(l.load)} of ` +
            `${f.code(l.baseline)}'s ` +
            (l.knee ? `open-loop knee${l.instance ? ` on ${l.instance} stand-ins` : ''}` : 'capacity in a pair') +
            `, paired by block over the blocks in which the load generator's own lateness p99 was at most 1 ` +
            `ms [95% CI]; "cannot serve": the strategy fell behind a rate ${f.code(l.baseline)} kept, which is ` +
            `the answer; "generator-bound" / "too few blocks": the generator was late, no latency published ` +
            `(docs/method.md).${on(col)}`
        : `p99 added (ms): open-loop load at ${pct(l.load)} of the baseline's capacity (depth ${l.depth}, vs ` +
            `${f.code(l.baseline)}); "rate not held": the server or its baseline fell behind.${on(col)}`;
    },
  },
  deploy: {
    title: ({ settings: { deployment: d } }) => `${d.instance} at its autoscaling target (depth ${d.depth})`,
    panel: (summary) => `${summary.settings.deployment.instance} at its autoscaling target`,
    note: (summary, col) => deploymentNote(summary, col),
  },
  stores: {
    title: (summary) => `${summary.settings.stores.stores} live stores`,
    panel: (summary) => `${summary.settings.stores.stores} live stores`,
    note: (summary, col) =>
      `${summary.settings.stores.stores} live stores: ${summary.settings.stores.stores} other AsyncLocalStorage ` +
      `instances alive, Node ${summary.settings.stores.node}, as % of ${f.code(summary.settings.stores.baseline)}.` +
      `${on(col)}`,
  },
};

function deploymentNote(summary, col) {
  const d = summary.settings.deployment;
  const target = `${Math.round((d.targetCpu ?? 0) * 100)}%`;
  // The tail there is the study page's: pooled over blocks, a p99 under CFS throttling is set
  // by the stalls a block catches or not, and its interval is that wide.
  const widths = summary.rows
    .flatMap((r) => (r.deploy?.p99 ? [[r.deploy.p99.candidate, r.deploy.p99.candidateCi]] : []))
    .filter(([p, ci]) => p > 0 && ci)
    .map(([p, ci]) => Math.max(p - ci[0], ci[1] - p) / p);
  const tail = widths.length
    ? ` The p99 each side's users see there is on the study page, not here: pooled over the blocks its 95% ` +
      `intervals reach ±${Math.round(Math.max(...widths) * 100)}% of the figure (a throttled period stalls a ` +
      'server, and a block catches such stalls or not).'
    : '';
  const moved = summary.rows.filter((r) => r.deploy?.movesWithBase).map((r) => f.code(r.strategy));
  const marked = moved.length
    ? ` ⚠ (${moved.join(', ')}): ${moved.length > 1 ? 'their' : 'its'} blocks' figures followed ` +
      `${f.code(d.baseline)}'s CPU per request there from block to block, so ${moved.length > 1 ? 'their' : 'its'} ` +
      "interval holds for this run's mix of machine states, not for every run on this machine (the study page " +
      'gives the slope).'
    : '';
  const unheld = summary.rows.some((r) => r.deploy?.repro && !r.deploy.repro.consistent)
    ? ' "not reproduced": the study\'s second run on the same machine read the figure given, a difference ' +
      "beyond what both runs' noise explains (the study's repro page)."
    : '';
  return (
    `${d.instance} at its autoscaling target (depth ${d.depth}): each strategy and a fresh ${f.code(d.baseline)} ` +
    `process on ${d.instance} stand-ins (${(d.periodUs / 1000).toLocaleString('en-US')}-ms CFS period; ` +
    `docs/deploy.md) sent open-loop load at once, ${f.code(d.baseline)} at the rate at which it uses ${target} of ` +
    `its quota (App Engine's default CPU target) and the strategy there or, where it cannot keep that one, at ` +
    `its own: ${f.code(d.baseline)}'s CPU per request ÷ the strategy's in the same windows, its throughput per ` +
    `instance at the same target, read like the depth columns [95% CI]. It is not their figure: there a ` +
    `stand-in serves a few hundred requests a second on a quarter of a CPU and spends several times the CPU a ` +
    `request it spends at saturation, so a strategy's extra CPU is another share of it (docs/deploy.md). That ` +
    'share depends on the machine too: what a lightly loaded request costs differs between machines and, on ' +
    "some, from block to block, and the dearer strategies' figures move with it (the study page marks where), " +
    'so the figure holds on the machine named here, not on every one (docs/deploy.md).' +
    `${marked}${unheld}${tail}${on(col)}`
  );
}

// The figure columns the headline shows, in their declared order.
const shownColumns = (summary) => (summary.columns || []).filter((c) => c.shown);

module.exports = { COLUMN_TEXT, shownColumns };
