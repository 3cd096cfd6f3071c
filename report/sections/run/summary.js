'use strict';
// A run page's summary table and the notes read beside it (the control, leaks, the
// in-run A/A check, failures).
const f = require('../../format');
const { ratioVerdictText } = require('../../verdict-text');
const { strategyInfo, isControl, carriesContext, cpuOfBaseline } = require('../../../analysis');
const { isBaselineRow, isAaTwin, strategyCell, uniq, validSamples, nodeLabel, logOf } = require('./common');

function leakCell(config, count) {
  if (!carriesContext(config.strategy)) return 'n/a';
  if (!f.isNum(count)) return f.DASH;
  if (count === 0) return '0';
  return `${isControl(config.strategy) ? '⚠' : '❌'} ${f.int(count)}`;
}

// The table's columns and their alignment: framework, hop, LOG and Node only where they
// vary, ELU only where it was measured.
function summaryColumns(rows, baseline, { showFw, showHop, showLog, showNode, duet }) {
  const header = [];
  const align = [];
  const add = (h, a = 'l') => {
    header.push(h);
    align.push(a);
  };
  if (showFw) add('Framework');
  add('Strategy');
  add('Depth', 'r');
  if (showHop) add('Hop');
  if (showLog) add('LOG');
  if (showNode) add('Node');
  const base = baseline ? f.code(baseline) : 'baseline';
  add(duet ? 'solo req/s geo. mean [95% CI]' : 'req/s geo. mean [95% CI]', 'r');
  add(duet ? 'solo p99 ms' : 'p99 ms', 'r');
  add(duet ? `% of ${base}: CPU/req in duet [95% CI]` : `% of ${base} [95% CI]`, 'r');
  add('Verdict');
  add(
    duet ? `req/s on the shared CPU vs ${base} [95% CI]` : `% of ${base}: CPU/req, below 100% costs more [95% CI]`,
    'r',
  );
  add('CPU µs/req', 'r');
  const showElu = rows.some((r) => f.isNum(r.summary.elu?.median));
  if (showElu) add('ELU', 'r');
  add('Mismatches', 'r');
  add('Lost', 'r');
  return { header, align, showElu };
}

// One configuration's row; a configuration that failed has dashes where its figures would be.
function summaryRow({ config: c, summary: s }, { showFw, showHop, showLog, showNode, showElu, baseline, duet }) {
  const cells = [];
  if (showFw) cells.push(c.framework);
  cells.push(strategyCell(c));
  cells.push(c.depth);
  if (showHop) cells.push(c.hop);
  if (showLog) cells.push(logOf(c));
  if (showNode) cells.push(nodeLabel(c));
  const failed = c.error && !s.n;
  if (failed) {
    cells.push('failed (see below)', f.DASH, f.DASH, f.DASH, f.DASH, f.DASH);
    if (showElu) cells.push(f.DASH);
  } else {
    cells.push(withN(f.withCi(s.rps.estimate, s.rps.ci95), s.n));
    cells.push(f.wholeMs(s.p99 && s.p99.median));
    const isBase = isBaselineRow(c, baseline);
    if (isBase) cells.push('baseline');
    else if (s.ratio && f.isNum(s.ratio.estimate)) cells.push(f.withCi(s.ratio.estimate, s.ratio.ci95, f.pctOf));
    else cells.push(f.DASH);
    cells.push(isBase ? '' : verdictCell(s, duet));
    // Beside the throughput ratio, the CPU one turned the same way (the baseline's ÷ this one's).
    const third = duet ? s.sharedRatio : cpuOfBaseline(s);
    cells.push(
      isBase || !third || !f.isNum(third.estimate)
        ? isBase
          ? 'baseline'
          : f.DASH
        : f.withCi(third.estimate, third.ci95, f.pctOf),
    );
    cells.push(f.num(s.cpuUsPerRequest && s.cpuUsPerRequest.median));
    if (showElu) cells.push(f.isNum(s.elu?.median) ? s.elu.median.toFixed(2) : f.DASH);
  }
  cells.push(leakCell(c, s.mismatches), leakCell(c, s.lost));
  return cells;
}

function summarySection(run, rows, baseline) {
  const configs = rows.map((r) => r.config);
  const varies = (k) =>
    uniq(configs.map((c) => (k === 'node' ? nodeLabel(c) : k === 'log' ? logOf(c) : c[k]))).length > 1;
  const showFw = varies('framework');
  const showHop = varies('hop');
  const showLog = varies('log');
  const showNode = varies('node');
  const duet = run.settings?.method === 'duet';
  const { header, align, showElu } = summaryColumns(rows, baseline, { showFw, showHop, showLog, showNode, duet });
  const shown = { showFw, showHop, showLog, showNode, showElu, baseline, duet };
  const body = rows.map((row) => summaryRow(row, shown));

  const out = [];
  const common = [];
  if (!showFw && configs.length) common.push(`framework ${f.code(configs[0].framework)}`);
  if (!showHop && configs.length) common.push(`hop ${f.code(configs[0].hop)}`);
  if (!showLog && configs.length && logOf(configs[0]) !== 'none') common.push(`${f.code(`LOG=${logOf(configs[0])}`)}`);
  if (!showNode && configs.length) common.push(`Node ${nodeLabel(configs[0])}`);
  if (common.length) out.push(`All configurations: ${common.join(', ')}.`, '');
  out.push(f.table(header, body, align));
  out.push('', ratioNote(run, rows));
  if (baseline === 'none' && configs.some((c) => c.hop === 'http')) {
    out.push(
      '',
      '`HOP=http` rows against `none`: `none` carries no id, so each level sends the downstream an ' +
        '`x-request-id` of zeros where every ' +
        'strategy with an id sends a W3C `traceparent` (handlers/hops.js); the request differs, not only the ' +
        'context. Read those rows against each ' +
        'other (or against `param`) — docs/investigations.md, "Real I/O, `HOP=http`".',
    );
  }
  if (showElu) {
    out.push(
      '',
      `*ELU* is the server's event-loop utilization (share of the time its loop ran JavaScript), median over ` +
        `the ` +
        (run.settings?.method === 'duet'
          ? 'duet windows (the baseline rows: their solo bursts, as windows are kept on the member beside them)'
          : 'samples') +
        `: ` +
        'near 1 the loop was saturated, so the figures are capacity; well below 1 the server waited on I/O or ' +
        'on the load generator.',
    );
  }
  return out.join('\n');
}

// The verdict cell: the one verdict of analysis/summary.js (which already withholds it for a
// broken or client-bound config), plus a flag when throughput and CPU disagree.
function verdictCell(s, duet = false) {
  if (!s.ratio) return 'no baseline measured';
  const flags = [];
  if (s.clientBound && !duet) flags.push('⚠');
  if (s.broken) flags.push('❌');
  const disagree =
    s.disagree && !s.broken && !(s.clientBound && !duet)
      ? ` ⚠ ${duet ? 'shared-CPU req/s and CPU/req differ' : 'throughput and CPU/req disagree'}`
      : '';
  return `${flags.length ? `${flags.join(' ')} ` : ''}${ratioVerdictText(s.ratio, s)}${disagree}`;
}

// Verdicts are per configuration at 5%: with a dozen of them a chance "significant" is to
// be expected now and then (an early default run called `als` at depth 256 significantly
// faster, and a second run did not: docs/investigations.md, "Figures that code comments carried").
function multiplicityNote(rows) {
  const n = rows.filter(({ summary: s }) => f.isNum(s?.ratio?.pValue) && !s.broken && !s.clientBound).length;
  if (n < 2) return '';
  return (
    ` Each verdict is its own test at 5%, not corrected for the other ${n - 1} in the table: where nothing ` +
    `differs, about 1 in 20 reads ` +
    '"significant" by chance; `ctxbench compare` corrects with Holm, and `ctxbench repro` shows whether a ' +
    'verdict holds in a second run.'
  );
}

// One line under the table so that "% of baseline" can be checked against the figures beside it.
function ratioNote(run, rows = []) {
  if (run.settings?.method === 'duet') return duetRatioNote(run, rows);
  const two = (run.schema || 1) >= 2;
  return (
    `*req/s* is each configuration's own level: ${
      two
        ? "the geometric mean over blocks (server processes) of each block's geometric mean, " +
          'with a t-interval over the block means'
        : 'the geometric mean of its rounds, with a t-interval over the rounds'
    }. ` +
    '*% of baseline* is not the ratio of two req/s figures: it is the geometric mean of the ratios of each ' +
    'sample to the baseline sample ' +
    `measured ` +
    `${two ? 'right before or after it (averaged per block; interval over blocks)' : 'in the same round'}, ` +
    `which cancels drift that the two levels still carry, ` +
    'so it can differ from their quotient. *% of baseline: CPU/req* is the same paired ratio of server CPU ' +
    "µs per request, turned like throughput: the baseline's CPU per request ÷ this one's (95% = about 5% more " +
    'CPU per request; below 100% costs more); "disagree" = its interval does not overlap the throughput ' +
    'interval.' +
    multiplicityNote(rows) +
    ((run.settings?.driver ?? 'autocannon') === 'autocannon'
      ? " *p99 ms* is the median across samples of the load generator's p99, which autocannon records in whole " +
        'milliseconds: "< 1" is under a millisecond.'
      : '')
  );
}

function duetRatioNote(run, rows) {
  const s = run.settings;
  return (
    `*% of baseline* is measured in a duet: the configuration and a fresh baseline process under load at the ` +
    `same time on one CPU, ${s.connections} connections each; ` +
    `per ` +
    `${s.window}-s window, the baseline's server CPU µs per request ÷ this one's (so 95% = it costs about 5% ` +
    `more CPU per request; read it like throughput on one CPU). ` +
    'The log ratios are averaged per block (a pair of fresh processes) and the 95% CI is a t-interval over blocks. ' +
    '*req/s on the shared CPU* is the ratio of requests the two servers served in the same windows: equal to ' +
    'the CPU ratio only when both got the same share of the CPU (see "How the ratios were measured"). ' +
    '*solo req/s* and *solo p99* come from a short burst of each configuration alone (the CPU to itself), ' +
    'after its duet; they never feed the ratio.' +
    multiplicityNote(rows) +
    ' p99 is autocannon\'s, recorded in whole milliseconds: "< 1" is under a millisecond.'
  );
}

function withN(text, n) {
  return n === 1 ? `${text} (1 round)` : text;
}

// Plain-language notes under the summary: the control, any real leak, errors.
// An A/A check inside the run: a strategy registered as doing the same server work as
// its baseline (param and global vs none) must come out "no significant difference".
// When its interval excludes 100%, the design measured a difference that is not there,
// and every ratio of the run carries that bias: say so where the ratios are read.
function sameWorkNotes(rows) {
  const differs = (r) =>
    Array.isArray(r.summary.ratio?.ci95) && (r.summary.ratio.ci95[0] > 1 || r.summary.ratio.ci95[1] < 1);
  const cell = (r) =>
    `${f.code(r.config.id)} ${f.pctOf(r.summary.ratio.estimate)} ` +
    `[${r.summary.ratio.ci95.map((x) => f.pctOf(x)).join('–')}]`;
  const twins = rows.filter((r) => isAaTwin(r.config) && r.summary.ratio);
  const sameWork = rows.filter((r) => {
    if (isAaTwin(r.config)) return false;
    let same;
    try {
      same = strategyInfo(r.config.strategy).sameWorkAs;
    } catch {
      return false;
    }
    return same && r.summary.ratio?.baseline?.includes(`/${same}/`);
  });
  // With A/A twins in the run, they are the check: a second process of the baseline
  // itself. A strategy that does nearly the same work (param, global) may then differ by
  // what it really does differently, which precise intervals can show.
  const checks = twins.length ? twins : sameWork;
  const off = checks.filter(differs);
  const notes = [];
  if (off.length) {
    notes.push(
      `⚠ **In-run A/A check failed:** ${off.map(cell).join('; ')} ` +
        `of a baseline that ` +
        `${twins.length ? 'is the same configuration in a second process' : 'does the same server work'}. A ` +
        `difference that is not there was measured, so every ratio of this run may carry the same bias; ` +
        'the ratios may overstate or understate each cost by as much (docs/investigations.md).',
    );
  }
  const near = twins.length ? sameWork.filter(differs) : [];
  if (near.length && !off.length) {
    notes.push(
      `ⓘ ${near.map(cell).join('; ')}: a strategy that does nearly the same server work as its baseline ` +
        `differs from it by about ` +
        `${near.map((r) => f.change(r.summary.ratio.estimate)).join(', ')}, while the A/A twin (the baseline ` +
        `in a second process) covers 100%: ` +
        'so the method shows no bias there. The two execute the same number of instructions per request ' +
        '(within 0.2% under callgrind), so the difference lies in what ' +
        'instruction counts do not see (caches, memory, scheduling); it is not explained yet ' +
        '(docs/investigations.md). A difference this small was below what the earlier sequential runs could ' +
        'see.',
    );
  }
  return notes;
}

function integrityNotes(rows, run) {
  const notes = [];
  const control = rows.filter((r) => isControl(r.config.strategy));
  if (control.length) {
    const leaked = control.filter((r) => r.summary.mismatches + r.summary.lost > 0);
    const quiet = control.filter((r) => r.summary.n > 0 && r.summary.mismatches + r.summary.lost === 0);
    if (leaked.length) {
      notes.push(
        `⚠ \`global\` is the deliberately broken control (a module-level variable). It leaked in ` +
          `${leaked.length} of ${control.length} ` +
          `configuration(s) ` +
          `(` +
          leaked
            .map(
              (r) =>
                `depth ${r.config.depth}: ${f.int(r.summary.mismatches)} mismatches, ${f.int(r.summary.lost)} lost`,
            )
            .join('; ') +
          `) ` +
          `— ` +
          'expected: it proves the integrity check catches a leak. Its throughput is not a usable option.',
      );
    }
    if (quiet.length) {
      const hops = uniq(quiet.map((r) => r.config.hop)).join(', ');
      notes.push(
        `⚠ The \`global\` control did **not** leak in ${quiet.length} configuration(s) (hop ${hops}). ` +
          'Requests did not interleave enough to expose a leak (with microtask-only hops such as `await` they ' +
          'never do), so zero ' +
          'mismatches of the other strategies there prove nothing about their correctness; the `immediate`, ' +
          '`timeout` and I/O hops can.',
      );
    }
  }
  const broken = rows.filter(
    (r) =>
      !isControl(r.config.strategy) &&
      carriesContext(r.config.strategy) &&
      (r.summary.mismatches > 0 || r.summary.lost > 0),
  );
  for (const r of broken) {
    notes.push(
      `❌ **${f.code(r.config.id)} returned wrong context:** ${f.int(r.summary.mismatches)} responses carried ` +
        `another request's id ` +
        `and ${f.int(r.summary.lost)} carried none. This strategy is not safe in this configuration.`,
    );
  }
  for (const r of rows) {
    const e = r.summary.errors || 0;
    const x = r.summary.non2xx || 0;
    if (e || x) notes.push(`${f.code(r.config.id)}: ${f.int(e)} request errors, ${f.int(x)} non-2xx responses.`);
  }
  notes.push(...sameWorkNotes(rows));
  const unpaired = rows.filter(
    (r) => r.summary.ratio && r.summary.ratio.pValue !== null && r.summary.ratio.paired === false,
  );
  if (unpaired.length) {
    notes.push(`${unpaired.length} ratio(s) had no recorded pairs with their baseline and have no interval.`);
  }
  const s = run.settings || {};
  if (f.isNum(s.rounds) && rows.some((r) => r.summary.n > 0 && r.summary.n < s.rounds)) {
    notes.push(
      `Some configurations have fewer than the ${s.rounds} planned rounds (see the per-configuration detail).`,
    );
  }
  return notes;
}

function failedSection(run) {
  const failed = (run.configs || []).filter((c) => c.error);
  if (!failed.length) return '';
  const lines = [f.heading(3, 'Failed configurations'), ''];
  for (const c of failed) {
    const msg = typeof c.error === 'string' ? c.error : c.error.message || JSON.stringify(c.error);
    const measured = validSamples(c).length;
    lines.push(
      `- ${f.code(c.id)}: ` +
        `${String(msg).split('\n')[0]}` +
        `${measured ? ` (after ${measured} measured round(s), which are kept above)` : ''}`,
    );
    if (c.error.stderrTail) {
      lines.push(
        '',
        '  <details><summary>server stderr (tail)</summary>',
        '',
        f.fence(String(c.error.stderrTail).trimEnd()).replace(/^/gm, '  '),
        '',
        '  </details>',
        '',
      );
    }
  }
  return lines.join('\n');
}

module.exports = { summarySection, integrityNotes, failedSection, verdictCell };
