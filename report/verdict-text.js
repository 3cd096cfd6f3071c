'use strict';
// The sentences of the judgements analysis/ makes as data (issue 77: analysis returns codes
// and numbers, report/ words them): a ratio's verdict, equivalence, added latency, a
// strategy that cannot serve a rate. Run files keep the judgement, never its sentence.
const { formatPct } = require('../lib/format');
const { judgementOf } = require('../analysis/verdict');

const BROKEN = 'context broken, cost not comparable';

const CLIENT_BOUND = 'load generator client-bound (≥ 85% of a core), no verdict';

// A micro sample too short for the timer: no ratio to judge (analysis/micro.js).
const UNRESOLVED = 'below timer resolution, not comparable';

// The sentence of a judgement (analysis/verdict.js judge): "7.0% slower, significant" |
// "3.1% faster, significant" | "no significant difference" | "not enough samples" | BROKEN |
// CLIENT_BOUND | UNRESOLVED (micro); for counts "2.0% more instructions" | "no difference in
// instructions". on: a runtime the change is on ("slower on 24"); units: what too few of
// were counted ("not enough rounds").
function verdictText(j, { quantity = null, on = null, units = 'samples' } = {}) {
  if (j.reason === 'broken') return BROKEN;
  if (j.reason === 'client-bound') return CLIENT_BOUND;
  if (j.reason === 'unresolved') return UNRESOLVED;
  if (j.reason === 'too few samples') return `not enough ${units}`;
  if (quantity === 'instructions') {
    if (!j.significant) return 'no difference in instructions';
    return `${formatPct(Math.abs(j.changePct))}% ${j.direction === 'slower' ? 'more' : 'fewer'} instructions`;
  }
  if (!j.significant) return 'no significant difference';
  return `${formatPct(j.changePct)}% ${j.direction}${on ? ` on ${on}` : ''}, significant`;
}

// A ratio's verdict (analysis/summary.js): its judgement in words, a count's as a count.
// A ratio read from a file saved before judgements were kept is judged from its figures
// (judgementOf; s: its summary, for broken and clientBound), never from a sentence. Windows
// leave client-bound seconds out already: only a throughput ratio (no quantity) is withheld.
// null without a ratio.
function ratioVerdictText(r, s = {}) {
  if (!r) return null;
  const j = judgementOf(r, { broken: Boolean(s.broken), clientBound: !r.quantity && Boolean(s.clientBound) });
  return verdictText(j, { quantity: r.quantity });
}

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

module.exports = {
  BROKEN,
  CLIENT_BOUND,
  UNRESOLVED,
  verdictText,
  ratioVerdictText,
  equivalenceText,
  latencyVerdictText,
  cannotServeText,
};
