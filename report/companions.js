'use strict';
// What a study's page reads beside its own results file. The report opens the results
// folder (report/index.js); a section, and the analysis, never open a file themselves.
const fs = require('node:fs');
const path = require('node:path');
const { loadRun } = require('../lib/run-file');

// companionsOf(run, resultsDir) -> the other results a study's page reads beside its own,
// so that no report section opens files itself:
//   sequential: the same preset measured one after the other (results/runs/<preset>-sequential.json),
//               beside a duet run for the method comparison;
//   timed:      the default run when it is duet (the time-based figure beside instruction counts);
//   methodCheck: the model preset's method check (results/runs/method-check-duet.json and
//               -pair.json, scripts/method-check.sh), both or null;
//   reproduced: whether a second run of the preset (results/repro-<preset>.json), or of this
//               file (results/repro-<name>.json, for a run without a preset, e.g. micro), is committed.
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
    reproduced: preset
      ? fs.existsSync(path.join(resultsDir, `repro-${preset}.json`))
      : name
        ? fs.existsSync(path.join(resultsDir, `repro-${name}.json`))
        : null,
  };
}
module.exports = { companionsOf };
