'use strict';
// The one session every measuring command goes through:
//   environment -> pin the load generator -> run skeleton -> services (HOP=pg/http) ->
//   progress and the one Ctrl-C handler -> the kind's measure step -> status ->
//   the kind's analysis -> save.
// A command (bench/cli/*) is a kind: its flags, its plan (settings, configs or its own
// part of the run JSON), its measure step where it differs from the matrix's, and its
// analysis. The report is written by the command after the session (bench/cli/write-report.js).
const { saveRun } = require('../../lib/run-file');
const { VERSION } = require('../../lib/run-schema');
const { execFileSync } = require('node:child_process');
const { runMatrix, stepsPerBlock } = require('./runner');
const { getDriver } = require('../measure/drivers');
const { captureEnvironment } = require('./environment');
const { createProgress, onInterrupt } = require('./progress');
const { startServices, sinkCounts, redact, projectRelative } = require('../services/services');
const { cpus } = require('../../lib/cpus');

// Pin this process (the load generator, every thread) to its CPU (lib/cpus.js: 0, the
// servers' 1, unless CTXBENCH_CPUS says otherwise).
function pinSelf() {
  const chosen = cpus(); // a bad CTXBENCH_CPUS is one line here, not a silent unpinned run
  if (!chosen) return false; // CTXBENCH_CPUS=none
  const { loadgen } = chosen;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(loadgen), String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// kind, title, command, settings, out: the run JSON's own fields and where it is saved.
// part: the kind's fields of the run JSON before anything is measured ({ configs } for
//   the matrix kinds, { integrity: {...} }, { micro: {...} }).
// pin: pin the load generator apart from the servers (timing kinds).
// services: { need: { pg, http }, pgUrl } — PostgreSQL and the downstream service for the
//   whole session, their URLs handed to the measure step as serverEnv.
// progress: { total, perBlock, step } — the bar, and what Ctrl-C lets finish.
// measure(run, { save, progress, stop, serverEnv, pinned }): fills the run; it may set
//   run.status ('failed'); otherwise the session sets 'complete' or 'interrupted'.
// analyze(run): the kind's results, stored under run[kind] before the last save.
async function session({
  kind,
  schema = VERSION,
  title,
  command,
  settings,
  learned = {},
  out,
  part = {},
  warnings = [],
  environment = captureEnvironment(),
  pin = false,
  services = null,
  progress: bar = {},
  measure,
  analyze = null,
}) {
  // The plan is the command's, frozen (lib/plan.js); what this session learns goes to `learned`.
  if (!Object.isFrozen(settings))
    throw new Error(`ctxbench ${kind}: the plan reached the session unfrozen (lib/plan.js freezePlan)`);
  const record = { ...learned };
  const pinned = Boolean(pin && environment.taskset && pinSelf());
  if (pin) environment.taskset = pinned;
  // Services first: a wrong --pg-url is one line before anything is written or started.
  const started =
    services?.need && Object.values(services.need).some(Boolean)
      ? await startServices({ need: services.need, pgUrl: services.pgUrl ?? null, pinned })
      : null;
  recordServices(record, started);
  // Which method, and why, once the setup is known good and before anything is measured
  // (the run JSON and the report keep it too).
  if (settings.methodWhy)
    process.stderr.write(
      `ctxbench: measuring ${settings.method === 'instructions' ? 'instruction counts' : settings.method}: ` +
        `${settings.methodWhy}\n`,
    );
  const run = {
    schema,
    kind,
    title,
    // Every kind's command line, the project's paths relative to it (bench/services/services.js).
    command: command == null ? command : projectRelative(command),
    status: 'running',
    environment,
    settings,
    learned: record,
    ...part,
    warnings,
  };
  const save = () => saveRun(out, run);
  const progress = createProgress({ total: bar.total ?? 0, perBlock: bar.perBlock ?? null, label: `ctxbench ${kind}` });
  const stop = onInterrupt(progress, bar.step);
  try {
    save();
    // What shares the load CPU with the generator: the services' processes (their CPU
    // counts in the pair's load-CPU rule, bench/measure/pair-windows.js).
    const loadPids = started
      ? ['pg', 'downstream', 'sink', 'redis', 'mysql'].map((k) => started[k]?.pid).filter(Number.isInteger)
      : [];
    await measure(run, { save, progress, stop, serverEnv: started?.env ?? {}, pinned, loadPids });
  } catch (err) {
    // Nothing measured is lost: what the step had written stays, marked failed.
    if (run.status === 'running') run.status = 'failed';
    save();
    throw err;
  } finally {
    progress.stop();
    stop.release();
    // What the agents sent, as their sink decoded it (bench/services/agent-sink.js).
    if (started?.sink) run.agentSink = { pid: started.sink.pid, counts: await sinkCounts(started.sink.url) };
    if (started) await started.stop();
  }
  if (run.status === 'running') run.status = stop.requested ? 'interrupted' : 'complete';
  if (analyze) run[kind] = analyze(run);
  save();
  process.stderr.write(`ctxbench: wrote ${out} (${run.status})\n`);
  return run;
}

// What the run's `learned` keeps of the services started: how PostgreSQL was reached, and
// the server versions the scenarios ran against (the integrity page shows them).
function recordServices(record, started) {
  if (started?.pg) record.postgres = started.pg.embedded ? 'embedded' : redact(started.pg.url);
  if (started?.redis)
    record.redis = { server: `redis-server ${started.redis.version}`, pid: started.redis.pid, dir: started.redis.dir };
  if (started?.mysql)
    record.mysql = { server: `MariaDB ${started.mysql.version}`, pid: started.mysql.pid, dir: started.mysql.dir };
}

// The matrix kinds (run, repro, aa, calibrate, overhead): configs measured in blocks of
// fresh processes by bench/run/runner.js, duet, sequential or under callgrind.
// resume: { fromBlock, counters, part } to go on with a stopped run (bench/run/resume.js):
// part holds its other fields (resumes, profiles, …), kept as they were.
async function measureSession({
  kind,
  title,
  command,
  settings,
  learned = {},
  configs,
  out,
  remote = false,
  warnings = [],
  analyze,
  environment = captureEnvironment(),
  startedAt = Date.now(),
  services = null,
  resume = null,
}) {
  // A remote target is not loaded from this machine's CPUs: nothing is pinned.
  if (remote) environment.taskset = false;
  const perBlock = stepsPerBlock(configs, settings);
  return session({
    kind,
    title,
    command,
    settings,
    learned,
    out,
    part: { ...resume?.part, configs },
    warnings,
    environment,
    pin: !remote,
    services: remote ? null : services,
    progress: { total: perBlock * Math.max(1, settings.blocks - (resume?.fromBlock ?? 0)), perBlock },
    analyze,
    measure: (run, { progress, stop, serverEnv, pinned, loadPids }) =>
      runMatrix(run, {
        out,
        driver: getDriver(settings.driver),
        progress,
        stop,
        pinned,
        startedAt,
        serverEnv,
        resume,
        loadPids,
      }),
  });
}

module.exports = { session, measureSession, pinSelf };
