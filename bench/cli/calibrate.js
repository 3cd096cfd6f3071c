'use strict';
// `ctxbench calibrate`: does the harness recover a cost it is given? The server burns a
// known amount of CPU per request (BURN_US) and times it itself; the harness, from
// outside, sees the extra time per request at saturation (1/rps with the burn minus
// 1/rps of the adjacent burst without it) and the extra server CPU per request. Both are
// compared with the server's own figure, by interval: at the configurations a plain
// `npm run bench` measures (depth 8 and 256, HOP=immediate, its connections), and at
// depth 1 HOP=sync, the cheapest request.
const { freezePlan, DEFAULTS: PLAN_DEFAULTS } = require('../../lib/plan');
const path = require('node:path');
const { UsageError, parse, list } = require('../../lib/cli');
const { setting, defaultOf, MAX_DEPTH } = require('../../lib/settings');
const { optionsOf } = require('../../lib/settings-help');
const hops = require('../../handlers/hops');
const { PRESETS } = require('../../lib/presets');
const {
  analyzeCalibration: analyze,
  judgeInterval,
  CHECKED,
  TOLERANCE,
  DUET_TOLERANCE,
  BASELINE_ARM,
} = require('../../analysis/method');
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
const { expandConfigs } = require('../run/matrix');
const { measureSession } = require('../run/session');
const { needsOf } = require('../services/services');

const SINGLE = singleDefaults({ kind: 'calibrate', depth: 1, hop: 'sync', duration: 2 });
// Where it is checked: the cheapest request, and the default preset's two depths.
const DEFAULT_AT = `1/sync,${PRESETS.default.depths.map((d) => `${d}/${PRESETS.default.hops[0]}`).join(',')}`;
const DEFAULT_BURNS = '0,50,100,200';
// single's --hop line: with --depth, one point of --at.
const ONE_POINT = / {2}--hop NAME[^\n]*\n/;
const ONE_POINT_HELP = '  --hop NAME               with --depth: one point only (the same as --at N/HOP)\n';
// --depth is one point, not a default: calibrate measures at --at.
const HELP_DEFAULTS = { ...SINGLE, depth: null, burns: DEFAULT_BURNS };
const HELP = `Does the harness see a known cost? Servers that burn a known BURN_US per request, in duet by
default (each level beside a fresh burn0 process): the extra CPU per request seen must match it.

usage: ctxbench calibrate [options]

At each --at point (depth/hop), runs one server per BURN_US level (--burns) in blocks
of fresh processes with adjacent bursts, and compares the extra cost per request seen
from outside, and the extra server CPU per request, with the burn time the server
measured itself. Judged by the 95% interval of seen ÷ measured at 100 and 200 µs:
pass inside 1 ± ${DUET_TOLERANCE} (duet; sequential ± ${TOLERANCE}), fail outside it, cannot tell when it straddles \
an edge.
Exit 0 pass, 1 fail (or a failed server), 2 cannot tell, 130 interrupted.

  --at 1/sync,8/immediate  depth/hop points (default ${DEFAULT_AT})
${settingsHelp(HELP_DEFAULTS)}${singleHelp(HELP_DEFAULTS).replace(ONE_POINT, ONE_POINT_HELP)}`;

function points(values) {
  if (values.at !== undefined && (values.depth !== undefined || values.hop !== undefined))
    throw new UsageError('--at and --depth/--hop: give one or the other');
  if (values.depth !== undefined || values.hop !== undefined) return null; // resolveSingle's one point
  return list('at', values.at ?? DEFAULT_AT).map((p) => {
    const m = /^(\d+)\/([a-z]+)$/.exec(p);
    if (!m) throw new UsageError(`--at ${p} is not valid; expected DEPTH/HOP such as 8/immediate`);
    const depth = Number(m[1]);
    if (!(depth >= 1 && depth <= MAX_DEPTH)) throw new UsageError(`--at ${p}: depth must be from 1 to ${MAX_DEPTH}`);
    if (!hops.names.includes(m[2]))
      throw new UsageError(`--at ${p}: unknown hop ${m[2]} (valid: ${hops.names.join(', ')})`);
    return { depth, hop: m[2] };
  });
}

const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const ci = (m, d = 1) => `${fmt(m.mean, d)} [${m.ci95 ? `${fmt(m.ci95[0], d)}–${fmt(m.ci95[1], d)}` : 'no interval'}]`;

const OPTIONS = optionsOf('calibrate', [...SINGLE_WORDS, 'at']);

async function main(args) {
  const { values } = parse(args, OPTIONS);
  const method = values.method ?? defaultOf('method', 'calibrate');
  if (![...PAIRED_METHODS, 'sequential'].includes(method))
    throw new UsageError(`--method ${method} is not valid; expected duet, pair or sequential`);
  const duet = duetSettings(values, method);
  const single = resolveSingle(values, SINGLE);
  const at = points(values) ?? [{ depth: single.depth, hop: single.hop }];
  const burns = list('burns', values.burns ?? DEFAULT_BURNS).map((b) =>
    setting('burns', b),
  );
  if (!burns.includes(0)) burns.unshift(0);
  // The points are `at`: the single configuration's depth and hop are not the plan's.
  const settings = freezePlan({
    ...Object.fromEntries(Object.entries(single).filter(([k]) => k !== 'depth' && k !== 'hop')),
    at,
    burns,
    blocks: setting('blocks', values.blocks, { command: 'calibrate' }),
    rounds: setting('rounds', values.rounds, { command: 'calibrate' }),
    baseline: BASELINE_ARM,
    method,
    ...duet,
    minPerConnection: PLAN_DEFAULTS.minPerConnection,
  });
  const out = values.out ?? path.join('results', 'calibrate.json');
  const { writeReport } = require('./write-report');
  const target = await defaultNodeTarget();
  const configs = at.flatMap(({ depth, hop }) =>
    expandConfigs(
      {
        ...settings,
        depths: [depth],
        hops: [hop],
        configs: burns.map((burnUs) => ({ framework: settings.framework, strategy: settings.strategy, burnUs })),
      },
      target,
    ).map((c) =>
      Object.assign(
        c,
        { group: `calibrate/d${depth}/${hop}`, arm: `burn${c.burnUs}` },
        method === 'pair' && { rate: settings.rate },
      ),
    ),
  );
  const run = await measureSession({
    services: {
      need: needsOf(
        at.map((p) => p.hop),
        [settings.strategy],
      ),
    },
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
        `    burn ${String(l.burnUs).padStart(4)} µs: server measured ${fmt(l.actualUs)} µs, seen from ` +
          `outside ${ci(l.seenUs)} µs (× ${ci(l.seenRatio, 2)}), ` +
          `CPU ${ci(l.cpuUs)} µs (× ${ci(l.cpuRatio, 2)})${l.checked ? `  ${l.verdict}` : ''}\n`,
      );
    }
  }
  await writeReport(out, values.report);
  if (run.status === 'interrupted') return 130;
  if (run.status === 'failed' || run.calibrate.verdict === 'fail') return 1;
  return run.calibrate.verdict === 'pass' ? 0 : 2;
}

module.exports = { main, analyze, judgeInterval, CHECKED, TOLERANCE, DUET_TOLERANCE, help: HELP, OPTIONS };
