'use strict';
// results.md section for one `kind: "micro"` JSON (bench/cli/micro.js, docs/micro.md):
// a table per scenario (one value per process, compared with `none` paired by round), the
// study's targets per strategy, and the study's own figures, clearly labelled as not ours.
const f = require('../format');
const {
  BROKEN,
  RESOLUTION_FACTOR,
  unresolved,
  compareCounts,
  aggregate,
  scenariosOf,
  achievedPrecision,
} = require('../../analysis/micro');
const { widthSummary } = require('../../analysis');
const { formatUs } = require('../../lib/format');

const DASH = f.DASH;

// The vitest-bench AsyncLocalStorage study (seeds/002_78d202859073746e.txt), copied
// exactly. NOT our measurement.
const REFERENCE = {
  seed: '002_78d202859073746e.txt',
  title: 'AsyncLocalStorage Tracing Performance Overhead',
  setup: 'Vitest v4.0.18 bench, Node.js v22.22.0, macOS (darwin arm64); one run, no repetition or confidence interval.',
  mapping:
    '"Baseline (no tracing)" ≈ our `none`; "With AsyncLocalStorage" ≈ our `als`. Their async operation and ' +
    'their "DB query" are not described; ours are `setImmediate` hops. They generated span ids only in the ' +
    'traced arm; ' +
    'we generate them in every arm, so our overhead is the context mechanism alone.',
  rows: [
    ['Sync operations (100 iterations)', 'Baseline (no tracing)', '1,715,792', '0.0006', '0.0008', '-'],
    ['Sync operations (100 iterations)', 'With AsyncLocalStorage', '329,452', '0.0030', '0.0069', '5.21x slower'],
    ['Async operations (100 iterations)', 'Baseline (no tracing)', '718', '1.3919', '1.6469', '-'],
    ['Async operations (100 iterations)', 'With AsyncLocalStorage', '706', '1.4160', '1.6882', '1.7% slower'],
    ['Nested trace contexts', 'Depth=2', '48,257', '0.0207', '0.0382', 'Root + 1 child span'],
    ['Nested trace contexts', 'Depth=5', '36,221', '0.0276', '0.0435', 'Root + 4 nested child spans'],
    ['Real-world HTTP request handler', 'Without tracing', '17,566', '0.0569', '0.0892', '-'],
    ['Real-world HTTP request handler', 'With tracing', '14,177', '0.0705', '0.1111', '19.3% slower'],
  ],
  targets: [
    ['Async operation overhead', '< 5%', '1.7%', 'PASS'],
    ['Nested context (depth=5) P99', '< 100μs', '43.5μs', 'PASS'],
    ['Real-world HTTP request overhead', '< 50%', '19.3%', 'PASS'],
    ['Absolute overhead per operation', '< 10μs', '~3-5μs', 'PASS'],
  ],
};

const TARGET_COLUMNS = [
  ['asyncOverhead', 'Async overhead < 5%'],
  ['nestedP99', 'Nested d=5 P99 < 100 µs'],
  ['realWorldOverhead', 'Real-world overhead < 50%'],
  ['perOpOverhead', 'Per-op overhead < 10 µs'],
  ['correct', 'Every read correct'],
];

// Runs that do not list their scenarios were measured with today's set.

const isNum = f.isNum;

// Microseconds with sensible precision down to nanoseconds.
function us(x) {
  if (!isNum(x)) return DASH;
  const a = Math.abs(x);
  if (a >= 100) return Math.round(x).toLocaleString('en-US');
  if (a >= 10) return x.toFixed(1);
  if (a >= 1) return x.toFixed(2);
  if (a === 0) return '0';
  return x.toPrecision(3);
}

function overheadCell(ov, s, base) {
  if (!ov) return DASH;
  if (ov.broken) return 'not comparable (wrong reads)';
  if (ov.unresolved) {
    const short =
      [s, base].find(
        (x) =>
          x && isNum(x.timedUs) && isNum(x.timerResolutionUs) && x.timedUs < RESOLUTION_FACTOR * x.timerResolutionUs,
      ) || s;
    return (
      `⚠ a sample of ${us(short.timedUs)} µs is under ${RESOLUTION_FACTOR} timer resolutions ` +
      `(${us(short.timerResolutionUs)} µs): no ratio`
    );
  }
  const ci = ov.ci95 ? ` [${f.signedPct(ov.ci95[0])}, ${f.signedPct(ov.ci95[1])}]` : ' [no interval]';
  return `${f.signedPct(ov.pct)}${ci}`;
}

// The achieved 95% CI half-width, in percentage points of none's time.
function halfWidthCell(ov) {
  if (!ov || !isNum(ov.halfWidthPct) || ov.broken || ov.unresolved) return DASH;
  const h = ov.halfWidthPct;
  return `±${h < 10 ? h.toFixed(1) : Math.round(h).toLocaleString('en-US')} pp`;
}

function readsCell(s, entry) {
  if (!entry.carriesContext || !s.checked) return 'unchecked (reads nothing)';
  if (!isNum(s.reads)) return DASH;
  if (!s.failures) return `all ${f.int(s.reads)} correct`;
  return `**${f.int(s.failures)} wrong** of ${f.int(s.reads)}`;
}

function strategyLabel(entry) {
  const name = f.code(entry.strategy);
  return entry.control ? `${name} (control)` : name;
}

function environmentLine(run) {
  const e = run.environment || {};
  const parts = [
    e.node && `Node ${e.node}`,
    e.cpuModel && `${e.cpuModel}${e.cores ? ` × ${e.cores}` : ''}`,
    e.os,
    e.memoryBytes && f.gib(e.memoryBytes),
    e.date && e.date.slice(0, 19).replace('T', ' ') + ' UTC',
    e.commit && `commit ${e.commit}${e.dirty ? ' (dirty)' : ''}`,
  ].filter(Boolean);
  const out = [`**Environment:** ${parts.join(' · ') || DASH}`];
  const noise = e.noise;
  if (noise && noise.window) {
    out.push(
      `**Machine noise during the run:** CPU steal ${noise.window.stealPct.toFixed(1)}%, busy ` +
        `${noise.window.busyPct.toFixed(0)}% of all CPUs` +
        (Array.isArray(noise.before && noise.before.loadavg)
          ? `, load average ${noise.before.loadavg[0].toFixed(2)} at the start`
          : ''),
    );
  }
  return out.join('  \n');
}

function settingsLine(run) {
  const s = run.settings || {};
  const parts = [
    s.library && `library ${s.library}`,
    isNum(s.rounds) && `${s.rounds} rounds, each strategy in a fresh process every round, order rotated each round`,
    isNum(s.time) &&
      `${s.time} ms per scenario per process (after ${s.warmupTime} ms warm-up; at least ${s.iterations} samples)`,
    s.timer && `timer ${s.timer}`,
    `baseline ${f.code(s.baseline || 'none')}`,
  ].filter(Boolean);
  const out = [`**Settings:** ${parts.join(' · ')}`];
  if (s.extra && Object.keys(s.extra).length) {
    out.push(
      `> ⚠ **Test-only strategies loaded** (${Object.keys(s.extra).map(f.code).join(', ')}, via ` +
        `CTXBENCH_MICRO_EXTRA): not a real run.`,
    );
  }
  return out.join('\n\n');
}

function scenarioTable(key, entries, baseline) {
  const baseEntry = entries.find((e) => e.strategy === baseline);
  const rows = entries.map((e) => {
    const s = e.scenarios && e.scenarios[key];
    const empty = (why) => [strategyLabel(e), DASH, DASH, DASH, DASH, DASH, DASH, DASH, why, DASH];
    if (e.error && !s) return empty(`not measured: ${e.error.message}`);
    if (!s) return empty('not measured');
    if (s.error) return empty(`error: ${s.error}`);
    const base = e.strategy === baseline;
    const ov = s.overhead;
    return [
      strategyLabel(e),
      f.int(s.opsPerSec),
      us(s.meanUs),
      us(s.p99Us),
      isNum(s.rme) ? `±${s.rme.toFixed(1)}%` : DASH,
      base || !ov ? f.int(s.rounds) : `${f.int(ov.n)}${ov.n !== s.rounds ? ` of ${f.int(s.rounds)}` : ''}`,
      base
        ? unresolved(s)
          ? `baseline ⚠ under ${RESOLUTION_FACTOR} timer resolutions`
          : 'baseline'
        : overheadCell(ov, s, baseEntry && baseEntry.scenarios && baseEntry.scenarios[key]),
      base ? DASH : halfWidthCell(ov),
      base ? DASH : ov ? ov.verdict : 'no baseline',
      readsCell(s, e),
    ];
  });
  return f.table(
    ['Strategy', 'ops/s', 'mean µs', 'p99 µs', 'rme', 'rounds', 'vs none [95% CI]', 'CI ±', 'verdict', 'context reads'],
    rows,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'l'],
  );
}

// One line per scenario: the median achieved CI half-width over the strategies compared.
function precisionLine(entries, scenarios, baseline) {
  const parts = achievedPrecision(entries, scenarios, baseline).map(
    ({ key, halfWidthPct }) => `${key} ${halfWidthCell({ halfWidthPct })}`,
  );
  if (!parts.length) return null;
  return (
    `**Achieved precision** (median 95% CI half-width of "vs none", in percentage points of none's time): ` +
    `${parts.join(' · ')}. ` +
    'A difference smaller than this cannot be told from noise by this run: more `--rounds` narrow it (roughly ' +
    'as 1/√rounds).'
  );
}

// A target's figure (analysis/micro.js targets), by what it measures.
function targetFigure(t) {
  if (t.perOp) return `sync ${formatUs(t.perOp.sync)}, async ${formatUs(t.perOp.async)}`;
  if (t.unit === 'failed reads') return `${f.int(t.value)} of ${f.int(t.reads)} reads wrong`;
  if (!f.isNum(t.value)) return '';
  return t.unit === '%' ? `${t.value.toFixed(1)}%` : `${t.value.toFixed(1)} ${t.unit}`;
}

function targetCell(t) {
  if (!t) return DASH;
  if (t.status === 'n/a') return t.reason ? `n/a (${t.reason})` : 'n/a';
  if (t.status === 'BROKEN') return `⛔ ${BROKEN}`;
  const mark = t.status === 'PASS' ? '✅ PASS' : t.status === 'FAIL' ? '❌ FAIL' : '❔ INCONCLUSIVE';
  return `${mark} ${targetFigure(t)}`.trim();
}

function targetsTable(entries) {
  const rows = entries.map((e) => [
    strategyLabel(e),
    ...TARGET_COLUMNS.map(([k]) =>
      e.error && !Object.keys(e.targets || {}).length ? DASH : targetCell(e.targets && e.targets[k]),
    ),
  ]);
  return f.table(['Strategy', ...TARGET_COLUMNS.map(([, t]) => t)], rows);
}

function referenceBlock() {
  const r = REFERENCE;
  return [
    f.heading(3, 'Published reference (not our measurement)'),
    '',
    `> Quoted exactly from "${r.title}" (seed \`${r.seed}\`). ${r.setup} ${r.mapping}`,
    '',
    f.table(['Scenario', 'Row', 'Hz (ops/sec)', 'Mean (ms)', 'P99 (ms)', 'Overhead / notes'], r.rows, [
      'l',
      'l',
      'r',
      'r',
      'r',
      'l',
    ]),
    '',
    "The study's own target table:",
    '',
    f.table(['Metric', 'Target', 'Actual', 'Status'], r.targets),
  ].join('\n');
}

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

// Instruction counts (`ctxbench micro --method instructions`): one table, a row per
// strategy, a column per scenario: instructions per operation and what it adds to `none`.
// Recomputed from the counts (analysis/micro.js compareCounts), as every section re-judges.
function countsSection(run, ctx) {
  const m = run.micro || {};
  const s = run.settings || {};
  const scenarios = Array.isArray(m.scenarios) ? m.scenarios : [];
  const results = Array.isArray(m.results) ? m.results : [];
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
  parts.push(notes.join(' '));
  for (const e of results.filter((x) => x.error)) parts.push(`- ❌ ${f.code(e.strategy)}: ${e.error.message}`);
  return parts.join('\n\n');
}

// render(run, ctx) -> markdown for one micro run JSON. ctx.file: where it was read from.
function render(run, ctx = {}) {
  if (run.settings?.method === 'instructions') return countsSection(run, ctx);
  const m = run.micro || {};
  const scenarios = scenariosOf(run);
  const results = reanalysed(Array.isArray(m.results) ? m.results : [], scenarios);
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

  parts.push(
    [
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
    ].join(''),
  );

  if (results.length === 0) {
    parts.push('No strategy was measured.');
  }
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
    parts.push(
      [
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
      ].join('\n'),
    );
    const leaking = entries.filter((e) => e.targets && e.targets.correct && e.targets.correct.status === 'FAIL');
    if (leaking.length) {
      parts.push(
        leaking
          .map((e) => {
            const where = Object.entries(e.scenarios || {})
              .filter(([, s]) => s && s.failures)
              .map(([k, s]) => `${k} ${f.int(s.failures)}/${f.int(s.reads)}`);
            return (
              `- ⚠ ${strategyLabel(e)} read the wrong context (${where.join(', ')}, over all rounds): its ` +
              `timings in those scenarios do not measure a working propagation.`
            );
          })
          .join('\n'),
      );
    }
  }

  const failed = results.filter((e) => e.error);
  if (failed.length) {
    parts.push(
      [
        f.heading(3, 'Failed processes'),
        '',
        ...failed.map(
          (e) =>
            `- ${f.code(e.strategy)} on ${e.target}: ${f.cell(e.error.message)}` +
            (e.error.stderrTail ? `\n\n${f.fence(e.error.stderrTail)}` : ''),
        ),
      ].join('\n'),
    );
  }
  if (Array.isArray(run.warnings) && run.warnings.length) {
    parts.push(
      [f.heading(3, 'Warnings'), '', ...run.warnings.map((w) => `- ⚠ ${String(w).replace(/\n/g, ' ')}`)].join('\n'),
    );
  }
  parts.push(referenceBlock());
  return parts.join('\n\n') + '\n';
}

module.exports = { render, targetCell, REFERENCE };
