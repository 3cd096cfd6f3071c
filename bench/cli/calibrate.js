'use strict';
// `ctxbench calibrate`: does the harness recover a cost it is given? The server burns a
// known amount of CPU per request (BURN_US) and times it itself; the harness, from
// outside, sees the extra time per request at saturation (1/rps with the burn minus
// 1/rps without, paired by round) and the extra server CPU per request. Both must match
// the server's own figure.
const path = require('node:path');
const { linearRegression, rSquared } = require('simple-statistics');
const { parse, list, number } = require('../../lib/cli');
const { expandConfigs } = require('../matrix');
const { measureSession, writeReport } = require('../session');
const { describe, median } = require('../stats');
const { SINGLE_OPTIONS, singleHelp, resolveSingle, currentNodeTarget } = require('./common');

const DEFAULTS = { strategy: 'none', depth: 1, hop: 'sync', duration: 2, kind: 'calibrate' };
// Within ±10% of the server's own figure at these burn levels (the bar; smaller
// costs need more samples than a default run takes).
const CHECKED = [100, 200];
const TOLERANCE = 0.1;

const HELP = `usage: ctxbench calibrate [options]

Runs one configuration with BURN_US = each --burns level (each its own warm server),
in interleaved rounds, and compares the extra cost per request seen from outside with
the burn time the server measured itself.

  --burns 0,25,50,100,200  burn levels in µs (0 is the reference)
  --rounds N               bursts per level (default 8)
${singleHelp(DEFAULTS)}`;

function analyze(run) {
  const base = run.configs.find((c) => c.burnUs === 0);
  const byRound = new Map((base?.samples || []).map((s) => [s.round, s]));
  const levels = run.configs
    .filter((c) => c.burnUs > 0)
    .map((c) => {
      const pairs = c.samples.filter((s) => byRound.has(s.round)).map((s) => [s, byRound.get(s.round)]);
      const seen = describe(pairs.map(([s, b]) => 1e6 / s.rps - 1e6 / b.rps));
      const cpu = describe(pairs.map(([s, b]) => s.cpuUsPerRequest - b.cpuUsPerRequest));
      const actual = median(c.samples.map((s) => s.burnUsPerRequest));
      const seenRatio = actual > 0 && seen.mean !== null ? seen.mean / actual : null;
      const cpuRatio = actual > 0 && cpu.mean !== null ? cpu.mean / actual : null;
      return {
        burnUs: c.burnUs,
        actualUs: actual,
        seenUs: seen,
        cpuUs: cpu,
        seenRatio,
        cpuRatio,
        checked: CHECKED.includes(c.burnUs),
        pass: CHECKED.includes(c.burnUs) ? seenRatio !== null && Math.abs(seenRatio - 1) <= TOLERANCE : null,
      };
    });
  const points = levels.filter((l) => l.actualUs > 0 && l.seenUs.mean !== null).map((l) => [l.actualUs, l.seenUs.mean]);
  const fit = points.length >= 2 ? linearRegression(points) : null;
  const checked = levels.filter((l) => l.checked);
  return {
    tolerance: TOLERANCE,
    checkedLevels: CHECKED,
    levels,
    fit: fit && { slope: fit.m, interceptUs: fit.b, r2: rSquared(points, (x) => fit.m * x + fit.b), points: points.length },
    pass: checked.length > 0 && checked.every((l) => l.pass),
  };
}

async function main(args) {
  const { values } = parse(args, { ...SINGLE_OPTIONS, burns: { type: 'string' }, rounds: { type: 'string' } });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const single = resolveSingle(values, DEFAULTS);
  const burns = list('burns', values.burns ?? '0,25,50,100,200').map((b) => number('burns', b, { min: 0, max: 100000, integer: true }));
  if (!burns.includes(0)) burns.unshift(0);
  const settings = {
    ...single,
    burns,
    rounds: number('rounds', values.rounds, { min: 2, max: 1000, integer: true }) ?? 8,
    baseline: null,
  };
  const out = values.out ?? path.join('results', 'calibrate.json');
  const configs = expandConfigs(
    { ...settings, depths: [settings.depth], hops: [settings.hop], configs: burns.map((burnUs) => ({ framework: settings.framework, strategy: settings.strategy, burnUs })) },
    await currentNodeTarget(),
  );
  const run = await measureSession({
    kind: 'calibrate',
    title: 'Calibration: recovering a known per-request cost',
    command: ['ctxbench', 'calibrate', ...args].join(' '),
    settings,
    configs,
    out,
    analyze,
  });
  for (const l of run.calibrate.levels) {
    process.stderr.write(
      `  burn ${String(l.burnUs).padStart(4)} µs: server measured ${l.actualUs?.toFixed(1)} µs, seen from outside ${l.seenUs.mean?.toFixed(1)} µs (×${l.seenRatio?.toFixed(3)}), CPU ${l.cpuUs.mean?.toFixed(1)} µs (×${l.cpuRatio?.toFixed(3)})${l.checked ? (l.pass ? '  ok' : '  OUT OF TOLERANCE') : ''}\n`,
    );
  }
  await writeReport(out, values.report ?? 'results.md');
  return run.status === 'interrupted' ? 130 : 0;
}

module.exports = { main, analyze };
