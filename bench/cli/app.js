'use strict';
// `ctxbench app --baseline CMD --candidate CMD`: what a change costs the user's own
// service (bench/app/app.js). Writes the run JSON (kind "app") and its report section.
const { freezePlan } = require('../../lib/plan');
const path = require('node:path');
const { UsageError, parse } = require('../../lib/cli');
const { setting, defaultOf } = require('../../lib/settings');
const { optionsOf, helpLines } = require('../../lib/settings-help');
const { PROBE } = require('../app/app-sides');
const { supported } = require('../processes/proc-cpu');
const { appSession } = require('../app/app');
const { parseInstance, DEFAULT_PERIOD_US } = require('../../lib/instances');
const { loadFits } = require('../app/app-predict');
const { parseLoads } = require('../rates/capacity');
const {
  parseSlo,
  parseTargetCpu,
  DEFAULT_SLO,
  SLO_LOADS,
  DEFAULT_TARGET_CPU,
  STAND_IN_SETTINGS,
} = require('./slo');
const { AppStartError } = require('../app/app-process');
const { writeReport } = require('./write-report');
const { MODEL_STRATEGIES } = require('../../lib/presets');
// The summary on the terminal (app-lines.js), re-exported below: the tests require it here.
const { summaryLine, predictLines } = require('./app-lines');


// The stand-in's defaults that bench/ holds (the others: lib/settings.js).
const STAND_IN_DEFAULTS = {
  'target-cpu': `${DEFAULT_TARGET_CPU}, App Engine's target_cpu_utilization`,
  slo: DEFAULT_SLO,
  'cfs-period': DEFAULT_PERIOD_US,
};

const HELP = `What does your service's change cost, and does every request keep its id? Two start commands
of your own service measured side by side, in duet by default (--instance: a pair at fixed rates on
stand-ins of a cloud instance; --predict: the cost model first).

usage: ctxbench app --baseline CMD --candidate CMD [options]
       ctxbench app --baseline CMD --predict [--candidate CMD --strategy NAME] [options]

Measures two start commands of your own service side by side, in duet: per block a
fresh process of each, both on one CPU and loaded at the same time from the other; per
window each side's CPU per request, read from /proc (the process and its children), so
the service needs no ctxbench endpoint. Each command runs through \`sh -c\` with PORT
set to a free port; it is ready when its --health path answers 2xx.

  --baseline CMD        the service as it is (e.g. "node server.js")
  --candidate CMD       the service with the change (e.g. "TRACING=1 node server.js")
  --path PATH           a path to load (repeatable; default /); GET, in turn
  --id-header NAME      send a distinct id per request in this header and check that
                        every answer echoes it (mismatched: another request's id; lost: none)
${helpLines('app', { column: 24, except: STAND_IN_SETTINGS })}\
  --predict             predict, before measuring a candidate, what each strategy of the
                        cost model would cost this service (docs/model.md): its async
                        resources per request counted in a probe process (which also
                        says which Node serves it: that runtime's model applies), its CPU
                        per request put on the model's scale by a reference server
                        (ctxbench's own, STRATEGY=none DEPTH=8 HOP=immediate, on the same
                        Node) measured beside it in duet; then, with --candidate, the
                        measured figure. --candidate is optional with --predict
  --strategy NAME       with --predict and --candidate: the model's strategy the
                        candidate is closest to (e.g. als): its prediction is shown
                        beside the candidate's measured figure
  --instance CLASS      measure both as stand-ins of a cloud instance instead of in duet:
                        F1, F2, B1, B2 (App Engine: a quarter or half of one CPU, an
                        assumption) or cloudrun:cpu=N,memory=SIZE,concurrency=N with N up
                        to 0.5 (two stand-ins share the one server CPU); each process in
                        a cgroup of its own with the class's CPU quota and memory limit,
                        its request limit the connections. Per block a fresh process of
                        each, warmed closed loop, then both sent the same open-loop
                        schedule at once (the pair) at the autoscaler's operating point:
                        the rate at which the baseline uses --target-cpu of its quota,
                        searched per block, the candidate there or at its own; prints the
                        candidate's throughput per instance as % of the baseline's,
                        instances per 1,000 req/s, the p99 there and the CFS throttling
                        (docs/deploy.md). Needs root or a delegated cgroup; one --path
${helpLines('app', { column: 24, only: STAND_IN_SETTINGS, defaults: STAND_IN_DEFAULTS })}\
  --load PCTS           with --instance, instead of --target-cpu: a ladder of rates, as %
                        of the baseline stand-in's open-loop knee (the last rate at which
                        two of them keep --slo, after its closed-loop capacity), up to
                        200% (e.g. ${SLO_LOADS.map((l) => `${l * 100}%`).join(',')}): each side's capacity within
                        --slo, the candidate's as % of the baseline's, the p99 it adds at 50%
  --with LIST           start these beside the service, on the load CPU, for the whole
                        run, and give both commands their URLs in the environment:
                        sink (ctxbench's local APM endpoint, SINK_URL: an agent such as
                        Sentry or dd-trace sends there, nothing leaves the machine),
                        postgres (PG_URL), mariadb (MYSQL_URL), redis (REDIS_URL),
                        downstream (DOWNSTREAM_URL); comma-separated
  --probe               after measuring, count each side's async resources per request in a
                        probe process of its own (an async_hooks init counter preloaded
                        through NODE_OPTIONS; never in a measured process): on the first
                        --path, at --connections, ${PROBE.requests} requests after ${PROBE.warmup}
  --out FILE            run JSON (default results/app.json)
  --report FILE         results.md to regenerate ("none" to skip; default results.md when
                        --out is in results/, else none)
Exit 0 measured, 1 a command failed to start or bad input, 130 interrupted.
`;

const OPTIONS = optionsOf(
  'app',
  ['baseline', 'candidate', 'path', 'id-header', 'out', 'report', 'strategy', 'instance', 'load', 'with'],
  { multiple: ['path'], booleans: ['probe', 'predict'] },
);

function urlPath(flag, value) {
  if (!/^\/[^\s]*$/.test(value))
    throw new UsageError(`--${flag} ${value} is not a path (it starts with / and has no spaces)`);
  return value;
}

// --with: the helper services ctxbench starts (bench/services/services.js, which names the
// environment variable each one's URL arrives in), by the names a team knows them by.
const WITH = { sink: 'sink', postgres: 'pg', mariadb: 'mysql', redis: 'redis', downstream: 'http' };

function withList(value) {
  if (value === undefined) return [];
  const names = value
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !WITH[n]);
  if (!names.length || unknown.length)
    throw new UsageError(
      `--with ${value}: ` +
        `${unknown.length ? `${unknown.join(', ')} is not a service ctxbench starts` : 'names no service'} ` +
        `(valid: ${Object.keys(WITH).join(', ')})`,
    );
  return [...new Set(names)];
}

const servicesOf = (names) => (names.length ? { need: Object.fromEntries(names.map((n) => [WITH[n], true])) } : null);

function settingsOf(values) {
  for (const k of values.predict ? ['baseline'] : ['baseline', 'candidate']) {
    if (!values[k] || !values[k].trim())
      throw new UsageError(
        `--${k} CMD is required: the start command of the service ` +
          `${k === 'baseline' ? 'as it is' : 'with the change'}` +
          `${k === 'candidate' ? ' (or --predict to predict without one)' : ''}`,
      );
  }
  if (values.candidate !== undefined && !values.candidate.trim())
    throw new UsageError(
      '--candidate CMD is empty: give the start command of the service with the change, or leave it out with --predict',
    );
  if (values.strategy !== undefined) {
    if (!values.predict)
      throw new UsageError('--strategy names the model strategy a candidate is predicted as: give --predict with it');
    if (values.candidate === undefined)
      throw new UsageError(
        '--strategy needs --candidate: it says which strategy the candidate is, to show its prediction beside ' +
          'its measurement',
      );
    if (!MODEL_STRATEGIES.includes(values.strategy))
      throw new UsageError(
        `--strategy ${values.strategy} is not a strategy of the cost model (valid: ${MODEL_STRATEGIES.join(', ')})`,
      );
  }
  const names = (values.names ?? defaultOf('names', 'app')).split(',').map((s) => s.trim());
  if (names.length !== 2 || names.some((n) => !/^[a-z0-9][a-z0-9._-]*$/i.test(n)) || names[0] === names[1]) {
    throw new UsageError(`--names ${values.names}: two different names (letters, digits, . _ -), comma-separated`);
  }
  if (values['id-header'] !== undefined && !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(values['id-header']))
    throw new UsageError(`--id-header ${values['id-header']} is not an HTTP header name`);
  const connections =
    setting('connections', values.connections, { command: 'app' });
  return {
    ...instanceSettings(values, connections),
    names,
    health: urlPath('health', values.health ?? defaultOf('health', 'app')),
    paths: (values.path ?? ['/']).map((p) => urlPath('path', p)),
    idHeader: values['id-header'] ?? null,
    blocks: setting('blocks', values.blocks, { command: 'app' }),
    windows: setting('windows', values.windows, { command: 'app' }),
    window: setting('window', values.window, { command: 'app' }),
    warmup: setting('warmup', values.warmup, { command: 'app' }),
    startupTimeout:
      setting('startup-timeout', values['startup-timeout'], { command: 'app' }),
    margin: setting('margin', values.margin, { command: 'app' }),
    predict: Boolean(values.predict),
    with: withList(values.with),
    ...(values.strategy && { strategy: values.strategy }),
    baseline: 'baseline',
  };
}

// --instance CLASS: the pair on stand-ins, at a fixed rate (bench/app/app-ladder.js) or at the
// autoscaler's target (bench/app/app-target.js); without it, the duet at saturation. -> the settings that differ.
function instanceSettings(values, connections) {
  const periodUs = setting('cfs-period', values['cfs-period']);
  const instance = parseInstance(values.instance, { periodUs: periodUs ?? DEFAULT_PERIOD_US });
  if (!instance) {
    for (const k of ['slo', 'load', 'target-cpu', 'cfs-period'])
      if (values[k] !== undefined)
        throw new UsageError(`--${k} is a setting of an --instance stand-in: give --instance`);
    return { method: 'duet', connections };
  }
  if (2 * instance.cpus > 1)
    throw new UsageError(
      `--instance ${instance.name}: ${instance.cpus} CPU each, two stand-ins do not fit at once on the one ` +
        `server CPU of this machine, and \`ctxbench app --instance\` measures them in a pair (F1, F2, B1, B2, ` +
        `or cloudrun with cpu up to 0.5)`,
    );
  if (values.predict)
    throw new UsageError(
      "--predict puts a service on the cost model's scale at saturation, in duet: not with --instance",
    );
  if ((values.path ?? []).length > 1)
    throw new UsageError('--instance sends one open-loop schedule per side, of one request: give one --path');
  const limit = instance.requestLimit;
  if (values.connections !== undefined && limit && connections !== limit)
    throw new UsageError(
      `--connections ${connections} with --instance ${instance.name}: the instance serves ${limit} ` +
        `request${limit === 1 ? '' : 's'} at once (${instance.requestLimitSource}); the connections are that ` +
        `limit`,
    );
  if (values.load !== undefined && values['target-cpu'] !== undefined)
    throw new UsageError('--load measures a ladder of rates, --target-cpu the operating point: give one of them');
  const slo = parseSlo(values.slo ?? DEFAULT_SLO);
  const common = { method: 'pair', instance, slo, connections: limit ?? connections };
  if (values.load !== undefined)
    return {
      ...common,
      methodWhy:
        `the pair at a fixed rate: --instance ${instance.name}: two stand-ins at once on the server CPU, each ` +
        `held to its own quota, at rates up to the baseline stand-in's capacity`,
      loads: parseLoads(values.load, { max: 2 }),
    };
  const targetCpu = parseTargetCpu(values['target-cpu']) ?? DEFAULT_TARGET_CPU;
  return {
    ...common,
    methodWhy:
      `the pair at the autoscaler's operating point: --instance ${instance.name}: two stand-ins at once on the ` +
      `server CPU, each held to its own quota, at the rate at which the baseline uses ` +
      `${Math.round(targetCpu * 100)}% of its quota`,
    targetCpu,
  };
}

async function main(args) {
  const { values } = parse(args, OPTIONS);
  const settings = freezePlan(settingsOf(values));
  if (!supported())
    throw new UsageError('ctxbench app reads CPU time from /proc/<pid>/task/*/schedstat: it needs Linux');
  const out = values.out ?? path.join('results', 'app.json');
  const hasCandidate = values.candidate !== undefined;
  const commands = settings.names
    .slice(0, hasCandidate ? 2 : 1)
    .map((name, i) => ({ name, command: i === 0 ? values.baseline : values.candidate }));
  // The model is read before anything starts: a ctxbench without it refuses in one line.
  const fits = settings.predict ? loadFits() : null;
  // A stand-in run's summary reads its names from the settings; a duet's from its configs.
  const saved = settings.instance ? settings : freezePlan({ ...settings, names: undefined });
  const common = sessionOf({ args, settings: saved, out });
  return finish(appSession({ common, settings, commands, fits, probe: values.probe }), { out, values });
}

// What every \`ctxbench app\` session has: the command, the settings, the run JSON, the servers
// pinned, what --with starts.
const sessionOf = ({ args, settings, out }) => ({
  command: ['ctxbench', 'app', ...args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a))].join(' '),
  settings,
  out,
  part: { configs: [] },
  pin: true,
  services: servicesOf(settings.with),
});

// The end of every `ctxbench app` session: a side that failed as one line naming the run
// JSON, the summary on the terminal, the report. -> the exit code.
async function finish(running, { out, values }) {
  const run = await running.catch((err) => {
    throw err instanceof AppStartError
      ? new UsageError(`${err.message} (run JSON with what was measured: ${out})`)
      : err;
  });
  process.stdout.write(summaryLine(run));
  await writeReport(out, values.report);
  return run.status === 'interrupted' ? 130 : 0;
}

module.exports = { main, help: HELP, settingsOf, OPTIONS, predictLines, summaryLine };
