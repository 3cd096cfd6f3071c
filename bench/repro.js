'use strict';
// Does a run reproduce? reproCompare(runA, runB) matches the ratios of two runs of the
// same matrix (config id -> ratio to its baseline, recomputed by bench/stats.js from the
// samples) and reports, per ratio, both estimates, their difference and whether each
// run's 95% CI covers the other's estimate. A ratio "agrees" when both intervals cover
// the other's estimate. Agreement bought with wide intervals is no agreement, so the
// median half-width of the ratio intervals is reported beside the share that agrees.
const fs = require('node:fs');
const stats = require('./stats');
const { baselineFor } = require('./comparable');

function load(x) {
  if (typeof x !== 'string') return x;
  let text;
  try {
    text = fs.readFileSync(x, 'utf8');
  } catch (err) {
    throw new Error(`${x}: cannot read (${err.code || err.message})`, { cause: err });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${x}: not valid JSON (${err.message})`, { cause: err });
  }
}

// id -> summary.ratio of every config with a baseline in its run.
function ratios(run) {
  const configs = (run && run.configs) || [];
  const baseline = run && run.settings && run.settings.baseline;
  const out = new Map();
  for (const c of configs) {
    const b = baselineFor(c, configs, baseline);
    if (!b || !(c.samples || []).length) continue;
    const s = stats.summarize(c, b);
    if (s.ratio && s.ratio.estimate !== null) out.set(c.id, { ...s.ratio, broken: s.broken, clientBound: s.clientBound });
  }
  return out;
}

const covers = (ci, x) => Boolean(ci) && ci[0] <= x && x <= ci[1];

// reproCompare(a, b) -> { a, b, rows: [{ id, a: { estimate, ci95, halfWidthPct }, b: {...},
//   differencePp, aCoversB, bCoversA, agree }], compared, agreeing, shareAgreeing,
//   medianHalfWidthPct, onlyInOne }
function reproCompare(a, b) {
  const runA = load(a);
  const runB = load(b);
  const ra = ratios(runA);
  const rb = ratios(runB);
  const rows = [];
  for (const [id, x] of ra) {
    const y = rb.get(id);
    if (!y) continue;
    const aCoversB = covers(x.ci95, y.estimate);
    const bCoversA = covers(y.ci95, x.estimate);
    rows.push({
      id,
      a: { estimate: x.estimate, ci95: x.ci95, halfWidthPct: x.halfWidthPct },
      b: { estimate: y.estimate, ci95: y.ci95, halfWidthPct: y.halfWidthPct },
      differencePp: (y.estimate - x.estimate) * 100,
      aCoversB,
      bCoversA,
      agree: aCoversB && bCoversA,
    });
  }
  const widths = rows.flatMap((r) => [r.a.halfWidthPct, r.b.halfWidthPct]).filter((w) => typeof w === 'number' && Number.isFinite(w));
  const agreeing = rows.filter((r) => r.agree).length;
  const onlyInOne = [...ra.keys()].filter((id) => !rb.has(id)).concat([...rb.keys()].filter((id) => !ra.has(id)));
  return {
    a: typeof a === 'string' ? a : (runA && runA.title) || 'a',
    b: typeof b === 'string' ? b : (runB && runB.title) || 'b',
    schemas: [runA && runA.schema, runB && runB.schema],
    rows,
    compared: rows.length,
    agreeing,
    shareAgreeing: rows.length ? agreeing / rows.length : null,
    medianHalfWidthPct: stats.median(widths),
    onlyInOne,
  };
}

function formatRepro(r) {
  const pct = (x) => (typeof x === 'number' && Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '—');
  const ci = (c) => (c ? `[${pct(c[0])}–${pct(c[1])}]` : '—');
  const lines = [`ctxbench repro: a = ${r.a}, b = ${r.b}`, ''];
  for (const row of r.rows) {
    lines.push(`${row.id}  a ${pct(row.a.estimate)} ${ci(row.a.ci95)}  b ${pct(row.b.estimate)} ${ci(row.b.ci95)}  ` +
      `diff ${stats.formatPct(row.differencePp, { sign: true })} pp  ${row.agree ? 'agree' : 'DISAGREE'}`);
  }
  lines.push('', `${r.agreeing} of ${r.compared} ratios agree (each run's interval covers the other's estimate)` +
    `${r.shareAgreeing === null ? '' : `: ${(r.shareAgreeing * 100).toFixed(0)}%`}; median ratio half-width ±${stats.formatPct(r.medianHalfWidthPct)} pp.`);
  return lines.join('\n') + '\n';
}

module.exports = { reproCompare, formatRepro, ratios };
