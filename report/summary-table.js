'use strict';
// The summary table out of ctxbench: one row per configuration of every run file, as CSV
// (a spreadsheet) or as a JSON document (other tools). Columns: COLUMN_DOCS (docs/run-json.md).
const { summaryOf } = require('../analysis');
const { armOf } = require('../analysis/comparable');
const { ratioVerdictText } = require('./verdict-text');

// What ratio_quantity says the ratio is of, by summary.ratio.quantity.
const QUANTITY = {
  cpu: 'baseline CPU per request / CPU per request (duet)',
  instructions: 'baseline instructions per request / instructions per request (Valgrind)',
};
const THROUGHPUT = 'throughput / baseline throughput';

// What the table is, and its columns in order with what each holds: docs/run-json.md is
// generated from these (scripts/docs-run-json.js).
const TABLE_DOC =
  'One row per configuration of every run file (`kind: "run"`) the report reads. CSV: a header line, then one ' +
  'line per row, fields quoted where they hold a comma or a quote. JSON: `{ "schema": 1, "kind": "summary", ' +
  '"columns": [...], "rows": [{ column: value }] }`. An empty cell (CSV) or `null` (JSON) means "not applicable" ' +
  '(a baseline has no ratio).';
const COLUMN_DOCS = [
  ['file', 'the run JSON the row comes from'],
  ['id', 'the configuration, as in `configs[]`'],
  ['strategy', 'the configuration, as in `configs[]`'],
  ['user_supplied', '`true` for a strategy loaded with `--strategy-file`'],
  ['aa_twin', '`true` for the A/A twin of the baseline'],
  ...['depth', 'hop', 'framework', 'node', 'acf'].map((c) => [c, 'the configuration, as in `configs[]`']),
  ['method', "the run's `settings.method`"],
  ['baseline', 'the id of the configuration the ratio is against'],
  ['ratio', '`summary.ratio.estimate`'],
  ...['ratio_ci95_low', 'ratio_ci95_high'].map((c) => [c, 'its 95% interval']),
  ['ratio_quantity', `what the ratio is of: ${[...Object.values(QUANTITY), THROUGHPUT].join('; ')}`],
  ['verdict', '`summary.ratio.judgement` in words (as results.md says it), or `baseline`'],
  ['blocks', 'blocks (fresh processes) the interval is over'],
  ['cpu_us_per_request', "the configuration's own median server CPU µs per request (duet: from its solo bursts)"],
  ['solo_rps', 'its req/s, the geometric mean over blocks (duet: solo bursts)'],
  ['p99_ms', 'its median p99, ms (duet: solo bursts)'],
  ...['mismatches', 'lost'].map((c) => [c, "responses carrying another request's id, and carrying none"]),
  ['instructions_per_request', 'instruction-count runs: the median over processes of instructions per request'],
  ...['ratio_range_low', 'ratio_range_high'].map((c) => [
    c,
    'instruction-count runs: the lowest and highest window ratio (`ratio_ci95_*` is then the interval over ' +
      'blocks, empty with one)',
  ]),
  ['elu', 'median event-loop utilization (`summary.elu.median`); empty for runs that did not record it'],
];
const COLUMNS = COLUMN_DOCS.map(([column]) => column);

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
        ratio_quantity: r ? (QUANTITY[r.quantity] ?? THROUGHPUT) : null,
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

module.exports = { rows, toCsv, toJson, COLUMNS, COLUMN_DOCS, TABLE_DOC };
