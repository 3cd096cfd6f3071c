'use strict';
// The published write-ups the references quote live beside the repository, not in it:
// ../shared/seeds in a checkout and in CI (for a git worktree one level deeper, ../../shared/seeds).
// CTXBENCH_SEEDS overrides. Tests that need them skip with this reason when absent.
const fs = require('node:fs');
const path = require('node:path');

const repo = path.join(__dirname, '..', '..');
const candidates = [
  process.env.CTXBENCH_SEEDS,
  path.join(repo, '..', 'shared', 'seeds'),
  path.join(repo, '..', '..', 'shared', 'seeds'),
].filter(Boolean);
const dir = candidates.find((d) => fs.existsSync(d)) || null;
const MISSING = `seeds folder not found (looked in ${candidates.join(', ')}; set CTXBENCH_SEEDS)`;

function read(name) {
  return fs.readFileSync(path.join(dir, name), 'utf8');
}

// Markdown table rows of a seed as { line, cells } with ** and surrounding spaces removed.
function rows(text) {
  return text
    .split('\n')
    .map((line, i) => ({ i, line }))
    .filter((x) => /^\|.*\|\s*$/.test(x.line.trim()))
    .map(({ i, line }) => ({
      i,
      cells: line
        .trim()
        .slice(1, -1)
        .split('|')
        .map((c) => c.replace(/\*\*/g, '').replace(/\\-/g, '-').trim()),
    }));
}

module.exports = { dir, MISSING, read, rows };
