'use strict';
// Section for `kind: 'repro'` results (ctxbench repro): do a run's ratios hold in the next
// run? Per ratio both estimates with their intervals, the difference, and whether each
// interval covers the other's estimate; the share that agrees beside the median half-width.
const f = require('../format');
const { reproCompare, reproVerdict } = require('../../analysis/repro');

// The verdict line, worded from the one verdict (analysis/repro.js reproVerdict) that the
// header's notes are worded from too. Below the bar, name the ratios, and say how often chance
// alone misses as many: with k ratios each failing an honest 5% test independently, at least
// one fails with probability 1 − 0.95^k (26% at k = 6), so one miss among few ratios is weak
// evidence; two of fourteen, 15%.
function barVerdict(v) {
  const count = `${v.consistent} of ${v.judged}`;
  if (v.code === 'comparison') {
    const what = v.why.map((x) => `two ${x}`).join(' and ');
    return (
      `ⓘ **No bar here** (${count} consistent): ${what}, not a second reading of one figure, so the bar is ` +
      'not applied and neither run reproduces the other.'
    );
  }
  if (v.code === 'meets') return `✅ At or above the bar (${count}).`;
  const k = v.missed.length;
  const chance = `${(v.chance * 100).toFixed(0)}%`;
  return (
    `⚠ **Below the bar (${count}):** ${v.missed.map((id) => f.code(id)).join(', ')} ` +
    `${k === 1 ? 'differs' : 'differ'} by more than both runs' noise explains. With ${v.judged} ratios, an ` +
    (k === 1
      ? `honest method gives at least one such miss in ${chance} of run pairs (1 − 0.95^${v.judged})`
      : `honest method gives ${k} or more such misses in ${chance} of run pairs (each ratio missing 5% of the time)`) +
    (v.chance > 0.2
      ? `, so ${k === 1 ? 'one miss' : `${k} misses`} here ${k === 1 ? 'is' : 'are'} weak evidence against the ` +
        'method; another pair of runs tells'
      : '') +
    '.'
  );
}

const pct2 = (r) => f.pctOf(r, 2);

// Two instruction-count runs: do the ratios and the counts repeat within 0.5%?
function instructionLines(r, lines) {
  const i = r.instructions;
  const unit = i.unit || 'request';
  const all = i.within === r.compared;
  lines.push(
    `**${i.within} of ${r.compared} instruction ratios agree within ${i.limitPct}%** between the two runs ` +
      `(largest difference ${i.maxDifferencePct.toFixed(2)}%, median ${i.medianDifferencePct.toFixed(2)}%) ` +
      `${all ? '✅' : '⚠ — the ones beyond it are marked'}. Each run started its own processes; the ratio is ` +
      `the baseline's instructions per ${unit} ÷ the ` +
      `${i.unit === 'operation' ? 'strategy' : 'configuration'}'s.`,
    '',
  );
  const levels = new Map(i.levels.map((l) => [l.id, l]));
  const body = r.rows.map((x) => {
    const l = levels.get(x.id);
    return [
      f.code(x.id),
      pct2(x.a.estimate),
      pct2(x.b.estimate),
      `${x.differencePct.toFixed(2)}%`,
      x.differencePct <= i.limitPct ? '✅' : '❌',
      l
        ? `${f.int(l.a)} → ${f.int(l.b)} (${l.differencePct >= 0 ? '+' : '−'}${Math.abs(l.differencePct).toFixed(2)}%)`
        : f.DASH,
    ];
  });
  lines.push(
    f.table(
      [
        'Ratio',
        'run a',
        'run b',
        '|b ÷ a − 1|',
        `within ${i.limitPct}%`,
        `instructions/${unit === 'request' ? 'req' : 'op'}, a → b`,
      ],
      body,
      ['l', 'r', 'r', 'r', 'l', 'r'],
    ),
  );
  return lines.join('\n');
}

// Pair runs: "cannot serve" is an answer, so it is compared as one (not as a ratio).
function servedLines(rows, lines) {
  const said = (x) =>
    x.cannotServe
      ? `cannot serve ` +
        `(${x.blocksNotServed ? `in ${x.blocksNotServed} of ${x.blocks} blocks` : 'behind over its windows'})`
      : 'served (a ratio)';
  const same = rows.filter((x) => x.agree).length;
  lines.push(
    '',
    `**"Cannot serve": ${same} of ${rows.length} given by both runs.** A strategy that fell behind the rate its ` +
      'baseline kept has that as its answer instead of a ratio (in a pair, any block where no window counted ' +
      'and it alone was ' +
      'off its schedule); here, every configuration either run said it of, and what the other said.',
    '',
  );
  lines.push(
    f.table(
      ['Configuration', 'run a', 'run b', 'both say it'],
      rows.map((x) => [f.code(x.id), said(x.a), said(x.b), x.agree ? '✅ yes' : '❌ no']),
      ['l', 'l', 'l', 'l'],
    ),
  );
}

// Pair runs: the p99 each candidate adds to its baseline's (ms), where both runs publish it.
function addedLines(rows, lines) {
  const ms = (x) => `${x.estimate.toFixed(2)} ms [${x.ci95[0].toFixed(2)}, ${x.ci95[1].toFixed(2)}]`;
  const judged = rows.filter((x) => x.consistent !== null);
  lines.push(
    '',
    `**p99 added, ms: ${judged.filter((x) => x.consistent).length} of ${judged.length} consistent, ` +
      `${rows.filter((x) => x.agree).length} of ${rows.length} agree** ` +
      '(the difference test on the millisecond difference, each standard error read back from its t-interval ' +
      'over blocks).',
    '',
  );
  lines.push(
    f.table(
      ['Configuration', 'run a [95% CI]', 'run b [95% CI]', 'b − a', 'both cover', 'difference test'],
      rows.map((x) => [
        f.code(x.id),
        ms(x.a),
        ms(x.b),
        `${x.differenceMs >= 0 ? '+' : '−'}${Math.abs(x.differenceMs).toFixed(2)} ms`,
        x.agree ? '✅ agree' : '❌ disagree',
        x.consistent == null ? '—' : x.consistent ? '✅ consistent' : '❌ inconsistent',
      ]),
      ['l', 'r', 'r', 'r', 'l', 'l'],
    ),
  );
}

// Runs at the autoscaler's operating point: what the baseline's lightly loaded request cost in each.
function baseLines(rows, lines) {
  const us = (x) => `${f.int(x)} µs`;
  lines.push(
    '',
    `**The baseline's CPU per request at its operating point:** ` +
      rows.map((x) => `run a ${us(x.a)}, run b ${us(x.b)} at depth ${x.depth}`).join('; ') +
      " (geometric means over each run's blocks). It is the machine's cost of a lightly loaded request, its " +
      'state more than its kind; where it differs, the ratios that move with it (marked ⚠ on the run pages) ' +
      'differ beyond either interval (docs/deploy.md, "What the ratio rests on").',
  );
}

// Fingerprints this far apart are more than one host's drift from hour to hour (docs/testing.md
// and docs/deploy.md give the readings).
const SPEED_APART = 1.5;

// The section's heading and where it came from, then whether the two runs share their
// settings and their machine: what kind of comparison the rest is.
function headerLines(run, ctx, r, v) {
  const lines = [f.heading(2, run.title || 'Reproducibility'), ''];
  const meta = [];
  if (ctx.file) meta.push(`from ${f.code(ctx.file)}`);
  if (run.status && run.status !== 'complete') meta.push(`⚠ status ${run.status}`);
  if (meta.length) lines.push(`*${meta.join(' · ')}*`, '');
  if (run.command) lines.push(f.fence(run.command, 'sh'), '');
  if (v?.why.includes('settings'))
    lines.push(
      `> ⚠ **Settings differ** (${r.settings.join(', ')}): a comparison of two settings, not a second reading ` +
        'of one. Where the two differ, both can hold.',
      '',
    );
  const m = r?.machines;
  if (v?.why.includes('machines')) {
    lines.push(
      `> ⚠ **Across machines** (${m.differences.join(', ')}): a comparison of two machines, not a second ` +
        `reading of one. ` +
        'Where the two differ, both can hold; neither run reproduces the other here.',
      '',
    );
  } else if (m?.same) {
    const v = m.speeds;
    const speeds =
      v?.ratio > 0
        ? ` Machine-speed fingerprint: run a ${f.int(v.a)}, run b ${f.int(v.b)} µs a request` +
          (v.ratio >= SPEED_APART
            ? ` — ${v.ratio.toFixed(1)}× apart: the same name, not necessarily the same host, and a figure that ` +
              'moves with the machine\'s speed moves between these runs.'
            : '.')
        : '';
    lines.push(`Both runs on the same machine: ${m.a.cpuModel} × ${m.a.cores}, kernel ${m.a.kernel}.${speeds}`, '');
  }
  return lines;
}

// How many ratios agree and how many pass the difference test, against the bar.
function agreementLines(r, v, lines) {
  lines.push(
    `**${r.agreeing} of ${r.compared} ratios agree** (` +
      `${(r.shareAgreeing * 100).toFixed(0)}%): each run's 95% interval covers ` +
      `the other run's estimate. Median ratio half-width: **±${f.num(r.medianHalfWidthPct)} pp** — agreement ` +
      `bought with wide ` +
      'intervals is no agreement, so read the two together. Two honest 95% intervals of equally precise runs ' +
      'cover each ' +
      "other's estimate about 83% of the time, not 95%.",
    '',
  );
  if (r.judged) {
    lines.push(
      `**${r.consistent} of ${r.judged} ratios are consistent** (${(r.shareConsistent * 100).toFixed(0)}%): ` +
        `the difference ` +
        "between the two estimates is within what both runs' own noise explains (a two-sided 5% test on the " +
        'difference of the ' +
        'log ratios, each standard error read back from its interval). Runs that measure the same thing with ' +
        'honest intervals ' +
        `pass this about 95% of the time, so at least ${v.bar * 10} in 10 is the bar.`,
      '',
    );
    lines.push(barVerdict(v), '');
  }
  if ((r.schemas || []).some((x) => !(x >= 2))) {
    lines.push(
      '> ⓘ At least one of the two runs was measured with the earlier design (one warm process per configuration): ' +
        'its intervals do not include restarts.',
      '',
    );
  }
}

// Per ratio: both runs' estimates, the difference, and which interval covers which.
function ratioTable(r) {
  const body = r.rows.map((x) => [
    f.code(x.id),
    f.withCi(x.a.estimate, x.a.ci95, f.pctOf),
    f.withCi(x.b.estimate, x.b.ci95, f.pctOf),
    `${x.differencePp >= 0 ? '+' : '−'}${f.num(Math.abs(x.differencePp))} pp`,
    x.aCoversB ? 'yes' : 'no',
    x.bCoversA ? 'yes' : 'no',
    x.agree ? '✅ agree' : '❌ disagree',
    x.consistent == null ? '—' : x.consistent ? '✅ consistent' : '❌ inconsistent',
  ]);
  return f.table(
    [
      'Ratio',
      'run a [95% CI]',
      'run b [95% CI]',
      'b − a',
      'a covers b',
      'b covers a',
      'both cover',
      'difference test',
    ],
    body,
    ['l', 'r', 'r', 'r', 'l', 'l', 'l', 'l'],
  );
}

function render(run, ctx = {}) {
  // Recomputed from the two runs' samples when the file holds them, so a result saved by
  // an older ctxbench is judged by today's rules (the difference test came later).
  const r =
    Array.isArray(run.runs) && run.runs.length === 2 ? reproCompare(run.runs[0], run.runs[1]) : run.repro || null;
  const v = r ? reproVerdict(r) : null;
  const lines = headerLines(run, ctx, r, v);
  if (!r || !r.compared) {
    lines.push('No ratio could be compared between the two runs.');
    return lines.join('\n');
  }
  if (r.instructions) return instructionLines(r, lines);
  agreementLines(r, v, lines);
  lines.push(ratioTable(r));
  if (r.served) servedLines(r.served, lines);
  if (r.addedP99) addedLines(r.addedP99, lines);
  if (r.baseCosts) baseLines(r.baseCosts, lines);
  return lines.join('\n');
}

module.exports = { render };
