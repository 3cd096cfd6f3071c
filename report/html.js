'use strict';
// results/index.html: one self-contained page (no network needed to open it) with the
// summary, every study's tables and charts. Built from the objects the markdown is built
// from: the strategy summary (analysis/index.js) and, per study, the headings, tables and
// charts its section recorded while rendering (report/format.js capture). Prose stays on
// the study's markdown page, which each study links to.
const fs = require('node:fs');
const summaryFormat = require('./strategy-summary');
const { costPicture } = require('./charts');

const VEGA = fs.readFileSync(require.resolve('vega/build/vega.min.js'), 'utf8');

function escapeHtml(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// Table cells and headings carry the report's inline markup (`code`, **bold**, *em*,
// [text](href)); the same few forms in HTML.
function inline(text, { rewriteHref = (h) => h } = {}) {
  const codes = [];
  let s = escapeHtml(text).replace(/\\\|/g, '|');
  s = s.replace(/(`+)\s?(.+?)\s?\1/g, (_, __, body) => {
    codes.push(`<code>${body}</code>`);
    return `\uE000${codes.length - 1}\uE000`;
  });
  s = s.replace(
    /\[([^\]]*(?:\[[^\]]*\][^\]]*)*)\]\(([^)\s]+)\)/g,
    (_, label, href) => `<a href="${rewriteHref(href.replace(/&amp;/g, '&'))}">${label}</a>`,
  );
  s = s
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[\s(])\*([^*\s][^*]*?)\*(?=[\s).,;:]|$)/g, '$1<em>$2</em>');
  return s.replace(/\uE000(\d+)\uE000/g, (_, i) => codes[Number(i)]);
}

// A number to sort a cell by: the first figure in it ("96.1% [93.7%–98.5%]" -> 96.1,
// "−0.25 ms" -> -0.25, "12,431" -> 12431); text sorts as text.
function sortKey(text) {
  const m = /[−-]?\d[\d,]*(?:\.\d+)?/.exec(
    String(text).replace(/\[[^\]]*\]\([^)]*\)/g, (x) => x.replace(/\]\(.*$/, '')),
  );
  return m ? Number(m[0].replace(/,/g, '').replace('−', '-')) : null;
}

function tableHtml({ header, rows, align = [] }, opts) {
  const th = header
    .map((h, i) => `<th class="${align[i] === 'r' ? 'r' : ''}" tabindex="0" title="sort">${inline(h, opts)}</th>`)
    .join('');
  const body = rows
    .map(
      (r) =>
        `<tr>${r
          .map((c, i) => {
            const text = typeof c === 'object' && c !== null ? c.text : c;
            const key = typeof c === 'object' && c !== null && c.sort !== undefined ? c.sort : sortKey(text);
            const data = key === null || key === undefined ? '' : ` data-sort="${escapeHtml(key)}"`;
            // A figure's interval wraps as one piece, below its figure, never at its dash.
            const html = inline(text ?? '—', opts);
            const wrap = (ci) => `<span class="ci">${ci}</span>`;
            const cell = align[i] === 'r' ? html.replace(/\[[^\]<>]*\]/g, wrap) : html;
            return `<td class="${align[i] === 'r' ? 'r' : ''}"${data}>${cell}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('\n');
  return `<table class="sortable"><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

// picture: the index of the opening picture's spec in the page's charts, or null.
function summaryHtml(summary, link, linkFile, picture = null) {
  const cols = summaryFormat.columns(summary, { file: linkFile });
  const rows = summary.rows.map((r) =>
    cols.map((c) => {
      const cell = c.cell(r);
      const href = cell.source && link(cell.source.name);
      const text = cell.text === null || cell.text === undefined ? '—' : href ? `[${cell.text}](${href})` : cell.text;
      return { text, sort: typeof cell.sort === 'number' || typeof cell.sort === 'string' ? cell.sort : undefined };
    }),
  );
  const notes = summaryFormat
    .notes(summary)
    .map((n) => `<li>${inline(n)}</li>`)
    .join('\n');
  const figure =
    picture === null
      ? ''
      : `<div class="chart" id="picture" data-chart="${picture}" aria-label="each strategy's cost as a point ` +
        `with its interval"></div>\n`;
  return (
    `<section id="summary"><h2>What each strategy ` +
    `costs</h2>\n${figure}` +
    `<div class="scroll">${tableHtml({ header: cols.map((c) => c.title), rows, align: cols.map((c) => c.align) })}` +
    `</div>\n<ul ` +
    `class="notes">${notes}</ul></section>`
  );
}

// One study's section: its headings, tables and charts; a chart's spec goes into `charts`,
// which the page's script draws from by index.
function studyHtml(s, charts) {
  const out = [
    `<section class="study" id="${escapeHtml(s.id)}"><h2>${inline(s.title)}</h2>`,
    `<p class="meta">From ` +
      `<code>${escapeHtml(s.file ?? '')}</code>` +
      (s.page
        ? ` · the full text (method, notes, references): <a href="${escapeHtml(s.page)}">${escapeHtml(s.page)}</a>`
        : '') +
      `</p>`,
  ];
  for (const b of s.blocks) {
    if (b.type === 'heading' && b.level > 2)
      out.push(`<h${Math.min(b.level, 5)}>${inline(b.text)}</h${Math.min(b.level, 5)}>`);
    else if (b.type === 'table') out.push(`<div class="scroll">${tableHtml(b)}</div>`);
    else if (b.type === 'chart') {
      charts.push(b.spec);
      out.push(
        `<div class="chart" data-chart="${charts.length - 1}" ` +
          `aria-label="${escapeHtml(b.title?.text ?? b.title ?? 'chart')}"></div>`,
      );
    }
  }
  out.push('</section>');
  return out.join('\n');
}

// The page's style sheet, inline: the page opens without a network.
const STYLE = `<style>
body{font:14px/1.45 -apple-system,Helvetica,Arial,sans-serif;margin:0 auto;max-width:1280px;padding:.4em \
2em;color:#1b1f24;box-sizing:border-box}
h1{font-size:1.6em;margin:.3em 0}body>p{margin:.4em 0}#summary h2{margin:.5em 0 .2em}.ci{white-space:nowrap}
table{border-collapse:collapse;margin:.6em 0;font-size:13px}th,td{border:1px solid #d0d7de;padding:3px \
7px;vertical-align:top}
th{background:#f6f8fa;cursor:pointer;user-select:none;position:relative}th:hover{background:#eaeef2}
th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
td.r,th.r{text-align:right}td.r{white-space:nowrap}code{background:#f6f8fa;padding:0 \
3px;border-radius:3px;font-size:12px}
.scroll{overflow-x:auto}.meta{color:#57606a}.notes li{margin:.3em 0}section.study{border-top:2px solid \
#d0d7de;margin-top:2em}
.chart{margin:1em 0;min-height:40px;max-width:100%;overflow-x:auto}nav ul{columns:2}
#picture{margin:.3em 0}#picture svg{max-width:100%;height:auto}
#summary table{width:100%}#summary td.r{white-space:normal;min-width:6.5em}#summary td:last-child{min-width:16em}
</style>`;

// "</script" inside the embedded JSON or library would end the script element early.
const safe = (js) => js.replace(/<\/script/gi, '<\\/script');

// The page's scripts: vega itself, then drawing each chart and sorting the tables.
function scriptsHtml(charts) {
  return `<script>${safe(VEGA)}</script>
<script>
const CHARTS = ${safe(JSON.stringify(charts))};
for (const el of document.querySelectorAll('.chart')) {
  const view = new vega.View(vega.parse(CHARTS[Number(el.dataset.chart)]), { renderer: 'svg', container: el, hover: \
true });
  view.runAsync().then(() => el.setAttribute('data-rendered', 'true'), (err) => { el.textContent = 'chart failed: ' + \
err.message; console.error(err); });
}
// Sort a table by the clicked column: numbers by value (data-sort), text alphabetically.
for (const th of document.querySelectorAll('table.sortable th')) {
  const sort = () => {
    const table = th.closest('table');
    const i = [...th.parentNode.children].indexOf(th);
    const dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    for (const other of th.parentNode.children) other.removeAttribute('aria-sort');
    th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
    const key = (tr) => { const td = tr.children[i]; const v = td && td.dataset.sort; return v !== undefined && v !== \
'' && !isNaN(Number(v)) ? Number(v) : (v || (td ? td.textContent : '')); };
    const rows = [...table.tBodies[0].rows];
    rows.sort((a, b) => { const x = key(a), y = key(b); return (typeof x === 'number' && typeof y === 'number' ? x - \
y : String(x).localeCompare(String(y))) * dir; });
    for (const r of rows) table.tBodies[0].appendChild(r);
  };
  th.addEventListener('click', sort);
  th.addEventListener('keydown', (e) => { if (e.key === 'Enter') sort(); });
}
</script>`;
}

// renderHtml({ title, intro, summary, sections: [{ id, title, page, file, blocks }] }) -> string
// linkFile(path from the working directory) -> href from the page (profiles, for one).
// The page's summary place when the results hold no default run.
const NO_SUMMARY = '<p>No default run in these results: <code>npm run bench</code> makes one.</p>';

function renderHtml({ title = 'ctxbench results', intro = '', summary = null, sections = [], linkFile = null }) {
  const charts = [];
  const link = (name) => `#${name}`;
  // The page opens with the picture, the table below it.
  const picture = summary ? costPicture(summaryFormat.picturePoints(summary)) : null;
  if (picture) charts.push(picture.spec);
  const nav = sections.map((s) => `<li><a href="#${escapeHtml(s.id)}">${inline(s.title)}</a></li>`).join('\n');
  const parts = sections.map((s) => studyHtml(s, charts));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${STYLE}</head><body>
<h1>${escapeHtml(title)}</h1>
${intro}
${summary ? summaryHtml(summary, link, linkFile, picture ? 0 : null) : NO_SUMMARY}
<nav><h2>Every study</h2><ul>${nav}</ul></nav>
${parts.join('\n')}
${scriptsHtml(charts)}
</body></html>
`;
}

module.exports = { renderHtml, inline, sortKey, escapeHtml };
