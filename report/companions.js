'use strict';
// What a study's page reads beside its own results file. The report opens the results
// folder (report/index.js); a section, and the analysis, never open a file themselves.
const fs = require('node:fs');
const path = require('node:path');
const { loadRun } = require('../lib/run-file');

// Whether results/repro-<n>.json is a second run of the page `name`: a repro that names the
// files it compared counts only for those (one preset's variants, such as deployment-f1 at
// another CFS period, are pages of their own with repros of their own).
function reproves(resultsDir, n, name) {
  const file = path.join(resultsDir, `repro-${n}.json`);
  if (!fs.existsSync(file)) return false;
  if (n === name) return true;
  let files;
  try {
    files = JSON.parse(fs.readFileSync(file, 'utf8')).files;
  } catch {
    return false;
  }
  return !Array.isArray(files) || !name || files.some((f) => path.basename(f, '.json') === name);
}

// companionsOf(run, resultsDir) -> the other results a study's page reads beside its own,
// so that no report section opens files itself:
//   sequential: the same preset measured one after the other (results/runs/<preset>-sequential.json),
//               beside a duet run for the method comparison;
//   timed:      the default run when it is duet (the time-based figure beside instruction counts);
//   methodCheck: the model preset's method check (results/runs/method-check-duet.json and
//               -pair.json, scripts/method-check.sh), both or null;
//   reproduced: whether a second run of this file (results/repro-<name>.json) or of its preset
//               (results/repro-<preset>.json, when it compared this file or names none) is committed.
// A missing or unreadable companion is null: the page then says less, it does not fail.
function companionsOf(run, resultsDir, name = null) {
  if (!resultsDir) return { sequential: null, timed: null, methodCheck: null, reproduced: null };
  const preset = run?.settings?.preset ?? null;
  const read = (file) => {
    try {
      return fs.existsSync(file) ? { file, run: loadRun(file) } : null;
    } catch {
      return null;
    }
  };
  const timed = read(path.join(resultsDir, 'default.json'));
  const checkRuns =
    preset === 'model'
      ? ['duet', 'pair'].map((m) => read(path.join(resultsDir, 'runs', `method-check-${m}.json`)))
      : [];
  return {
    methodCheck: checkRuns.length && checkRuns.every(Boolean) ? { duet: checkRuns[0], pair: checkRuns[1] } : null,
    sequential: preset ? read(path.join(resultsDir, 'runs', `${preset}-sequential.json`)) : null,
    timed: timed?.run.settings?.method === 'duet' ? timed : null,
    reproduced: preset || name ? [name, preset].some((n) => n && reproves(resultsDir, n, name)) : null,
  };
}
module.exports = { companionsOf };
