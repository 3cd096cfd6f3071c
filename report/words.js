'use strict';
// The words of the codes analysis/ returns (issue 77): analysis returns codes and numbers,
// report/ writes the sentences (a verdict's: report/verdict-text.js). The terminal's lines
// (bench/cli/) take theirs from here too. A file saved before issue 77 may hold the
// sentence itself where a code stands now: it is shown as it is.

// `ctxbench overhead`'s two servers (analysis/method.js analyzeOverhead `sides`).
const SIDE_NAMES = { ctxbench: 'ctxbench none depth 1', 'hello-world': 'express hello-world' };
const sideName = (code) => SIDE_NAMES[code] ?? code;

// Why a micro target has no status (analysis/micro.js targets `reason`): the codes that
// read as they are ('baseline', 'not measured', 'no baseline', 'below timer resolution')
// and the one that needs words.
const TARGET_REASONS = { 'reads nothing': 'reads nothing by design' };
const targetReasonText = (code) => TARGET_REASONS[code] ?? code;

// ---------------------------------------------------------------- the cost model

// What every prediction is a share of (analysis/model-predict.js): the model's lines are
// fitted from duet windows, both servers saturated; at a fixed load below it a strategy's
// CPU per request is not the saturated one (the method check: scripts/method-check.sh).
const AT_SATURATION =
  "each a share at saturation (the duet's measure): at a fixed load below it some strategies cost a request " +
  'more CPU than this and some less (docs/model.md, "The method check")';

// A prediction's caveat (analysis/model-predict.js predictService rows), by its code.
const CAVEATS = {
  'agent-io':
    'fitted on requests that make no database, cache or HTTP client call: the agent spans each such call, which ' +
    'the model does not count, so a service that makes them pays more than this',
};
const caveatText = (c) => (typeof c === 'string' ? c : (CAVEATS[c?.code] ?? c?.code ?? null));

// Why a strategy has no line (analysis/model.js fitOf).
function fitWhyText(why) {
  if (!why || typeof why === 'string') return why;
  if (why.code === 'unfitted-points') return `${why.count} fitted point(s) without a probe count or a measured window`;
  if (why.code === 'too-few-points') return 'fewer than two fitted points with different resource counts';
  return why.code;
}

// Why a strategy is not modelled (analysis/model-judge.js wordOf): no line (fitOf's reason),
// or a line shown wrong at held-out points, each with its gap (pp, predicted − measured).
function notModelledText(x) {
  if (!x || typeof x === 'string') return x;
  if (x.code !== 'line-wrong') return fitWhyText(x);
  const n = x.points.length;
  const at = x.points.map((p) => `${p.point} by ${p.gapPp >= 0 ? '+' : '−'}${Math.abs(p.gapPp).toFixed(1)} pp`);
  return `its line is wrong at ${n} held-out point${n === 1 ? '' : 's'} (${at.join(', ')}, beyond the margin)`;
}

// Why `app --predict` made no prediction (predictService's error).
const PREDICT_ERRORS = {
  'no-reference-level': 'the model has no reference level for this runtime',
  'no-reference-window': 'no window of the service beside the reference server counted',
};
const predictErrorText = (code) => PREDICT_ERRORS[code] ?? code;

// Why a prediction row has no figure (predictService), with the command that measures it.
function predictWhyText(row) {
  const why = row.why;
  if (!why || typeof why === 'string') return why;
  const measureIt = `measure it with \`ctxbench app --candidate ${row.strategy}\``;
  switch (why.code) {
    case 'not-modelled':
      return `not modelled: ${notModelledText(why.notModelled) ?? 'no terms'}; ${measureIt}`;
    case 'outside-range':
      return (
        `outside the fitted range: ${why.R.toFixed(1)} async resources per request, the terms were fitted on ` +
        `${why.rangeR.map((x) => x.toFixed(0)).join('–')}; ${measureIt}`
      );
    case 'negative-terms':
      return (
        'the fitted terms take CPU off a request (a fit from before terms were constrained to costs): refit ' +
        'with `ctxbench report`'
      );
    default:
      return why.code;
  }
}

module.exports = {
  sideName,
  targetReasonText,
  AT_SATURATION,
  caveatText,
  fitWhyText,
  notModelledText,
  predictErrorText,
  predictWhyText,
};
