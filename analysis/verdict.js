'use strict';
// Verdicts as data: judge() decides one, judgeInstructions() for a count, judgementOf() reads
// a stored one (analysis/summary.js puts a judgement on every ratio it computes; compare,
// micro and the frameworks tables judge their own ratios here too). Their sentences are the
// report's (report/verdict-text.js): analysis/ returns codes and numbers (issue 77).
const { DEFAULTS } = require('../lib/presets');
const { tCritical } = require('./stats');

// A verdict is data: judge() decides it; the run JSON keeps the judgement and no sentence
// (report/verdict-text.js verdictText words it), so no code can read a sentence back.
//   judge(ratio, alpha = 0.05, { broken, clientBound, costPct, marginPct }) ->
//     { significant, direction: 'slower' | 'faster' | null, changePct, reason, equivalence }
//   reason: 'broken' | 'client-bound' | 'too few samples' | 'no difference' | 'significant'
//   equivalence: equivalence(ratio, marginPct), or null where the ratio has no interval
// A broken strategy's cost is not a cost of carrying context (it carried none), and a
// client-bound config measured the load generator, so neither gets a cost verdict.
// costPct (optional): the change as a cost in percent (positive = slower), for ratios of
// times rather than throughputs (micro); by default the change is (estimate - 1) x 100 of a
// throughput ratio.
function judge(r, alpha = 0.05, { broken = false, clientBound = false, costPct, marginPct = DEFAULTS.margin } = {}) {
  const none = (reason) => ({ significant: false, direction: null, changePct: null, reason });
  if (broken) return none('broken');
  if (clientBound) return none('client-bound');
  if (
    !r ||
    r.estimate === null ||
    r.estimate === undefined ||
    !(r.n >= 2) ||
    r.pValue === null ||
    r.pValue === undefined
  )
    return none('too few samples');
  const change = costPct === undefined ? (r.estimate - 1) * 100 : -costPct;
  const eq = equivalence(r, marginPct, alpha);
  if (!(r.pValue < alpha) || change === 0) return { ...none('no difference'), changePct: change, equivalence: eq };
  return {
    significant: true,
    direction: change < 0 ? 'slower' : 'faster',
    changePct: change,
    reason: 'significant',
    equivalence: eq,
  };
}

// Two one-sided tests at alpha (TOST) of an estimate with a t-distributed error (center,
// se, df) against the band [lo, hi]: its (1 − 2α) interval, and "equivalent" when that
// interval lies wholly inside the band, "beyond" when wholly outside it, "cannot tell"
// when it straddles an edge (more blocks would decide). -> { outcome, interval }
function tost({ center, se, df }, [lo, hi], alpha = 0.05) {
  const half = tCritical(df, 1 - 2 * alpha) * se;
  const interval = [center - half, center + half];
  const outcome =
    interval[0] >= lo && interval[1] <= hi
      ? 'equivalent'
      : interval[0] > hi || interval[1] < lo
        ? 'beyond'
        : 'cannot tell';
  return { outcome, interval };
}

// Equivalence of a ratio to 1: TOST on the log scale, its 90% interval (at α = 0.05,
// rebuilt from its 95% interval and degrees of freedom: both are t-intervals on the log
// scale) against [1 − M, 1 + M]. "No significant difference" says this run cannot tell;
// this says whether any difference is small enough not to matter.
//   -> { outcome: 'equivalent' | 'beyond' | 'cannot tell', marginPct, ci90 } | null
function equivalence(r, marginPct = DEFAULTS.margin, alpha = 0.05) {
  if (!r || !Array.isArray(r.ci95) || !(r.df >= 1) || !(r.ci95[0] > 0) || !(marginPct > 0)) return null;
  const lo = Math.log(r.ci95[0]);
  const hi = Math.log(r.ci95[1]);
  const se = (hi - lo) / 2 / tCritical(r.df, 0.95);
  const m = marginPct / 100;
  const { outcome, interval } = tost(
    { center: (lo + hi) / 2, se, df: r.df },
    [Math.log(1 - m), Math.log(1 + m)],
    alpha,
  );
  return { outcome, marginPct, ci90: interval.map(Math.exp) };
}

// The judgement of an instruction ratio: a direction only when every window ratio lies on
// the same side of 100% (a count has no p-value: its spread is the range of its windows).
function judgeInstructions(r, { broken = false } = {}) {
  if (broken) return { significant: false, direction: null, changePct: null, reason: 'broken' };
  if (!r || !r.range) return { significant: false, direction: null, changePct: null, reason: 'too few samples' };
  const change = (1 / r.estimate - 1) * 100;
  if (r.range[0] <= 1 && r.range[1] >= 1)
    return { significant: false, direction: null, changePct: change, reason: 'no difference' };
  return { significant: true, direction: change > 0 ? 'slower' : 'faster', changePct: change, reason: 'significant' };
}

// The judgement of a ratio as stored: its own, or for a ratio saved before judgements
// were kept, judged again from its figures (never from a sentence: lib/run-schema.js
// migrate drops the ones old files saved). broken, clientBound: its summary's.
function judgementOf(r, { broken = false, clientBound = false } = {}) {
  if (!r) return null;
  if (r.judgement) return r.judgement;
  return r.quantity === 'instructions' ? judgeInstructions(r, { broken }) : judge(r, 0.05, { broken, clientBound });
}

module.exports = {
  judge,
  judgeInstructions,
  judgementOf,
  equivalence,
  tost,
};
