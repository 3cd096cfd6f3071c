'use strict';
// The report a measuring command regenerates at its end. It lives with the commands (the
// top layer): the runner below them never imports the report.
const path = require('node:path');
const { displayPath } = require('../../lib/cli');

// The results.md a run regenerates when --report is not given: only a run written into
// ./results/ (the committed set); a run written elsewhere must not replace the committed
// report with a report of unrelated files.
function defaultReport(out) {
  const dir = path.resolve(path.dirname(out));
  return dir === path.resolve('results') ? 'results.md' : 'none';
}

// Returns the report's path, or 'none'.
async function writeReport(out, reportPath = defaultReport(out)) {
  if (reportPath === 'none') return reportPath;
  // Loaded only when a report is written: the report (vega, every section) is slow to load
  // (docs/investigations.md, "Figures that code comments carried"), which `--report none` and a run
  // refused for bad input should not pay.
  const { buildReport } = require('../../report');
  const built = await buildReport({ resultsDir: path.dirname(out), out: reportPath });
  process.stderr.write(
    `ctxbench: wrote ${reportPath}, ${built.pages.length} study pages beside it and ${displayPath(built.html)}\n`,
  );
  return reportPath;
}

module.exports = { writeReport, defaultReport };
