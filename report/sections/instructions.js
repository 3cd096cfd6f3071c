'use strict';
// Section for instruction-count runs (`ctxbench run --method instructions`): per
// configuration its instructions per request and their spread between processes, the
// ratio to the baseline with the range of its window ratios, and, beside it, the CPU-time
// ratio of the default run (duet) for the same configuration, flagged where the two
// disagree beyond their intervals.
const f = require('../format');
const { ratioVerdictText } = require('../verdict-text');
const { armOf } = require('../../analysis/comparable');
const { sortConfigs, environmentSection, settingsSection } = require('./run');
const { summaryOf, instructionWarmup, againstTime } = require('../../analysis');

const isInstructionRun = (run) => run?.settings?.method === 'instructions';

// Two decimals: the figure repeats to about 0.1%.
const pct2 = (r) => f.pctOf(r, 2);

function warmupLine(run) {
  const w = instructionWarmup(run);
  if (!w) return '';
  return (
    `- **Warm-up:** windows of the same size as the measured ones until the last 6 were within ±2% of their ` +
    `median (at most 40 windows of 1,000 requests, 16 of fewer): ${w.windows.min}–${w.windows.max} windows ` +
    `per process (median ${w.windows.median}; ${f.int(w.requestsPerWindow)} requests per window at the ` +
    `median). ` +
    (w.unsettled.length
      ? `⚠ Not steady at the limit for ` +
        w.unsettled
          .map(({ config, block }) => `${f.code(config.strategy)} d${config.depth} (block ${block + 1})`)
          .join(', ') +
        `: ` +
        `V8 was still compiling there, so those counts are comparable only at the same request index (the same ` +
        `schedule in every process of the run, and in another run of the same preset)` +
        (f.isNum(run.settings?.unsettledWindows) && run.settings.unsettledWindows !== run.settings.windows
          ? `, and each was measured over ` +
            `${w.heldToBound.length ? 'at least ' : ''}${run.settings.unsettledWindows} windows instead of ` +
            `${run.settings.windows}, so that a count that alternates from window to window is read over many ` +
            `periods`
          : '') +
        `.` +
        (w.heldToBound.length
          ? ` Those compared with their baseline on their mean (they warmed up longer than it did) went on ` +
            `until one window more or less would move the mean by at most ${run.settings.unsettledBound}%: ` +
            w.heldToBound
              .map(
                ({ config, block, windows, stepPct }) =>
                  `${f.code(config.strategy)} d${config.depth} (block ${block + 1}) ${windows} windows, ` +
                  `${stepPct.toFixed(2)}%` +
                  (stepPct > run.settings.unsettledBound ? ' ⚠ at the cap' : ''),
              )
              .join(', ') +
            `.`
          : '')
      : 'Every process settled.')
  );
}

// The section's heading, what it is and where it ran: everything above the results.
function headerParts(run, ctx, rows) {
  const s = run.settings || {};
  const configs = run.configs || [];
  const parts = [f.heading(2, run.title || 'Instruction counts')];
  const meta = [];
  if (ctx.file) meta.push(`from ${f.code(ctx.file)}`);
  const processes = Math.max(0, ...rows.map((r) => r.summary.instructions?.processes ?? 0));
  meta.push(
    `${configs.length} configurations`,
    `${processes} process${processes === 1 ? '' : 'es'} each under Valgrind`,
  );
  parts.push(`*${meta.join(' · ')}*`);
  if (s.why) parts.push(`**What this run is:** ${s.why}.`);
  if (s.preset && ctx.companions?.reproduced === false && !ctx.file?.includes('repro')) {
    parts.push(
      `*A single run: no second run of this preset is committed; the spread shown is between the processes of ` +
        `this run.*`,
    );
  }
  if (run.status && run.status !== 'complete')
    parts.push(`> ⚠ **Status: ${run.status}.** Configurations may have fewer processes or windows than planned.`);
  parts.push(environmentSection(run));
  if (s.valgrind)
    parts.push(
      `- **Valgrind:** ${s.valgrind}, \`--tool=callgrind --smc-check=all-non-file\`; servers started with ` +
        `\`node ${(s.nodeFlags ?? ['--single-threaded']).join(' ')}\``,
    );
  if (run.command) parts.push([f.heading(3, 'Command'), '', f.fence(run.command, 'sh')].join('\n'));
  // The timed methods' burst settings mean nothing here; the warm-up has its own line.
  const settings = settingsSection({
    ...run,
    configs: [],
    settings: { ...s, warmup: undefined, duration: undefined, rounds: undefined, minPerConnection: undefined },
  });
  if (settings) parts.push(settings);
  return parts;
}

function resultsHeader(base, twin) {
  const header = [
    'Strategy',
    'Depth',
    'instructions/req',
    'between processes',
    `% of ${base}: instructions/req [window range]`,
    'Verdict',
  ];
  if (twin) header.push(`% of ${base}: CPU/req in duet [95% CI]`, 'same story?');
  header.push('Mismatches', 'Lost');
  return header;
}

// One configuration's row: its count, the ratio to the baseline, the duet run's figure
// beside it (with a twin) and the ids it lost.
function resultRow({ config: c, summary: sum }, { baseline, twin, compared }, index) {
  const isBase = armOf(c) === baseline;
  const i = sum.instructions;
  const r = sum.ratio;
  const cells = [
    f.code(c.strategy) + (c.userSupplied ? ' (user-supplied)' : ''),
    c.depth,
    i ? f.int(i.median) : 'not measured',
    i ? (i.processes > 1 ? `±${(i.spreadPct / 2).toFixed(2)}% (${i.processes})` : '1 process') : f.DASH,
    isBase ? 'baseline' : r && f.isNum(r.estimate) ? f.withCi(r.estimate, r.range, pct2) : f.DASH,
    isBase ? '' : (ratioVerdictText(r, sum) ?? (c.error ? `failed: ${c.error.message.split('\n')[0]}` : '')),
  ];
  if (twin) {
    const { timed: t, agree } = compared[index];
    if (isBase) cells.push('baseline', '');
    else if (agree === null)
      cells.push(t && f.isNum(t.estimate) ? f.withCi(t.estimate, t.ci95, f.pctOf) : f.DASH, f.DASH);
    else cells.push(f.withCi(t.estimate, t.ci95, f.pctOf), agree ? 'yes' : '⚠ no');
  }
  const leak = (n) =>
    c.strategy === 'none'
      ? 'n/a'
      : f.isNum(n)
        ? n === 0
          ? '0'
          : `${c.strategy === 'global' ? '⚠' : '❌'} ${f.int(n)}`
        : f.DASH;
  cells.push(leak(sum.mismatches), leak(sum.lost));
  return cells;
}

// What the columns mean, under the table.
function resultsLegend(base, twin, ctx) {
  return (
    `*instructions/req* is what one request executed (callgrind's Ir: every guest instruction of the server ` +
      `process, JIT-compiled code, garbage collection and the kernel-call wrappers; not the kernel itself), the ` +
      `median over processes of each process's measured windows; *between processes* is half the range of those ` +
      `processes' figures. ` +
      `*% of ${base}* is the baseline's instructions per request ÷ this one's (read like throughput: 95% = ` +
      `executes about 5% more), window by window at the same request index in the same block, log ratios ` +
      `averaged per block; the bracket is the **range** of the window ratios, not a confidence interval: the ` +
      `count repeats from process to process within about 0.15%, so where the range is narrow there is ` +
      `nothing left for an interval to say. ` +
      "An instruction count sees work, not time: cache misses, memory stalls and the kernel's side of system " +
      'calls are not in it, so it is the figure for a CI gate and for effects of 1–2%, and the CPU-time ' +
      'figure is the one a user feels.' +
      (twin
        ? ` *CPU/req in duet* is the default run's ` +
          `(${f.code(ctx.relativeChartPath ? ctx.relativeChartPath(twin.file) : twin.file)}): "same story?" = ` +
          `the window range and that interval overlap.`
        : '')
  );
}

// The notes under the table: the warm-up, where the count and CPU time disagree, and
// which strategies warmed up apart from their baseline or broke the ids.
function notesOf(run, rows, disagreements) {
  const notes = [warmupLine(run)];
  if (disagreements.length) {
    notes.push(
      `- **Instructions and CPU time differ** for ` +
        disagreements
          .map(
            ({ config: c, timed: t }) =>
              `${f.code(c.strategy)} d${c.depth} ` +
              `(${pct2(rows.find((x) => x.config === c).summary.ratio.estimate)} by instructions, ` +
              `${f.pctOf(t.estimate)} by CPU time)`,
          )
          .join(', ') +
        `. ` +
        'The two measure different things: CPU time includes what the count cannot see (cache misses and ' +
        "memory stalls per instruction, the kernel's side of system calls), and the count was taken with " +
        "--single-threaded, where garbage collection and compilation run on the main thread instead of V8's " +
        'helper threads. docs/investigations.md "Instructions against CPU time" has the cases found.',
    );
  }
  const apart = rows.filter((r) => r.summary.ratio && r.summary.ratio.sameSchedule === false);
  if (apart.length) {
    notes.push(
      `- **Warmed up for a different number of windows than its baseline** (one of the two settled earlier): ` +
        `${apart.map((r) => `${f.code(r.config.strategy)} d${r.config.depth}`).join(', ')}. ` +
        "Their windows are not at the same request indices, so the two processes' means are compared and the " +
        'bracket spans every pair of their windows; where either count was still changing, that bracket is ' +
        'wide and says so.',
    );
  }
  const broken = rows.filter((r) => r.summary.broken);
  if (broken.length)
    notes.push(
      `- ❌ ${broken.map((r) => f.code(r.config.strategy)).join(', ')} lost or mixed up ids: no cost verdict.`,
    );
  return notes.filter(Boolean).join('\n');
}

function render(run, ctx = {}) {
  const s = run.settings || {};
  const baseline = s.baseline;
  const configs = run.configs || [];
  const rows = sortConfigs(run).map((config) => ({ config, summary: summaryOf(config, configs, baseline) }));
  const parts = headerParts(run, ctx, rows);

  const twin = ctx.companions?.timed ?? null;
  const { compared, disagreements } = againstTime(rows, twin?.run ?? null);
  const base = baseline ? f.code(baseline) : 'baseline';
  const header = resultsHeader(base, twin);
  const body = rows.map((row, index) => resultRow(row, { baseline, twin, compared }, index));
  parts.push(f.heading(3, 'Results'));
  parts.push(f.table(header, body, ['l', 'r', 'r', 'r', 'r', 'l', ...(twin ? ['r', 'l'] : []), 'r', 'r']));
  parts.push(resultsLegend(base, twin, ctx));
  parts.push(notesOf(run, rows, disagreements));
  if (Array.isArray(run.warnings) && run.warnings.length)
    parts.push(
      [f.heading(3, 'Warnings'), '', ...run.warnings.map((w) => `- ⚠ ${String(w).replace(/\n/g, ' ')}`)].join('\n'),
    );
  return parts.join('\n\n').replace(/\n{3,}/g, '\n\n') + '\n';
}

module.exports = { render, isInstructionRun };
