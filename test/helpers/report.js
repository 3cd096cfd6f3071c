'use strict';
// The whole generated report as one text: results.md and every study page beside it
// (results/<name>.md, or <out-name>/ for a report written elsewhere).
const fs = require('node:fs');
const path = require('node:path');
const { pagesDirFor } = require('../../report');

function reportText(out, resultsDir = path.join(path.dirname(out), 'results')) {
  const dir = pagesDirFor({ resultsDir, out });
  const pages = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((n) => n.endsWith('.md'))
        .sort()
        .map((n) => fs.readFileSync(path.join(dir, n), 'utf8'))
    : [];
  return [fs.readFileSync(out, 'utf8'), ...pages].join('\n\n');
}

module.exports = { reportText };
