'use strict';
// The run files a report reads: every results/*.json (or the files named), checked and
// migrated on read, then put in the order results.md lists them.
const fs = require('node:fs');
const path = require('node:path');
const { readJson } = require('../lib/run-file');
const { checkRun } = require('../lib/run-schema');
// What is wrong with the files a user named is bad input (one line, exit 1), not an
// internal error.
const { UsageError } = require('../lib/cli');
const { MODEL_FIT_KIND } = require('./model-fit');

const KIND_ORDER = ['run', 'repro', 'integrity', 'micro', 'overhead', 'calibrate', 'aa'];

// Reads and parses every *.json in dir (not *.tmp). Throws one clear line naming the file.
function readResults(resultsDir, files) {
  let list = files;
  if (!list) {
    let names;
    try {
      names = fs.readdirSync(resultsDir);
    } catch (err) {
      throw new UsageError(
        `${resultsDir}: cannot read the results directory (${err.code || err.message}); run \`ctxbench run\` first`,
        { cause: err },
      );
    }
    list = names
      .filter((n) => n.endsWith('.json'))
      .sort()
      .map((n) => path.join(resultsDir, n));
  }
  return list
    .map((file) => {
      let run;
      try {
        run = readJson(file, 'the file');
        // The shipped model fit is not a run; everything else is checked (and migrated) on read.
        if (run?.kind !== MODEL_FIT_KIND) run = checkRun(run, { file, unknown: true });
      } catch (err) {
        throw new UsageError(err.message, { cause: err });
      }
      return { file, run };
    })
    .filter(({ run }) => run.kind !== MODEL_FIT_KIND);
}

function kindRank(kind) {
  const i = KIND_ORDER.indexOf(kind);
  return i < 0 ? KIND_ORDER.length : i;
}

// run files first (the `default` preset first, then other presets alphabetically, then
// runs without a preset), then integrity, micro, calibrate, aa, then unknown kinds.
function orderResults(results) {
  const presetKey = (r) => {
    const p = r.run.settings && r.run.settings.preset;
    if (p === 'default') return [0, ''];
    return p ? [1, String(p)] : [2, ''];
  };
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  return [...results].sort((a, b) => {
    const k = kindRank(a.run.kind) - kindRank(b.run.kind) || cmp(a.run.kind, b.run.kind);
    if (k) return k;
    if (a.run.kind === 'run') {
      const [pa, na] = presetKey(a);
      const [pb, nb] = presetKey(b);
      if (pa !== pb) return pa - pb;
      if (na !== nb) return cmp(na, nb);
    }
    return cmp(a.file, b.file);
  });
}

module.exports = { readResults, orderResults };
