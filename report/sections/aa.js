'use strict';
// results.md section for `ctxbench aa`: how often does the method call identical
// configurations different?
const f = require('../format');
const { header } = require('./method');
const { analyzeAa } = require('../../analysis/method');
const { ratioVerdictText } = require('../verdict-text');

// The analysis by the current rules (the binomial tail): recomputed from the samples when
// the run has them, so a run recorded under the earlier floor(n·0.05) rule is re-judged.
function analysis(run) {
  if (Array.isArray(run.configs) && run.configs.length >= 2 && run.configs.some((c) => c.samples && c.samples.length)) {
    return analyzeAa(run);
  }
  return run.aa && 'tailP' in run.aa ? run.aa : null;
}

function render(run, ctx = {}) {
  const s = run.settings || {};
  const a = analysis(run);
  const unit = Number.isInteger(s.blocksPerTrial)
    ? `${s.blocksPerTrial} blocks of fresh processes × ${s.rounds} adjacent bursts each`
    : `${s.roundsPerTrial} paired ${s.duration} s bursts each (this run predates blocks)`;
  const parts = [
    header(
      run,
      ctx,
      'A/A false-positive rate',
      `Two identical servers (\`STRATEGY=${s.strategy} DEPTH=${s.depth} HOP=${s.hop}\`) measured as a run ` +
        `measures a strategy against its baseline: ` +
        `${s.trials} separate comparisons of ${unit}, every comparison tested exactly as \`ctxbench run\` ` +
        `tests one (p < 0.05). ` +
        'With an honest method about 1 in 20 comes out "significant" by chance.',
    ),
  ];
  if (!a) {
    parts.push('No analysis: the run stopped before it finished.');
    return parts.join('\n\n') + '\n';
  }
  const n = a.completedTrials;
  const chance =
    `an exactly calibrated test calls ${a.significant} or more of ${n} significant ` +
    `${(a.tailP * 100).toFixed(1)}% of the time`;
  const verdictText =
    n === 0
      ? '❔ No comparison completed: nothing to judge.'
      : a.pass
        ? `✅ Pass: ${chance}, so this run does not show that the method overstates differences.`
        : `❌ Fail: ${chance} (under 5%): the method overstates differences on this machine.`;
  parts.push(
    `**${a.significant} of ${n}** comparisons were called significant: a false-positive rate of ` +
      `**${f.pctOf(a.falsePositiveRate)}**. The rule: fail only if P(X ≥ k) < 5% for X ~ Binomial(${n}, ${a.alpha}), ` +
      `that is, at most ${a.allowed} of ${n} pass. ${verdictText}`,
  );
  if (a.rateCi95) {
    const [lo, hi] = a.rateCi95;
    const tells =
      hi < 0.1
        ? "below 10% (the interval's upper end), so this run tells a calibrated 5% from a doubled 10%"
        : 'reaches 10% or more: this many trials cannot tell a calibrated 5% from a doubled 10% (about 150 can)';
    parts.push(
      `The false-positive rate's exact 95% interval (Clopper–Pearson) is [${f.pctOf(lo)}–${f.pctOf(hi)}]: ${tells}.`,
    );
  }
  const o = a.overall;
  if (o)
    parts.push(
      `All samples together: B ÷ A = ${f.pctOf(o.estimate)} [95% CI ` +
        `${f.pctOf(o.ci95 && o.ci95[0])}–${f.pctOf(o.ci95 && o.ci95[1])}], ${ratioVerdictText(o)}.`,
    );
  const rows = a.trials.map((t) => [
    t.trial + 1,
    f.pctOf(t.estimate),
    `${f.pctOf(t.ci95 && t.ci95[0])}–${f.pctOf(t.ci95 && t.ci95[1])}`,
    t.pValue.toFixed(3),
    t.significant ? 'significant (false positive)' : 'no significant difference',
  ]);
  parts.push(
    [
      '<details><summary>Every comparison</summary>',
      '',
      f.table(['trial', 'B ÷ A', '95% CI', 'p', 'verdict'], rows, ['r', 'r', 'r', 'r', 'l']),
      '',
      '</details>',
    ].join('\n'),
  );
  return parts.join('\n\n') + '\n';
}

module.exports = { render };
