'use strict';
// "What each strategy costs": the table that leads results.md and results/index.html,
// formatted from analysis/index.js strategySummary() (cells: text plus the study page
// each figure comes from). The markdown and the HTML share these cells. Its cells' text
// is report/headline-cells.js, its columns' words headline-columns.js, its notes
// headline-notes.js.
const f = require('./format');
const { idsText, ratioText, depthText, msText, deployText, readingText } = require('./headline-cells');
const { COLUMN_TEXT, shownColumns } = require('./headline-columns');
const { notes, machineLine } = require('./headline-notes');

const CELL_TEXT = { shallow: depthText, deep: depthText, latency: msText, deploy: deployText };

// columns(summary) -> [{ key, title, name?, align, cell(row) -> { text, source?, sort? } }]: the
// headline's columns, Strategy and Keeps the id? first, the Reading last.
function columns(summary) {
  const cols = [
    {
      key: 'strategy',
      title: 'Strategy',
      align: 'l',
      cell: (r) => ({
        // The id a run file knows it by, then the few words that say what the row runs.
        text:
          f.code(r.strategy) +
          (r.label ? `: ${r.label}` : '') +
          (r.control ? ' (control)' : '') +
          (r.userSupplied ? ' (user-supplied)' : ''),
        sort: r.strategy,
      }),
    },
    {
      key: 'ids',
      title: 'Keeps the id?',
      align: 'l',
      cell: (r) => ({
        text: idsText(r.ids),
        source: r.ids.source,
        sort: { kept: 0, none: 1, unmeasured: 2, broken: 3, control: 4 }[r.ids.verdict],
      }),
    },
  ];
  for (const col of shownColumns(summary)) {
    const text = CELL_TEXT[col.key] ?? ratioText;
    cols.push({
      key: col.key,
      // The head says the figure's direction in words; name is the short title the notes use.
      title: COLUMN_TEXT[col.key].head(summary),
      name: COLUMN_TEXT[col.key].title(summary),
      align: 'r',
      cell: (r) =>
        r[col.key]
          ? { text: text(r[col.key]), source: r[col.key].source, sort: r[col.key].estimate ?? 1 }
          : { text: null },
    });
  }
  cols.push({
    key: 'reading',
    title: 'Reading',
    align: 'l',
    cell: (r) => ({ text: readingText(r.findings, summary.settings.marginPct, summary.baseline ?? 'none') }),
  });
  return cols;
}

// The opening picture's points (criterion's way: the change and its interval before the
// table): every figure of a % column the headline shows, as [{ strategy, panel, estimate,
// lo, hi }], one panel per such column, the strategies in the table's order. Cells without
// a figure ("cannot serve", the baseline) are not points.
function picturePoints(summary) {
  const panels = shownColumns(summary)
    .filter((c) => c.unit === '%' && COLUMN_TEXT[c.key].panel)
    .map((c) => [c.key, COLUMN_TEXT[c.key].panel(summary)]);
  const points = [];
  for (const r of summary.rows) {
    for (const [key, panel] of panels) {
      const cell = r[key];
      // A capacity that lay beyond the rates tried ("<", "≥") is a bound, not a point; a level
      // whose interval is wider than itself reads "not resolved" in the table, and is none.
      if (
        !cell ||
        cell.kind === 'baseline' ||
        !f.isNum(cell.estimate) ||
        cell.intervalKind === 'window range' ||
        cell.bound ||
        cell.reads === 'unresolved'
      )
        continue;
      const [lo, hi] = Array.isArray(cell.interval) ? cell.interval : [null, null];
      const p = (x) => (f.isNum(x) ? Math.round(x * 1000) / 10 : null);
      points.push({ strategy: r.strategy, panel, estimate: p(cell.estimate), lo: p(lo), hi: p(hi) });
    }
  }
  return {
    points,
    panels: panels.map(([, title]) => title).filter((t) => points.some((p) => p.panel === t)),
    strategies: summary.rows.map((r) => r.strategy).filter((x) => points.some((p) => p.strategy === x)),
    baseline: summary.baseline ?? 'baseline',
  };
}

// markdown(summary, { link(sourceName) -> href }) -> the section.
// picture: the opening picture's path from the page (report/charts.js costPicture), shown
// above the table.
function markdown(summary, { link = () => null, picture = null } = {}) {
  const cols = columns(summary);
  const rows = summary.rows.map((r) =>
    cols.map((c) => {
      const cell = c.cell(r);
      if (cell.text === null || cell.text === undefined) return f.DASH;
      const href = cell.source && link(cell.source.name);
      return href ? `[${cell.text}](${href})` : cell.text;
    }),
  );
  const lines = [
    '## What each strategy costs',
    '',
    ...(picture
      ? [`![Each strategy's cost as a point with its 95% interval, per headline column](${encodeURI(picture)})`, '']
      : []),
    ...(machineLine(summary) ? [machineLine(summary), ''] : []),
    f.table(
      cols.map((c) => c.title),
      rows,
      cols.map((c) => c.align),
    ),
    '',
  ];
  for (const n of notes(summary, { link: (name) => link(name) ?? `${name}.md` })) lines.push(`- ${n}`);
  return lines.join('\n');
}

module.exports = { picturePoints, markdown, columns, notes, idsText, readingText };
