'use strict';
// `ctxbench overhead`: does the server's request path add anything but the strategy?
// `STRATEGY=none DEPTH=1` (trace-id parsing, the context middleware, a one-level chain)
// against a 10-line Express hello-world: one more run of the same session code (blocks
// of fresh processes, adjacent bursts), with two arms in one group. Judged by the 95% CI
// of its throughput ratio to the hello-world: met when the LOWER end is at least 90%,
// not met when the UPPER end is below 90%, and "cannot tell" when the interval straddles
// 90% (a point estimate of 100% with an interval reaching 80% is not a pass, nor a fail).
const { freezePlan } = require('../../lib/plan');
const path = require('node:path');
const { resolveNodeTargets } = require('../run/targets');
const { parse } = require('../../lib/cli');
const { setting } = require('../../lib/settings');
const { optionsOf, helpLines } = require('../../lib/settings-help');
const { measureSession } = require('../run/session');
const { localConfig } = require('../run/matrix');
const { writeReport } = require('./write-report');
const { analyzeOverhead: analyze, verdictOf, REQUIRED } = require('../../analysis/method');

const HELLO = path.resolve(__dirname, '..', 'processes', 'hello-world.js');

// 6 blocks, not 3: at 3 blocks (t = 4.30) the interval was too wide and straddled 90%
// (docs/investigations.md, "Figures that code comments carried").
// What the verdict on the 90% requirement reads as in the closing line.
const VERDICT_WORDS = {
  met: 'ok',
  'not met': 'NOT MET',
  'cannot tell': 'CANNOT TELL (the interval straddles it; run more --blocks)',
};

const HELP = `Does the server's request path add anything but the strategy? STRATEGY=none DEPTH=1 against a
10-line Express hello-world, sequentially (adjacent bursts in blocks of fresh processes): its
throughput must reach ${REQUIRED * 100}% of the hello-world's.

usage: ctxbench overhead [options]

${helpLines('overhead', { column: 20 })}  --out FILE        JSON (default results/overhead.json)
  --report FILE     results.md to regenerate ("none" to skip; default results.md when
                    --out is in results/, else none)
Exit 0 when the lower 95% CI bound of ctxbench/hello-world is >= ${REQUIRED * 100}% (met), 1 when
the upper bound is below it (not met) or a server failed, 2 when the interval straddles it
(cannot tell: run more --blocks), 130 when interrupted.
`;

// Both arms run on the same runtime (the default one, Node 24), in one group: the
// ctxbench server and the hello-world script (no strategy, no ACF check).
function overheadConfigs(target) {
  const arm = (name, point) =>
    localConfig(
      { id: `overhead/${name}`, group: 'overhead', arm: name, framework: 'express', expectAcf: null, ...point },
      target,
    );
  return [
    arm('ctxbench', { strategy: 'none', depth: 1, hop: 'sync' }),
    arm('hello-world', { strategy: null, depth: null, hop: null, script: HELLO }),
  ];
}

const OPTIONS = optionsOf('overhead', ['out', 'report']);

async function main(args) {
  const { values } = parse(args, OPTIONS);
  const startedAt = Date.now();
  const settings = freezePlan({
    blocks: setting('blocks', values.blocks, { command: 'overhead' }),
    rounds: setting('rounds', values.rounds, { command: 'overhead' }),
    duration: setting('duration', values.duration, { command: 'overhead' }),
    warmup: setting('warmup', values.warmup, { command: 'overhead' }),
    connections:
      setting('connections', values.connections, { command: 'overhead' }),
    pipelining: setting('pipelining', values.pipelining, { command: 'overhead' }),
    minPerConnection: 30,
    driver: 'autocannon',
    method: 'sequential',
    baseline: 'hello-world',
  });
  const out = values.out ?? path.join('results', 'overhead.json');
  const [target] = (await resolveNodeTargets(null, 'default')).targets;
  const run = await measureSession({
    kind: 'overhead',
    title: 'Request-path overhead: STRATEGY=none DEPTH=1 vs an Express hello-world',
    command: ['ctxbench', 'overhead', ...args].join(' '),
    settings,
    configs: overheadConfigs(target),
    out,
    analyze,
    startedAt,
  });
  const o = run.overhead;
  const r = o.ratio;
  const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : 'n/a');
  process.stderr.write(
    `ctxbench: STRATEGY=none DEPTH=1 reaches ${pct(r.estimate)} [95% CI ` +
      `${pct(r.ci95?.[0])}–${pct(r.ci95?.[1])}] of the hello-world's throughput ` +
      `(required: lower bound ≥ ${REQUIRED * 100}%): ` +
      `${VERDICT_WORDS[o.verdict] ?? 'NOT SHOWN (too few samples)'}\n`,
  );
  await writeReport(out, values.report);
  if (run.status === 'interrupted') return 130;
  if (run.status !== 'complete') return 1;
  return o.verdict === 'met' ? 0 : o.verdict === 'cannot tell' ? 2 : 1;
}

module.exports = { main, analyze, verdictOf, REQUIRED, help: HELP, OPTIONS };
