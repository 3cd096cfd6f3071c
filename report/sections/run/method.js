'use strict';
// How precisely a run states its differences, how its duet ratios were measured, and
// its regime shifts.
const f = require('../../format');
const { precisionAchieved, duetMethod, regimeShifts } = require('../../../analysis');

// How precisely this run can state a difference: the half-widths of the ratio CIs it
// achieved, against --precision when one was asked for. A claim finer than this is noise.
function precisionSection(run, rows) {
  const achieved = precisionAchieved(rows);
  if (!achieved) return '';
  const { median, worst } = achieved;
  const target = run.settings && run.settings.precision;
  const seconds = f.isNum(run.measuringSeconds) ? ` in ${Math.round(run.measuringSeconds)} s of measuring` : '';
  const lines = [
    f.heading(3, 'Precision achieved'),
    '',
    `The 95% CIs of "% of baseline" are ±${median.toFixed(1)} percentage points wide for the median ` +
      `configuration and ` +
      `±${worst.toFixed(1)} pp for the least precise one${seconds}. A difference smaller than that cannot be ` +
      `told from noise in this run.`,
  ];
  const comp = rows.filter((r) => r.summary.ratio && r.summary.ratio.components && (run.schema || 1) >= 2);
  if (comp.length) {
    const sd = (v) => (f.isNum(v) ? `${f.num(Math.sqrt(v) * 100)}%` : f.DASH);
    const unit = run.settings?.method === 'duet' ? 'window' : 'pair';
    lines.push(
      '',
      `Variance components of each ratio (one-way ANOVA of the ${unit} log ratios by block; SDs on the log ` +
        `scale, ≈ % of the ratio):`,
      '',
      f.table(
        ['Ratio', 'blocks', 'between blocks SD', 'within blocks SD', 'F', 'p'],
        comp.map((r) => {
          const c = r.summary.ratio.components;
          return [
            f.code(r.config.id),
            r.summary.ratio.blocks,
            sd(c.betweenBlocks),
            sd(c.withinBlocks),
            f.num(c.F),
            f.isNum(c.p) ? c.p.toFixed(3) : f.DASH,
          ];
        }),
        ['l', 'r', 'r', 'r', 'r', 'r'],
      ),
    );
  }
  const missing = run.precision && Array.isArray(run.precision.missing) ? run.precision.missing : null;
  if (missing) {
    const p = run.precision;
    lines.push(
      '',
      missing.length
        ? `⚠ **Target ±${p.target} pp not reached** after ${p.blocks} blocks and ${Math.round(p.elapsedS)} s ` +
            `(cap ${p.maxTimeS} s) for:\n\n` +
            f.table(
              ['Ratio', 'half-width now', 'blocks it would need'],
              missing.map((m) => [
                f.code(m.id),
                `±${f.num(m.halfWidthPct)} pp`,
                f.isNum(m.blocksNeeded) ? f.int(m.blocksNeeded) : 'unknown',
              ]),
              ['l', 'r', 'r'],
            )
        : `✅ Target ±${p.target} pp reached for every ratio after ${p.blocks} blocks.`,
    );
  } else if (f.isNum(target)) {
    const missed = rows
      .filter((r) => r.summary.ratio && !(r.summary.ratio.halfWidthPct <= target))
      .map((r) => f.code(r.config.id));
    lines.push(
      '',
      missed.length
        ? `⚠ **Target ±${target} pp not reached** for ${missed.join(', ')} within the ` +
            `${run.settings.maxTime} s allowed: read those ratios with their wider intervals, not as an ordering.`
        : `✅ Target ±${target} pp reached for every ratio.`,
    );
  }
  return lines.join('\n');
}

// Where shared-CPU req/s and CPU per request disagree, and why (the kernel splits a CPU
// between threads).
function differLine(d) {
  return (
    `- **Shared-CPU req/s and CPU/req differ** for ` +
      d.differ
        .map(
          (r) =>
            `${f.code(r.config.strategy)} d${r.config.depth} (its server took ${f.num(r.share * 100)}% of ` +
            `the pair's CPU)`,
        )
        .join(', ') +
      `. ` +
      (d.uneven
        ? 'Both servers were busy, but the kernel splits a CPU between threads, not processes: a strategy ' +
          "that allocates more keeps V8's worker threads " +
          '(concurrent garbage collection) busier, so its process gets more than half of the CPU and serves ' +
          'more requests than its cost per request alone would allow. ' +
          'Measured per thread from /proc for `none` beside `cls-hooked` at depth 8 (docs/method.md): main ' +
          'threads 48.2% and 48.3% of the CPU, V8 worker threads 0.5% and 2.6%. '
        : 'Both servers had even shares of the CPU, so the split of the CPU does not explain it here. ') +
      'CPU per request does not depend on the share a process got, so the verdict is on it; the shared-CPU ' +
      'figure is shown beside it as a second method.'
  );
}

// The same preset measured one after the other, when kept (results/runs/<preset>-sequential.json).
function sequentialLines(run, twin, ctx) {
  const body = twin.rows.map(({ config, sequential: a, duet: b }) => [
    f.code(config.strategy),
    config.depth,
    f.withCi(a.estimate, a.ci95, f.pctOf),
    `±${f.num(a.halfWidthPct)}`,
    f.withCi(b.estimate, b.ci95, f.pctOf),
    `±${f.num(b.halfWidthPct)}`,
  ]);
  return [
    '',
    `**The same configurations measured one after the other** ` +
      `(${f.code(ctx.relativeChartPath ? ctx.relativeChartPath(twin.file) : twin.file)}: ` +
      `${twin.blocks || '?'} blocks of adjacent 1-s bursts, throughput ratio, ` +
      `${Math.round(twin.measuringSeconds || 0)} s; ctxbench commit ${f.code(twin.commit ?? '?')}) ` +
      `against this duet run (${Math.round(run.measuringSeconds || 0)} s): median half-width ` +
      `±${f.num(twin.medianHalfWidth.sequential)} pp one after the other, ` +
      `±${f.num(twin.medianHalfWidth.duet)} pp in duet.`,
    '',
    f.table(
      ['Strategy', 'Depth', 'one after the other [95% CI]', '±pp', 'duet [95% CI]', '±pp'],
      body,
      ['l', 'r', 'r', 'r', 'r', 'r'],
    ),
  ];
}

// How a duet run measured its ratios, with the numbers that justify the method: windows
// counted and dropped (and why), the CPU share each server got, the A/A twin, and the
// same configurations measured one after the other when such a run is kept.
function duetSection(run, rows, baseline, ctx = {}) {
  const d = duetMethod(run, rows, ctx.companions?.sequential ?? null);
  if (!d) return '';
  const s = run.settings;
  const lines = [
    f.heading(3, 'How the ratios were measured: duet'),
    '',
    `Every arm was loaded **at the same time as a fresh \`` +
      `${baseline}\` process**, both servers pinned to one CPU and the load generator alone on the other, ` +
      `${s.connections} connections each (groups of ${s.groupSize ?? 2} servers). A warm server on this ` +
      `machine runs 30–70% slower for seconds at a time; ` +
      'two servers loaded together live through the same slow seconds, so the ratio of their CPU time per ' +
      'request in the same window barely moves, ' +
      'where bursts taken one after the other straddle those episodes (docs/method.md). ' +
      `Each pair warmed up until both servers' cost per request stopped changing ` +
      `(` +
      `${d.warmup ? `${d.warmup.min}–${d.warmup.max} half-windows, median ${d.warmup.median}` : 'no record'}), ` +
      `then ${s.windows} windows of ${s.window} s were counted. A pair of processes took ` +
      `${f.isNum(d.pairSeconds) ? `${f.num(d.pairSeconds)} s (median)` : '?'} from start to stop.`,
    '',
  ];
  lines.push(
    `- **Windows:** ${f.int(d.counted)} counted, ${f.int(d.windows - d.counted)} dropped` +
      (d.dropped.length ? ` (${d.dropped.map(([r, n]) => `${n}× ${r}`).join('; ')})` : '') +
      '. A window counts when every server of the group served requests throughout (each used at least 80% of ' +
      'its fair share of the CPU, together at least 90% of it) and the load generator stayed under 85% of a ' +
      'core.',
  );
  lines.push(
    `- **CPU share in counted windows:** the measured arm ${f.num(d.shares.arm * 100)}%, the \`${baseline}\` ` +
      `process beside it ${f.num(d.shares.partner * 100)}% (medians); the load generator ` +
      `${f.num(d.shares.loadgen * 100)}% of its core.`,
  );
  for (const r of d.aa) {
    const q = r.summary.ratio;
    lines.push(
      `- **A/A check, depth ${r.config.depth}:** a second \`${r.config.strategy}\` process against the first ` +
        `read ${f.withCi(q.estimate, q.ci95, f.pctOf)} — ` +
        (r.covers
          ? '✅ its interval covers 100%.'
          : '⚠ its interval does **not** cover 100%: the method measured a difference that is not there; read ' +
            'every ratio of this run with that in mind.'),
    );
  }
  if (d.differ.length) lines.push(differLine(d));
  const twin = d.sequential;
  if (twin) lines.push(...sequentialLines(run, twin, ctx));
  return lines.join('\n');
}

// A level shift in a baseline's series splits the run into two regimes; each ratio of
// that group is shown per regime (analysis/run.js regimeShifts).
function regimeSection(run, rows, baseline) {
  const out = [];
  for (const g of regimeShifts(rows, baseline)) {
    const { shift, unit } = g;
    out.push(
      `⚠ **Regime shift in ${f.code(g.config.id)}:** ${unit} ${g.first[0]}–${g.first[1]} ran at ` +
        `${f.int(shift.before)} req/s, ` +
        `${unit} ${g.second[0]}–${g.second[1]} at ${f.int(shift.after)} req/s ` +
        `(${f.change(shift.after / shift.before)}; ` +
        `Welch test at the best split, Bonferroni-corrected over ${shift.splits} splits: p = ` +
        `${shift.pAdjusted.toFixed(3)}). ` +
        'The machine changed speed during the run; the ratios of this group per regime:',
      '',
    );
    const cell = (q) => (f.isNum(q.estimate) ? f.withCi(q.estimate, q.ci95, f.pctOf) : f.DASH);
    const body = g.rows.map((r) => [
      f.code(r.config.strategy),
      cell(r.perRegime[0]),
      cell(r.perRegime[1]),
      r.whole ? cell(r.whole) : f.DASH,
    ]);
    if (body.length)
      out.push(f.table(['Strategy', 'first regime', 'second regime', 'whole run'], body, ['l', 'r', 'r', 'r']), '');
  }
  return out.length ? [f.heading(3, 'Regime shifts'), '', ...out].join('\n').trimEnd() : '';
}

module.exports = { precisionSection, duetSection, regimeSection };
