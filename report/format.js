'use strict';
// Small formatting helpers shared by the report sections: numbers with their uncertainty,
// markdown tables, safe cell text.

const { AsyncLocalStorage } = require('node:async_hooks');
const { isNum, formatPct, ratioPct } = require('../lib/format');

// While a section renders, its headings, tables and charts are also recorded as objects
// (the HTML report builds its tables and charts from these, never from the markdown).
const recording = new AsyncLocalStorage();

function record(block) {
  recording.getStore()?.push(block);
}

// capture(fn) -> { value, blocks }: fn's result and what it recorded, in call order.
async function capture(fn) {
  const blocks = [];
  const value = await recording.run(blocks, fn);
  return { value, blocks };
}

// "### Results", recorded as a heading.
function heading(level, text) {
  record({ type: 'heading', level, text: String(text) });
  return `${'#'.repeat(level)} ${text}`;
}

const DASH = '—';

// 9876.5 -> "9,877"
function int(x) {
  return isNum(x) ? Math.round(x).toLocaleString('en-US') : DASH;
}

// Latency-like values: 2 decimals below 10, 1 below 100, none above.
function num(x) {
  if (!isNum(x)) return DASH;
  const a = Math.abs(x);
  if (a >= 100) return Math.round(x).toLocaleString('en-US');
  if (a >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

// Closed-loop latencies as autocannon reports them: whole milliseconds (its histogram
// truncates), so 0 means "under a millisecond", not zero, and 4 means 4-5 ms.
function wholeMs(x) {
  return x === 0 ? '< 1' : num(x);
}

// "9,877 [9,500–10,100]"
// An interval open above (a lower end and null: analysis/model.js predictRatio) shows as
// "[lo–…]".
function withCi(value, ci, f = int) {
  if (!isNum(value)) return DASH;
  if (!ci || !isNum(ci[0]) || !(isNum(ci[1]) || ci[1] === null)) return f(value);
  return `${f(value)} [${f(ci[0])}–${ci[1] === null ? '…' : f(ci[1])}]`;
}

// ratio 0.93 -> "93.0%" (two digits: "93.00%", for counts that repeat to ~0.1%)
function pctOf(r, digits = 1) {
  return ratioPct(r, digits, DASH);
}

// signed change from a ratio: 0.93 -> "−7.0%", 1.02 -> "+2.0%" (lib/format.js's formatPct, the one percent formatter)
function change(r) {
  return isNum(r) ? signedPct((r - 1) * 100) : DASH;
}

// signed percent: -7 -> "−7.0%"
function signedPct(x) {
  return isNum(x) ? `${formatPct(x, { sign: true, minus: '−' })}%` : DASH;
}

function bytes(x) {
  if (!isNum(x)) return DASH;
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = x;
  let i = 0;
  while (Math.abs(v) >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

function gib(x) {
  return isNum(x) ? `${(x / 2 ** 30).toFixed(1)} GiB` : DASH;
}

// Text safe inside a markdown table cell and on one line.
function cell(x) {
  if (x === null || x === undefined || x === '') return DASH;
  return String(x).replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

// Inline code that survives backticks inside the text.
function code(x) {
  const s = String(x);
  const fence = s.includes('`') ? '``' : '`';
  return `${fence}${fence.length > 1 ? ' ' : ''}${s}${fence.length > 1 ? ' ' : ''}${fence}`;
}

// table(['A', 'B'], [[1, 2]], ['l', 'r']) -> markdown table
function table(header, rows, align = []) {
  record({
    type: 'table',
    header: header.map(String),
    rows: rows.map((r) => r.map((c) => (c === null || c === undefined || c === '' ? DASH : String(c)))),
    align,
  });
  const sep = header.map((_, i) => (align[i] === 'r' ? '---:' : align[i] === 'c' ? ':---:' : '---'));
  const line = (cells) => `| ${cells.map(cell).join(' | ')} |`;
  const head = `| ${header.map((h) => (h === '' ? ' ' : cell(h))).join(' | ')} |`;
  return [head, `| ${sep.join(' | ')} |`, ...rows.map(line)].join('\n');
}

// A fenced code block whose fence cannot be closed by the content.
function fence(text, lang = '') {
  const s = String(text);
  let f = '```';
  while (s.includes(f)) f += '`';
  return `${f}${lang}\n${s}\n${f}`;
}

module.exports = {
  capture,
  record,
  heading,
  DASH,
  isNum,
  int,
  num,
  wholeMs,
  withCi,
  pctOf,
  change,
  signedPct,
  bytes,
  gib,
  cell,
  code,
  table,
  fence,
};
