'use strict';
// `ctxbench report [results/x.json ...] [--out results.md]`: results.md from every run
// JSON under results/ (or only the files named).
const { parse } = require('../../lib/cli');
const { buildReport } = require('../../report');

const HELP = `usage: ctxbench report [FILE.json ...] [--results DIR] [--out results.md]

Renders results.md from every *.json in --results (default results/), one section each,
or from the files named.
`;

async function main(args) {
  const { values, positionals } = parse(
    args,
    { out: { type: 'string' }, results: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    { allowPositionals: true },
  );
  const out = values.out ?? 'results.md';
  const result = await buildReport({ resultsDir: values.results ?? 'results', out, files: positionals.length ? positionals : undefined });
  process.stderr.write(`ctxbench: wrote ${result.out} (${result.sections.length} sections, ${result.charts.length} charts)\n`);
  return 0;
}

module.exports = { main, help: HELP };
