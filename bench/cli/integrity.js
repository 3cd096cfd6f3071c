'use strict';
// `ctxbench integrity`: every scenario against every strategy, each strategy in its own
// fresh server; the scenario × strategy matrix of kept / lost / leaked requests.
const path = require('node:path');
const strategies = require('../../context');
const { loadStrategyFiles } = require('./common');
const frameworks = require('../../servers');
const { freezePlan } = require('../../lib/plan');
const { UsageError, parse, list, acfFlag, presetNamed } = require('../../lib/cli');
const { setting } = require('../../lib/settings');
const { optionsOf, helpLines } = require('../../lib/settings-help');
const { session } = require('../run/session');
const { resolveNodeTargets } = require('../run/targets');
const integrity = require('../integrity/integrity');
const { DEFAULT_MAJOR } = require('../../lib/node-versions');

// Node targets by name: `--preset runtimes` runs the matrix on every runtime a team may
// be on (Node 20, end-of-life; 24 with AsyncContextFrame on and off; 26) so the report
// can show where they disagree. Without a preset: DEFAULT_MAJOR, its default ACF.
// `--preset upgrade`: the Node upgrade's scenarios (the group `upgrade`) on every runtime a
// team moves between, Node 22 included with its AsyncContextFrame flag off and on.
const PRESETS = {
  runtimes: { node: ['20', DEFAULT_MAJOR, '26'], acf: 'both' },
  upgrade: {
    node: ['20', '22', DEFAULT_MAJOR, '26'],
    acf: 'both',
    scenarios: ['upgrade'],
    out: path.join('results', 'integrity-upgrade.json'),
  },
};
const { redactArgs, needsSink } = require('../services/services');
const { writeReport } = require('./write-report');
const systemTools = require('../../lib/system-tools');

const OPTIONS = optionsOf(
  'integrity',
  ['strategies', 'scenarios', 'acf', 'preset', 'framework', 'pg-url', 'out', 'report', 'strategy-file'],
  { booleans: ['quick'], multiple: ['strategy-file'] },
);

const { DEFAULTS, QUICK } = integrity;

const HELP = `Which strategies keep, lose or leak each request's context, per scenario: every answer's id
checked with many requests in flight (measures no cost).

usage: ctxbench integrity [options]

Sends each scenario's requests (distinct trace ids, many in flight) to a fresh server
per strategy and classifies every answer: kept (its own id), lost (no id) or leaked
(another request's id). Scenarios: ${integrity.NAMES.join(', ')}
(groups: chains = every chain-*, upgrade, all). See docs/integrity.md.

  --strategies a,b       strategies (default: all)
  --strategy-file FILE   a strategy of your own (repeatable; see ctxbench run --help)
  --scenarios a,b        scenarios or groups (default: all)
  --acf on|off|both      AsyncContextFrame (Node 22: flag; 24+: default on)
  --preset runtimes      Node 20, 24 (AsyncContextFrame on and off) and 26; the report shows
                         per scenario where the runtimes disagree
  --preset upgrade       the scenarios whose answer moved between runtimes (group upgrade)
                         on Node 20, 22 and 24 (AsyncContextFrame off and on) and 26
  --framework NAME       ${frameworks.names.join(', ')} (default express)
${helpLines('integrity', {
  defaults: {
    requests: `${DEFAULTS.requests}; --quick ${QUICK.requests}`,
    concurrency: DEFAULTS.concurrency,
    'soak-requests': `${DEFAULTS.soakRequests}; --quick ${QUICK.soakRequests}`,
    node: DEFAULT_MAJOR,
  },
})}\
  --quick                small counts, for a smoke run
  --pg-url URL           an existing PostgreSQL for the pg scenarios (default: an
                         embedded one, started and removed by ctxbench)
  --out FILE             JSON (default results/integrity.json; --preset upgrade:
                         results/integrity-upgrade.json), rewritten after every cell
  --report FILE          results.md to regenerate from --out's folder ("none" to skip;
                         default results.md when --out is in results/, else none)
`;

function resolveSettings(values) {
  const own = loadStrategyFiles(values['strategy-file']);
  const quick = Boolean(values.quick);
  const preset =
    values.preset === undefined ? { node: [DEFAULT_MAJOR], acf: 'default' } : presetNamed(values.preset, PRESETS);
  const acf = acfFlag(values.acf, preset.acf);
  const framework = values.framework ?? 'express';
  if (!frameworks.names.includes(framework))
    throw new UsageError(`--framework ${framework} is not valid (valid: ${frameworks.names.join(', ')})`);
  const scenarios = list('scenarios', values.scenarios, [...integrity.NAMES, ...Object.keys(integrity.GROUPS)]);
  // Default: every strategy that runs on this framework (a Fastify plugin does not run on Express).
  const listed = strategies.names.filter(
    (n) => !strategies.info(n).testOnly && !strategies.frameworkProblem(n, framework),
  );
  const chosen = [
    ...new Set([...(list('strategies', values.strategies, strategies.names) ?? listed), ...own.map((e) => e.name)]),
  ];
  for (const name of chosen) {
    const problem = strategies.frameworkProblem(name, framework);
    if (problem)
      throw new UsageError(problem.replace('STRATEGY=', '--strategies ').replace(/FRAMEWORK=/g, '--framework '));
  }
  return {
    strategies: chosen,
    scenarios: integrity.expandScenarios(scenarios ?? preset.scenarios ?? ['all']),
    preset: values.preset ?? null,
    node:
      list('node', values.node)?.map((n) => String(setting('node', n))) ??
      preset.node,
    acf,
    framework,
    requests:
      setting('requests', values.requests) ??
      (quick ? QUICK.requests : DEFAULTS.requests),
    concurrency:
      setting('concurrency', values.concurrency) ?? DEFAULTS.concurrency,
    soakRequests:
      setting('soak-requests', values['soak-requests']) ??
      (quick ? QUICK.soakRequests : DEFAULTS.soakRequests),
    pipeline: DEFAULTS.pipeline,
    body: { pieces: DEFAULTS.pieces, gapMs: DEFAULTS.gapMs },
    soakGrowthLimitPct: integrity.SOAK_GROWTH_LIMIT_PCT,
    quick,
  };
}

async function main(args) {
  const { values } = parse(args, OPTIONS);
  const asked = resolveSettings(values);
  const out = values.out ?? PRESETS[values.preset]?.out ?? path.join('results', 'integrity.json');
  const reportPath = values.report;

  const warnings = [];
  const { targets, warnings: targetWarnings } = await resolveNodeTargets(asked.node, asked.acf);
  warnings.push(...targetWarnings);
  if (asked.concurrency < 200)
    warnings.push(
      `concurrency ${asked.concurrency} (< 200): fewer requests interleave, so a leak is less likely to show`,
    );

  // A server the selected scenarios need but this machine lacks (Redis, MariaDB): those
  // scenarios are left out with one line naming the package to install; the others run.
  const needsOf = (name) => integrity.SCENARIOS.find((s) => s.name === name)?.needs;
  let scenarios = asked.scenarios;
  for (const [need, tool, label] of [
    ['redis', 'redis', 'Redis'],
    ['mysql', 'mariadb', 'MySQL'],
  ]) {
    const withoutServer = systemTools.find(tool) ? [] : scenarios.filter((n) => needsOf(n) === need);
    if (!withoutServer.length) continue;
    scenarios = scenarios.filter((n) => !withoutServer.includes(n));
    const line = `${withoutServer.length} ${label} scenario(s) skipped: ${systemTools.hint(tool)}`;
    warnings.push(line);
    process.stderr.write(`ctxbench: ${line}\n`);
  }
  if (!scenarios.length) throw new UsageError('no scenario left to run');
  const runtimes = targets.map(({ label, version, args: nodeArgs, expectAcf }) => ({
    label,
    version,
    args: nodeArgs,
    expectAcf,
  }));
  const settings = freezePlan({ ...asked, scenarios, targets: runtimes });
  const needs = new Set(settings.scenarios.map(needsOf));
  const run = await session({
    kind: 'integrity',
    schema: 1,
    title: 'Context integrity: who keeps, loses or leaks the request id',
    command: ['ctxbench', 'integrity', ...redactArgs(args)].join(' '),
    settings,
    learned: { postgres: null },
    out,
    part: {
      integrity: {
        scenarios: integrity.SCENARIOS.filter((s) => settings.scenarios.includes(s.name)).map(
          ({ name, describe, remedy }) => ({ name, describe, remedy: Boolean(remedy) }),
        ),
        cells: [],
        soak: [],
        errors: [],
      },
    },
    warnings,
    // PostgreSQL, MariaDB, Redis and the downstream service, when a selected scenario needs them.
    // The sink when a strategy sends to one (the APM agents, the OTLP rows).
    services: {
      need: {
        pg: needs.has('pg'),
        http: needs.has('http'),
        redis: needs.has('redis'),
        mysql: needs.has('mysql'),
        sink: settings.strategies.some(needsSink),
      },
      pgUrl: values['pg-url'] ?? null,
    },
    progress: { total: targets.length * settings.strategies.length * settings.scenarios.length, step: 'scenario' },
    measure: (r, { progress, stop, serverEnv }) =>
      integrity.runIntegrity(r, { out, targets, progress, stop, serverEnv }),
  });
  // Without --report, only a result written into ./results/ regenerates ./results.md.
  await writeReport(out, reportPath);
  if (run.status === 'interrupted') return 130;
  return run.integrity.cells.length === 0 && run.integrity.errors.length > 0 ? 1 : 0;
}

module.exports = { main, resolveSettings, help: HELP, OPTIONS, PRESETS };
