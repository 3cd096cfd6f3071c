'use strict';
// `ctxbench aa`: the same configuration against itself. Two identical servers (arms A and
// B) are measured as a run measures a strategy against its baseline; the run is cut into
// trials and each trial is tested exactly as `ctxbench run` tests a comparison
// (analysis/summary.js summarize). At p < 0.05 an exactly calibrated test calls about 1 trial
// in 20 "significant" by chance; the run fails only when k of n is more than chance
// explains: P(X >= k) < 0.05 for X ~ Binomial(n, 0.05).
const { freezePlan, DEFAULTS: PLAN_DEFAULTS } = require('../../lib/plan');
const path = require('node:path');
const { UsageError, parse } = require('../../lib/cli');
const { setting, defaultOf } = require('../../lib/settings');
const { optionsOf } = require('../../lib/settings-help');
const { analyzeAa: analyze, atLeast, binomialRule, allowedOf, ALPHA } = require('../../analysis/method');
const {
  PAIRED_METHODS,
  SINGLE_WORDS,
  duetSettings,
  singleDefaults,
  settingsHelp,
  singleHelp,
  resolveSingle,
  defaultNodeTarget,
} = require('./common');

const { PRESETS } = require('../../lib/presets');
const { expandConfigs } = require('../run/matrix');
const { measureSession } = require('../run/session');
const { needsOf } = require('../services/services');

// The default run's own setup: HOP=immediate at depth 8, its connections, measured the
// way it measures (duet pairs of fresh processes, 3 windows of 1 s).
const SINGLE = singleDefaults({ kind: 'aa', depth: 8, hop: PRESETS.default.hops[0], duration: 1 });
const HELP = `How often does the method call a difference where there is none? One configuration against
itself (arms A and B) in --trials comparisons, in duet by default as \`ctxbench run\` measures;
it fails when more trials are significant at p < 0.05 than chance explains.

usage: ctxbench aa [options]

${settingsHelp(SINGLE)}${singleHelp(SINGLE)}\
Exit 0 pass, 1 fail (or a failed server), 2 no comparison completed, 130 interrupted.
`;

const OPTIONS = optionsOf('aa', SINGLE_WORDS);

async function main(args) {
  const { values } = parse(args, OPTIONS);
  const single = resolveSingle(values, SINGLE);
  const method = values.method ?? defaultOf('method', 'aa');
  if (![...PAIRED_METHODS, 'sequential'].includes(method))
    throw new UsageError(`--method ${method} is not valid; expected duet, pair or sequential`);
  const duet = duetSettings(values, method);
  const trials = setting('trials', values.trials, { command: 'aa' });
  const blocksPerTrial =
    setting('blocks-per-trial', values['blocks-per-trial'], { command: 'aa' });
  const rounds = setting('rounds', values.rounds, { command: 'aa' });
  const settings = freezePlan({
    ...single,
    method,
    ...duet,
    trials,
    blocksPerTrial,
    blocks: trials * blocksPerTrial,
    rounds,
    baseline: 'A',
    minPerConnection: PLAN_DEFAULTS.minPerConnection,
  });
  const out = values.out ?? path.join('results', 'aa.json');
  const { writeReport } = require('./write-report');
  const configs = expandConfigs(
    {
      ...settings,
      depths: [settings.depth],
      hops: [settings.hop],
      configs: ['A', 'B'].map((variant) => ({ framework: settings.framework, strategy: settings.strategy, variant })),
    },
    await defaultNodeTarget(),
  ).map((c) => Object.assign(c, { group: 'aa', arm: c.variant }, method === 'pair' && { rate: settings.rate }));
  const run = await measureSession({
    services: { need: needsOf([settings.hop], [settings.strategy]) },
    kind: 'aa',
    title: 'A/A: one configuration against itself',
    command: ['ctxbench', 'aa', ...args].join(' '),
    settings,
    configs,
    out,
    analyze,
  });
  const r = run.aa;
  process.stderr.write(
    `  ${r.significant} of ${r.completedTrials} A/A comparisons called significant at p < ${ALPHA} ` +
      `(P(X >= ${r.significant}) = ${r.tailP.toFixed(3)} for an exactly calibrated test): ` +
      `${r.completedTrials === 0 ? 'NO COMPARISON' : r.pass ? 'ok' : 'FAIL'}\n`,
  );
  await writeReport(out, values.report);
  if (run.status === 'interrupted') return 130;
  if (run.status === 'failed' || (r.completedTrials > 0 && !r.pass)) return 1;
  return r.completedTrials === 0 ? 2 : 0;
}

module.exports = { main, analyze, atLeast, binomialRule, allowedOf, help: HELP, OPTIONS };
