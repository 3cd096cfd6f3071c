'use strict';
// How a percentage (and a time in µs) is printed, for every room (the runner's progress
// lines, analysis' verdict sentences, the report).

// A finite number (not NaN, not ±Infinity): what every room checks before it computes or
// prints a figure. The one definition (analysis/stats.js and report/format.js re-export it).
const isNum = (x) => typeof x === 'number' && Number.isFinite(x);

// The one percent formatter of the tree: a magnitude in percent, two decimals below 0.05
// so that a tiny non-zero change never prints as "0.0". Signed with { sign: true }.
// { minus: '−' } for typeset output (the report).
function formatPct(x, { sign = false, minus = '-' } = {}) {
  if (!isNum(x)) return '—';
  const a = Math.abs(x);
  const body = a > 0 && a < 0.05 ? a.toFixed(2) : a.toFixed(1);
  if (!sign) return body;
  return (x < 0 && Number(body) !== 0 ? minus : x > 0 && Number(body) !== 0 ? '+' : '') + body;
}

// A ratio as a percentage of its baseline: 0.93 -> "93.0%" (digits after the point), or
// `missing` where r is no number. The one ratio-to-percent formatter (report/format.js
// pctOf is it with the report's dash).
function ratioPct(r, digits = 1, missing = '—') {
  return isNum(r) ? `${(r * 100).toFixed(digits)}%` : missing;
}

// formatPct signed, with its % sign; `missing` where x is no number.
function signedPctText(x, missing = '—') {
  return isNum(x) ? `${formatPct(x, { sign: true })}%` : missing;
}

// A time in µs, its digits by size: 1234 -> "1234 µs", 12.3456 -> "12.35 µs", 0.01234 -> "0.0123 µs".
function formatUs(us) {
  const a = Math.abs(us);
  const digits = a >= 100 ? 0 : a >= 1 ? 2 : 4;
  return `${us.toFixed(digits)} µs`;
}

module.exports = { isNum, formatPct, ratioPct, signedPctText, formatUs };
