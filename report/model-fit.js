'use strict';
// The cost model in the report: model-fit.json beside the pages, and results.md's pointer
// to the model studies.
const { analyzeModel, tally, wordTally, fitsByRuntime } = require('../analysis/model');
const { notModelledText } = require('./words');

// A runtime's fit as model-fit.json holds it: a pair not modelled carries its reason in
// words (the file is the report's; `app --predict` shows that reason as it stands).
const worded = (fit) => ({
  ...fit,
  strategies: Object.fromEntries(
    Object.entries(fit.strategies).map(([s, t]) =>
      [s, t.notModelled ? { ...t, notModelled: notModelledText(t.notModelled) } : t]),
  ),
});

// The cost model's fits, written beside the pages (model-fit.json) from the model studies:
// what `ctxbench app --predict` applies, shipped in the package instead of the studies'
// run files (megabytes of windows). Generated like the pages, never edited; not a study.
const MODEL_FIT_KIND = 'model-fit';
const MODEL_FIT_FILE = 'model-fit.json';
function modelFit(results, relative) {
  const studies = results
    .filter(({ run }) => run.kind === 'run' && /^model/.test(run.settings?.preset ?? ''))
    .sort((a, b) => (a.run.settings.preset === 'model' ? -1 : b.run.settings.preset === 'model' ? 1 : 0));
  const fits = fitsByRuntime(studies.map(({ file, run }) => ({ file: relative(file), run })));
  if (!fits.size) return null;
  return {
    kind: MODEL_FIT_KIND,
    generated: 'ctxbench report, from the model studies (analysis/model.js exportFit); do not edit by hand',
    runtimes: Object.fromEntries([...fits].map(([runtime, fit]) => [runtime, worded(fit)])),
  };
}

// results.md's pointer to the cost model: where it is, what it says of validation, and the
// command that applies it to a team's service. null without a model study.
function modelPointer(results, link) {
  const studies = results
    .filter(({ run }) => run.kind === 'run' && /^model/.test(run.settings?.preset ?? ''))
    .map((r) => ({ ...r, model: analyzeModel(r.run) }))
    .filter((r) => r.model);
  if (!studies.length) return null;
  const tallies = studies.map((r) => ({
    r,
    t: tally(r.model.runtimes.flatMap((rt) => rt.strategies.flatMap((x) => x.points))),
  }));
  // The three words counted (analysis/model.js wordTally); what each means is the page's to say.
  const said = tallies.map(({ r, t }) => {
    const w = wordTally(r.model);
    return (
      `[${r.run.title.replace(/[[\]]/g, '')}](${link(r.name)}): of ${t.total} held-out predictions, ` +
      `${t.within} within their margin, ${t.beyond} beyond it, ${t.cannotTell} cannot tell` +
      `${t.unjudged ? `, ${t.unjudged} not measured` : ''}; the model is claimed for ${w.claimed} of ` +
      `${w.pairs} strategy–runtime pairs, not validated ${w.notValidated}, not modelled ${w.notModelled}`
    );
  });
  return [
    '## What it will cost your service: the cost model',
    '',
    "Each strategy's extra CPU per request written as a cost per request plus a cost per async resource the " +
      'request creates, fitted per runtime with 95% intervals ' +
      "([docs/model.md](docs/model.md)); `ctxbench app --baseline CMD --predict` counts your service's async " +
      "resources per request and predicts each strategy's share of its throughput.",
    '',
    ...said.map((x) => `- ${x}`),
  ].join('\n');
}

module.exports = { MODEL_FIT_KIND, MODEL_FIT_FILE, modelFit, modelPointer };
