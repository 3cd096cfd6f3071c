'use strict';
// `ctxbench app --predict`: what each strategy of the cost model would cost the team's service
// (docs/model.md): its async resources per request and its runtime from a probe process, its
// CPU per request put on the model's scale by ctxbench's own reference server measured beside
// it in duet (bench/app/app-duet.js), and the model's prediction for every strategy.
const fs = require('node:fs');
const path = require('node:path');
const { UsageError } = require('../../lib/cli');
const { acfArgs, labelOfRuntime } = require('../../lib/node-versions');
const { analyzeApp } = require('../../analysis');
const { predictService, judgeAgainst } = require('../../analysis/model');
const { measureApp } = require('./app-duet');
const { probeSide } = require('./app-sides');
const { envOf } = require('../../servers/config');

// The cost model's fits, shipped with ctxbench: written by `ctxbench report` from the model
// studies (report/index.js modelFit), per runtime.
const ROOT = path.join(__dirname, '..', '..');
const MODEL_FIT = path.join(ROOT, 'results', 'model-fit.json');

function loadFits() {
  let fit;
  try {
    fit = JSON.parse(fs.readFileSync(MODEL_FIT, 'utf8'));
  } catch (err) {
    throw new UsageError(
      `--predict needs the cost model's fits (${MODEL_FIT}): ` +
        (err.code === 'ENOENT'
          ? 'not there; `ctxbench report` writes it from the model studies'
          : String(err.message).split('\n')[0]),
    );
  }
  const fits = new Map(Object.entries(fit.runtimes || {}));
  if (!fits.size) throw new UsageError(`--predict: ${MODEL_FIT} has no runtime's fit`);
  return fits;
}

// The reference server: ctxbench's own app at the model's reference point, on the node
// binary and AsyncContextFrame mode that serve the team's service.
const REFERENCE_ENV = {
  ...envOf({ strategy: 'none', depth: 8, hop: 'immediate', framework: 'express' }),
  HOST: '127.0.0.1',
};
function referenceCommand(runtime) {
  const major = String(runtime.node).replace(/^v/, '').split('.')[0];
  const flags = acfArgs(major, runtime.acf ? 'on' : 'off', runtime.node).args;
  return [runtime.execPath, ...flags, path.join(ROOT, 'app.js')].map((a) => JSON.stringify(a)).join(' ');
}

// --predict: the service's async resources per request and runtime (a probe process), its
// CPU per request beside the reference server in duet, and the model's prediction for
// every strategy; stored as run.predict, saved after every step.
async function predictInto(r, { side, settings, fits, pinned, stop, save, progress }) {
  progress.log(`probing ${side.name}: async resources per request and its runtime (a probe process, not measured)`);
  const probe = await probeSide(side, settings);
  const runtime = labelOfRuntime(probe.runtime.node, probe.runtime.acf);
  r.predict = { runtime, probe, model: null, reference: null, prediction: null };
  save();
  const fit = fits.get(runtime);
  if (!fit) {
    r.predict.error =
      `no cost model for ${runtime} (${probe.runtime.node}, AsyncContextFrame ` +
      `${probe.runtime.acf ? 'on' : 'off'}): the model's studies cover ${[...fits.keys()].join(', ')}`;
    progress.log(r.predict.error);
    save();
    return;
  }
  const ranges = Object.values(fit.strategies)
    .map((t) => t.rangeR)
    .filter(Array.isArray);
  r.predict.model = {
    runtime,
    source: fit.source,
    reference: fit.reference,
    rangeR: ranges.length ? [Math.min(...ranges.map((x) => x[0])), Math.max(...ranges.map((x) => x[1]))] : null,
  };
  const configs = await measureReference(r, { side, runtime: probe.runtime, settings, pinned, stop, save, progress });
  if (stop.requested) return;
  r.predict.prediction = predictService(fit, probe.perRequest.total, configs[1]);
  if (settings.strategy && r.configs.length === 2) r.predict.candidate = candidateBeside(r, settings.strategy);
  save();
}

// The service beside the reference server in duet, on the service's runtime: -> the two
// configs, kept on run.predict.reference as they are measured (a failure's too).
async function measureReference(r, { side, runtime, settings, pinned, stop, save, progress }) {
  const reference = {
    name: 'reference',
    command: referenceCommand(runtime),
    paths: ['/'],
    health: '/healthz',
    env: REFERENCE_ENV,
  };
  let configs;
  try {
    configs = await measureApp({
      sides: [side, reference],
      settings: { ...settings, idHeader: null },
      pinned,
      stop,
      onBlock: (measured) => {
        r.predict.reference = { command: reference.command, env: REFERENCE_ENV, configs: measured };
        save();
      },
      onProgress: (p) => {
        const what = `reference block ${p.block + 1}/${settings.blocks} window ${p.window + 1}`;
        if (p.dropped) progress.log(`${what} dropped: ${p.dropped}`);
        else progress.tick(what);
      },
    });
  } catch (err) {
    if (err.configs) r.predict.reference = { command: reference.command, env: REFERENCE_ENV, configs: err.configs };
    throw Object.assign(err, { reference: true });
  }
  r.predict.reference = { command: reference.command, env: REFERENCE_ENV, configs };
  return configs;
}

// --strategy: the candidate's prediction as that strategy beside its measured figure.
function candidateBeside(r, strategy) {
  const row = r.predict.prediction.rows?.find((x) => x.strategy === strategy);
  const measured = analyzeApp(r).ratio;
  return {
    strategy,
    predicted: row ? { estimate: row.estimate, ci95: row.ci95, df: row.df } : null,
    measured: measured && { estimate: measured.estimate, ci95: measured.ci95, df: measured.df },
    judgement: judgeAgainst(row, measured),
  };
}

module.exports = { loadFits, predictInto };
