'use strict';
// The one way a run of the matrix is measured (`run`, `repro`, `deploy`): a resolved plan
// into a run JSON, or a stopped run JSON measured on (--resume). Flags stop at the
// command (bench/cli/run-plan.js); this gets the plan and named options only.
const { PRESETS } = require('../../lib/presets');
const { freezePlan } = require('../../lib/plan');
const { UsageError } = require('../../lib/cli');
const { cpus } = require('../../lib/cpus');
const { expandConfigs, remoteConfigs } = require('./matrix');
const { measureSession } = require('./session');
const { rateConfigs } = require('../rates/capacity');
const { resolveNodeTargets } = require('./targets');
const { captureEnvironment } = require('./environment');
const { needsOf } = require('../services/services');
const { standInLayout } = require('../processes/cgroup');
const { profileRun } = require('../probes/profile');
const { loadForResume, relaunch, joinNewConfigs, restAllBut } = require('./resume');
const { heldOutPlan } = require('./held-out');
const { pointName } = require('../../analysis/model');

// HOP=pg / mysql / redis / http: PostgreSQL, MariaDB, Redis and the downstream service
// for the whole run (and for the capacity probe before it); the sink when a strategy sends
// to one (an APM agent, an OTLP row).
function servicesOf(configs, pgUrl) {
  return {
    need: needsOf(
      configs.map((c) => c.hop),
      configs.map((c) => c.strategy),
    ),
    pgUrl,
  };
}

// One measured run of the matrix `settings` describes, saved to `out` as it goes: local
// (Node targets, rate mode's capacity and rates, PostgreSQL and the downstream service for
// HOP=pg/http, --profile) or remote (--target). The one way `run` and `repro` measure.
async function measureRun({ settings, options, out, command, title = settings.title, startedAt = Date.now() }) {
  const { remoteDepths = null, pgUrl = null, profile = false } = options;
  const targets = settings.targets ?? [];
  const environment = captureEnvironment();
  const warnings = [];
  let configs;
  if (targets.length) {
    configs = remoteConfigs(targets, remoteDepths);
  } else {
    // Bad input is one line before anything slow or printed: a bad CTXBENCH_CPUS (where the
    // session would pin) and stand-ins where no cgroup can be made (their layout found and
    // groups left by a killed run removed) are refused before a Node of another major is
    // resolved, which on a machine's first run installs it and says so in a line of its own.
    if (environment.taskset) cpus();
    if (settings.instance) standInLayout();
    const { targets: resolved, warnings: targetWarnings } = await resolveNodeTargets(settings.node, settings.acf);
    warnings.push(...targetWarnings);
    // A preset may name the runtimes it needs among those its majors and --acf give.
    const nodeTargets = settings.runtimes ? resolved.filter((t) => settings.runtimes.includes(t.label)) : resolved;
    configs = expandConfigs(settings, nodeTargets);
  }
  const services = servicesOf(configs, pgUrl);
  const rated = await rateConfigs(configs, settings, {
    remote: targets.length > 0,
    taskset: environment.taskset,
    services,
  });
  const learned = rated.capacity ? { capacity: rated.capacity } : {};

  const run = await measureSession({
    kind: 'run',
    title,
    command,
    settings,
    learned,
    configs: rated.configs,
    out,
    remote: targets.length > 0,
    warnings,
    environment,
    services,
    startedAt,
  });
  if (profile && run.status !== 'interrupted' && !targets.length) await profileRun(run, out, settings, services);
  return run;
}

// A held-out resume (issue 61): the pairs whose word the page's projection says is decided
// by `toBlocks`, their points and an A/A point measured from `fromBlock` on, every other
// configuration resting (bench/run/held-out.js, bench/run/resume.js). Mutates run.configs ->
// { record (for resumes[]), line (stderr) }; one line when nothing can be decided.
function restForHeldOut(run, file, toBlocks, fromBlock) {
  let plan;
  try {
    plan = heldOutPlan(run, toBlocks);
  } catch (err) {
    throw new UsageError(`${file}: --held-out: ${err.message}`);
  }
  if (!plan.pairs.length)
    throw new UsageError(
      `${file}: --held-out: no strategy's word is projected to be decided by ${toBlocks} blocks ` +
        `(${plan.left.map((l) => `${l.strategy} on ${l.runtime}: ${l.why}`).join('; ')})`,
    );
  for (const t of plan.twins) t.joinedBlock = fromBlock;
  run.configs.push(...plan.twins);
  const rested = restAllBut(run, plan.keep, fromBlock);
  const named = plan.pairs.map((p) => `${p.strategy} on ${p.runtime} (${p.toward} by ${p.projected})`);
  return {
    record: {
      pairs: plan.pairs.map(({ runtime, strategy, projected, toward }) => ({ runtime, strategy, projected, toward })),
      measured: plan.keep.size,
      rested: rested.length,
      ...(plan.twins.length && { added: plan.twins.map((c) => c.id) }),
    },
    line:
      `ctxbench: held-out resume: ${named.join(', ')}, with their fitted points and an A/A point: ` +
      `${plan.keep.size} configuration(s) measured from block ${fromBlock + 1} on, ${rested.length} resting\n`,
  };
}

// What the run had that the session does not write anew; everything else (profiles, earlier
// resumes, …) stays.
const OWN = [
  'schema',
  'kind',
  'title',
  'command',
  'status',
  'environment',
  'settings',
  'learned',
  'warnings',
  'configs',
  'measuringSeconds',
];

// A preset that lists its configurations and has gained some since the run began: the new
// ones are measured from this block on (bench/run/resume.js joinNewConfigs). -> { settings, added }.
function resumedPlan(old, kept, nodeTargets, fromBlock, heldOut) {
  const preset = !kept.quick && Object.hasOwn(PRESETS, kept.preset) ? PRESETS[kept.preset] : null;
  // A held-out resume measures what can decide a word, nothing the preset gained since.
  const added = preset?.configs && !heldOut
    ? joinNewConfigs(old, expandConfigs({ ...kept, configs: preset.configs }, nodeTargets), fromBlock)
    : [];
  return { settings: freezePlan(added.length ? { ...kept, configs: preset.configs } : kept), added };
}

// This sitting's entry in the run's resumes[], with the machine it ran on: a fit's blocks
// are in the µs of the CPU they ran on.
function sittingRecord({ commandLine, resume, status, extend, added, heldOut, heldOutS }) {
  const now = captureEnvironment();
  return {
    at: now.date,
    command: commandLine,
    fromBlock: resume.fromBlock,
    droppedSamples: resume.dropped.samples,
    measuredBeforeS: Math.round(resume.measuredSeconds),
    status,
    commit: now.commit,
    dirty: now.dirty,
    node: now.node,
    machine: { cpuModel: now.cpuModel, cores: now.cores, kernel: now.kernel },
    ...(extend.blocks !== undefined && { blocks: extend.blocks }),
    ...(extend.maxTime !== undefined && { maxTime: extend.maxTime }),
    ...(added.length && { added: added.map((c) => c.id) }),
    ...(heldOut && { heldOut: { budgetS: heldOutS, ...heldOut.record } }),
  };
}

function announceResume({ file, status, resume, heldOut, added, settings }) {
  process.stderr.write(
    `ctxbench: resuming ${file} (${status}): ${resume.fromBlock} complete block(s) kept, ` +
      `${resume.dropped.samples} sample(s) of an unfinished block dropped\n`,
  );
  if (heldOut) process.stderr.write(heldOut.line);
  if (added.length)
    process.stderr.write(
      `ctxbench: the ${settings.preset} preset has ${added.length} configuration(s) this run has not ` +
        `(${[...new Set(added.map(pointName))].join(', ')}): measured from block ${resume.fromBlock + 1} on\n`,
    );
}

// The stopped run at `file` goes on, with its own settings, configurations and deadline,
// into `file` (bench/run/resume.js says what is kept). extend: { blocks, maxTime } to go on to
// (each undefined to keep the run's); heldOutS: a model study's held-out budget, or
// undefined; commandLine: this sitting's command, as recorded in resumes[].
async function resumeRun({ file, extend: asked, heldOutS, commandLine }) {
  const extend = { ...asked };
  let loaded;
  try {
    loaded = loadForResume(file, { extendTo: extend.blocks });
  } catch (err) {
    throw new UsageError(err.message.split('\n')[0]);
  }
  const { run: old, resume } = loaded;
  const { title, command, status, environment, warnings, configs } = old;
  if (heldOutS !== undefined) extend.maxTime = Math.ceil(resume.measuredSeconds + heldOutS);
  const kept = {
    ...old.settings,
    ...(extend.blocks !== undefined && { blocks: extend.blocks }),
    ...(extend.maxTime !== undefined && { maxTime: extend.maxTime }),
  };
  // Before the runtimes are resolved: its refusals are one line, and its A/A twins relaunch too.
  const heldOut = heldOutS === undefined ? null : restForHeldOut(old, file, extend.blocks, resume.fromBlock);
  const { targets: resolved } = await resolveNodeTargets(kept.node, kept.acf);
  const nodeTargets = kept.runtimes ? resolved.filter((t) => kept.runtimes.includes(t.label)) : resolved;
  try {
    relaunch(configs, nodeTargets, file);
  } catch (err) {
    throw new UsageError(err.message);
  }
  const { settings, added } = resumedPlan(old, kept, nodeTargets, resume.fromBlock, heldOut);
  const rest = Object.fromEntries(Object.entries(old).filter(([k]) => !OWN.includes(k)));
  const record = sittingRecord({ commandLine, resume, status, extend, added, heldOut, heldOutS });
  const part = { ...rest, resumes: [...(rest.resumes || []), record] };
  announceResume({ file, status, resume, heldOut, added, settings });
  return measureSession({
    kind: 'run',
    title,
    command,
    settings,
    learned: old.learned ?? {},
    configs,
    out: file,
    warnings: warnings || [],
    environment,
    services: servicesOf(configs, null),
    startedAt: Date.now() - resume.measuredSeconds * 1000,
    // A held-out resume's own time is a budget before its blocks (bench/run/stopping.js).
    resume: { ...resume, part, ...(heldOut && { budgetS: extend.maxTime }) },
  });
}

module.exports = { measureRun, resumeRun };
