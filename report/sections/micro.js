'use strict';
// results.md section for one `kind: "micro"` JSON (bench/cli/micro.js, docs/micro.md):
// a table per scenario (one value per process, compared with `none` paired by round), the
// study's targets per strategy, and the study's own figures, clearly labelled as not ours.
// The tables are report/sections/micro-tables.js, the reference micro-reference.js, an
// instruction-count run's page micro-counts.js.
const f = require('../format');
const { RESOLUTION_FACTOR, aggregate, scenariosOf } = require('../../analysis/micro');
const { BROKEN } = require('../verdict-text');
const { REFERENCE, referenceBlock } = require('./micro-reference');
const { countsSection } = require('./micro-counts');
const {
  environmentLine,
  settingsLine,
  scenarioTable,
  precisionLine,
  targetsTable,
  strategyLabel,
  targetCell,
} = require('./micro-tables');

const isNum = f.isNum;

function byTarget(results) {
  const groups = new Map();
  for (const e of results) {
    if (!groups.has(e.target)) groups.set(e.target, []);
    groups.get(e.target).push(e);
  }
  return groups;
}

// The entries with their figures and verdicts recomputed from their raw rounds, so a
// JSON written under earlier rules is judged by the current ones (analysis/micro.js).
function reanalysed(results, scenarios) {
  const copies = results.map((e) => structuredClone(e));
  for (const e of copies) {
    if (!Array.isArray(e.rounds) || e.rounds.length === 0) continue;
    const base = copies.find((b) => b.target === e.target && b.strategy === 'none') || null;
    aggregate(e, base, scenarios);
  }
  return copies;
}

// render(run, ctx) -> markdown for one micro run JSON. ctx.file: where it was read from.
function render(run, ctx = {}) {
  if (run.settings?.method === 'instructions') return countsSection(run, ctx);
  const m = run.micro || {};
  // Runs that do not list their scenarios were measured with today's set.
  const scenarios = scenariosOf(run);
  const results = reanalysed(Array.isArray(m.results) ? m.results : [], scenarios);
  const parts = [...headParts(run, ctx, results), HOW_TO_READ];
  if (results.length === 0) {
    parts.push('No strategy was measured.');
  }
  parts.push(...targetParts(results, scenarios, m));
  parts.push(...failedParts(results), ...warningParts(run), referenceBlock());
  return parts.join('\n\n') + '\n';
}

// The title, where it came from, its status, environment and settings.
function headParts(run, ctx, results) {
  const m = run.micro || {};
  const parts = [f.heading(2, run.title || 'Micro benchmarks of context operations')];

  const meta = [];
  if (ctx.file) meta.push(`from ${f.code(ctx.file)}`);
  meta.push(`${new Set(results.map((e) => e.strategy)).size} strategies`);
  const targets = [...byTarget(results).keys()];
  if (targets.length) meta.push(`node target${targets.length === 1 ? '' : 's'} ${targets.join(', ')}`);
  parts.push(`*${meta.join(' · ')}*`);
  if (run.status && run.status !== 'complete') {
    const done = isNum(m.roundsDone) && isNum(m.rounds) ? ` ${m.roundsDone} of ${m.rounds} rounds finished;` : '';
    parts.push(
      `> ⚠ **Status: ${run.status}.** ` +
        `${run.status === 'running' ? 'The run was still in progress' : 'The run stopped early'}:${done} ` +
        'the figures below use the rounds that finished, and strategies missing below were not measured.',
    );
  }
  if (run.settings && run.settings.quick)
    parts.push(
      '> ⚠ **Quick run:** a few rounds of tens of milliseconds per scenario; a smoke test, not a measurement.',
    );
  parts.push(environmentLine(run));
  parts.push(settingsLine(run));
  if (run.command) parts.push(f.fence(run.command, 'sh'));
  return parts;
}

const HOW_TO_READ = [
'**How to read:** every round runs each strategy once, in a fresh process, in an order that rotates ' +
  'from round to round; ' +
  'in each process tinybench times each scenario, one sample per iteration (a 100-read batch for sync, ' +
  'a 100-hop batch for async, ' +
  'one request for nested and real-world, one call for run() and current() alone). Each process gives ' +
  'one value per scenario: its mean. ' +
  "*mean*, *p99* and *rme* (tinybench's 95% margin of error of a process's mean, in % of it) are " +
  'medians over the rounds; *ops/s* = 1 / mean. ' +
  "*vs none* is the ratio of the strategy's time to `none`'s in the same round, averaged over the " +
  'rounds on the log scale, minus one ' +
  '(+25% = a quarter slower than no context at all), with its 95% interval from the paired per-round ' +
  'log ratios (t with rounds − 1 degrees of freedom); ' +
  "*rounds* is how many rounds are paired; *CI ±* is the interval's half-width. The verdict is that " +
  'paired test (α = 0.05): ' +
  "differences between processes (JIT, memory layout, the machine's state) are part of its noise, so " +
  '"no significant difference" ' +
  'is printed rather than an ordering the rounds do not support. ' +
  '*context reads*: every scenario checks each value it reads, in every round; a strategy that loses or ' +
  'leaks the context shows wrong reads here ' +
  'and its timing must not be taken as a cost: it gets no verdict. ' +
  `A sample shorter than ${RESOLUTION_FACTOR} of the timer's resolutions (the median delta of two ` +
  `back-to-back clock reads, measured in each process) ` +
  "is mostly the clock's own cost: such a scenario gets no ratio, only the warning.",
].join('');

// Per node target: a table per scenario, the achieved precision and the study's targets.
function targetParts(results, scenarios, m) {
  const parts = [];
  const groups = byTarget(results);
  for (const [label, entries] of groups) {
    const nodeInfo = entries.find((e) => e.node);
    const acf = nodeInfo
      ? nodeInfo.acf
        ? 'AsyncContextFrame active'
        : 'AsyncContextFrame not active (async_hooks ALS)'
      : '';
    parts.push(f.heading(3, `Results on ${label}${nodeInfo ? ` (${nodeInfo.node}, ${acf})` : ''}`));
    for (const sc of scenarios) {
      if (!entries.some((e) => e.scenarios && e.scenarios[sc.key])) continue;
      parts.push(`#### ${sc.title}\n\n${scenarioTable(sc.key, entries, m.baseline || 'none')}`);
    }
    const precision = precisionLine(entries, scenarios, m.baseline || 'none');
    if (precision) parts.push(precision);
    parts.push(targetsBlock(label, entries));
    const leaking = leakingLines(entries);
    if (leaking) parts.push(leaking);
  }
  return parts;
}

function targetsBlock(label, entries) {
  return [
    f.heading(4, `Targets of the study, per strategy (${label})`),
    '',
    targetsTable(entries),
    '',
    '✅ PASS: the whole 95% interval is within the target; ❌ FAIL: the whole interval is beyond it; ' +
      '❔ INCONCLUSIVE: the interval straddles the target, or there is none (fewer than two paired ' +
      'rounds): rerun with more `--rounds`. ' +
      `⛔ ${BROKEN}: the strategy read a wrong or missing context in that target's scenario, so its time ` +
      `there is not the cost of ` +
      'propagating a context, and no PASS or FAIL is given. ' +
      "The P99 target is judged on the median over the rounds of each process's p99, which has no interval. " +
      "Per-operation overhead is the study's definition: the extra mean time of one 100-operation batch " +
      'over `none`, divided by 100, ' +
      'for the sync and the async scenarios (both must pass). "Every read correct" is ours: a strategy ' +
      'that returned the wrong context fails it.',
  ].join('\n');
}

// The strategies that read a wrong context: their timings are not a working propagation's.
function leakingLines(entries) {
  const leaking = entries.filter((e) => e.targets && e.targets.correct && e.targets.correct.status === 'FAIL');
  if (!leaking.length) return null;
  return leaking
    .map((e) => {
      const where = Object.entries(e.scenarios || {})
        .filter(([, s]) => s && s.failures)
        .map(([k, s]) => `${k} ${f.int(s.failures)}/${f.int(s.reads)}`);
      return (
        `- ⚠ ${strategyLabel(e)} read the wrong context (${where.join(', ')}, over all rounds): its ` +
        `timings in those scenarios do not measure a working propagation.`
      );
    })
    .join('\n');
}

function failedParts(results) {
  const failed = results.filter((e) => e.error);
  if (!failed.length) return [];
  return [
    [
      f.heading(3, 'Failed processes'),
      '',
      ...failed.map(
        (e) =>
          `- ${f.code(e.strategy)} on ${e.target}: ${f.cell(e.error.message)}` +
          (e.error.stderrTail ? `\n\n${f.fence(e.error.stderrTail)}` : ''),
      ),
    ].join('\n'),
  ];
}

function warningParts(run) {
  if (!(Array.isArray(run.warnings) && run.warnings.length)) return [];
  return [
    [f.heading(3, 'Warnings'), '', ...run.warnings.map((w) => `- ⚠ ${String(w).replace(/\n/g, ' ')}`)].join('\n'),
  ];
}

module.exports = { render, targetCell, REFERENCE };
