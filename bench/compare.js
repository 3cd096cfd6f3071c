'use strict';
// `ctxbench compare a.json b.json [--max-regression PCT]`: is run b slower than run a?
//
// Configs are matched by id. Two runs are not interleaved with each other, so their rounds
// cannot be paired: each config gets Welch's t-test on log rps (b vs a), whose estimate
// exp(mean log b - mean log a) is the ratio of geometric-mean throughputs, with its 95%
// CI and p-value. The run fails when some config is significantly slower (p < 0.05) by
// more than PCT percent (point estimate). Configs present in only one file, or without
// samples on one side, are listed but never fail the comparison.

const fs = require('node:fs');
const stats = require('./stats');

const ALPHA = 0.05;

function load(x, label) {
  if (typeof x !== 'string') return x;
  let text;
  try {
    text = fs.readFileSync(x, 'utf8');
  } catch (err) {
    throw new Error(`${x}: cannot read ${label} run (${err.code || err.message})`, { cause: err });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${x}: not valid JSON (${err.message})`, { cause: err });
  }
}

function validRps(config) {
  return ((config && config.samples) || []).filter((s) => s && typeof s.rps === 'number' && Number.isFinite(s.rps) && s.rps > 0);
}

// compare(a, b, { maxRegression = 0, alpha = 0.05 }) -> { rows, regressions, failed, ... }
// a, b: run JSON objects or paths to them. Each row:
//   { id, status: 'compared' | 'only-in-a' | 'only-in-b' | 'no-data',
//     a: { n, median }, b: { n, median }, medianChangePct,
//     estimate, changePct, ci95: [lo, hi] (ratio b/a), pValue, verdict, regression, note }
function compare(a, b, { maxRegression = 0, alpha = ALPHA } = {}) {
  const runA = load(a, 'first');
  const runB = load(b, 'second');
  const limit = Number(maxRegression) || 0;
  const configsA = (runA && runA.configs) || [];
  const configsB = (runB && runB.configs) || [];
  const byIdB = new Map(configsB.map((c) => [c.id, c]));
  const idsA = new Set(configsA.map((c) => c.id));
  const rows = [];

  for (const ca of configsA) {
    const cb = byIdB.get(ca.id);
    if (!cb) {
      rows.push({ id: ca.id, status: 'only-in-a', note: 'only in the first file' });
      continue;
    }
    const sa = validRps(ca);
    const sb = validRps(cb);
    const da = stats.describe(sa.map((s) => s.rps));
    const db = stats.describe(sb.map((s) => s.rps));
    const row = {
      id: ca.id,
      status: 'compared',
      a: { n: da.n, median: da.median },
      b: { n: db.n, median: db.median },
      medianChangePct: da.median && db.median ? (db.median / da.median - 1) * 100 : null,
      estimate: null, changePct: null, ci95: null, pValue: null,
      verdict: 'not enough samples', regression: false, note: null,
    };
    if (da.n === 0 || db.n === 0) {
      row.status = 'no-data';
      const which = da.n === 0 && db.n === 0 ? 'either file' : da.n === 0 ? 'the first file' : 'the second file';
      const err = (db.n === 0 && cb.error && cb.error.message) || (da.n === 0 && ca.error && ca.error.message);
      row.note = `no measurements in ${which}${err ? `: ${err}` : ''}`;
      rows.push(row);
      continue;
    }
    const r = stats.ratio(sb, sa, { paired: false });
    row.estimate = r.estimate;
    row.changePct = (r.estimate - 1) * 100;
    row.ci95 = r.ci95;
    row.pValue = r.pValue;
    row.verdict = stats.verdict(r, alpha);
    row.regression = r.pValue !== null && r.pValue < alpha && r.estimate < 1 && -row.changePct > limit;
    rows.push(row);
  }
  for (const cb of configsB) {
    if (!idsA.has(cb.id)) rows.push({ id: cb.id, status: 'only-in-b', note: 'only in the second file' });
  }

  const regressions = rows.filter((r) => r.regression);
  return {
    a: typeof a === 'string' ? a : (runA && runA.title) || 'a',
    b: typeof b === 'string' ? b : (runB && runB.title) || 'b',
    maxRegression: limit,
    alpha,
    rows,
    regressions,
    failed: regressions.length > 0,
  };
}

function fmtInt(x) {
  return x === null || x === undefined ? '—' : Math.round(x).toLocaleString('en-US');
}

function fmtPct(x, digits = 1) {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  const s = x.toFixed(digits);
  return (x > 0 && Number(s) !== 0 ? '+' : '') + s + '%';
}

function fmtP(p) {
  if (p === null || p === undefined) return '—';
  if (p < 0.001) return '<0.001';
  return p.toFixed(3);
}

function table(header, body) {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

// formatCompare(result) -> plain-text table and a one-line outcome.
function formatCompare(result) {
  const header = ['config', 'a req/s', 'b req/s', 'b vs a', '95% CI', 'p', 'verdict'];
  const body = result.rows.map((r) => {
    if (r.status === 'only-in-a' || r.status === 'only-in-b') return [r.id, '', '', '', '', '', r.note];
    if (r.status === 'no-data') return [r.id, fmtInt(r.a.median), fmtInt(r.b.median), '', '', '', r.note];
    const ci = r.ci95 ? `${fmtPct((r.ci95[0] - 1) * 100)} .. ${fmtPct((r.ci95[1] - 1) * 100)}` : '—';
    return [
      r.id, fmtInt(r.a.median), fmtInt(r.b.median), fmtPct(r.changePct), ci, fmtP(r.pValue),
      r.verdict + (r.regression ? '  << REGRESSION' : ''),
    ];
  });
  const lines = [
    `ctxbench compare: a = ${result.a}, b = ${result.b}`,
    'req/s = median of rounds; "b vs a" = ratio of geometric means (Welch t-test on log req/s, 95% CI).',
    '',
    table(header, body),
    '',
  ];
  const limit = `more than ${result.maxRegression}% slower`;
  if (result.failed) {
    lines.push(`FAIL: ${result.regressions.length} config(s) significantly (p < ${result.alpha}) ${limit}: ` +
      result.regressions.map((r) => `${r.id} (${fmtPct(r.changePct)})`).join(', '));
  } else {
    lines.push(`OK: no config is significantly (p < ${result.alpha}) ${limit}.`);
  }
  const skipped = result.rows.filter((r) => r.status !== 'compared');
  if (skipped.length) lines.push(`Not compared: ${skipped.length} config(s) (see the table).`);
  return lines.join('\n') + '\n';
}

module.exports = { compare, formatCompare };
