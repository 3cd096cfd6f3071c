'use strict';
// The end of a run in the terminal, where the eye lands (as hyperfine and k6 end theirs):
// per configuration its cost against the baseline with the interval, the verdict, and
// whether every answer carried its own id; then where the full report is.
const path = require('node:path');
const f = require('./format');
const { pagesDirFor } = require('.');
const { displayPath } = require('../lib/cli');
const { armOf } = require('../analysis/comparable');
const { widthSummary, strategyInfo: info } = require('../analysis');
const { equivalenceText, latencyVerdictText, ratioVerdictText } = require('./verdict-text');
const { pairLatencySummary, pairBaselineSummary, generatorLateness, isPairConfig } = require('../analysis/pair');

function idCell(config, s) {
  const i = info(config.strategy);
  if (i.carriesContext === false) return 'n/a (carries no id)';
  const bad = (s.mismatches || 0) + (s.lost || 0);
  if (!bad) return 'ok, every id kept';
  const what = `${f.int(s.mismatches)} mismatched, ${f.int(s.lost)} lost`;
  return i.control ? `${what} (control: must leak)` : `BROKEN: ${what}`;
}

function pad(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => String(c).padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

// The ratio column's heading: what is compared, by the run's method.
function ratioHeading(s, { duet, pair, counted }) {
  const what = duet
    ? ' (CPU/req, duet) [95% CI]'
    : pair && s.targetCpu
      ? ` (throughput per instance at ${Math.round(s.targetCpu * 100)}% CPU` +
        `${s.instance?.requestLimit ? ' or the concurrency target' : ''}) [95% CI]`
      : pair
        ? ' (CPU/req at the rate, pair) [95% CI]'
      : counted
        ? ' (instructions/req) [window range]'
        : ' [95% CI]';
  return `% of ${s.baseline ?? 'baseline'}${what}`;
}

// The two answers a pair run gives instead of a ratio: a strategy that could not serve the
// rate, and a baseline that could not.
function rateJudges(run, s, pair) {
  // A strategy that fell behind the rate its baseline kept has that as its answer, not a
  // ratio from the windows it caught up in (analysis/pair.js), nor a precision.
  const cannotServe = (c) => {
    // At the autoscaler's operating point it is measured at its own rate instead.
    if (!pair || s.targetCpu || !isPairConfig(c) || armOf(c) === s.baseline) return null;
    const held = pairLatencySummary(c);
    return held.candidateHeld === false && held.baselineHeld ? held : null;
  };
  // A baseline that could not keep the rate itself (a rate beyond what the machine serves):
  // that is the answer for every pair it was in, with the share of its due requests it sent.
  const baselineBehind = (c) => {
    if (!pair || armOf(c) !== s.baseline) return null;
    const b = pairBaselineSummary(c, run.configs || []);
    return b && b.held.held === false ? b : null;
  };
  return { cannotServe, baselineBehind };
}

function configLabel(c) {
  const logged = c.log && c.log !== 'none' ? `, LOG=${c.log}` : '';
  return (
    (c.arm === 'aa' ? `${c.strategy} (A/A twin)` : c.userSupplied ? `${c.strategy} (user-supplied)` : c.strategy) +
    logged
  );
}

// One configuration's row; a baseline that could not keep the rate is also added to
// behindBaselines, for the lines under the table.
function configRow(c, { s, pair, counted, extra, cannotServe, baselineBehind }, behindBaselines) {
  const sum = c.summary;
  if (!sum) {
    return [
      c.strategy,
      c.depth ?? '',
      ...extra.map((k) => c[k] ?? ''),
      'not measured',
      c.error?.message?.split('\n')[0] ?? '',
      '',
      '',
    ];
  }
  const base = armOf(c) === s.baseline;
  const label = configLabel(c);
  const interval = counted ? sum.ratio?.range : sum.ratio?.ci95;
  const ratio = base
    ? 'baseline'
    : sum.ratio && f.isNum(sum.ratio.estimate)
      ? f.withCi(sum.ratio.estimate, interval, f.pctOf)
      : '—';
  // The control must leak: how close its cost is to the baseline's is no answer to anything.
  const eq = base || sum.broken || info(c.strategy).control ? null : sum.ratio?.judgement?.equivalence;
  const slow = baselineBehind(c);
  if (slow) {
    behindBaselines.push({ id: c.id, ...slow });
    return [
      label,
      c.depth ?? '',
      ...extra.map((k) => c[k] ?? ''),
      `cannot serve ${f.int(slow.rate)} req/s`,
      `baseline: sent ${f.pctOf(slow.held.sentRatio, 0)} of its due requests`,
      '',
      idCell(c, sum),
    ];
  }
  const behind = cannotServe(c);
  if (behind) {
    return [
      label,
      c.depth ?? '',
      ...extra.map((k) => c[k] ?? ''),
      `cannot serve ${f.int(c.rate)} req/s`,
      `fell behind the rate its baseline ` +
        `kept${behind.blocksNotServed ? ` (in ${behind.blocksNotServed} of ${behind.units} blocks)` : ''}`,
      '',
      idCell(c, sum),
    ];
  }
  // No ratio because the baseline beside it could not keep the rate: said so, not as a
  // lack of samples.
  const noBaseline =
    pair && !base && isPairConfig(c) && !f.isNum(sum.ratio?.estimate) && pairLatencySummary(c).baselineHeld === false;
  return [
    label,
    c.depth ?? '',
    ...extra.map((k) => c[k] ?? ''),
    ratio,
    base
      ? ''
      : noBaseline
        ? latencyVerdictText({ reason: 'baseline not held' })
        : (ratioVerdictText(sum.ratio, sum) ?? ''),
    eq ? equivalenceText(eq) : '',
    idCell(c, sum),
  ];
}

function headerLines(run, s, { duet, pair, counted }) {
  const method = duet
    ? 'duet'
    : pair
      ? 'pair at a fixed rate'
      : counted
        ? 'instruction counts (Valgrind)'
        : 'sequential';
  const lines = [
    '',
    `ctxbench ${s.preset ?? 'run'}: ${run.status}, ${method}, ${Math.round(run.measuringSeconds ?? 0)} s of measuring`,
  ];
  if (s.methodWhy) lines.push(`Method: ${s.methodWhy}.`);
  return lines;
}

// What a rate beyond the machine ends with: the baseline could not serve it, and how late
// the generator itself was at it (a generator-bound rate is beyond what it can drive, too).
function behindBaselineLines(run, s, behindBaselines) {
  const lines = [];
  for (const b of behindBaselines) {
    lines.push(
      `${s.baseline} cannot serve ${f.int(b.rate)} req/s here: no comparison at that rate (a lower --rate, or ` +
        `--load 50%, gives one).`,
    );
    const late = generatorLateness(run.configs || [], b.id);
    if (!late) continue;
    const range = late.p99Min === late.p99Max ? f.num(late.p99Max) : `${f.num(late.p99Min)}–${f.num(late.p99Max)}`;
    lines.push(
      `The load generator's own lateness p99 at that rate: ${range} ms per window` +
        (late.bound
          ? ` (over ${late.boundMs} ms: generator-bound, it fell behind its schedule too).`
          : ` (within ${late.boundMs} ms: it kept its schedule; the servers did not).`),
    );
  }
  return lines;
}

function precisionLines(widths, counted) {
  if (widths && counted)
    return [
      `Spread: median ±${f.num(widths.median)}%, worst ±${f.num(widths.worst)}% (half the range of window ` +
        `ratios; counts see no cache misses or memory stalls).`,
    ];
  else if (widths)
    return [`Precision: median ±${f.num(widths.median)} pp, worst ±${f.num(widths.worst)} pp (95% CI half-widths).`];
  return [];
}

function whereLines(out, report) {
  const lines = [`Full report: ${report && report !== 'none' ? report : '(none written)'}; run JSON: ${out}`];
  if (report && report !== 'none') {
    const html = path.join(pagesDirFor({ resultsDir: path.dirname(out), out: report }), 'index.html');
    lines.push(`HTML report (charts, sortable tables; open it in a browser): ${displayPath(html)}`);
  }
  return lines;
}

// runSummary(run, { out, report }) -> text.
function runSummary(run, { out, report } = {}) {
  const s = run.settings || {};
  const kind = { duet: s.method === 'duet', pair: s.method === 'pair', counted: s.method === 'instructions' };
  // Where hops or rates vary (real I/O, a ladder of rates), each row says which.
  const varies = (k) => new Set((run.configs || []).map((c) => c[k] ?? null)).size > 1;
  const extra = ['hop', 'rate'].filter(varies);
  const rows = [
    [
      'strategy',
      'depth',
      ...extra,
      ratioHeading(s, kind),
      'verdict',
      'equivalence (90% CI)',
      'ids',
    ],
  ];
  const judges = rateJudges(run, s, kind.pair);
  const behindBaselines = [];
  for (const c of run.configs || []) rows.push(configRow(c, { s, ...kind, extra, ...judges }, behindBaselines));
  const widths = widthSummary(
    (run.configs || [])
      .filter((c) => !judges.cannotServe(c))
      .map((c) => c.summary?.ratio?.[kind.counted ? 'spreadPct' : 'halfWidthPct']),
  );
  return [
    ...headerLines(run, s, kind),
    '',
    pad(rows),
    '',
    ...behindBaselineLines(run, s, behindBaselines),
    ...precisionLines(widths, kind.counted),
    ...whereLines(out, report),
    '',
  ].join('\n');
}

module.exports = { runSummary };
