'use strict';
// The cost model's prediction (analysis/model.js): the fit as `ctxbench app --predict` reads
// it, and a team's service predicted from it.
const { positive, tCritical } = require('./stats');
const { overBlocks, blockFigures, predictRatio } = require('./model-fit');
const strategies = require('../context');

// What `ctxbench app --predict` reads: per runtime, the reference level and each strategy's
// per-block terms (µs), with where they came from. model: analyzeModel of a run.
function exportFit(model, source) {
  return {
    source,
    runtimes: Object.fromEntries(
      model.runtimes.map((rt) => [
        rt.runtime,
        {
          node: rt.node,
          acf: rt.acf,
          reference: rt.reference,
          strategies: Object.fromEntries(
            rt.strategies.map((s) => [
              s.strategy,
              // The word travels with the terms (`app --predict` prints it beside the figure);
              // a pair not modelled ships its reason (a code: report/model-fit.js words it in the
              // file) and no terms.
              s.word !== 'not modelled'
                ? {
                    word: s.word,
                    validation: s.validation,
                    perRequestUs: s.fit.perRequestUs,
                    perResourceUs: s.fit.perResourceUs,
                    blocks: s.fit.blocks.map(({ block, a, b, lo, hi }) => ({ block, a, b, lo, hi })),
                    rangeR: s.fit.rangeR,
                  }
                : { word: s.word, notModelled: s.notModelled },
            ]),
          ),
        },
      ]),
    ),
  };
}

// An APM agent's cost follows the spans a request makes, which no async resource count
// says: the model's server makes none beyond its request's own (2 Sentry spans a
// request, as the sink counted them), so a service whose requests query a database or
// call out pays a span's cost per call more (measured on examples/orders: docs/model.md,
// "What the studies found").
const isAgent = (strategy) => Boolean(strategies.names.includes(strategy) && strategies.info(strategy).agent);

// Each block's line in the µs of the model's reference level: a block measured on a CPU
// faster than the study's mean (a sitting on another machine) has its line scaled by the
// reference level's mean over that block's own. The service's CPU per request is put on the
// mean's scale, so a line from the fast blocks alone (the small services' range, measured
// only in later sittings) would otherwise read as a cheaper cost. Lines without their
// block or a fit without per-block levels (older fits) stay as they are.
function onReferenceScale(terms, reference) {
  const mean = reference?.cpuUsPerRequest?.estimate;
  const byBlock = reference?.byBlock;
  if (!positive(mean) || !byBlock) return terms;
  const blocks = terms.blocks.map((l) => {
    const level = byBlock[l.block];
    return positive(level) ? { ...l, a: (l.a * mean) / level, b: (l.b * mean) / level } : l;
  });
  return { ...terms, blocks };
}

// A team's service predicted (item 3): its CPU per request put on the model run's scale
// through the reference server measured beside it in duet (referenceConfig: the reference's
// windows against the service as partner; cost = reference ÷ service per block), then each
// strategy's terms at the service's R. -> { baselineUs, rows: [{ strategy, estimate, ci95,
// extraUs }] } or { error } when it cannot: a code (report/words.js predictErrorText),
// 'no-reference-level' (the runtime has none) or 'no-reference-window' (no window of the
// service beside the reference server counted). A row without a figure says why, a code too.
function predictService(fit, R, referenceConfig) {
  const ref = fit.reference?.cpuUsPerRequest;
  if (!ref || !positive(ref.estimate)) return { error: 'no-reference-level' };
  const perBlock = [...blockFigures(referenceConfig).values()].map((x) => ref.estimate / x.cost);
  const level = overBlocks(perBlock);
  if (!positive(level.estimate)) return { error: 'no-reference-window' };
  // The reference level's own uncertainty, relative, added to the service's.
  const rel = ref.se ? ref.se / ref.estimate : 0;
  const se = level.se === null ? null : Math.sqrt(level.se ** 2 + (level.estimate * rel) ** 2);
  const df = level.df === null ? ref.df : Math.min(level.df, ref.df ?? level.df);
  const half = se !== null && df ? tCritical(df) * se : null;
  const baselineUs = { ...level, se, df, ci95: half === null ? null : [level.estimate - half, level.estimate + half] };
  const rows = Object.entries(fit.strategies).map(([strategy, terms]) => {
    // A fit written before the words (issue 61) has none: its rows say nothing of validation.
    const word = terms.word ?? (terms.notModelled ? 'not modelled' : null);
    const said = { word, ...(terms.validation && { validation: terms.validation }) };
    // A row without a figure: what it is instead, and why.
    const refused = (instead) => ({ strategy, ...said, estimate: null, ci95: null, extraUs: null, ...instead });
    // notModelled: the fit's reason (model-fit.json holds it in words), or none.
    if (terms.notModelled || !terms.blocks)
      return refused({ notModelled: true, why: { code: 'not-modelled', notModelled: terms.notModelled ?? null } });
    // Outside the resource counts the terms were fitted on, the line was never tested:
    // refused with the reason, never printed as a figure.
    if (Array.isArray(terms.rangeR) && (R < terms.rangeR[0] || R > terms.rangeR[1])) {
      return refused({ outside: true, rangeR: terms.rangeR, why: { code: 'outside-range', R, rangeR: terms.rangeR } });
    }
    const p = predictRatio(onReferenceScale(terms, fit.reference), R, baselineUs);
    return {
      strategy,
      ...said,
      estimate: p.estimate,
      ci95: p.ci95,
      df: p.df ?? null,
      extraUs: p.extraUs.estimate,
      ...(p.why && { why: p.why }),
      // The model's requests make no database, cache or HTTP client call, which an agent spans
      // and the model does not count: a caveat, a code (report/words.js caveatText).
      ...(isAgent(strategy) && p.estimate !== null && { caveat: { code: 'agent-io' } }),
    };
  });
  return { baselineUs, rows };
}

module.exports = { isAgent, exportFit, onReferenceScale, predictService };
