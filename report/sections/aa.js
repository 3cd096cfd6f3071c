'use strict';
// results.md section for `ctxbench aa`: how often does the method call identical
// configurations different?
const { jStat } = require('jstat');
const f = require('../format');

// P(X >= k) for X ~ Binomial(n, p): how often an exactly calibrated test would call at
// least k of n identical comparisons significant.
function atLeast(k, n, p) {
  return k <= 0 ? 1 : 1 - jStat.binomial.cdf(k - 1, n, p);
}
const { header } = require('./method');

function render(run, ctx = {}) {
  const a = run.aa;
  const s = run.settings || {};
  const parts = [header(run, ctx, 'A/A false-positive rate',
    `Two identical servers (\`STRATEGY=${s.strategy} DEPTH=${s.depth} HOP=${s.hop}\`) measured in alternation, ` +
    `${s.trials} separate comparisons of ${s.roundsPerTrial} paired ${s.duration} s bursts each, every comparison tested as a ` +
    'real one would be (paired log ratio, p < 0.05). With an honest method about 1 in 20 comes out "significant" by chance.')];
  if (!a) {
    parts.push('No analysis: the run stopped before it finished.');
    return parts.join('\n\n') + '\n';
  }
  const chance = atLeast(a.significant, a.completedTrials, a.alpha);
  const verdictText = a.pass
    ? '✅ Within the bar.'
    : chance >= 0.05
      ? `⚠ Over the bar of ${a.allowed} — but an exactly calibrated test calls ${a.significant} or more of ${a.completedTrials} significant ` +
        `${(chance * 100).toFixed(0)}% of the time, so this run does not show that the method overstates differences; more trials (\`--trials\`) narrow the estimate.`
      : `❌ An exactly calibrated test would call ${a.significant} or more of ${a.completedTrials} significant only ${(chance * 100).toFixed(1)}% of the time: the method overstates differences on this machine.`;
  parts.push(`**${a.significant} of ${a.completedTrials}** comparisons were called significant: a false-positive rate of ` +
    `**${f.pctOf(a.falsePositiveRate)}** (the bar: at most ${a.allowed} of ${a.completedTrials} at α = ${a.alpha}). ${verdictText}`);
  const o = a.overall;
  parts.push(`All ${o.n} rounds together: B ÷ A = ${f.pctOf(o.estimate)} [95% CI ${f.pctOf(o.ci95 && o.ci95[0])}–${f.pctOf(o.ci95 && o.ci95[1])}], ${o.verdict}.`);
  const rows = a.trials.map((t) => [t.trial + 1, f.pctOf(t.estimate), `${f.pctOf(t.ci95 && t.ci95[0])}–${f.pctOf(t.ci95 && t.ci95[1])}`, t.pValue.toFixed(3), t.significant ? 'significant (false positive)' : 'no significant difference']);
  parts.push(['<details><summary>Every comparison</summary>', '', f.table(['trial', 'B ÷ A', '95% CI', 'p', 'verdict'], rows, ['r', 'r', 'r', 'r', 'l']), '', '</details>'].join('\n'));
  return parts.join('\n\n') + '\n';
}

module.exports = { render };
