'use strict';
// `ctxbench calibrate`: does the harness recover a cost it is given? The server burns a
// known amount of CPU per request (BURN_US) and times it itself; the harness, from
// outside, sees the extra time per request at saturation (1/rps with the burn minus
// 1/rps of the adjacent burst without it) and the extra server CPU per request. Both are
// compared with the server's own figure, by interval: at the configurations a plain
// `npm run bench` measures (depth 8 and 256, HOP=immediate, its connections), and at
// depth 1 HOP=sync, the cheapest request.
const path = require('node:path');
const { linearRegression, rSquared } = require('simple-statistics');
const { UsageError, parse, list, number } = require('../../lib/cli');
const { MAX_DEPTH } = require('../../lib/config');
const hops = require('../../handlers/hops');
const { PRESETS } = require('../presets');
const { groupConfigs, baselineFor } = require('../comparable');
const { pairs, pairedMean } = require('../pairing');
const { SINGLE_OPTIONS, singleHelp, resolveSingle, defaultNodeTarget } = require('./common');

const DEFAULTS = { strategy: 'none', depth: 1, hop: 'sync', duration: 2, kind: 'calibrate' };
// Where it is checked: the cheapest request, and the default preset's two depths.
const DEFAULT_AT = `1/sync,${PRESETS.default.depths.map((d) => `${d}/${PRESETS.default.hops[0]}`).join(',')}`;
const DEFAULT_BURNS = '0,50,100,200';
// Seen-from-outside ÷ server-measured must lie within 1 ± TOLERANCE at these burn levels
// (smaller costs need more samples than a default run takes).
const CHECKED = [100, 200];
const TOLERANCE = 0.1;
// A duet interval is several times narrower than one from bursts one after the other,
// so a duet calibration is held to ±5% (issue 22); older runs keep the ±10% they ran under.
const DUET_TOLERANCE = 0.05;
const toleranceOf = (run) => (run.settings?.method === 'duet' ? DUET_TOLERANCE : TOLERANCE);
const BASELINE_ARM = 'burn0';

const HELP = `usage: ctxbench calibrate [options]

At each --at point (depth/hop), runs one server per BURN_US level (--burns) in blocks
of fresh processes with adjacent bursts, and compares the extra cost per request seen
from outside, and the extra server CPU per request, with the burn time the server
measured itself. Judged by the 95% interval of seen ÷ measured at 100 and 200 µs:
pass inside 1 ± ${DUET_TOLERANCE} (duet; sequential ± ${TOLERANCE}), fail outside it, inconclusive when it straddles an edge.
Exit 0 pass, 1 fail (or a failed server), 2 inconclusive, 130 interrupted.

  --at 1/sync,8/immediate  depth/hop points (default ${DEFAULT_AT})
  --burns 0,50,100,200     burn levels in µs (0, the reference, is always added)
  --blocks N               blocks of fresh processes (default 5)
  --rounds N               adjacent bursts per server per block, sequential (default 3)
  --method duet|sequential duet (default, as npm run bench): each level beside a fresh
                           burn0 process, extra CPU µs per request per window;
                           sequential: adjacent bursts, 1/throughput
${singleHelp(DEFAULTS).replace(/ {2}--depth N[^\n]*\n {2}--hop NAME[^\n]*\n/, '  --depth N, --hop NAME   one point only (same as --at N/NAME)\n').replace('(default 10)', `(default ${PRESETS.default.pipelining})`)}`;

function points(values) {
  if (values.at !== undefined && (values.depth !== undefined || values.hop !== undefined)) throw new UsageError('--at and --depth/--hop: give one or the other');
  if (values.depth !== undefined || values.hop !== undefined) return null; // resolveSingle's one point
  return list('at', values.at ?? DEFAULT_AT).map((p) => {
    const m = /^(\d+)\/([a-z]+)$/.exec(p);
    if (!m) throw new UsageError(`--at ${p} is not valid; expected DEPTH/HOP such as 8/immediate`);
    const depth = Number(m[1]);
    if (!(depth >= 1 && depth <= MAX_DEPTH)) throw new UsageError(`--at ${p}: depth must be from 1 to ${MAX_DEPTH}`);
    if (!hops.names.includes(m[2])) throw new UsageError(`--at ${p}: unknown hop ${m[2]} (valid: ${hops.names.join(', ')})`);
    return { depth, hop: m[2] };
  });
}

// pass: the whole interval inside 1 ± tolerance; fail: the whole interval outside it;
// inconclusive: it reaches across an edge (or there is none).
function judgeInterval(ci, tolerance = TOLERANCE) {
  if (!ci || !ci.every(Number.isFinite)) return 'inconclusive';
  if (ci[0] >= 1 - tolerance && ci[1] <= 1 + tolerance) return 'pass';
  if (ci[1] < 1 - tolerance || ci[0] > 1 + tolerance) return 'fail';
  return 'inconclusive';
}

function combine(verdicts) {
  if (verdicts.length === 0) return 'inconclusive';
  if (verdicts.includes('fail')) return 'fail';
  return verdicts.every((v) => v === 'pass') ? 'pass' : 'inconclusive';
}

// Earlier runs had one point and no arms: their arm is the burn level.
function normalise(config) {
  return { ...config, arm: config.arm ?? `burn${config.burnUs ?? 0}`, group: config.group ?? `d${config.depth}/${config.hop}` };
}

// Duet (the default): both sides of a pair ran at the same time on one CPU, so the cost
// is read per window as the extra server CPU µs per request over the baseline beside it
// (what a duet ratio is made of), and divided by the burn time the same process measured
// in its solo burst: timed inside a process that shares its CPU, the burn loop would
// also count the time the other process ran. The second column is the extra CPU per
// request of the solo bursts (the arm's against the baseline's of the same block).
function duetLevel(c, base, tolerance) {
  const solo = (config, block) => (config?.samples || []).find((x) => x.kind === 'solo' && x.block === block);
  const item = (value, block) => ({ value, block });
  const windows = c.samples.filter((w) => w.kind === 'window' && w.counted && w.cpuUsPerRequest > 0 && w.partnerCpuUsPerRequest > 0);
  const burnOf = (block) => solo(c, block)?.burnUsPerRequest;
  const seen = windows.map((w) => item(w.cpuUsPerRequest - w.partnerCpuUsPerRequest, w.block));
  const seenRatio = windows.filter((w) => burnOf(w.block) > 0).map((w) => item((w.cpuUsPerRequest - w.partnerCpuUsPerRequest) / burnOf(w.block), w.block));
  const blocks = [...new Set(windows.map((w) => w.block))];
  const soloPairs = blocks.map((b) => [solo(c, b), solo(base, b)]).filter(([x, y]) => x?.cpuUsPerRequest > 0 && y?.cpuUsPerRequest > 0 && x.burnUsPerRequest > 0);
  const cpu = soloPairs.map(([x, y]) => item(x.cpuUsPerRequest - y.cpuUsPerRequest, x.block));
  const cpuRatio = pairedMean(soloPairs.map(([x, y]) => item((x.cpuUsPerRequest - y.cpuUsPerRequest) / x.burnUsPerRequest, x.block)));
  const actual = pairedMean(blocks.filter((b) => burnOf(b) > 0).map((b) => item(burnOf(b), b)));
  return levelResult(c, { pairs: windows.length, actual, seen: pairedMean(seen), cpu: pairedMean(cpu), seenRatio: pairedMean(seenRatio), cpuRatio }, tolerance);
}

// One burn level's figures, judged at the checked levels.
function levelResult(c, { pairs: n, actual, seen, cpu, seenRatio, cpuRatio }, tolerance) {
  const checked = CHECKED.includes(c.burnUs);
  const verdict = checked ? judgeInterval(seenRatio.ci95, tolerance) : null;
  return {
    burnUs: c.burnUs,
    arm: c.arm,
    pairs: n,
    actualUs: actual.mean,
    seenUs: seen,
    cpuUs: cpu,
    seenRatio,
    cpuRatio,
    checked,
    verdict,
    cpuVerdict: checked ? judgeInterval(cpuRatio.ci95, tolerance) : null,
    pass: checked ? verdict === 'pass' : null,
  };
}

function level(c, base, tolerance = TOLERANCE) {
  if (c.samples.some((x) => x.kind === 'window')) return duetLevel(c, base, tolerance);
  const p = pairs(c, base).filter(([s, b]) => s.rps > 0 && b.rps > 0 && s.burnUsPerRequest > 0);
  const item = (value, s) => ({ value, block: s.block });
  const seen = p.map(([s, b]) => item(1e6 / s.rps - 1e6 / b.rps, s));
  const cpu = p.map(([s, b]) => item(s.cpuUsPerRequest - b.cpuUsPerRequest, s));
  const seenRatio = pairedMean(p.map(([s], i) => item(seen[i].value / s.burnUsPerRequest, s)));
  const cpuRatio = pairedMean(p.map(([s], i) => item(cpu[i].value / s.burnUsPerRequest, s)));
  const actual = pairedMean(p.map(([s]) => item(s.burnUsPerRequest, s)));
  return levelResult(c, { pairs: p.length, actual, seen: pairedMean(seen), cpu: pairedMean(cpu), seenRatio, cpuRatio }, tolerance);
}

function analyze(run) {
  const tolerance = toleranceOf(run);
  const configs = run.configs.map(normalise);
  const out = [];
  for (const [group, members] of groupConfigs(configs)) {
    const levels = members
      .filter((c) => c.burnUs > 0)
      .map((c) => level(c, baselineFor(c, members, BASELINE_ARM), tolerance))
      .sort((a, b) => a.burnUs - b.burnUs);
    const fitPoints = levels.filter((l) => l.actualUs > 0 && Number.isFinite(l.seenUs.mean)).map((l) => [l.actualUs, l.seenUs.mean]);
    const fit = fitPoints.length >= 2 ? linearRegression(fitPoints) : null;
    const checked = levels.filter((l) => l.checked);
    out.push({
      group,
      depth: members[0].depth,
      hop: members[0].hop,
      levels,
      fit: fit && { slope: fit.m, interceptUs: fit.b, r2: rSquared(fitPoints, (x) => fit.m * x + fit.b), points: fitPoints.length },
      verdict: combine(checked.map((l) => l.verdict)),
      cpuVerdict: combine(checked.map((l) => l.cpuVerdict)),
    });
  }
  const verdict = combine(out.map((p) => p.verdict));
  return {
    tolerance,
    checkedLevels: CHECKED,
    rule: `95% CI of seen ÷ measured within 1 ± ${tolerance}: pass; entirely outside: fail; across an edge: inconclusive`,
    points: out,
    verdict,
    cpuVerdict: combine(out.map((p) => p.cpuVerdict)),
    pass: verdict === 'pass',
  };
}

const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const ci = (m, d = 1) => `${fmt(m.mean, d)} [${m.ci95 ? `${fmt(m.ci95[0], d)}–${fmt(m.ci95[1], d)}` : 'no interval'}]`;

async function main(args) {
  const { values } = parse(args, { ...SINGLE_OPTIONS, burns: { type: 'string' }, rounds: { type: 'string' }, blocks: { type: 'string' }, at: { type: 'string' }, method: { type: 'string' } });
  const method = values.method ?? 'duet';
  if (!['duet', 'sequential'].includes(method)) throw new UsageError(`--method ${method} is not valid; expected duet or sequential`);
  const duet = method === 'duet' ? { windows: PRESETS.default.windows, window: PRESETS.default.window, soloDuration: PRESETS.default.soloDuration, groupSize: 2 } : {};
  const single = resolveSingle(values, DEFAULTS);
  const at = points(values) ?? [{ depth: single.depth, hop: single.hop }];
  const burns = list('burns', values.burns ?? DEFAULT_BURNS).map((b) => number('burns', b, { min: 0, max: 100000, integer: true }));
  if (!burns.includes(0)) burns.unshift(0);
  const settings = {
    ...single,
    pipelining: values.pipelining === undefined ? PRESETS.default.pipelining : single.pipelining,
    connections: values.connections === undefined ? PRESETS.default.connections : single.connections,
    at,
    burns,
    blocks: number('blocks', values.blocks, { min: 3, max: 1000, integer: true }) ?? 5,
    rounds: number('rounds', values.rounds, { min: 1, max: 1000, integer: true }) ?? 3,
    baseline: BASELINE_ARM,
    method,
    ...duet,
  };
  delete settings.depth;
  delete settings.hop;
  const out = values.out ?? path.join('results', 'calibrate.json');
  const { expandConfigs } = require('../matrix');
  const { measureSession, writeReport } = require('../session');
  const target = await defaultNodeTarget();
  const configs = at.flatMap(({ depth, hop }) =>
    expandConfigs({ ...settings, depths: [depth], hops: [hop], configs: burns.map((burnUs) => ({ framework: settings.framework, strategy: settings.strategy, burnUs })) }, target)
      .map((c) => Object.assign(c, { group: `calibrate/d${depth}/${hop}`, arm: `burn${c.burnUs}` })),
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
  for (const p of run.calibrate.points) {
    process.stderr.write(`  DEPTH=${p.depth} HOP=${p.hop}: ${p.verdict.toUpperCase()} (server CPU: ${p.cpuVerdict})\n`);
    for (const l of p.levels) {
      process.stderr.write(
        `    burn ${String(l.burnUs).padStart(4)} µs: server measured ${fmt(l.actualUs)} µs, seen from outside ${ci(l.seenUs)} µs (× ${ci(l.seenRatio, 2)}), ` +
          `CPU ${ci(l.cpuUs)} µs (× ${ci(l.cpuRatio, 2)})${l.checked ? `  ${l.verdict}` : ''}\n`,
      );
    }
  }
  await writeReport(out, values.report);
  if (run.status === 'interrupted') return 130;
  if (run.status === 'failed' || run.calibrate.verdict === 'fail') return 1;
  return run.calibrate.verdict === 'pass' ? 0 : 2;
}

module.exports = { main, analyze, judgeInterval, CHECKED, TOLERANCE, DUET_TOLERANCE, help: HELP };
