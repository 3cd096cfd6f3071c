'use strict';
// The words of the headline's figure columns (report/strategy-summary.js): each column's
// title, its picture's panel and its note under the table.
const f = require('./format');

const pct = (x) => `${Math.round(x * 100)}%`;

// A % column's head, in words that cannot be read backwards (issue 75.2): a share of the
// baseline's throughput per CPU (its CPU per request ÷ the strategy's), never of its CPU.
const share = (summary, per = 'CPU') => `% of ${f.code(summary.baseline)}'s throughput per ${per}`;

// The words of each figure column analysis/strategy-summary.js FIGURE_COLUMNS declares, by
// its key: its short title (the notes' and the check's name for it), its head in the table,
// its note under the table (what it measures, on which machine; at most about 300 characters,
// the detail in docs/reading.md and the study pages), and the picture's panel for a % column.
// A column added there is worded here.
const COLUMN_TEXT = {
  shallow: {
    title: (summary) => `Depth ${summary.depths.shallow}`,
    head: (summary) => `Depth ${summary.depths.shallow}: ${share(summary)}`,
    panel: (summary) => `Throughput per CPU, depth ${summary.depths.shallow}`,
    note: (summary) => {
      const s = summary.settings;
      const base = f.code(summary.baseline);
      const [measure, half] =
        s.method === 'duet'
          ? [
              `${base}'s CPU per request ÷ the strategy's, each beside a fresh ${base} process on one CPU (a duet)`,
              `2× ${base}'s CPU per request`,
            ]
          : s.method === 'instructions'
            ? [`${base}'s instructions per request ÷ the strategy's`, `2× ${base}'s instructions per request`]
            : [`the strategy's throughput ÷ ${base}'s`, `half ${base}'s throughput`];
      return (
        `Depth ${summary.depths.shallow}: the default run at ${summary.depths.shallow} nested calls, HOP=${s.hop}, ` +
        `Node ${s.node}: ${measure} [95% CI]; below 100% it costs more: 50% = ${half}.`
      );
    },
  },
  deep: {
    title: (summary) => `Depth ${summary.depths.deep}`,
    head: (summary) => `Depth ${summary.depths.deep}: ${share(summary)}`,
    panel: (summary) => `Throughput per CPU, depth ${summary.depths.deep}`,
    note: (summary) =>
      `Depth ${summary.depths.deep}: the same run and measure at ${summary.depths.deep} nested calls.`,
  },
  io: {
    title: () => 'Real I/O',
    head: (summary) => `Real I/O: ${share(summary)}`,
    panel: (summary) => `Real I/O (${summary.settings.io.hop}), throughput per CPU`,
    note: (summary) => {
      const io = summary.settings.io;
      const base = f.code(io.baseline);
      return io.method === 'pair'
        ? `Real I/O: every level a real round trip (\`HOP=${io.hop}\`, depth ${io.depth}; other drivers on its ` +
            `page), the strategy and a fresh ${base} sent one open-loop schedule at ${pct(io.load ?? 0)} of ` +
            `${base}'s capacity, read as the depth columns; "cannot serve": it fell behind a rate ${base} ` +
            `kept.`
        : `Real I/O: \`HOP=${io.hop}\` (depth ${io.depth}), throughput of each configuration alone, ` +
            `sequential blocks, as % of ${base}.`;
    },
  },
  latency: {
    title: () => 'p99 added',
    head: () => 'p99 added',
    note: (summary) => {
      const l = summary.settings.latency;
      const base = f.code(l.baseline);
      const where = l.knee ? `open-loop knee${l.instance ? ` on ${l.instance} stand-ins` : ''}` : 'capacity';
      return l.method === 'pair'
        ? `p99 added (ms): the strategy's p99 minus a fresh ${base} process's, one open-loop schedule to both at ` +
            `${pct(l.load)} of ${base}'s ${where} (HOP=${l.hop}, depth ${l.depth}), by block [95% CI]; "at ` +
            `most": the interval holds 0, so its upper end; the other words: docs/reading.md.`
        : `p99 added (ms): open-loop load at ${pct(l.load)} of the baseline's capacity (depth ${l.depth}, vs ` +
            `${base}); "rate not held": the server or its baseline fell behind.`;
    },
  },
  deploy: {
    title: ({ settings: { deployment: d } }) => `${d.instance} at its autoscaling target (depth ${d.depth})`,
    head: (summary) => {
      const d = summary.settings.deployment;
      return `${d.instance} at its autoscaling target (depth ${d.depth}): ${share(summary, 'instance')}`;
    },
    panel: (summary) => `${summary.settings.deployment.instance} at its autoscaling target`,
    note: (summary) => deploymentNote(summary),
  },
  stores: {
    title: (summary) => `${summary.settings.stores.stores} live stores`,
    head: (summary) => `${summary.settings.stores.stores} live stores: ${share(summary)}`,
    panel: (summary) => `${summary.settings.stores.stores} live stores`,
    note: (summary) =>
      `${summary.settings.stores.stores} live stores: ${summary.settings.stores.stores} other AsyncLocalStorage ` +
      `instances alive, Node ${summary.settings.stores.node}, as % of ${f.code(summary.settings.stores.baseline)}.`,
  },
};

// The F1 column's note, and apart from it what its marks say (⚠; docs/reading.md has the rest:
// why it is not the depth columns' figure, and why its p99 stays on the study page).
function deploymentNote(summary) {
  const d = summary.settings.deployment;
  const base = f.code(d.baseline);
  const target = `${Math.round((d.targetCpu ?? 0) * 100)}%`;
  return (
    `${d.instance} at its autoscaling target (depth ${d.depth}): on ${d.instance} stand-ins ` +
    `(${(d.periodUs / 1000).toLocaleString('en-US')}-ms CFS period), ${base}'s CPU per request ÷ the strategy's ` +
    `where ${base} uses ${target} of its quota [95% CI]; not the depth columns' figure, and for this machine ` +
    `only (docs/deploy.md; its p99 on its page).`
  );
}

// ⚠ in the F1 column: the strategies whose blocks followed the baseline's cost there.
function movedNote(summary) {
  const moved = summary.rows.filter((r) => r.deploy?.movesWithBase).map((r) => f.code(r.strategy));
  const shown = (summary.columns || []).some((c) => c.key === 'deploy' && c.shown);
  if (!moved.length || !shown) return [];
  const their = moved.length > 1 ? 'their' : 'its';
  return [
    `⚠ (${moved.join(', ')}): ${their} blocks' figures followed ${f.code(summary.settings.deployment.baseline)}'s ` +
      `CPU per request there from block to block, so ${their} interval holds for this run's mix of machine ` +
      'states, not for every run on this machine (the study page gives the slope).',
  ];
}

// The figure columns the headline shows, in their declared order.
const shownColumns = (summary) => (summary.columns || []).filter((c) => c.shown);

module.exports = { COLUMN_TEXT, shownColumns, movedNote };
