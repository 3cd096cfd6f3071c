'use strict';
// `ctxbench aa`: the same configuration against itself. Two identical servers are
// measured in alternation; the rounds are cut into trials and each trial is tested as
// a real comparison would be. At p < 0.05 about 1 trial in 20 may come out
// "significant" by chance; many more means the method overstates differences.
const path = require('node:path');
const { parse, number } = require('../../lib/cli');
const { expandConfigs } = require('../matrix');
const { measureSession, writeReport } = require('../session');
const { ratio, verdict } = require('../stats');
const { SINGLE_OPTIONS, singleHelp, resolveSingle, currentNodeTarget } = require('./common');

const DEFAULTS = { strategy: 'none', depth: 8, hop: 'await', duration: 1, kind: 'aa' };
const ALPHA = 0.05;

const HELP = `usage: ctxbench aa [options]

  --trials N               comparisons to make (default 20)
  --rounds-per-trial N     paired bursts per comparison (default 4)
${singleHelp(DEFAULTS)}`;

function analyze(run) {
  const [a, b] = run.configs;
  const { trials, roundsPerTrial } = run.settings;
  const results = [];
  for (let t = 0; t < trials; t++) {
    const inTrial = (s) => s.round >= t * roundsPerTrial && s.round < (t + 1) * roundsPerTrial;
    const r = ratio(b.samples.filter(inTrial), a.samples.filter(inTrial), { paired: true });
    if (r.pValue === null) continue;
    results.push({ trial: t, estimate: r.estimate, ci95: r.ci95, pValue: r.pValue, significant: r.pValue < ALPHA });
  }
  const significant = results.filter((r) => r.significant).length;
  const overall = ratio(b.samples, a.samples, { paired: true });
  return {
    alpha: ALPHA,
    trials: results,
    completedTrials: results.length,
    significant,
    falsePositiveRate: results.length ? significant / results.length : null,
    allowed: Math.max(1, Math.floor(results.length * ALPHA)),
    pass: results.length > 0 && significant <= Math.max(1, Math.floor(results.length * ALPHA)),
    overall: { ...overall, verdict: verdict(overall) },
  };
}

async function main(args) {
  const { values } = parse(args, { ...SINGLE_OPTIONS, trials: { type: 'string' }, 'rounds-per-trial': { type: 'string' } });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const single = resolveSingle(values, DEFAULTS);
  const trials = number('trials', values.trials, { min: 1, max: 1000, integer: true }) ?? 20;
  const roundsPerTrial = number('rounds-per-trial', values['rounds-per-trial'], { min: 2, max: 100, integer: true }) ?? 4;
  const settings = { ...single, trials, roundsPerTrial, rounds: trials * roundsPerTrial, baseline: null };
  const out = values.out ?? path.join('results', 'aa.json');
  const configs = expandConfigs(
    { ...settings, depths: [settings.depth], hops: [settings.hop], configs: ['A', 'B'].map((variant) => ({ framework: settings.framework, strategy: settings.strategy, variant })) },
    await currentNodeTarget(),
  );
  const run = await measureSession({
    kind: 'aa',
    title: 'A/A: one configuration against itself',
    command: ['ctxbench', 'aa', ...args].join(' '),
    settings,
    configs,
    out,
    analyze,
  });
  const r = run.aa;
  process.stderr.write(`  ${r.significant} of ${r.completedTrials} A/A comparisons called significant at p < ${ALPHA} (false-positive rate ${(100 * (r.falsePositiveRate ?? 0)).toFixed(1)}%)\n`);
  await writeReport(out, values.report ?? 'results.md');
  return run.status === 'interrupted' ? 130 : 0;
}

module.exports = { main, analyze };
