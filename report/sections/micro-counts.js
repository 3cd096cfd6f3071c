'use strict';
// An instruction-count run's micro page: report/sections/micro.js hands it over.
const f = require('../format');
const { compareCounts } = require('../../analysis/micro');
const { widthSummary } = require('../../analysis');
const { strategyLabel, environmentLine } = require('./micro-tables');

const DASH = f.DASH;

// Instruction counts (`ctxbench micro --method instructions`): one table, a row per
// strategy, a column per scenario: instructions per operation and what it adds to `none`.
// Recomputed from the counts (analysis/micro.js compareCounts), as every section re-judges.
function countsSection(run, ctx) {
  const m = run.micro || {};
  const s = run.settings || {};
  const scenarios = Array.isArray(m.scenarios) ? m.scenarios : [];
  const results = Array.isArray(m.results) ? m.results : [];
  const parts = countsHead(run, ctx, results);
  if (run.command) parts.push(f.fence(run.command, 'sh'));
  const base = results.find((e) => e.strategy === (s.baseline || 'none'));
  const header = [
    'Strategy',
    ...scenarios.map((x) => `${x.key}: instr/${x.ops ? 'op' : 'request'} (+ vs ${f.code(s.baseline || 'none')})`),
  ];
  const body = results.map((e) => {
    const vs = compareCounts(e, base);
    return [
      strategyLabel(e),
      ...scenarios.map((x) => {
        const c = e.scenarios?.[x.key];
        if (!c || typeof c.perOp !== 'number') return e.error ? 'failed' : DASH;
        const added = vs[x.key];
        const plus = added
          ? ` (${Math.round(added.addedPerOp) < 0 ? '−' : '+'}${f.int(Math.abs(added.addedPerOp))})`
          : '';
        return `${f.int(c.perOp)}${plus}${c.settled === false ? ' ⚠' : ''}`;
      }),
    ];
  });
  parts.push(f.table(header, body, ['l', ...scenarios.map(() => 'r')]));
  parts.push(countsNotes(results));
  for (const e of results.filter((x) => x.error)) parts.push(`- ❌ ${f.code(e.strategy)}: ${e.error.message}`);
  return parts.join('\n\n');
}

// The page's title, where it came from, its status and its environment and settings.
function countsHead(run, ctx, results) {
  const s = run.settings || {};
  const parts = [f.heading(2, run.title || 'Micro benchmarks: instructions per operation')];
  const meta = [];
  if (ctx.file) meta.push(`from ${f.code(ctx.file)}`);
  meta.push(`${results.length} strategies, one process each under Valgrind`);
  parts.push(`*${meta.join(' · ')}*`);
  if (ctx.companions?.reproduced === false || ctx.companions?.reproduced === null) {
    parts.push(
      '*A single run: no second run of these counts is committed; the spread shown is between the windows of ' +
        'each process.*',
    );
  }
  if (run.status && run.status !== 'complete')
    parts.push(`> ⚠ **Status: ${run.status}.** Strategies or scenarios missing below were not counted.`);
  if (s.quick) parts.push('> ⚠ **Quick run:** short warm-up, two windows per scenario; a smoke test.');
  parts.push(environmentLine(run));
  parts.push(
    `**Settings:** Valgrind ${s.valgrind ?? '?'} (callgrind), \`node ` +
      `${(s.nodeFlags ?? []).join(' ')}\` · per scenario: the cost of an empty window (the IPC that starts and ` +
      `ends it) measured and taken out; ` +
      `windows of n iterations (n sized to ~3×10⁷ instructions) until the last 6 are within ±2% of their ` +
      `median (at most ${s.maxWarmup ?? '?'}), then ${s.windows ?? '?'} measured windows, their median` +
      (results.some((e) => Object.values(e.scenarios || {}).some((sc) => sc && sc.coldOverhead !== undefined))
        ? ' (the empty window and n taken again once warm)'
        : '') +
      ` ` +
      `· baseline ${f.code(s.baseline || 'none')}`,
  );
  return parts;
}

// What a count is and is not, and how much its windows spread.
function countsNotes(results) {
const spreads = widthSummary(results.flatMap((e) => Object.values(e.scenarios || {}).map((c) => c?.spreadPct)));
const notes = [
  'Instructions executed per operation (`sync`, `async`: per read or hop of a batch of 100; `run`, ' +
    '`current`: per call of a batch of 1,000; ' +
    'the others per request of the scenario), median of the measured windows; in brackets what the strategy ' +
    "adds to the baseline's count in its own process. " +
    "A count is work, not time: it does not see cache misses, memory stalls or the garbage collector's " +
    'pauses being longer or shorter, which the timed micro table does.',
];
if (spreads)
  notes.push(
    `Spread (half the interquartile range of a scenario's windows; a window with a garbage collection or a ` +
      `compilation reads higher): median ±${f.num(spreads.median)}%, largest ±${f.num(spreads.worst)}%.`,
  );
notes.push(
  'Compare counts with counts, not with the timed micro table: set beside it, the first committed counts ' +
    'implied more instructions per ' +
    "nanosecond than the CPU can retire, so V8's code under Valgrind (single-threaded, on the CPU Valgrind " +
    'presents) is not the code that was timed — ' +
    'not yet explained (docs/investigations.md, "Micro counts against micro time").',
);
if (results.some((e) => Object.values(e.scenarios || {}).some((c) => c?.settled === false)))
  notes.push(
    '⚠: the count was still changing at the end of the warm-up (V8 still compiling); read it as that ' +
      "process's count, not a steady one.",
  );
  return notes.join(' ');
}

module.exports = { countsSection };
