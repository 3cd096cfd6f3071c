'use strict';
// `node scripts/check-direction.js [--root DIR]`: no page of the report prints a % of the
// baseline the other way round (issue 75). A % of the baseline reads like throughput per CPU:
// the baseline's CPU per request ÷ the strategy's, so below 100% costs more (docs/reading.md);
// absolute counts (instances, instructions, µs) stay as they are. Over DIR/results.md and
// DIR/results/*.md it finds a ratio labelled the cost way (a % column headed "costlier" or
// "higher = …", a note "(higher = costlier)") and a ratio computed the cost way (on one row,
// one % of the baseline at least 20% below 100% beside another at least 20% above). The
// seeds' figures under "Published references" are quoted as the seeds printed them, labelled
// with their direction, and not checked. Writes nothing; one line per finding, exit 1.
// .ci/run runs it over the committed pages, which tests never read (test/check-direction.test.js
// runs it over fixture pages and a fixture run's report).
const fs = require('node:fs');
const path = require('node:path');

// A ratio labelled the cost way: "costlier", "higher = …", "> 1 = …" (a header naming a %
// or a ratio), and the same as a note in prose.
const COST_WORDS = /costlier|dearer|\bhigher\s*=|>\s*1\s*=/i;
const RATIO_HEADER = /%|\bvs\b|÷|\bratio\b/i;
const COST_NOTE = /(\b(higher|more)|>\s*1)\s*=\s*(costlier|dearer|slower|more (cpu|cost))/i;
// How far from 100% both figures must be before a row counts as turned the cost way.
const OFF = Math.log(1.2);
const REFERENCES = /^(#+)\s+Published references\b/;
const HEADING = /^(#+)\s/;

const cellsOf = (line) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
const isRule = (line) => /^\|(\s*:?-+:?\s*\|)+\s*$/.test(line.trim());
const numberOf = (cell) => {
  const m = /^(-?[\d,]*\.?\d+)/.exec(String(cell).replace(/\s/g, ''));
  return m ? Number(m[1].replace(/,/g, '')) : null;
};

// The lines a page's figures are ours on: outside fenced code and the seeds' references.
// -> [{ n, text }] (n from 1).
function ownLines(text) {
  const out = [];
  let fence = false;
  let quoted = 0;
  text.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) return;
    const h = HEADING.exec(line);
    if (h && quoted && h[1].length <= quoted) quoted = 0;
    const r = REFERENCES.exec(line);
    if (r) quoted = r[1].length;
    if (!quoted) out.push({ n: i + 1, text: line });
  });
  return out;
}

// The tables among a page's lines: { header, rows: [{ n, cells }] }.
function tablesOf(lines) {
  const tables = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i].text.trim().startsWith('|') || !isRule(lines[i + 1].text)) continue;
    const t = { n: lines[i].n, header: cellsOf(lines[i].text), rows: [] };
    let j = i + 2;
    for (; j < lines.length && lines[j].text.trim().startsWith('|'); j++) {
      t.rows.push({ n: lines[j].n, cells: cellsOf(lines[j].text) });
    }
    tables.push(t);
    i = j - 1;
  }
  return tables;
}

// Two ratio columns of one table (headed "% of …" or "… vs …") read the same configuration
// against the same baseline: a row where one is at least 20% below 100% and the other at least
// 20% above has one of them turned the cost way (a CPU ratio as the strategy's ÷ the
// baseline's beside throughput). Signed changes ("+11.5%") and ratios not in % are not read.
function computedTheCostWay(t) {
  const cols = t.header.map((h, i) => (/^% of\b|\bvs\b/i.test(h) ? i : -1)).filter((i) => i >= 0);
  if (cols.length < 2) return [];
  const out = [];
  for (const r of t.rows) {
    const off = cols
      .map((i) => ({ i, pct: /^\d[\d,.]*%/.test(r.cells[i] ?? '') ? numberOf(r.cells[i]) : null }))
      .filter((x) => x.pct > 0 && Math.abs(Math.log(x.pct / 100)) >= OFF);
    const below = off.find((x) => x.pct < 100);
    const above = off.find((x) => x.pct > 100);
    if (below && above) {
      out.push({
        line: r.n,
        what:
          `"${t.header[above.i]}" ${r.cells[above.i].split(' ')[0]} beside "${t.header[below.i]}" ` +
          `${r.cells[below.i].split(' ')[0]}: one of them computed the cost way`,
      });
    }
  }
  return out;
}

// -> [{ line, what }] for one page's text.
function findings(text) {
  const lines = ownLines(text);
  const out = [];
  const tables = tablesOf(lines);
  const tableLines = new Set(tables.flatMap((t) => [t.n, ...t.rows.map((r) => r.n)]));
  for (const t of tables) {
    for (const h of t.header) {
      if (RATIO_HEADER.test(h) && COST_WORDS.test(h)) out.push({ line: t.n, what: `"${h}": labelled the cost way` });
    }
    out.push(...computedTheCostWay(t));
  }
  for (const { n, text: line } of lines) {
    if (tableLines.has(n)) continue;
    const m = COST_NOTE.exec(line);
    if (m) out.push({ line: n, what: `"${m[0]}": a ratio explained the cost way` });
  }
  return out.sort((a, b) => a.line - b.line);
}

// -> ["file:line: what"] over DIR/results.md and DIR/results/*.md.
function check(root) {
  const dir = path.join(root, 'results');
  const pages = [path.join(root, 'results.md')].filter((p) => fs.existsSync(p));
  if (fs.existsSync(dir)) {
    pages.push(
      ...fs
        .readdirSync(dir)
        .filter((n) => n.endsWith('.md'))
        .sort()
        .map((n) => path.join(dir, n)),
    );
  }
  if (!pages.length) return [`${root}: no results.md and no results/*.md to read`];
  return pages.flatMap((p) =>
    findings(fs.readFileSync(p, 'utf8')).map((x) => `${path.relative(root, p)}:${x.line}: ${x.what}`),
  );
}

if (require.main === module)
  require('./check-main').runCheck('check-direction', check, {
    flag: '--root',
    ok: 'every % of the baseline reads one way (below 100% costs more)',
  });

module.exports = { check, findings };
