'use strict';
// `ctxbench aa`: the same configuration against itself. Two identical servers (arms A and
// B) are measured as a run measures a strategy against its baseline; the run is cut into
// trials and each trial is tested exactly as `ctxbench run` tests a comparison
// (bench/stats.js summarize). At p < 0.05 an exactly calibrated test calls about 1 trial
// in 20 "significant" by chance; the run fails only when k of n is more than chance
// explains: P(X >= k) < 0.05 for X ~ Binomial(n, 0.05).
const path = require('node:path');
const { jStat } = require('jstat');
const { UsageError, parse, number } = require('../../lib/cli');
const { summarize } = require('../stats');
const { SINGLE_OPTIONS, singleHelp, resolveSingle, defaultNodeTarget } = require('./common');

const { PRESETS } = require('../presets');

// The default run's own setup: HOP=immediate at depth 8, its connections, measured the
// way it measures (duet pairs of fresh processes, 3 windows of 1 s).
const DEFAULTS = { strategy: 'none', depth: 8, hop: PRESETS.default.hops[0], duration: 1, kind: 'aa' };
const ALPHA = 0.05;
// How unlikely k of n false positives must be, under an exactly calibrated test, before
// the method is said to overstate differences.
const TAIL = 0.05;

const HELP = `usage: ctxbench aa [options]

  --trials N               comparisons to make (default 20)
  --blocks-per-trial N     blocks of fresh processes per comparison (default 3)
  --rounds N               adjacent bursts per server per block, sequential (default 2)
  --method duet|sequential how a trial's ratio is measured (default duet, as npm run bench)
Exit 0 pass, 1 fail (or a failed server), 2 no comparison completed, 130 interrupted.
${singleHelp(DEFAULTS).replace('(default 100)', `(default ${PRESETS.default.connections})`).replace(/(--pipelining N[^\n]*)\(default 10\)/, `$1(default ${PRESETS.default.pipelining})`)}`;

// P(X >= k) for X ~ Binomial(n, p).
function atLeast(k, n, p) {
  return k <= 0 ? 1 : Math.max(0, 1 - jStat.binomial.cdf(k - 1, n, p));
}

// The most significant trials of n that still pass.
function allowedOf(n, alpha = ALPHA) {
  let k = 0;
  while (k < n && atLeast(k + 1, n, alpha) >= TAIL) k++;
  return k;
}

// binomialRule(k, n) -> { tailP, pass }: pass unless k or more of n is rarer than TAIL.
function binomialRule(k, n, alpha = ALPHA) {
  const tailP = atLeast(k, n, alpha);
  return { tailP, pass: n > 0 && tailP >= TAIL };
}

// The trials: with blocks (schema 2), consecutive groups of settings.blocksPerTrial
// blocks, so a trial is a whole comparison with fresh processes; earlier runs, consecutive
// equal runs of rounds.
function trialsOf(run, a, b) {
  const s = run.settings || {};
  const all = [...a.samples, ...b.samples];
  const byBlock = all.length > 0 && all.every((x) => Number.isInteger(x.block));
  if (byBlock) {
    const per = s.blocksPerTrial || 3;
    const count = Math.floor((Math.max(...all.map((x) => x.block)) + 1) / per);
    return Array.from({ length: count }, (_, t) => (x) => x.block >= t * per && x.block < (t + 1) * per);
  }
  const rounds = new Set(all.map((x) => x.round)).size;
  const per = s.roundsPerTrial || Math.floor(rounds / (s.trials || 1));
  const count = per > 0 ? Math.min(s.trials || Infinity, Math.floor(rounds / per)) : 0;
  return Array.from({ length: count }, (_, t) => (x) => x.round >= t * per && x.round < (t + 1) * per);
}

function analyze(run) {
  const a = run.configs.find((c) => (c.arm ?? c.variant) === 'A') || run.configs[0];
  const b = run.configs.find((c) => (c.arm ?? c.variant) === 'B') || run.configs[1];
  const results = [];
  trialsOf(run, a, b).forEach((inTrial, t) => {
    const r = summarize({ ...b, samples: b.samples.filter(inTrial) }, { ...a, samples: a.samples.filter(inTrial) }).ratio;
    if (!r || r.pValue === null || r.pValue === undefined) return;
    results.push({ trial: t, estimate: r.estimate, ci95: r.ci95, pValue: r.pValue, significant: r.pValue < ALPHA });
  });
  const significant = results.filter((r) => r.significant).length;
  const rule = binomialRule(significant, results.length);
  return {
    alpha: ALPHA,
    rule: `fail only if P(X >= k) < ${TAIL} for X ~ Binomial(n, ${ALPHA})`,
    trials: results,
    completedTrials: results.length,
    significant,
    falsePositiveRate: results.length ? significant / results.length : null,
    allowed: allowedOf(results.length),
    tailP: rule.tailP,
    pass: rule.pass,
    overall: summarize(b, a).ratio,
  };
}

async function main(args) {
  const { values } = parse(args, { ...SINGLE_OPTIONS, trials: { type: 'string' }, 'blocks-per-trial': { type: 'string' }, rounds: { type: 'string' }, method: { type: 'string' } });
  const single = resolveSingle(values, DEFAULTS);
  const method = values.method ?? 'duet';
  if (!['duet', 'sequential'].includes(method)) throw new UsageError(`--method ${method} is not valid; expected duet or sequential`);
  if (values.connections === undefined) single.connections = PRESETS.default.connections;
  if (values.pipelining === undefined) single.pipelining = PRESETS.default.pipelining;
  const duet = method === 'duet' ? { windows: PRESETS.default.windows, window: PRESETS.default.window, soloDuration: PRESETS.default.soloDuration, groupSize: 2 } : {};
  const trials = number('trials', values.trials, { min: 1, max: 1000, integer: true }) ?? 20;
  const blocksPerTrial = number('blocks-per-trial', values['blocks-per-trial'], { min: 2, max: 100, integer: true }) ?? 3;
  const rounds = number('rounds', values.rounds, { min: 1, max: 1000, integer: true }) ?? 2;
  const settings = { ...single, method, ...duet, trials, blocksPerTrial, blocks: trials * blocksPerTrial, rounds, baseline: 'A' };
  const out = values.out ?? path.join('results', 'aa.json');
  const { expandConfigs } = require('../matrix');
  const { measureSession, writeReport } = require('../session');
  const configs = expandConfigs(
    { ...settings, depths: [settings.depth], hops: [settings.hop], configs: ['A', 'B'].map((variant) => ({ framework: settings.framework, strategy: settings.strategy, variant })) },
    await defaultNodeTarget(),
  ).map((c) => Object.assign(c, { group: 'aa', arm: c.variant }));
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
  process.stderr.write(
    `  ${r.significant} of ${r.completedTrials} A/A comparisons called significant at p < ${ALPHA} ` +
      `(P(X >= ${r.significant}) = ${r.tailP.toFixed(3)} for an exactly calibrated test): ${r.completedTrials === 0 ? 'NO COMPARISON' : r.pass ? 'ok' : 'FAIL'}\n`,
  );
  await writeReport(out, values.report);
  if (run.status === 'interrupted') return 130;
  if (run.status === 'failed' || (r.completedTrials > 0 && !r.pass)) return 1;
  return r.completedTrials === 0 ? 2 : 0;
}

module.exports = { main, analyze, atLeast, binomialRule, allowedOf, help: HELP };
