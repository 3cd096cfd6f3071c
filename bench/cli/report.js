'use strict';
// `ctxbench report [results/x.json ...] [--out results.md]`: results.md from every run
// JSON under results/ (or only the files named).
const fs = require('node:fs');
const { parse, flags, UsageError, displayPath } = require('../../lib/cli');
const { buildReport, readResults } = require('../../report');
const summaryTable = require('../../report/summary-table');

function writeTextAtomic(file, text) {
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

const HELP = `What every study measured, in words, tables and charts: the report of the run JSON files
(measures nothing).

usage: ctxbench report [FILE.json ...] [--results DIR] [--out results.md]
                       [--csv FILE] [--json FILE] [--html | --no-html]

Renders results.md from every *.json in --results (default results/), or from the files
named: the summary ("What each strategy costs"), the default run and an index; one page
per study (results/<name>.md) and results/index.html, the same report with charts and
sortable tables in one self-contained file. A report written elsewhere (--out x/r.md)
puts its pages, charts and index.html in x/r/.

  --html        write index.html (the default)
  --no-html     do not write index.html

  --csv FILE    also write the summary table of every run file: one row per
                configuration (strategy, depth, hop, framework, node, ratio and its
                interval, verdict, CPU/req, mismatches, lost; docs/run-json.md)
  --json FILE   the same table as a JSON document ({ schema, kind: "summary", columns, rows })
`;

const OPTIONS = flags(['out', 'results', 'csv', 'json'], { booleans: ['html', 'no-html'] });

async function main(args) {
  const { values, positionals } = parse(args, OPTIONS, { allowPositionals: true });
  if (values.html && values['no-html']) throw new UsageError('--html and --no-html: choose one');
  const out = values.out ?? 'results.md';
  const result = await buildReport({
    resultsDir: values.results ?? 'results',
    out,
    files: positionals.length ? positionals : undefined,
    html: !values['no-html'],
  });
  process.stderr.write(
    `ctxbench: wrote ${result.out} (${result.sections.length} studies, ${result.pages.length} pages, ` +
      `${result.charts.length} charts)` +
      `${result.html ? `; HTML report: ${displayPath(result.html)}` : ''}\n`,
  );
  if (values.csv || values.json) {
    const table = summaryTable.rows(
      readResults(values.results ?? 'results', positionals.length ? positionals : undefined),
    );
    for (const [file, text] of [
      [values.csv, table.length && summaryTable.toCsv(table)],
      [values.json, summaryTable.toJson(table)],
    ]) {
      if (!file) continue;
      if (!table.length)
        throw new UsageError('--csv/--json: none of the files is a run (kind "run"): no summary table to write');
      writeTextAtomic(file, text);
      process.stderr.write(`ctxbench: wrote ${file} (${table.length} rows)\n`);
    }
  }
  return 0;
}

module.exports = { main, help: HELP, OPTIONS, POSITIONALS: true };
