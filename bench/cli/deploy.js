'use strict';
// `ctxbench deploy app_baseline.yaml app_cls.yaml …`: each App Engine yaml run as a local
// stand-in of its instance (lib/instances.js, bench/processes/cgroup.js), measured against the yaml
// whose STRATEGY is param or none (the baseline, whatever the order given) in pairs at the
// autoscaler's operating point (the rate at which the baseline uses its target_cpu_utilization
// of the quota; analysis/operating-point.js): the
// throughput per instance as % of the baseline's, instances per 1,000 req/s, the tail there
// and the CFS throttling. `--load` measures a ladder of rates for the capacity within the
// SLO instead (a study-page figure: docs/deploy.md).
// The yamls are the source of what is measured (instance_class, env_variables, runtime,
// max_concurrent_requests, max_instances), not a parallel description of them.
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const { serverSettings, ConfigError } = require('../../servers/config');
const { loadRun } = require('../../lib/run-file');
const { UsageError, parse } = require('../../lib/cli');
const { setting, defaultOf } = require('../../lib/settings');
const { optionsOf, helpLines } = require('../../lib/settings-help');
const { resolveSettings } = require('./run-plan');
const { measureRun } = require('../run/measure-run');
const { SLO_LOADS, DEFAULT_TARGET_CPU } = require('./slo');
const { capacityLines, operatingLines } = require('./deployment-lines');
const { freezePlan } = require('../../lib/plan');
const { writeReport } = require('./write-report');
const { redactArgs } = require('../services/services');
const { sloCapacity, operatingPoints } = require('../../analysis');
const { describeInstance, APP_ENGINE_MAX_CONCURRENT, DEFAULT_PERIOD_US } = require('../../lib/instances');

const OPTIONS = optionsOf('deploy', ['out', 'report', 'load']);

// The defaults of deploy's settings that are not its own in lib/settings.js.
const HELP_DEFAULTS = {
  'target-cpu': `the baseline yaml's, else ${DEFAULT_TARGET_CPU}`,
  'cfs-period': DEFAULT_PERIOD_US,
};
const HELP = `How many instances does each App Engine deployment need once autoscaling holds its CPU target,
against the baseline's? Each app_*.yaml as a local stand-in, in a pair at a fixed rate: the
rate at which the baseline uses its target share of the CPU quota.

usage: ctxbench deploy BASELINE.yaml CANDIDATE.yaml [CANDIDATE.yaml …] [options]
       (the baseline is the yaml whose STRATEGY is param or none, in any position)

Runs each App Engine yaml as a local stand-in of its instance — its own cgroup with the
instance class's CPU quota and memory limit, its max_concurrent_requests as the requests
it serves at once (the rest wait, and the wait counts) — with the environment the yaml
sets (STRATEGY, DEPTH, LOG, …) on the Node major of its runtime. The yaml that runs param
or none is the baseline; every other is measured beside a fresh baseline process (the
pair at a fixed rate) at the autoscaler's operating point: the rate at which the baseline
stand-in uses the yaml's automatic_scaling.target_cpu_utilization of its quota (${DEFAULT_TARGET_CPU}
when the yaml is silent) or holds target_throughput_utilization × max_concurrent_requests
in flight, whichever comes first, searched per block, or the candidate's own where it
cannot keep that one. Prints per deployment its throughput per instance there as % of the
baseline's with its interval, instances per 1,000 req/s for each, the p99 there (pooled over the
blocks), the share of CFS periods throttled, the requests in flight beside the yaml's
concurrency target and which target set the instance count, the period assumed and the
yaml's instance cap (printed, not applied). What a stand-in reproduces and what it does
not: docs/deploy.md.

${helpLines('deploy', { column: 21, defaults: HELP_DEFAULTS })}\
  --load PCTS        a ladder of rates instead of --target-cpu, as % of the knee up to 200%,
                     for the capacity within the SLO (e.g. ${SLO_LOADS.map((l) => `${l * 100}%`).join(',')};
                     docs/deploy.md)
  --out FILE         run JSON (default results/deploy.json)
  --report FILE      results.md to regenerate (default results.md when --out is in
                     results/; "none" to skip)
Exit 0 measured, 1 bad input or a failed deployment, 130 interrupted.
`;

// One yaml -> what it deploys: { file, service, strategy, env, major, instanceClass,
// maxConcurrent, maxInstances }. One line on what is missing or not runnable here.
function readYaml(file) {
  let doc;
  try {
    doc = YAML.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(
      `${file}: ${err.code === 'ENOENT' ? 'no such file' : `not a YAML file (${String(err.message).split('\n')[0]})`}`,
    );
  }
  if (!doc || typeof doc !== 'object') throw new UsageError(`${file}: not an app.yaml (no settings)`);
  const runtime = /^nodejs(\d+)$/.exec(String(doc.runtime ?? ''));
  if (!runtime)
    throw new UsageError(
      `${file}: runtime ${JSON.stringify(doc.runtime ?? null)} is not a Node.js runtime of App Engine ` +
        `standard (nodejs20, nodejs22, nodejs24)`,
    );
  // The server's own checks (servers/config.js): a bad DEPTH reads as it would at start-up.
  let server;
  try {
    server = serverSettings(doc.env_variables ?? {});
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(`${file}: ${err.message}`);
    throw err;
  }
  const scaling = doc.automatic_scaling ?? {};
  if (doc.basic_scaling || doc.manual_scaling)
    throw new UsageError(
      `${file}: basic and manual scaling are not stood in for yet: ctxbench deploy runs automatic-scaling ` +
        `services (F classes)`,
    );
  const targetCpu = scaling.target_cpu_utilization ?? null;
  if (targetCpu !== null && !(Number.isFinite(targetCpu) && targetCpu >= 0.5 && targetCpu <= 0.95))
    throw new UsageError(`${file}: automatic_scaling.target_cpu_utilization ${targetCpu} is not from 0.5 to 0.95`);
  const maxConcurrent = scaling.max_concurrent_requests ?? APP_ENGINE_MAX_CONCURRENT;
  if (!(Number.isInteger(maxConcurrent) && maxConcurrent >= 1 && maxConcurrent <= 1000))
    throw new UsageError(`${file}: automatic_scaling.max_concurrent_requests ${maxConcurrent} is not from 1 to 1000`);
  const targetThroughput = scaling.target_throughput_utilization ?? null;
  const inRange = (x) => Number.isFinite(x) && x >= 0.5 && x <= 0.95;
  if (targetThroughput !== null && !inRange(targetThroughput))
    throw new UsageError(
      `${file}: automatic_scaling.target_throughput_utilization ${targetThroughput} is not from 0.5 to 0.95`,
    );
  return {
    file,
    service: doc.service ?? 'default',
    strategy: server.strategy,
    depth: server.depth,
    hop: server.hop,
    log: server.log,
    framework: server.framework,
    major: runtime[1],
    instanceClass: doc.instance_class ?? 'F1',
    maxConcurrent,
    targetCpu,
    targetThroughput,
    maxInstances: scaling.max_instances ?? null,
  };
}

// The baseline is what the yamls run, not the order they are given in (a shell sorts a glob):
// the one yaml whose STRATEGY is param (the App Engine study's baseline) or none. -> the yamls,
// the baseline first and the others in the order given.
const BASELINES = ['param', 'none'];
function baselineFirst(yamls) {
  const bases = yamls.filter((y) => BASELINES.includes(y.strategy));
  if (bases.length === 0)
    throw new UsageError(
      `no yaml runs STRATEGY=param or none: deploy measures every service against that baseline ` +
        `(app_baseline.yaml runs param)`,
    );
  if (bases.length > 1)
    throw new UsageError(
      `${bases.map((y) => `${y.file} (STRATEGY=${y.strategy})`).join(' and ')} are both baselines: give one`,
    );
  return [bases[0], ...yamls.filter((y) => y !== bases[0])];
}

// Every yaml after the baseline must be the baseline's service with another strategy: one
// comparison, one instance class (the pair runs them at once).
function checkComparable(yamls) {
  const [base, ...rest] = yamls;
  for (const y of rest) {
    for (const k of ['depth', 'hop', 'log', 'framework', 'major', 'instanceClass', 'maxConcurrent', 'targetCpu']) {
      if (y[k] !== base[k])
        throw new UsageError(
          `${y.file}: ${k} ${y[k]} differs from the baseline's (${base.file}: ${base[k]}); ctxbench deploy ` +
            `compares services that differ in STRATEGY only`,
        );
    }
  }
  const seen = new Set();
  for (const y of yamls) {
    if (seen.has(y.strategy)) throw new UsageError(`${y.file}: STRATEGY ${y.strategy} is in two yamls`);
    seen.add(y.strategy);
  }
}

// A yaml whose strategy the integrity results (results/integrity.json, where a run left one)
// show losing the id in the chain at its own HOP on its Node major: measured, with one line
// naming the pattern, since its cost is not the cost of carrying a context it lost.
function idWarnings(yamls, integrity) {
  const cells = integrity?.integrity?.cells ?? [];
  return yamls.flatMap((y) => {
    const scenario = `chain-${y.hop}`;
    const lost = cells.find(
      (c) =>
        c.strategy === y.strategy &&
        c.scenario === scenario &&
        String(c.runtime ?? '') === `node${y.major}` &&
        ['lost', 'leaked'].includes(c.verdict),
    );
    return lost
      ? [`${y.file}: ${y.strategy} ${lost.verdict} the id in ${scenario} (HOP=${y.hop}) on node${y.major} in the ` +
          `integrity results: measured, but its cost is not that of a context it kept`]
      : [];
  });
}

function integrityResults(file = path.join('results', 'integrity.json')) {
  if (!fs.existsSync(file)) return null;
  try {
    return loadRun(file, 'integrity results', { kinds: ['integrity'], measured: false });
  } catch {
    return null; // an unreadable file warns of nothing; the run itself is what deploy measures
  }
}

async function main(args) {
  const { values, positionals } = parse(args, OPTIONS, { allowPositionals: true });
  if (positionals.length < 2)
    throw new UsageError(
      'deploy needs at least two app.yaml files: the baseline (STRATEGY param or none) and the services ' +
        'to measure against it',
    );
  const yamls = baselineFirst(positionals.map(readYaml));
  checkComparable(yamls);
  for (const line of idWarnings(yamls, integrityResults())) process.stderr.write(`ctxbench: warning: ${line}\n`);
  const settings = deploySettings(yamls, values);
  const out = values.out ?? path.join('results', 'deploy.json');
  const run = await measureRun({
    settings,
    options: {},
    out,
    command: ['ctxbench', 'deploy', ...redactArgs(args)].join(' '),
  });
  await writeReport(out, values.report);
  process.stdout.write(deploySummary(run, yamls, out));
  if (run.status === 'interrupted') return 130;
  return run.status === 'failed' ? 1 : 0;
}

// The plan of a deploy, frozen: `run`'s settings resolved from the baseline yaml's values,
// with the yaml's own request limit and the deployments it names.
function deploySettings(yamls, values) {
  const [base] = yamls;
  const runValues = {
    strategies: yamls.map((y) => y.strategy).join(','),
    baseline: base.strategy,
    depths: String(base.depth),
    hops: base.hop,
    logs: base.log,
    frameworks: base.framework,
    node: base.major,
    instance: base.instanceClass,
    slo: values.slo ?? defaultOf('slo', 'deploy'),
    blocks: values.blocks ?? String(defaultOf('blocks', 'deploy')),
    windows: values.windows ?? String(defaultOf('windows', 'deploy')),
    ...(values.load
      ? { load: values.load }
      : { 'target-cpu': values['target-cpu'] ?? String(base.targetCpu ?? DEFAULT_TARGET_CPU) }),
    'max-time': values['max-time'] ?? String(defaultOf('max-time', 'deploy')),
    precision: values.precision ?? String(defaultOf('precision', 'deploy')),
    ...(values['cfs-period'] && { 'cfs-period': values['cfs-period'] }),
    ...(values.warmup && { warmup: values.warmup }),
  };
  setting('blocks', runValues.blocks);
  if (values.load && values['target-cpu'])
    throw new UsageError('--load measures a ladder of rates, --target-cpu the operating point: give one of them');
  const resolved = resolveSettings(runValues);
  // The yaml's own request limit, not the class's default.
  const instance = {
    ...resolved.instance,
    requestLimit: base.maxConcurrent,
    requestLimitSource: `max_concurrent_requests ${base.maxConcurrent} (${base.file})`,
    ...(base.targetThroughput !== null && {
      concurrencyTarget: base.targetThroughput,
      concurrencyTargetSource: `target_throughput_utilization ${base.targetThroughput} (${base.file})`,
    }),
  };
  const envWords = Object.entries({ DEPTH: base.depth, HOP: base.hop, LOG: base.log })
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  return freezePlan({
    ...resolved,
    instance,
    connections: base.maxConcurrent,
    aa: false,
    preset: 'deploy',
    title:
      `Deployments on ${instance.name} stand-ins: ${yamls.map((y) => y.service).join(', ')} against ` +
      `${base.service}`,
    why:
      `each App Engine yaml as a local stand-in of its instance (${describeInstance(instance)}), ` +
      `with the environment it sets (${envWords}), measured in pairs against ${base.file} ` +
      (resolved.targetCpu
        ? `at the rate at which it uses ${Math.round(resolved.targetCpu * 100)}% of its quota or holds the ` +
          `requests in flight its concurrency target allows, whichever comes first (the autoscaler's targets): ` +
          `throughput per instance, instances and the tail there`
        : `at rates up to the baseline stand-in's capacity: capacity within ${resolved.slo.text} ` +
          `and what it means in instances`),
    deploy: {
      yamls: yamls.map(({ file, service, strategy, maxInstances }) => ({
        file: path.relative(process.cwd(), path.resolve(file)),
        service,
        strategy,
        maxInstances,
      })),
    },
  });
}

// The precision the run reached against its target (run.precision, bench/run/runner.js): the
// answer a team reads first is only as good as its widest interval.
function precisionLines(p) {
  if (!p) return [];
  const widest = Math.max(0, ...(p.missing ?? []).map((m) => m.halfWidthPct));
  return [
    p.reached
      ? `Precision: every ratio within ±${p.target} pp after ${p.blocks} blocks`
      : `Precision: ±${p.target} pp not reached after ${p.blocks} blocks and ${p.elapsedS} s (the --max-time ` +
        `deadline): ${p.missing.length} ratio(s) wider, the widest ±${widest.toFixed(1)} pp`,
  ];
}

// The end of a deploy in the terminal: per deployment, its capacity within the SLO against
// the baseline's, the p99 it adds at half the baseline's capacity, its throttling, and
// the instances sentence.
function deploySummary(run, yamls, out) {
  const inst = run.settings.instance;
  const lines = [
    '',
    `ctxbench deploy: ${run.status}, ${Math.round(run.measuringSeconds ?? 0)} s of measuring, ` +
      `${inst.name} stand-ins (${inst.cpus} CPU each: an assumption, docs/deploy.md)`,
    ...precisionLines(run.precision),
  ];
  if (run.settings.targetCpu) {
    const rows = operatingPoints(run);
    lines.push(
      `At the autoscaler's target: ${Math.round(run.settings.targetCpu * 100)}% of each quota, CFS period ` +
        `${(inst.periodUs / 1000).toLocaleString('en-US')} ms (an assumption: no cloud documents it)`,
    );
    for (const y of yamls.slice(1)) {
      const row = rows.find((r) => r.config.strategy === y.strategy);
      const name = `${y.service} (${y.strategy})`;
      const [b] = yamls;
      const cap = (x) => (x.maxInstances ? `max_instances ${x.maxInstances}` : 'no max_instances');
      lines.push(
        ...(row
          ? operatingLines(row.op, { name, base: b.service, rateOf: b.strategy }, `the yamls' cap: ${cap(y)} ` +
              `(${b.service}: ${cap(b)}), not applied`)
          : [`${name}: not measured`]),
      );
    }
    lines.push(`Run JSON: ${out}`, '');
    return lines.join('\n');
  }
  const cap = sloCapacity(run);
  if (!cap) return `${lines.join('\n')}\n`;
  for (const y of yamls.slice(1)) {
    const row = cap.rows.find((r) => r.strategy === y.strategy);
    if (!row) lines.push(`${y.service} (${y.strategy}): not measured`);
    else
      lines.push(
        ...capacityLines(run, cap, row, {
          name: `${y.service} (${y.strategy})`,
          candidate: y.strategy,
          baseline: yamls[0].strategy,
        }),
      );
  }
  lines.push(`Run JSON: ${out}`, '');
  return lines.join('\n');
}

module.exports = {
  main,
  help: HELP,
  readYaml,
  baselineFirst,
  deploySettings,
  precisionLines,
  checkComparable,
  idWarnings,
  OPTIONS,
  POSITIONALS: true,
};
