'use strict';
// The one reader of a run JSON named by a user (compare, repro --compare): a path or an
// already-parsed object. Errors say in one line which file and what is wrong with it.
const fs = require('node:fs');

function loadRun(x, label = 'run') {
  if (typeof x !== 'string') return x;
  let text;
  try {
    text = fs.readFileSync(x, 'utf8');
  } catch (err) {
    throw new Error(`${x}: cannot read ${label} (${err.code || err.message})`, { cause: err });
  }
  let run;
  try {
    run = JSON.parse(text);
  } catch (err) {
    throw new Error(`${x}: not valid JSON (${String(err.message).split('\n')[0]})`, { cause: err });
  }
  // A micro run keeps its entries under micro.results instead of configs.
  const isMicro = run?.kind === 'micro' && Array.isArray(run.micro?.results);
  if (!run || typeof run !== 'object' || (!Array.isArray(run.configs) && !isMicro)) throw new Error(`${x}: not a ctxbench run (no "configs" list; see docs/run-json.md)`);
  return run;
}

module.exports = { loadRun };
