'use strict';
// `ctxbench micro`: micro benchmarks of context operations, every strategy in a separate
// process per round, in interleaved rounds (micro/index.js), written to results/micro.json
// (kind "micro", docs/run-json.md) after every process.
const { freezePlan } = require('../../lib/plan');
const path = require('node:path');
const fs = require('node:fs');
const { UsageError, parse, list, acfFlag } = require('../../lib/cli');
const { setting, defaultOf } = require('../../lib/settings');
const { optionsOf, helpLines } = require('../../lib/settings-help');
const { session } = require('../run/session');
const { writeReport } = require('./write-report');
const { resolveNodeTargets } = require('../run/targets');
const { DEFAULT_MAJOR } = require('../../lib/node-versions');
const noise = require('../run/noise');
const micro = require('../../micro');
const strategies = require('../../micro/strategies');
const { compareCounts } = require('../../analysis/micro');
const { countStrategy, DEFAULTS } = require('../measure/micro-counts');
const { findValgrind, INSTALL_HINT, NODE_ARGS } = require('../measure/callgrind');

const OPTIONS = optionsOf('micro', ['strategies', 'scenarios', 'out', 'acf', 'report'], { booleans: ['quick'] });
const METHODS = ['time', 'instructions'];

function help() {
  return `What one context operation (a read, a run(), a nested context) costs per strategy against
'none', in time per operation by default (--method instructions: Valgrind's counts).

usage: ctxbench micro [options]

Micro benchmarks of context operations (tinybench) against the baseline 'none': sync
reads, async reads across setImmediate hops, nested contexts (depth 2 and 5), a
real-world handler, run() alone and current() alone. Every strategy runs once per round,
each time in a fresh process, in a rotating order; the comparison with 'none' is paired
by round (n = rounds).

  --strategies a,b   ${strategies.names().join(', ')} (default: all; 'none' always runs)
  --scenarios a,b    ${micro.SCENARIOS.map((x) => x.key).join(', ')} (default: all)
${helpLines('micro', {
    column: 21,
    defaults: {
      node: DEFAULT_MAJOR,
      rounds: `${micro.PROFILES.default.rounds}; --quick ${micro.PROFILES.quick.rounds}`,
      windows: DEFAULTS.windows,
      'max-warmup-windows': DEFAULTS.maxWarmup,
      time: `${micro.PROFILES.default.time}; --quick ${micro.PROFILES.quick.time}`,
    },
  })}\
  --quick            a sub-minute smoke run (imprecise)
  --acf on|off|both  AsyncContextFrame (default: the node's own default)
  --out FILE         run JSON (default results/micro.json)
  --report FILE      results.md to regenerate from --out's folder ("none" to skip;
                     default results.md when --out is in results/, else none)
`;
}

function resolveSettings(values) {
  const all = strategies.names();
  const chosen =
    list('strategies', values.strategies, all) ?? all.filter((n) => !Object.hasOwn(strategies.extraModules(), n));
  const acf = acfFlag(values.acf);
  const majors = list('node', values.node)?.map((n) => String(setting('node', n)));
  const profile = { ...micro.PROFILES[values.quick ? 'quick' : 'default'] };
  const time = setting('time', values.time);
  if (time !== undefined) profile.time = time;
  const rounds = setting('rounds', values.rounds, { method: 'micro' });
  if (rounds !== undefined) profile.rounds = rounds;
  const extra = strategies.extraModules();
  const method = values.method ?? defaultOf('method', 'micro');
  if (!METHODS.includes(method))
    throw new UsageError(`--method ${method} is not valid; expected ${METHODS.join(' or ')}`);
  const counting = method === 'instructions' ? countSettings(values) : null;
  if (!counting && (values['max-warmup-windows'] !== undefined || values.windows !== undefined))
    throw new UsageError(
      '--max-warmup-windows and --windows are instruction-count settings: give --method instructions',
    );
  return {
    method,
    strategies: micro.withBaseline(chosen),
    baseline: micro.BASELINE,
    quick: Boolean(values.quick),
    ...(counting ?? profile),
    scenarios:
      list(
        'scenarios',
        values.scenarios,
        micro.SCENARIOS.map((s) => s.key),
      ) ?? micro.SCENARIOS.map((s) => s.key),
    node: majors ?? [DEFAULT_MAJOR],
    acf,
    ...(counting
      ? {}
      : { library: `tinybench ${tinybenchVersion()}`, timer: 'process.hrtime.bigint (tinybench hrtimeNow)' }),
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}

// --method instructions: Valgrind must be there (one line saying how to get it if not).
function countSettings(values) {
  const found = findValgrind();
  if (!found) throw new UsageError(`--method instructions needs Valgrind, which is not on PATH: ${INSTALL_HINT}`);
  if (values.time !== undefined || values.rounds !== undefined)
    throw new UsageError('--time and --rounds are timing settings: an instruction count runs one process per strategy');
  return {
    valgrind: found.version,
    nodeFlags: NODE_ARGS,
    maxWarmup:
      setting('max-warmup-windows', values['max-warmup-windows']) ??
      (values.quick ? 6 : DEFAULTS.maxWarmup),
    windows:
      setting('windows', values.windows) ?? (values.quick ? 2 : DEFAULTS.windows),
  };
}

function tinybenchVersion() {
  try {
    const pkg = path.join(path.dirname(require.resolve('tinybench')), '..', 'package.json');
    return JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

async function main(args) {
  const { values } = parse(args, OPTIONS);
  const settings = freezePlan(resolveSettings(values));
  const out =
    values.out ?? path.join('results', settings.method === 'instructions' ? 'micro-instructions.json' : 'micro.json');
  const { targets, warnings } = await resolveNodeTargets(settings.node, settings.acf, { prefix: 'micro' });
  if (settings.method === 'instructions') return countMain(args, values, settings, out, targets, warnings);

  const before = noise.snapshot();
  const workerSettings = {
    time: settings.time,
    warmupTime: settings.warmupTime,
    iterations: settings.iterations,
    warmupIterations: settings.warmupIterations,
    scenarios: settings.scenarios,
  };
  // + process start-up
  const perProcess = 1 + (settings.scenarios.length * (settings.time + settings.warmupTime)) / 1000;
  const processes = settings.rounds * settings.strategies.length * targets.length;
  process.stderr.write(
    `micro: ${settings.rounds} rounds x ${settings.strategies.length} strategies x ${targets.length} node ` +
      `target(s) = ${processes} processes, ` +
      `${settings.scenarios.length} scenarios each, about ${Math.ceil(perProcess * processes)} s; writing ${out}\n`,
  );

  let failed = [];
  const run = await microSession(args, settings, targets, warnings, out, {
    title: `Micro benchmarks of context operations${settings.quick ? ' (quick)' : ''}`,
    extra: {
      criteria: micro.TARGETS.map(({ key, threshold, unit }) => ({ key, threshold, unit })),
      rounds: settings.rounds,
      roundsDone: 0, // rounds in which every process has finished
    },
    progress: { total: processes, step: 'round (the process running now is dropped)' },
    async measure(r, { save: write, progress, stop }) {
      const save = () => {
        r.environment.noise = { ...noise.assess(before, noise.snapshot()) };
        write();
      };
      const result = await micro.measure({
        targets,
        strategies: settings.strategies,
        settings: workerSettings,
        rounds: settings.rounds,
        signal: stop.signal,
        onProcess(entry, results, pos) {
          r.micro.results = results;
          r.micro.roundsDone = Math.floor(pos.index / (pos.total / pos.rounds));
          save();
          progress.tick(entry.strategy);
          progress.log(micro.progressLine(entry, results, pos));
        },
      });
      r.micro.results = result.results;
      r.status = result.interrupted ? 'interrupted' : 'complete';
      r.environment.noise = { ...noise.assess(before, noise.snapshot()) };
      failed = result.results.filter((e) => e.error);
      for (const e of failed) {
        for (const x of e.rounds.filter((y) => y.error))
          r.warnings.push(`${e.target} ${e.strategy} round ${x.round + 1}: ${x.error.message}`);
      }
      for (const e of result.results) {
        if (typeof e.expectAcf === 'boolean' && typeof e.acf === 'boolean' && e.expectAcf !== e.acf) {
          r.warnings.push(
            `${e.target} ${e.strategy}: AsyncContextFrame expected ` +
              `${e.expectAcf ? 'active' : 'inactive'} but detected ${e.acf ? 'active' : 'inactive'}`,
          );
        }
      }
      for (const flag of r.environment.noise.flags || []) r.warnings.push(flag);
    },
  });
  process.stderr.write(
    `micro: ${run.status}; ${run.micro.roundsDone} complete round(s) of ${run.micro.results.length} strategy ` +
      `result(s) in ${out}\n`,
  );
  await writeReport(out, values.report);
  if (run.status === 'interrupted') return 130;
  return failed.length ? 1 : 0;
}

// Both methods through the one session (kind "micro"); `extra` joins the run's `micro` part.
function microSession(args, settings, targets, warnings, out, { title, extra = {}, progress, measure }) {
  return session({
    kind: 'micro',
    schema: 1,
    title,
    command: ['ctxbench', 'micro', ...args].join(' '),
    settings,
    out,
    part: {
      micro: {
        baseline: micro.BASELINE,
        targets: targets.map((t) => ({
          label: t.label,
          major: t.major,
          version: t.version,
          path: t.path,
          args: t.args || [],
          expectAcf: t.expectAcf ?? null,
          note: t.note ?? null,
        })),
        scenarios: micro.SCENARIOS.filter((x) => settings.scenarios.includes(x.key)).map(
          ({ key, title: name, unit, ops }) => ({ key, title: name, unit, ops: ops ?? null }),
        ),
        ...extra,
        results: [],
      },
    },
    warnings: [...warnings],
    progress,
    measure,
  });
}

// --method instructions: one process per (target, strategy) under callgrind, every
// scenario counted in it (bench/measure/micro-counts.js); saved after every scenario.
async function countMain(args, values, settings, out, targets, warnings) {
  const total = targets.length * settings.strategies.length * settings.scenarios.length;
  process.stderr.write(
    `micro: instruction counts, ${settings.strategies.length} strategies x ${targets.length} node target(s), ` +
      `one process each under Valgrind, ` +
      `${settings.scenarios.length} scenarios; writing ${out}\n`,
  );
  const run = await microSession(args, settings, targets, warnings, out, {
    title: `Micro benchmarks of context operations: instructions per operation${settings.quick ? ' (quick)' : ''}`,
    progress: { total, step: 'scenario' },
    async measure(r, { save, progress, stop }) {
      for (const target of targets) {
        const base = { current: null };
        for (const name of settings.strategies) {
          if (stop.requested) break;
          const entry = await countStrategy(target, name, settings.scenarios, {
            signal: stop.signal,
            maxWarmup: settings.maxWarmup,
            windows: settings.windows,
            onScenario(e, key) {
              const s = e.scenarios[key];
              progress.tick(`${name} ${key}`);
              progress.log(
                `${target.label} ${name} ${key}: ` +
                  (s.perOp === null ? 'no count' : `${Math.round(s.perOp).toLocaleString('en-US')} instructions/op`) +
                  ` (${s.iterations} iterations a window, ${s.warmup.length} warm-up ` +
                  `windows${s.settled ? '' : ', not steady'}, ±${(s.spreadPct ?? 0).toFixed(2)}%)`,
              );
              save();
            },
          });
          if (name === micro.BASELINE) base.current = entry;
          entry.vsBaseline = compareCounts(entry, base.current);
          r.micro.results.push(entry);
          if (entry.error) r.warnings.push(`${target.label} ${name}: ${entry.error.message}`);
          save();
        }
      }
    },
  });
  process.stderr.write(`micro: ${run.status}; ${run.micro.results.length} strategy count(s) in ${out}\n`);
  await writeReport(out, values.report);
  if (run.status === 'interrupted') return 130;
  return run.micro.results.some((e) => e.error) ? 1 : 0;
}

module.exports = { main, resolveSettings, help, OPTIONS };
