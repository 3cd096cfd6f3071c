'use strict';
// The summary table out of ctxbench: one row per configuration of every run file, as CSV
// (a spreadsheet) or as a JSON document (other tools). Columns: docs/run-json.md.
const { summaryOf } = require('../analysis');
const { armOf } = require('../analysis/comparable');
const { ratioVerdictText } = require('./verdict-text');

const COLUMNS = [
  'file',
  'id',
  'strategy',
  'user_supplied',
  'aa_twin',
  'depth',
  'hop',
  'framework',
  'node',
  'acf',
  'method',
  'baseline',
  'ratio',
  'ratio_ci95_low',
  'ratio_ci95_high',
  'ratio_quantity',
  'verdict',
  'blocks',
  'cpu_us_per_request',
  'solo_rps',
  'p99_ms',
  'mismatches',
  'lost',
  'instructions_per_request',
  'ratio_range_low',
  'ratio_range_high',
  'elu',
];

const QUANTITY = {
  cpu: 'baseline CPU per request / CPU per request (duet)',
  instructions: 'baseline instructions per request / instructions per request (Valgrind)',
};

// rows(results) -> [{ column: value }]; results: [{ file, run }] of kind 'run'.
function rows(results) {
  const out = [];
  for (const { file, run } of results) {
    if (run.kind !== 'run') continue;
    const baseline = run.settings?.baseline ?? null;
    for (const c of run.configs || []) {
      const s = summaryOf(c, run.configs, baseline);
      const isBase = armOf(c) === baseline;
      const r = isBase ? null : s.ratio;
      out.push({
        file,
        id: c.id,
        strategy: c.strategy,
        user_supplied: Boolean(c.userSupplied),
        aa_twin: c.arm === 'aa',
        depth: c.depth ?? null,
        hop: c.hop ?? null,
        framework: c.framework ?? null,
        node: c.node ?? null,
        acf: c.acf ?? null,
        method: run.settings?.method,
        baseline: isBase ? null : (r?.baseline ?? null),
        ratio: r?.estimate ?? null,
        ratio_ci95_low: r?.ci95?.[0] ?? null,
        ratio_ci95_high: r?.ci95?.[1] ?? null,
        ratio_quantity: r ? (QUANTITY[r.quantity] ?? 'throughput / baseline throughput') : null,
        verdict: isBase ? 'baseline' : ratioVerdictText(r, s),
        blocks: r?.blocks ?? s.blocks ?? null,
        cpu_us_per_request: s.cpuUsPerRequest?.median ?? null,
        solo_rps: s.rps?.estimate ?? null,
        p99_ms: s.p99?.median ?? null,
        mismatches: s.mismatches,
        lost: s.lost,
        instructions_per_request: s.instructions?.median ?? null,
        ratio_range_low: r?.range?.[0] ?? null,
        ratio_range_high: r?.range?.[1] ?? null,
        elu: s.elu?.median ?? null,
      });
    }
  }
  return out;
}

function csvCell(v) {
  if (v === null || v === undefined) return '';
  const text = typeof v === 'number' ? String(Math.round(v * 1e6) / 1e6) : String(v);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function toCsv(table) {
  return [COLUMNS.join(','), ...table.map((row) => COLUMNS.map((k) => csvCell(row[k])).join(','))].join('\n') + '\n';
}

function toJson(table) {
  return `${JSON.stringify({ schema: 1, kind: 'summary', columns: COLUMNS, rows: table }, null, 2)}\n`;
}

module.exports = { rows, toCsv, toJson, COLUMNS };
