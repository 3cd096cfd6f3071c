'use strict';
// Where a report's files go and how each links to another: results.md, the study pages and
// their charts, and README.md beside the committed report (its answer block).
const fs = require('node:fs');
const path = require('node:path');
const answer = require('./answer');

// Where the study pages, their charts and index.html go: results/ itself when the report
// is results.md beside results/; a report written anywhere else takes them with it
// (<name>/ beside it), so rendering a scratch report never rewrites the committed pages.
function pagesDirFor({ resultsDir = 'results', out = 'results.md' } = {}) {
  const outDir = path.dirname(path.resolve(out));
  return outDir === path.resolve(resultsDir, '..')
    ? path.resolve(resultsDir)
    : path.join(outDir, path.basename(out, '.md'));
}

function writeAtomic(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

const posix = (p) => p.split(path.sep).join('/');

// placesOf({ resultsDir, out }) -> where results.md (outFile), the pages and their charts
// go, and a path relative to results.md (fromOut) or to the pages (fromPages).
function placesOf({ resultsDir, out }) {
  const outFile = path.resolve(out);
  const outDir = path.dirname(outFile);
  const pagesDir = pagesDirFor({ resultsDir, out });
  return {
    outFile,
    pagesDir,
    chartsDir: path.join(pagesDir, 'charts'),
    fromOut: (p) => posix(path.relative(outDir, path.resolve(p))),
    fromPages: (p) => posix(path.relative(pagesDir, path.resolve(p))),
    pageOf: (name) => path.join(pagesDir, `${name}.md`),
  };
}

// README.md beside the committed report: results.md written beside a results/ folder; null
// for a report written anywhere else.
function readmeOf({ resultsDir = 'results', out = 'results.md' } = {}) {
  const dir = path.resolve(resultsDir, '..');
  const committed =
    path.basename(path.resolve(resultsDir)) === 'results' && path.resolve(out) === path.join(dir, 'results.md');
  return committed ? path.join(dir, 'README.md') : null;
}

// README's answer block for a summary, its links relative to README.md.
function answerFor(summary, { resultsDir = 'results', out = 'results.md', html = true } = {}) {
  const dir = path.resolve(resultsDir, '..');
  const rel = (p) => posix(path.relative(dir, p));
  return answer.answerBlock(summary, {
    resultsMd: rel(path.resolve(out)),
    html: html ? rel(path.join(pagesDirFor({ resultsDir, out }), 'index.html')) : null,
  });
}

module.exports = { pagesDirFor, placesOf, writeAtomic, posix, readmeOf, answerFor };
