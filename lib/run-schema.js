'use strict';
// The run JSON's shape, declared once as JSON Schema (checked by Ajv): every file a command
// saves is checked before it is written, and every file a command reads (report, compare,
// repro, run --resume) is migrated from the version that wrote it, then checked. A file
// that does not match is refused in one line naming the file and the field.
// The declarations are lib/run-kinds.js's (the top level, each kind), lib/run-config.js's and
// lib/run-fields.js's; docs/run-json.md is generated whole from them (scripts/docs-run-json.js;
// test/run-schema.test.js fails when it is stale). Every object whose shape is known is
// closed: a field it does not declare is refused.
const { LEARNED_BEFORE } = require('./plan');
const { VERSION, VERSIONS, ABOUT, CONTRACT, KINDS, PLAN, LEARNED } = require('./run-kinds');

// Compiled on first use, each kind when first checked: a command refused for bad input, and
// most commands, never check a run, and compiling every kind cost each start ~0.1 s of CPU.
let ajv = null;
const compiled = new Map();
function validatorOf(kind) {
  if (!compiled.has(kind)) {
    ajv ??= new (require('ajv'))({ allErrors: false, strict: false });
    const { properties, required } = KINDS[kind];
    compiled.set(kind, ajv.compile({ type: 'object', properties, required, additionalProperties: false }));
  }
  return compiled.get(kind);
}

// A saved ratio without its sentence: a summary's ratios, and the ratio of an app's answer,
// an overhead run's and the A/A trials' overall one (copies of a summary's ratio).
const RATIO_KEYS = ['ratio', 'cpuRatio', 'sharedRatio'];
const ANSWERS = [
  ['app', 'ratio'],
  ['overhead', 'ratio'],
  ['aa', 'overall'],
];
const withoutVerdict = (r) =>
  r && Object.hasOwn(r, 'verdict') ? Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'verdict')) : r;
const summaryWithout = (s) =>
  s && { ...s, ...Object.fromEntries(RATIO_KEYS.filter((k) => s[k]).map((k) => [k, withoutVerdict(s[k])])) };
function withoutVerdicts(run) {
  const answers = ANSWERS.filter(([kind, key]) => run[kind]?.[key]).map(([kind, key]) => [
    kind,
    { ...run[kind], [key]: withoutVerdict(run[kind][key]) },
  ]);
  return {
    ...run,
    ...(Array.isArray(run.configs) && {
      configs: run.configs.map((c) => (c?.summary ? { ...c, summary: summaryWithout(c.summary) } : c)),
    }),
    ...Object.fromEntries(answers),
  };
}

// Older files ctxbench wrote become today's shape; the file on disk is not changed.
// 1 and 2 → 3: what measuring learned moves out of the plan into `learned`.
// → 4: a measured run's plan names its method and baseline (before, readers took a
// missing method for sequential and a missing baseline for none; now only this does), and
// a ratio's saved verdict sentence is dropped, so no reader can use it (the report words the
// judgement; judgementOf rebuilds one from the figures of a ratio saved before judgements).
// MIGRATION says so on docs/run-json.md.
const MIGRATION =
  'Files of earlier versions are migrated on read (`migrate`), never refused, and the file on disk is not ' +
  `changed: from versions 1 and 2, what measuring learned (${LEARNED_BEFORE.map((k) => `\`${k}\``).join(', ')}) ` +
  'moves out of `settings` into `learned`; a measured run (run, aa, calibrate, overhead, app) whose plan has no ' +
  '`method` reads as sequential, and one without `baseline` as compared with `none`; the verdict sentence a ratio ' +
  'saved before version 4 (`verdict`, beside its judgement) is dropped, and readers word the judgement ' +
  "(report/verdict-text.js; one is rebuilt from the figures of a ratio saved before judgements). A repro's runs " +
  'are migrated with it.';
const PLANS_MEASURED = new Set(['run', 'aa', 'calibrate', 'overhead', 'app']);
function migrate(run) {
  if (run?.kind === 'repro' && Array.isArray(run.runs)) return { ...run, runs: run.runs.map(migrate) };
  if (!run || typeof run !== 'object') return run;
  // A measured run without a plan (a hand-made one) reads as the oldest files do.
  if (!run.settings && !PLANS_MEASURED.has(run.kind)) return run;
  let out = withoutVerdicts(run);
  if (!run.learned) {
    const plan = run.settings ?? {};
    const learned = Object.fromEntries(LEARNED_BEFORE.filter((k) => Object.hasOwn(plan, k)).map((k) => [k, plan[k]]));
    const settings = Object.fromEntries(Object.entries(plan).filter(([k]) => !LEARNED_BEFORE.includes(k)));
    out = { ...out, settings, learned };
  }
  if (PLANS_MEASURED.has(run.kind) && !(out.settings.method && out.settings.baseline)) {
    out = { ...out, settings: { method: 'sequential', baseline: 'none', ...out.settings } };
  }
  return out;
}

// What checkRun does, as docs/run-json.md says it.
const CHECKING =
  '`kind` names what wrote the file, and so which declaration below it follows; `schema` is the version of the ' +
  'format that wrote it. Every file is checked against these declarations when a command saves it and when one ' +
  'reads it (`report`, `compare`, `repro`, `run --resume`); a file that does not match is refused in one line ' +
  'naming the file and the field. Every object declared with its fields is closed: a field it does not declare ' +
  '(a misspelt one with it) is refused. Objects whose shape varies by method or tool are open: their meaning says ' +
  'where they are written, and a field of theirs with no type (—) is described, not checked.';

// The one line that names what is wrong: file, field (as a JSON path) and what it should be.
function problem(file, err) {
  const where = err.instancePath ? err.instancePath.slice(1).replace(/\//g, '.') : 'the top level';
  const what =
    err.keyword === 'required'
      ? `has no "${err.params.missingProperty}"`
      : err.keyword === 'additionalProperties'
        ? `has a field "${err.params.additionalProperty}" that is not declared (misspelt, or a writer's bug)`
        : err.message;
  return `${file}: not a ctxbench result as docs/run-json.md declares it: ${where} ${what}`;
}

// -> the run (migrated) or throws one line. kinds: the kinds the reader accepts; unknown:
// let a kind not declared here through as it is (the report's generic section).
function checkRun(run, { file = 'run JSON', kinds = null, unknown = false } = {}) {
  if (!run || typeof run !== 'object' || Array.isArray(run))
    throw new Error(`${file}: not a ctxbench result (not an object; see docs/run-json.md)`);
  if (typeof run.kind !== 'string' || !run.kind)
    throw new Error(`${file}: not a ctxbench result (no "kind" field; see docs/run-json.md)`);
  // The report renders a kind it does not know as a generic section; the other readers refuse it.
  if (!Object.hasOwn(KINDS, run.kind)) {
    if (unknown) return run;
    throw new Error(
      `${file}: not a ctxbench result: kind ${JSON.stringify(run.kind)} is not one of ${Object.keys(KINDS).join(', ')}`,
    );
  }
  if (kinds && !kinds.includes(run.kind))
    throw new Error(`${file}: a ${run.kind} run, not ${kinds.map((k) => `a \`ctxbench ${k}\``).join(' or ')}`);
  const migrated = migrate(run);
  const validate = validatorOf(run.kind);
  if (!validate(migrated)) throw new Error(problem(file, validate.errors[0]));
  if (run.kind === 'repro') {
    const validateRun = validatorOf('run');
    for (const [i, r] of (migrated.runs || []).entries()) {
      if (r && !validateRun(r)) throw new Error(problem(`${file} (runs.${i})`, validateRun.errors[0]));
    }
  }
  return migrated;
}

module.exports = { VERSION, VERSIONS, ABOUT, CONTRACT, CHECKING, MIGRATION, KINDS, PLAN, LEARNED, migrate, checkRun };
