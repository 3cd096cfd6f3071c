'use strict';
// The text of `ctxbench compare` (the terminal's, and the gate page's fenced block): the
// table and the outcome with its exit code, from what analysis/compare.js decided.
const { ratioPct, signedPctText } = require('../lib/format');
const { INSTRUCTION_SPREAD_OK, INSTRUCTION_REPEATABILITY, UNSTEADY_MARGIN } = require('../analysis/compare');
const { verdictText } = require('./verdict-text');

const fmtPct = (x) => signedPctText(x);

function fmtInt(x) {
  return x === null || x === undefined ? '—' : Math.round(x).toLocaleString('en-US');
}

function fmtP(p) {
  if (p === null || p === undefined) return '—';
  if (p < 0.001) return '<0.001';
  return p.toFixed(3);
}

function table(header, body) {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => String(r[i]).length)));
  const pad = (c, i, n) => (i === 0 || i === n - 1 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]));
  const line = (cells) => cells.map((c, i) => pad(c, i, cells.length)).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

const OUTCOME = { ok: 'OK', regression: 'REGRESSION', inconclusive: 'INCONCLUSIVE' };

// A row's note: why it is not compared, or what keeps a count from deciding.
function noteOf(r) {
  if (r.status === 'only-in-a') return 'only in the first file';
  if (r.status === 'only-in-b') return 'only in the second file';
  if (r.status === 'baseline') return 'the baseline: every other configuration is gated on its ratio to it';
  if (r.status === 'no-data') {
    const which = { both: 'either file', a: 'the first file', b: 'the second file' }[r.missing];
    return `no measurements in ${which}${r.error ? `: ${r.error}` : ''}`;
  }
  if (r.instructions && r.outcome === 'inconclusive') {
    return r.instructions.unsteady
      ? 'counts not steady (V8 still compiling): a code change can move them by ~1.5%; warm longer'
      : 'the change is within the counts\' repeatability of the threshold';
  }
  return null;
}

const METHOD_LINES = {
  counted: () => [
    'Instruction counts (Valgrind): instr/req = median over processes. Where each run\'s processes agree within ' +
      `${INSTRUCTION_SPREAD_OK}%, "b vs a" is the change in instructions per request and the gate reads it against the`,
    `threshold directly, with the larger of the runs' spreads (at least ${INSTRUCTION_REPEATABILITY}%, the count's ` +
      `measured repeatability; ${UNSTEADY_MARGIN}% where a process never settled) as the margin;`,
    'otherwise requests per instruction are tested as throughput is (Welch, per process).',
  ],
  duet: (result) => [
    `Duet runs: "% of ${result.baseline ?? 'baseline'}" = the configuration's CPU per request relative to its ` +
      'baseline, measured at the same time on one CPU',
    '(median over blocks); "b vs a" = how much that ratio moved (ratio of geometric means), Welch t-test on ' +
      'per-block mean log ratios (unpaired:',
    'runs are not interleaved), 95% CI. Gate: a ratio lower by more than the threshold, one-sided with Holm ' +
      'correction; the baseline decides nothing.',
  ],
  timed: () => [
    'req/s = median of samples; "b vs a" = ratio of geometric means, Welch t-test (unpaired: runs are not ' +
      'interleaved) on per-block',
    '(schema 1: per-round) mean log req/s, 95% CI. Gate: slowdown beyond the threshold tested one-sided with Holm ' +
      'correction;',
    'a config whose interval cannot rule out such a slowdown is inconclusive.',
  ],
};

// A compared row's verdict: its judgement in words (a row read direct is a count's).
const verdictOf = (r, quantity = null) => (r.judgement ? verdictText(r.judgement, { quantity }) : '—');

function rowCells(r, result) {
  const value = result.duet ? (x) => ratioPct(x) : fmtInt;
  const note = noteOf(r);
  if (['only-in-a', 'only-in-b', 'baseline'].includes(r.status)) return [r.id, '', '', '', '', '', note, ''];
  if (r.status === 'no-data') {
    return [r.id, value(r.a.median), value(r.b.median), '', '', '', note, r.outcome ? OUTCOME[r.outcome] : ''];
  }
  if (r.instructions) {
    const i = r.instructions;
    const margin = `±${i.marginPct.toFixed(2)}% (${i.unsteady ? 'not steady' : 'repeatability'})`;
    return [r.id, fmtInt(r.a.median), fmtInt(r.b.median), `${fmtPct(i.growthPct)} instr`, margin, '—',
      verdictOf(r, 'instructions'),
      OUTCOME[r.outcome] + (note ? ` (${note})` : '')];
  }
  const ci = r.ci95 ? `${fmtPct((r.ci95[0] - 1) * 100)} .. ${fmtPct((r.ci95[1] - 1) * 100)}` : '—';
  const units = (n) => `~${n} ${r.unit === 'round' ? 'rounds' : 'blocks'} per run`;
  const need = r.outcome === 'inconclusive'
    ? ` (${r.unitsNeeded ? `${units(r.unitsNeeded)} would settle it` : 'estimate at the threshold'})` : '';
  return [r.id, value(r.a.median), value(r.b.median), fmtPct(r.changePct), ci, fmtP(r.pValue), verdictOf(r),
    OUTCOME[r.outcome] + need];
}

// The outcome line, with its exit code.
function outcomeLine(result) {
  const limit = result.counted ? `more than ${result.maxRegression}% costlier in instructions per request`
    : result.duet ? `more than ${result.maxRegression}% costlier relative to ${result.baseline ?? 'the baseline'}`
    : `more than ${result.maxRegression}% slower`;
  if (result.exitCode === 1) {
    const how = result.regressions.every((r) => r.instructions) ? `${limit}, beyond the counts' repeatability`
      : `significantly (Holm-adjusted p < ${result.alpha}) ${limit}`;
    const change = (r) => (r.instructions ? `${fmtPct(r.instructions.growthPct)} instructions` : fmtPct(r.changePct));
    const which = (r) => `${r.id} (${change(r)})`;
    return `FAIL (exit 1): ${result.regressions.length} config(s) ${how}: ` + result.regressions.map(which).join(', ');
  }
  const compared = result.rows.filter((r) => r.status === 'compared').length;
  if (!compared) return 'INCONCLUSIVE (exit 2): no configuration is in both files with data, so nothing was compared.';
  if (result.exitCode === 2) {
    const units = (r) => `~${r.unitsNeeded} ${r.unit === 'round' ? 'rounds' : 'blocks'} per run`;
    const which = (r) => `${r.id}${r.unitsNeeded ? ` (${units(r)})` : ''}`;
    return `INCONCLUSIVE (exit 2): ${result.inconclusive.length} config(s) cannot rule out being ${limit}: ` +
      result.inconclusive.map(which).join(', ');
  }
  const how = result.direct === compared ? 'instruction counts, beyond their repeatability'
    : `one-sided, p < ${result.alpha}`;
  return `OK (exit 0): every compared config is shown not to be ${limit} (${how}).`;
}

// compareText(result) -> plain-text table and the outcome with its exit code.
function compareText(result) {
  const unit = result.counted ? 'instr/req' : result.duet ? `% of ${result.baseline ?? 'baseline'}` : 'req/s';
  const ciTitle = result.counted ? '95% CI or margin' : '95% CI';
  const header = ['config', `a ${unit}`, `b ${unit}`, 'b vs a', ciTitle, 'p', 'verdict', 'gate'];
  const across = result.machines?.same === false
    ? [`ACROSS MACHINES (${result.machines.differences.join(', ')}): a comparison of two machines, not of one ` +
      'change; instruction counts carry across machines, timed ratios less so'] : [];
  const lines = [
    `ctxbench compare: a = ${result.a}, b = ${result.b}`,
    ...across,
    ...METHOD_LINES[result.counted ? 'counted' : result.duet ? 'duet' : 'timed'](result),
    '',
    table(header, result.rows.map((r) => rowCells(r, result))),
    '',
    outcomeLine(result),
  ];
  const skipped = result.rows.filter((r) => r.status !== 'compared');
  if (skipped.length) lines.push(`Not compared: ${skipped.length} config(s) (see the table).`);
  return lines.join('\n') + '\n';
}

module.exports = { compareText };
