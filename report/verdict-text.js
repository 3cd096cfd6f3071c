'use strict';
// The sentences of judgements analysis/ makes as data while a run is read (the verdict of
// a ratio stored in the run JSON is written by analysis/verdict.js verdictText, the one
// writer of those): equivalence, added latency, a strategy that cannot serve a rate.

// The equivalence outcome in words: "equivalent within ±2%", "beyond the ±2% margin",
// "cannot tell within ±2%".
function equivalenceText(eq) {
  if (!eq) return null;
  const m = `±${eq.marginPct}%`;
  if (eq.outcome === 'equivalent') return `equivalent within ${m}`;
  return eq.outcome === 'beyond' ? `beyond the ${m} margin` : `cannot tell within ${m}`;
}

// A latency summary's judgement (analysis/latency.js, analysis/pair.js) in words; null
// where it has none (a baseline's own summary).
function latencyVerdictText(j) {
  if (!j) return null;
  switch (j.reason) {
    case 'broken': return 'context broken: latency not comparable';
    case 'rate not held': return 'rate not held: no latencies reported';
    case 'fell behind':
      return 'rate not held: the candidate fell behind a rate its baseline kept' +
        (j.blocksNotServed ? ` (in ${j.blocksNotServed} of ${j.blocks} blocks)` : '');
    case 'baseline not held': return 'baseline did not hold the rate: no comparison';
    case 'generator-bound':
      return `generator-bound: its lateness p99 reached ${j.latenessP99} ms (over ${j.boundMs} ms) in every block`;
    case 'too few': return `too few ${j.unit} to tell`;
    case 'no difference': return 'no significant difference';
    default: {
      const ms = Math.abs(j.addedMs);
      return j.addedMs > 0 ? `adds ${ms.toFixed(2)} ms, significant` : `${ms.toFixed(2)} ms less, significant`;
    }
  }
}

// A pair's candidate that fell behind the rate its baseline kept: that is its answer.
// c: { load, rate, baseline } (analysis/strategy-summary.js ratioCell's cannotServe).
function cannotServeText(c) {
  const what = Number.isFinite(c.load) ? `${Math.round(c.load * 100)}% of \`${c.baseline}\`'s capacity`
    : `${c.rate} req/s`;
  return `cannot serve ${what}`;
}

module.exports = { equivalenceText, latencyVerdictText, cannotServeText };
