'use strict';
// The one reader of a run JSON (report, compare, repro --compare, run --resume, probe): a
// path or an already-parsed object. The file is migrated from the version that wrote it
// and checked against its declaration (lib/run-schema.js); errors say in one line which
// file and what is wrong with it.
const fs = require('node:fs');
const { checkRun, migrate } = require('./run-schema');
const { writeJsonAtomic } = require('./cli');

function readJson(file, label) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`${file}: cannot read ${label} (${err.code || err.message})`, { cause: err });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${String(err.message).split('\n')[0]})`, { cause: err });
  }
}

// kinds: the kinds this reader accepts (null: any). A reader of measurements (compare,
// repro, resume) needs configs, or a micro run's results.
function loadRun(x, label = 'run', { kinds = null, measured = true } = {}) {
  if (typeof x !== 'string') return migrate(x);
  const run = checkRun(readJson(x, label), { file: x, kinds });
  if (measured && !Array.isArray(run.configs) && !(run.kind === 'micro' && Array.isArray(run.micro?.results))) {
    throw new Error(`${x}: a ${run.kind} file, not a measured run (no "configs" list; see docs/run-json.md)`);
  }
  return run;
}

// The one writer of a run JSON: checked against its declaration first (a field that breaks
// the contract is a bug of the writer, not a file for a reader to refuse later), then
// written atomically, so an interrupted run keeps everything it measured.
function saveRun(file, run) {
  checkRun(run, { file });
  writeJsonAtomic(file, run);
}

module.exports = { loadRun, saveRun, readJson };
