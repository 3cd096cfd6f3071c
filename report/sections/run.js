'use strict';
// results.md section for one `kind: "run"` JSON (docs/run-json.md).

const fs = require('node:fs');
const path = require('node:path');
const f = require('../format');
const references = require('../references');
const { depthChart } = require('../charts');
const { frameworksSection } = require('./frameworks');
const { profileSection } = require('./profile');
const { nodeLabel: versionLabel } = require('../../lib/node-versions');
const { storesSection } = require('./stores');

const { armOf } = require('../../analysis/comparable');
const { summaryOf, logEffect, BROKEN, warmupCounts, precisionAchieved, configDetail, LATENCY_COLUMNS, meanLatency, duetMethod, regimeShifts, strategyInfo, isControl, carriesContext } = require('../../analysis');

// The baseline's own row (an A/A twin has the baseline's strategy but its own arm).
const isBaselineRow = (config, baseline) => armOf(config) === baseline;
const isAaTwin = (config) => config.arm === 'aa';
const strategyCell = (c) => f.code(c.strategy) + (isControl(c.strategy) ? ' (control)' : '') + (isAaTwin(c) ? ' (A/A twin)' : '') + (c.userSupplied ? ' (user-supplied)' : '');


function uniq(xs) {
  return [...new Set(xs)];
}

function validSamples(config) {
  return (config.samples || []).filter((s) => s && f.isNum(s.rps));
}


function strategyOrder(run) {
  const s = run.settings || {};
  const listed = Array.isArray(s.strategies) ? s.strategies : [];
  const all = uniq([...(s.baseline ? [s.baseline] : []), ...listed, ...(run.configs || []).map((c) => c.strategy)]);
  return (name) => {
    const i = all.indexOf(name);
    return i < 0 ? all.length : i;
  };
}

function orderBy(settingsList) {
  const order = Array.isArray(settingsList) ? settingsList.map(String) : [];
  return (v) => {
    const i = order.indexOf(String(v));
    return i < 0 ? order.length : i;
  };
}

function sortConfigs(run) {
  const s = run.settings || {};
  const strat = strategyOrder(run);
  const fw = orderBy(s.frameworks);
  const hop = orderBy(s.hops);
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  return [...(run.configs || [])].sort((a, b) =>
    fw(a.framework) - fw(b.framework) || cmp(String(a.framework), String(b.framework)) ||
    hop(a.hop) - hop(b.hop) || cmp(String(a.hop), String(b.hop)) ||
    cmp(String(a.node), String(b.node)) || cmp(Boolean(a.acf), Boolean(b.acf)) || cmp(logOf(a), logOf(b)) ||
    (a.depth || 0) - (b.depth || 0) ||
    strat(a.strategy) - strat(b.strategy) || cmp(String(a.id), String(b.id)));
}

function nodeLabel(c) {
  return `${c.node || '?'}${c.acf ? ' (ACF)' : ''}`;
}

const logOf = (c) => c.log || 'none';

function groupKey(c) {
  return [c.framework, c.hop, c.node, Boolean(c.acf), logOf(c)].join('|');
}

function groupLabel(c) {
  return `${c.framework}, hop \`${c.hop}\`, Node ${nodeLabel(c)}${logOf(c) === 'none' ? '' : `, \`LOG=${logOf(c)}\``}`;
}

// ---------------------------------------------------------------- environment

function noiseLines(noise) {
  if (!noise || typeof noise !== 'object') return [];
  const parts = [];
  const w = noise.window;
  if (w && typeof w === 'object') {
    const bits = [];
    if (f.isNum(w.stealPct)) bits.push(`CPU steal ${w.stealPct.toFixed(1)}%`);
    if (f.isNum(w.busyPct)) bits.push(`CPU busy ${w.busyPct.toFixed(0)}% (all processes, ours included)`);
    if (f.isNum(w.seconds)) bits.push(`over ${Math.round(w.seconds)} s`);
    if (bits.length) parts.push(bits.join(', '));
  }
  const la = (x) => (x && Array.isArray(x.loadavg) ? x.loadavg.map((v) => v.toFixed(2)).join(' ') : null);
  if (la(noise.before) || la(noise.after)) parts.push(`load average ${la(noise.before) || '?'} before, ${la(noise.after) || '?'} after`);
  const mhz = (x) => (x && Array.isArray(x.cpuMHz) && x.cpuMHz.length ? Math.round(x.cpuMHz.reduce((a, b) => a + b, 0) / x.cpuMHz.length) : null);
  if (mhz(noise.before) || mhz(noise.after)) parts.push(`mean CPU clock ${mhz(noise.before) || '?'} → ${mhz(noise.after) || '?'} MHz`);
  if (!parts.length && !Array.isArray(noise.flags)) {
    // Unknown shape: show its scalar fields rather than nothing.
    for (const [k, v] of Object.entries(noise)) if (v !== null && typeof v !== 'object') parts.push(`${k} ${v}`);
  }
  const lines = [];
  if (parts.length) lines.push(`- **Noise:** ${parts.join('; ')}`);
  if (Array.isArray(noise.flags)) {
    for (const flag of noise.flags) lines.push(`  - ⚠ ${flag}`);
    if (noise.flags.length === 0 && parts.length) lines[0] += ' — no noise flags raised';
  }
  return lines;
}

function environmentSection(run) {
  const e = run.environment || {};
  const configs = run.configs || [];
  const lines = [f.heading(3, 'Environment'), ''];
  const os = [e.os || e.platform, e.arch].filter(Boolean).join(' ');
  if (os || e.kernel) lines.push(`- **OS:** ${os || '?'}${e.kernel && !String(os).includes(e.kernel) ? `, kernel ${e.kernel}` : ''}`);
  if (e.cpuModel || e.cores) {
    lines.push(`- **CPU:** ${e.cpuModel || '?'}${f.isNum(e.cores) ? ` — ${e.cores} core${e.cores === 1 ? '' : 's'} available` : ''}` +
      `${e.cpuFrequency ? `, ${e.cpuFrequency}` : ''}`);
  }
  if (f.isNum(e.memoryBytes)) lines.push(`- **Memory:** ${f.gib(e.memoryBytes)}`);
  const measured = uniq(configs.map((c) => c.node).filter(Boolean));
  const impl = (c) => (c.acf ? 'AsyncContextFrame' : 'async_hooks');
  const acf = uniq(configs.filter((c) => typeof c.acf === 'boolean').map((c) => `${c.node}: ${impl(c)}`));
  let nodeLine = `- **Node.js:** ${e.node || '?'}`;
  if (measured.length && !(measured.length === 1 && measured[0] === e.node)) nodeLine += ` (runner); servers ran on ${measured.map((v) => versionLabel(v, e.date)).join(', ')}`;
  if (acf.length === 1) nodeLine += ` — AsyncLocalStorage implementation: ${acf[0].split(': ')[1]} (detected at run time)`;
  else if (acf.length > 1) nodeLine += ` — AsyncLocalStorage implementation (detected at run time): ${acf.join(', ')}`;
  lines.push(nodeLine);
  if (e.date) lines.push(`- **Date:** ${String(e.date).replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC')}`);
  if (e.commit || e.dirty !== undefined) {
    lines.push(`- **ctxbench commit:** ${e.commit ? f.code(e.commit) : e.ctxbenchVersion ? `none (installed package ${f.code(e.ctxbenchVersion)})` : 'unknown'}${e.dirty ? ' (with uncommitted changes)' : ''}`);
  }
  if (e.taskset === true) lines.push('- **CPU pinning:** server and load generator pinned to different CPUs with `taskset`');
  else if (e.taskset === false) lines.push('- **CPU pinning:** none (`taskset` unavailable or a single CPU): server and load generator shared CPUs');
  const fp = e.fingerprint;
  if (fp && typeof fp === 'object') {
    lines.push(`- **Machine-speed fingerprint:** ${f.num(fp.cpuUsPerRequest)} µs of server CPU per request, ${f.int(fp.rps)} req/s` +
      ` (${fp.what || '`STRATEGY=none DEPTH=1 HOP=sync`'}, a short unmeasured burst at the start): runs whose fingerprints differ ran on differently fast machines`);
  } else if (run.kind === 'app') {
    lines.push('- **Machine-speed fingerprint:** not taken (`ctxbench app` measures your service, not ctxbench\'s app)');
  } else if ((run.schema || 1) >= 2) {
    lines.push('- **Machine-speed fingerprint:** not recorded (remote targets)');
  }
  lines.push(...noiseLines(e.noise));
  return lines.join('\n');
}

// The warm-up as it was done: runs with the steady rule (bench/warmup.js) record each
// process's bursts; earlier runs had one fixed warm-up.
function warmupText(run) {
  const s = run.settings || {};
  if (!f.isNum(s.warmup)) return s.warmup;
  const w = warmupCounts(run);
  if (!w) return `${s.warmup} s`;
  return `bursts of ${s.warmup} s until the cost per request stops falling: ${w.min}–${w.max} per process (median ${w.median})`;
}

function settingsSection(run) {
  const s = run.settings || {};
  const list = (x) => (Array.isArray(x) ? x.join(', ') : x);
  const items = [
    ['preset', s.preset],
    ['driver', s.driver],
    ['connections', s.connections],
    ['pipelining', s.pipelining],
    ['duration', f.isNum(s.duration) ? `${s.duration} s per sample` : s.duration],
    ['warmup', warmupText(run)],
    ['rounds', f.isNum(s.rounds) ? `${s.rounds}, interleaved` : s.rounds],
    ['baseline', s.baseline ? f.code(s.baseline) : null],
    ['strategies', list(s.strategies)],
    ['depths', list(s.depths)],
    ['hops', list(s.hops)],
    ['frameworks', list(s.frameworks)],
    ['node', list(s.node)],
    ['acf', s.acf],
  ];
  // Shown elsewhere (title, why) or only bookkeeping.
  const known = new Set([...items.map(([k]) => k), 'title', 'why', 'basedOn', 'quick', 'configs', 'targets', 'maxTime', 'methodWhy']);
  if (f.isNum(s.precision)) items.push(['precision', `±${s.precision} pp within ${s.maxTime} s`]);
  for (const [k, v] of Object.entries(s)) {
    // The method with the reason the run chose it (runs since the method follows the measurement).
    if (k === 'method' && s.methodWhy) items.push([k, `${v} (${s.methodWhy})`]);
    else if (!known.has(k) && v !== null && v !== undefined && typeof v !== 'object') items.push([k, v]);
    else if (!known.has(k) && Array.isArray(v) && v.every((x) => typeof x !== 'object')) items.push([k, v.join(', ')]);
  }
  const shown = items.filter(([, v]) => v !== null && v !== undefined && v !== '');
  if (!shown.length) return '';
  return `**Settings:** ${shown.map(([k, v]) => `${k} ${v}`).join(' · ')}`;
}

// ---------------------------------------------------------------- summary table

function leakCell(config, count) {
  if (!carriesContext(config.strategy)) return 'n/a';
  if (!f.isNum(count)) return f.DASH;
  if (count === 0) return '0';
  return `${isControl(config.strategy) ? '⚠' : '❌'} ${f.int(count)}`;
}

function summarySection(run, rows, baseline) {
  const configs = rows.map((r) => r.config);
  const varies = (k) => uniq(configs.map((c) => (k === 'node' ? nodeLabel(c) : k === 'log' ? logOf(c) : c[k]))).length > 1;
  const showFw = varies('framework');
  const showHop = varies('hop');
  const showLog = varies('log');
  const showNode = varies('node');
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
  const duet = run.settings?.method === 'duet';
  const base = baseline ? f.code(baseline) : 'baseline';
  add(duet ? 'solo req/s geo. mean [95% CI]' : 'req/s geo. mean [95% CI]', 'r');
  add(duet ? 'solo p99 ms' : 'p99 ms', 'r');
  add(duet ? `% of ${base}: CPU/req in duet [95% CI]` : `% of ${base} [95% CI]`, 'r');
  add('Verdict');
  add(duet ? `req/s on the shared CPU vs ${base} [95% CI]` : `CPU/req vs ${base} [95% CI]`, 'r');
  add('CPU µs/req', 'r');
  const showElu = rows.some((r) => f.isNum(r.summary.elu?.median));
  if (showElu) add('ELU', 'r');
  add('Mismatches', 'r');
  add('Lost', 'r');

  const body = rows.map(({ config: c, summary: s }) => {
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
      const third = duet ? s.sharedRatio : s.cpuRatio;
      cells.push(isBase || !third || !f.isNum(third.estimate) ? (isBase ? 'baseline' : f.DASH) : f.withCi(third.estimate, third.ci95, f.pctOf));
      cells.push(f.num(s.cpuUsPerRequest && s.cpuUsPerRequest.median));
      if (showElu) cells.push(f.isNum(s.elu?.median) ? s.elu.median.toFixed(2) : f.DASH);
    }
    cells.push(leakCell(c, s.mismatches), leakCell(c, s.lost));
    return cells;
  });

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
    out.push('', '`HOP=http` rows against `none`: `none` carries no id, so each level sends the downstream an `x-request-id` of zeros where every ' +
      'strategy with an id sends a W3C `traceparent` (handlers/hops.js); the request differs, not only the context. Read those rows against each ' +
      'other (or against `param`) — docs/investigations.md, "Real I/O, `HOP=http`".');
  }
  if (showElu) {
    out.push('', `*ELU* is the server's event-loop utilization (share of the time its loop ran JavaScript), median over the ${run.settings?.method === 'duet' ? 'duet windows (the baseline rows: their solo bursts, as windows are kept on the member beside them)' : 'samples'}: ` +
      'near 1 the loop was saturated, so the figures are capacity; well below 1 the server waited on I/O or on the load generator.');
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
  const disagree = s.disagree && !s.broken && !(s.clientBound && !duet) ? ` ⚠ ${duet ? 'shared-CPU req/s and CPU/req differ' : 'throughput and CPU/req disagree'}` : '';
  return `${flags.length ? `${flags.join(' ')} ` : ''}${s.ratio.verdict}${disagree}`;
}

// Verdicts are per configuration at 5%: with a dozen of them a chance "significant" is to
// be expected now and then (the default run on 9c512e7 called `als` at depth 256 8.2%
// faster; a second run said 96%).
function multiplicityNote(rows) {
  const n = rows.filter(({ summary: s }) => f.isNum(s?.ratio?.pValue) && !s.broken && !s.clientBound).length;
  if (n < 2) return '';
  return ` Each verdict is its own test at 5%, not corrected for the other ${n - 1} in the table: where nothing differs, about 1 in 20 reads ` +
    '"significant" by chance; `ctxbench compare` corrects with Holm, and `ctxbench repro` shows whether a verdict holds in a second run.';
}

// One line under the table so that "% of baseline" can be checked against the figures beside it.
function ratioNote(run, rows = []) {
  if (run.settings?.method === 'duet') return duetRatioNote(run, rows);
  const two = (run.schema || 1) >= 2;
  return `*req/s* is each configuration's own level: ${two ? 'the geometric mean over blocks (server processes) of each block\'s geometric mean, ' +
    'with a t-interval over the block means' : 'the geometric mean of its rounds, with a t-interval over the rounds'}. ` +
    '*% of baseline* is not the ratio of two req/s figures: it is the geometric mean of the ratios of each sample to the baseline sample ' +
    `measured ${two ? 'right before or after it (averaged per block; interval over blocks)' : 'in the same round'}, which cancels drift that the two levels still carry, ` +
    'so it can differ from their quotient. *CPU/req vs baseline* is the same paired ratio of server CPU µs per request (higher = costlier); ' +
    '"disagree" = its interval, read as throughput, does not overlap the throughput interval.' +
    multiplicityNote(rows) +
    ((run.settings?.driver ?? 'autocannon') === 'autocannon'
      ? ' *p99 ms* is the median across samples of the load generator\'s p99, which autocannon records in whole milliseconds: "< 1" is under a millisecond.'
      : '');
}

function duetRatioNote(run, rows) {
  const s = run.settings;
  return `*% of baseline* is measured in a duet: the configuration and a fresh baseline process under load at the same time on one CPU, ${s.connections} connections each; ` +
    `per ${s.window}-s window, the baseline's server CPU µs per request ÷ this one's (so 95% = it costs about 5% more CPU per request; read it like throughput on one CPU). ` +
    'The log ratios are averaged per block (a pair of fresh processes) and the 95% CI is a t-interval over blocks. ' +
    '*req/s on the shared CPU* is the ratio of requests the two servers served in the same windows: equal to the CPU ratio only when both got the same share of the CPU (see "How the ratios were measured"). ' +
    '*solo req/s* and *solo p99* come from a short burst of each configuration alone (the CPU to itself), after its duet; they never feed the ratio.' +
    multiplicityNote(rows) +
    ' p99 is autocannon\'s, recorded in whole milliseconds: "< 1" is under a millisecond.';
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
  const differs = (r) => Array.isArray(r.summary.ratio?.ci95) && (r.summary.ratio.ci95[0] > 1 || r.summary.ratio.ci95[1] < 1);
  const cell = (r) => `${f.code(r.config.id)} ${f.pctOf(r.summary.ratio.estimate)} [${r.summary.ratio.ci95.map((x) => f.pctOf(x)).join('–')}]`;
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
    notes.push(`⚠ **In-run A/A check failed:** ${off.map(cell).join('; ')} ` +
      `of a baseline that ${twins.length ? 'is the same configuration in a second process' : 'does the same server work'}. A difference that is not there was measured, so every ratio of this run may carry the same bias; ` +
      'the ratios may overstate or understate each cost by as much (docs/investigations.md).');
  }
  const near = twins.length ? sameWork.filter(differs) : [];
  if (near.length && !off.length) {
    notes.push(`ⓘ ${near.map(cell).join('; ')}: a strategy that does nearly the same server work as its baseline differs from it by about ` +
      `${near.map((r) => f.change(r.summary.ratio.estimate)).join(', ')}, while the A/A twin (the baseline in a second process) covers 100%: ` +
      'so the method shows no bias there. The two execute the same number of instructions per request (within 0.2% under callgrind), so the difference lies in what ' +
      'instruction counts do not see (caches, memory, scheduling); it is not explained yet (docs/investigations.md). A difference this small was below what the earlier sequential runs could see.');
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
      notes.push(`⚠ \`global\` is the deliberately broken control (a module-level variable). It leaked in ${leaked.length} of ${control.length} ` +
        `configuration(s) (${leaked.map((r) => `depth ${r.config.depth}: ${f.int(r.summary.mismatches)} mismatches, ${f.int(r.summary.lost)} lost`).join('; ')}) — ` +
        'expected: it proves the integrity check catches a leak. Its throughput is not a usable option.');
    }
    if (quiet.length) {
      const hops = uniq(quiet.map((r) => r.config.hop)).join(', ');
      notes.push(`⚠ The \`global\` control did **not** leak in ${quiet.length} configuration(s) (hop ${hops}). ` +
        'Requests did not interleave enough to expose a leak (with microtask-only hops such as `await` they never do), so zero ' +
        'mismatches of the other strategies there prove nothing about their correctness; the `immediate`, `timeout` and I/O hops can.');
    }
  }
  const broken = rows.filter((r) => !isControl(r.config.strategy) && carriesContext(r.config.strategy) && (r.summary.mismatches > 0 || r.summary.lost > 0));
  for (const r of broken) {
    notes.push(`❌ **${f.code(r.config.id)} returned wrong context:** ${f.int(r.summary.mismatches)} responses carried another request's id ` +
      `and ${f.int(r.summary.lost)} carried none. This strategy is not safe in this configuration.`);
  }
  for (const r of rows) {
    const e = r.summary.errors || 0;
    const x = r.summary.non2xx || 0;
    if (e || x) notes.push(`${f.code(r.config.id)}: ${f.int(e)} request errors, ${f.int(x)} non-2xx responses.`);
  }
  notes.push(...sameWorkNotes(rows));
  const unpaired = rows.filter((r) => r.summary.ratio && r.summary.ratio.pValue !== null && r.summary.ratio.paired === false);
  if (unpaired.length) {
    notes.push(`${unpaired.length} ratio(s) had no recorded pairs with their baseline and have no interval.`);
  }
  const s = run.settings || {};
  if (f.isNum(s.rounds) && rows.some((r) => r.summary.n > 0 && r.summary.n < s.rounds)) {
    notes.push(`Some configurations have fewer than the ${s.rounds} planned rounds (see the per-configuration detail).`);
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
    lines.push(`- ${f.code(c.id)}: ${String(msg).split('\n')[0]}${measured ? ` (after ${measured} measured round(s), which are kept above)` : ''}`);
    if (c.error.stderrTail) {
      lines.push('', '  <details><summary>server stderr (tail)</summary>', '', f.fence(String(c.error.stderrTail).trimEnd()).replace(/^/gm, '  '), '', '  </details>', '');
    }
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------- per-config detail

function detailSection(rows) {
  const withData = rows.map((r) => ({ ...r, detail: configDetail(r.config) })).filter((r) => r.detail);
  if (!withData.length) return '';
  const out = [
    '<details><summary>Per-configuration latency and throughput (autocannon layout)</summary>',
    '',
    'Latency: each column is the median, across rounds, of what autocannon reported for that round. ' +
      'Req/Sec and Bytes/Sec: the spread of the per-round averages across rounds ' +
      '(so 2.5% … Max describe round-to-round variation, not per-second variation).',
    '',
  ];
  const cols = LATENCY_COLUMNS;
  for (const { config: c, summary: s, detail: d } of withData) {
    const lat = d.latency;
    const body = [['Latency (ms)', ...cols.map((k) => (k === 'avg' || k === 'stdev' ? f.num(lat[k]) : f.wholeMs(lat[k])))]];
    if (d.rps) body.push(['Req/Sec', ...cols.map((k) => f.int(d.rps[k]))]);
    if (d.bytesPerSec) body.push(['Bytes/Sec', ...cols.map((k) => f.bytes(d.bytesPerSec[k]))]);
    const extra = [];
    if (f.isNum(d.rssMB)) extra.push(`RSS ${f.num(d.rssMB)} MB`);
    if (f.isNum(s.cpuUsPerRequest.median)) extra.push(`server CPU ${f.num(s.cpuUsPerRequest.median)} µs/request`);
    if (f.isNum(d.loadgenCpuMax)) extra.push(`load generator CPU up to ${Math.round(d.loadgenCpuMax * 100)}% of a core`);
    if (f.isNum(d.requests)) extra.push(`${f.int(d.requests)} requests`);
    out.push(`**${f.code(c.id)}** — ${d.rounds} round(s)${extra.length ? `; ${extra.join(', ')}` : ''}`, '');
    out.push(f.table(['Stat', '2.5%', '50%', '97.5%', '99%', 'Avg', 'Stdev', 'Max'], body, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']), '');
  }
  out.push('</details>');
  return out.join('\n');
}

// ---------------------------------------------------------------- depth sweep

function depthGroups(rows) {
  const groups = new Map();
  for (const r of rows) {
    const k = groupKey(r.config);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  return [...groups.values()].filter((g) => uniq(g.map((r) => r.config.depth)).length >= 2);
}

function depthSweepSection(run, rows, baseline) {
  const groups = depthGroups(rows);
  if (!groups.length) return '';
  const strat = strategyOrder(run);
  const out = [f.heading(3, 'Depth sweep'), '',
    'Laid out like the App Engine study (seed 004): one row per strategy, one column per call depth. ' +
    'Cells: mean latency (median across samples) · req/s (geometric mean) [its 95% CI]. ' +
    `"vs ${baseline ? f.code(baseline) : 'baseline'}" rows: ${run.settings?.method === 'duet' ? 'change in capacity (baseline CPU µs per request ÷ this one\'s, measured in duet)' : 'change in req/s'} with its 95% CI; n.s. = not significant (p ≥ 0.05).`, ''];
  for (const g of groups) {
    const depths = uniq(g.map((r) => r.config.depth)).sort((a, b) => a - b);
    const strategies = uniq(g.map((r) => r.config.strategy)).sort((a, b) => strat(a) - strat(b));
    const at = (s, d) => g.find((r) => r.config.strategy === s && r.config.depth === d);
    const body = [];
    for (const s of strategies) {
      body.push([f.code(s) + (isControl(s) ? ' (control)' : ''), ...depths.map((d) => {
        const r = at(s, d);
        if (!r || !r.summary.n) return r && r.config.error ? 'failed' : f.DASH;
        const lat = meanLatency(r.config);
        const { estimate, ci95 } = r.summary.rps;
        const pm = ci95 && estimate ? ` [${f.int(ci95[0])}–${f.int(ci95[1])}]` : '';
        return `${f.num(lat)} ms · ${f.int(estimate)}${pm} req/s`;
      })]);
      const hasRatio = depths.some((d) => at(s, d) && at(s, d).summary.ratio && f.isNum(at(s, d).summary.ratio.estimate));
      if (s !== baseline && strategies.includes(baseline) && hasRatio) {
        body.push([`↳ vs ${f.code(baseline)}`, ...depths.map((d) => {
          const r = at(s, d);
          const q = r && r.summary.ratio;
          if (!q || !f.isNum(q.estimate)) return f.DASH;
          if (r.summary.broken) return BROKEN;
          if (r.summary.clientBound) return '⚠ client-bound, no verdict';
          const ci = q.ci95 ? ` [${f.change(q.ci95[0])}, ${f.change(q.ci95[1])}]` : '';
          const sig = q.pValue !== null && q.pValue < 0.05 ? '' : ' n.s.';
          return `${f.change(q.estimate)}${ci}${sig}`;
        })]);
      }
    }
    if (groups.length > 1) out.push(`**${groupLabel(g[0].config)}**`, '');
    out.push(f.table(['Strategy', ...depths.map((d) => `Call depth ${d}`)], body, ['l', ...depths.map(() => 'r')]), '');
  }
  return out.join('\n').trimEnd();
}

// The App Engine study's servers logged a line per level: each strategy's ratio to the
// baseline without and with that (analysis/index.js logEffect).
function logSection(run, baseline) {
  const logged = logEffect(run);
  if (!logged) return '';
  const base = baseline ? f.code(baseline) : 'the baseline';
  const cell = (r) => (!r ? f.DASH : r.broken ? 'ids lost' : f.withCi(r.estimate, r.ci95, f.pctOf));
  const body = logged.rows.map((r) => [f.code(r.strategy) + (isControl(r.strategy) ? ' (control)' : ''),
    ...r.cells.map((c) => (c.none || c.stdout ? `${cell(c.none)} → ${cell(c.stdout)}` : f.DASH))]);
  return [f.heading(4, 'With a log line per level (`LOG=none` → `LOG=stdout`)'), '',
    `% of ${base} without and with a Cloud Logging line written at every level, as the App Engine study's servers did. ` +
      `In ${logged.closer} of ${logged.cells} cells (strategies that kept their ids) the logged ratio is nearer 100%` +
      (logged.cells && logged.closer >= 0.8 * logged.cells
        ? `: formatting and writing the lines is a fixed cost per level that ${base} pays too, so it dilutes the context's share of the work — a study that logs at every level sees a smaller relative cost than one that does not.`
        : '.') +
      ' "ids lost": the strategy lost the context there (see the table above), so its cost is not comparable.', '',
    f.table(['Strategy', ...logged.depths.map((d) => `Call depth ${d}`)], body, ['l', ...logged.depths.map(() => 'r')])].join('\n');
}

async function chartsSection(run, rows, ctx) {
  const groups = depthGroups(rows);
  if (!groups.length || !ctx || !ctx.chartsDir) return '';
  const multi = groups.length > 1;
  const points = [];
  for (const g of groups) {
    for (const r of g) {
      if (!r.summary.n) continue;
      points.push({
        series: multi ? `${r.config.strategy} (${[r.config.framework, r.config.hop, nodeLabel(r.config), ...(logOf(r.config) === 'none' ? [] : [`LOG=${logOf(r.config)}`])].join('/')})` : r.config.strategy,
        depth: r.config.depth,
        rps: r.summary.rps.estimate,
        lo: r.summary.rps.ci95 ? r.summary.rps.ci95[0] : null,
        hi: r.summary.rps.ci95 ? r.summary.rps.ci95[1] : null,
        p99: r.summary.p99.median,
        blocks: r.summary.blocks || null,
      });
    }
  }
  if (!points.length) return '';
  const strat = strategyOrder(run);
  points.sort((a, b) => strat(a.series.split(' ')[0]) - strat(b.series.split(' ')[0]) || a.depth - b.depth);
  const name = ctx.name || 'run';
  fs.mkdirSync(ctx.chartsDir, { recursive: true });
  const files = [
    { file: path.join(ctx.chartsDir, `${name}-throughput.svg`), alt: 'Throughput by call depth',
      spec: { title: 'Throughput by call depth (geometric mean req/s, 95% CI of the same)', y: 'rps', yTitle: 'req/s (geometric mean)', ci: true } },
    { file: path.join(ctx.chartsDir, `${name}-p99.svg`), alt: 'p99 latency by call depth',
      spec: { title: 'p99 latency by call depth (median of rounds)', y: 'p99', yTitle: 'p99 latency (ms)', ci: false } },
  ];
  const out = [f.heading(3, 'Charts'), ''];
  for (const c of files) {
    const svg = await depthChart({ ...c.spec, points: points.filter((p) => f.isNum(p[c.spec.y])) });
    fs.writeFileSync(c.file, svg);
    if (Array.isArray(ctx.written)) ctx.written.push(c.file);
    const rel = ctx.relativeChartPath ? ctx.relativeChartPath(c.file) : c.file;
    out.push(`![${c.alt}](${encodeURI(rel)})`, '');
  }
  return out.join('\n').trimEnd();
}

// ---------------------------------------------------------------- references

function refTable(header, rows) {
  return f.table(header, rows.map((r) => [r.label, ...r.cells]), ['l', ...header.slice(1).map(() => 'r')]);
}

function referenceBlock(ref) {
  const out = [`**${ref.title}** (seed \`${ref.seed}\`). ${ref.setup}`, ''];
  if (ref.key === 'appEngineDepth') {
    out.push(refTable(['', ...ref.columns], ref.rows));
  } else if (ref.key === 'alsContext') {
    out.push(refTable(['', ...ref.columns], ref.rows));
  } else if (ref.key === 'platformatic') {
    for (const t of ref.tables) out.push(`${t.node}:`, '', refTable(['Scenario', ...ref.columns], t.rows), '');
  }
  out.push('', `Mapping to ctxbench: ${ref.mapping}`);
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

function referencesSection(run) {
  const preset = run.settings && run.settings.preset;
  const keys = references.byPreset[preset];
  if (!keys) return '';
  const out = [f.heading(3, 'Published references (not our measurements)'), '',
    '> Figures quoted verbatim from published write-ups, for orientation only: single runs on other machines and ' +
    'Node versions, with no repetition or confidence interval. Compare *ratios* to ours, not absolute req/s.', ''];
  if (keys.length === 0) {
    out.push('This preset is not one published study. The closest published figures, quoted in the sections of the matching presets:', '');
    for (const ref of references.all) {
      const p = Object.entries(references.byPreset).find(([, v]) => v.includes(ref.key));
      out.push(`- ${ref.title} (seed \`${ref.seed}\`) — reproduce with \`ctxbench run --preset ${p ? p[0] : '?'}\`.`);
    }
    const als = references.platformatic.tables.map((t) => `${t.rows.find((r) => r.label === 'AsyncLocalStorage').cells[2]} (${t.node})`).join(' and ');
    const ae = references.appEngineDepth.rows.find((r) => r.label === 'Impact (-)').cells;
    out.push('', `Headline figures: AsyncLocalStorage kept ${als} of a plain http server's throughput (platformatic); ` +
      `cls-hooked at ${references.alsContext.rows[3].cells[0]} vs ${references.alsContext.rows[0].cells[0]} req/s for parameter passing (als-context); ` +
      `async_hooks latency impact ${ae.join(' / ')} at call depths ${references.appEngineDepth.depths.join(' / ')} (App Engine).`);
  } else {
    for (const k of keys) out.push(referenceBlock(references[k]), '');
  }
  return out.join('\n').trimEnd();
}

// How precisely this run can state a difference: the half-widths of the ratio CIs it
// achieved, against --precision when one was asked for. A claim finer than this is noise.
function precisionSection(run, rows) {
  const achieved = precisionAchieved(rows);
  if (!achieved) return '';
  const { median, worst } = achieved;
  const target = run.settings && run.settings.precision;
  const seconds = f.isNum(run.measuringSeconds) ? ` in ${Math.round(run.measuringSeconds)} s of measuring` : '';
  const lines = [f.heading(3, 'Precision achieved'), '',
    `The 95% CIs of "% of baseline" are ±${median.toFixed(1)} percentage points wide for the median configuration and ` +
    `±${worst.toFixed(1)} pp for the least precise one${seconds}. A difference smaller than that cannot be told from noise in this run.`];
  const comp = rows.filter((r) => r.summary.ratio && r.summary.ratio.components && (run.schema || 1) >= 2);
  if (comp.length) {
    const sd = (v) => (f.isNum(v) ? `${f.num(Math.sqrt(v) * 100)}%` : f.DASH);
    const unit = run.settings?.method === 'duet' ? 'window' : 'pair';
    lines.push('', `Variance components of each ratio (one-way ANOVA of the ${unit} log ratios by block; SDs on the log scale, ≈ % of the ratio):`, '',
      f.table(['Ratio', 'blocks', 'between blocks SD', 'within blocks SD', 'F', 'p'], comp.map((r) => {
        const c = r.summary.ratio.components;
        return [f.code(r.config.id), r.summary.ratio.blocks, sd(c.betweenBlocks), sd(c.withinBlocks), f.num(c.F), f.isNum(c.p) ? c.p.toFixed(3) : f.DASH];
      }), ['l', 'r', 'r', 'r', 'r', 'r']));
  }
  const missing = run.precision && Array.isArray(run.precision.missing) ? run.precision.missing : null;
  if (missing) {
    const p = run.precision;
    lines.push('', missing.length
      ? `⚠ **Target ±${p.target} pp not reached** after ${p.blocks} blocks and ${Math.round(p.elapsedS)} s (cap ${p.maxTimeS} s) for:\n\n` +
        f.table(['Ratio', 'half-width now', 'blocks it would need'],
          missing.map((m) => [f.code(m.id), `±${f.num(m.halfWidthPct)} pp`, f.isNum(m.blocksNeeded) ? f.int(m.blocksNeeded) : 'unknown']), ['l', 'r', 'r'])
      : `✅ Target ±${p.target} pp reached for every ratio after ${p.blocks} blocks.`);
  } else if (f.isNum(target)) {
    const missed = rows.filter((r) => r.summary.ratio && !(r.summary.ratio.halfWidthPct <= target)).map((r) => f.code(r.config.id));
    lines.push('', missed.length
      ? `⚠ **Target ±${target} pp not reached** for ${missed.join(', ')} within the ${run.settings.maxTime} s allowed: read those ratios with their wider intervals, not as an ordering.`
      : `✅ Target ±${target} pp reached for every ratio.`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------- duet

// How a duet run measured its ratios, with the numbers that justify the method: windows
// counted and dropped (and why), the CPU share each server got, the A/A twin, and the
// same configurations measured one after the other when such a run is kept.
function duetSection(run, rows, baseline, ctx = {}) {
  const d = duetMethod(run, rows, ctx.companions?.sequential ?? null);
  if (!d) return '';
  const s = run.settings;
  const lines = [f.heading(3, 'How the ratios were measured: duet'), '',
    `Every arm was loaded **at the same time as a fresh \`${baseline}\` process**, both servers pinned to one CPU and the load generator alone on the other, ` +
    `${s.connections} connections each (groups of ${s.groupSize ?? 2} servers). A warm server on this machine runs 30–70% slower for seconds at a time; ` +
    'two servers loaded together live through the same slow seconds, so the ratio of their CPU time per request in the same window barely moves, ' +
    'where bursts taken one after the other straddle those episodes (docs/method.md). ' +
    `Each pair warmed up until both servers' cost per request stopped changing (${d.warmup ? `${d.warmup.min}–${d.warmup.max} half-windows, median ${d.warmup.median}` : 'no record'}), ` +
    `then ${s.windows} windows of ${s.window} s were counted. A pair of processes took ${f.isNum(d.pairSeconds) ? `${f.num(d.pairSeconds)} s (median)` : '?'} from start to stop.`, ''];
  lines.push(`- **Windows:** ${f.int(d.counted)} counted, ${f.int(d.windows - d.counted)} dropped` +
    (d.dropped.length ? ` (${d.dropped.map(([r, n]) => `${n}× ${r}`).join('; ')})` : '') +
    '. A window counts when every server of the group served requests throughout (each used at least 80% of its fair share of the CPU, together at least 90% of it) and the load generator stayed under 85% of a core.');
  lines.push(`- **CPU share in counted windows:** the measured arm ${f.num(d.shares.arm * 100)}%, the \`${baseline}\` process beside it ${f.num(d.shares.partner * 100)}% (medians); the load generator ${f.num(d.shares.loadgen * 100)}% of its core.`);
  for (const r of d.aa) {
    const q = r.summary.ratio;
    lines.push(`- **A/A check, depth ${r.config.depth}:** a second \`${r.config.strategy}\` process against the first read ${f.withCi(q.estimate, q.ci95, f.pctOf)} — ` +
      (r.covers ? '✅ its interval covers 100%.' : '⚠ its interval does **not** cover 100%: the method measured a difference that is not there; read every ratio of this run with that in mind.'));
  }
  if (d.differ.length) {
    lines.push(`- **Shared-CPU req/s and CPU/req differ** for ${d.differ.map((r) => `${f.code(r.config.strategy)} d${r.config.depth} (its server took ${f.num(r.share * 100)}% of the pair's CPU)`).join(', ')}. ` +
      (d.uneven
        ? 'Both servers were busy, but the kernel splits a CPU between threads, not processes: a strategy that allocates more keeps V8\'s worker threads ' +
          '(concurrent garbage collection) busier, so its process gets more than half of the CPU and serves more requests than its cost per request alone would allow. ' +
          'Measured per thread from /proc for `none` beside `cls-hooked` at depth 8 (docs/method.md): main threads 48.2% and 48.3% of the CPU, V8 worker threads 0.5% and 2.6%. '
        : 'Both servers had even shares of the CPU, so the split of the CPU does not explain it here. ') +
      'CPU per request does not depend on the share a process got, so the verdict is on it; the shared-CPU figure is shown beside it as a second method.');
  }
  // The same preset measured one after the other, when kept (results/runs/<preset>-sequential.json).
  const twin = d.sequential;
  if (twin) {
    const body = twin.rows.map(({ config, sequential: a, duet: b }) => [f.code(config.strategy), config.depth, f.withCi(a.estimate, a.ci95, f.pctOf), `±${f.num(a.halfWidthPct)}`, f.withCi(b.estimate, b.ci95, f.pctOf), `±${f.num(b.halfWidthPct)}`]);
    lines.push('', `**The same configurations measured one after the other** (${f.code(ctx.relativeChartPath ? ctx.relativeChartPath(twin.file) : twin.file)}: ` +
      `${twin.blocks || '?'} blocks of adjacent 1-s bursts, throughput ratio, ${Math.round(twin.measuringSeconds || 0)} s; ctxbench commit ${f.code(twin.commit ?? '?')}) ` +
      `against this duet run (${Math.round(run.measuringSeconds || 0)} s): median half-width ±${f.num(twin.medianHalfWidth.sequential)} pp one after the other, ±${f.num(twin.medianHalfWidth.duet)} pp in duet.`, '',
    f.table(['Strategy', 'Depth', 'one after the other [95% CI]', '±pp', 'duet [95% CI]', '±pp'], body, ['l', 'r', 'r', 'r', 'r', 'r']));
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------- regime shifts

// A level shift in a baseline's series splits the run into two regimes; each ratio of
// that group is shown per regime (analysis/run.js regimeShifts).
function regimeSection(run, rows, baseline) {
  const out = [];
  for (const g of regimeShifts(rows, baseline)) {
    const { shift, unit } = g;
    out.push(`⚠ **Regime shift in ${f.code(g.config.id)}:** ${unit} ${g.first[0]}–${g.first[1]} ran at ${f.int(shift.before)} req/s, ` +
      `${unit} ${g.second[0]}–${g.second[1]} at ${f.int(shift.after)} req/s (${f.change(shift.after / shift.before)}; ` +
      `Welch test at the best split, Bonferroni-corrected over ${shift.splits} splits: p = ${shift.pAdjusted.toFixed(3)}). ` +
      'The machine changed speed during the run; the ratios of this group per regime:', '');
    const cell = (q) => (f.isNum(q.estimate) ? f.withCi(q.estimate, q.ci95, f.pctOf) : f.DASH);
    const body = g.rows.map((r) => [f.code(r.config.strategy), cell(r.perRegime[0]), cell(r.perRegime[1]), r.whole ? cell(r.whole) : f.DASH]);
    if (body.length) out.push(f.table(['Strategy', 'first regime', 'second regime', 'whole run'], body, ['l', 'r', 'r', 'r']), '');
  }
  return out.length ? [f.heading(3, 'Regime shifts'), '', ...out].join('\n').trimEnd() : '';
}

// ---------------------------------------------------------------- section

async function render(run, ctx = {}) {
  const baseline = run.settings && run.settings.baseline;
  const configs = run.configs || [];
  const rows = sortConfigs(run).map((config) => ({ config, summary: summaryOf(config, configs, baseline) }));
  const title = run.title || (run.settings && run.settings.preset ? `${run.settings.preset} preset` : 'ctxbench run');
  const parts = [f.heading(2, title)];

  const meta = [];
  if (ctx.file) meta.push(`from ${f.code(ctx.file)}`);
  meta.push(`${configs.length} configuration${configs.length === 1 ? '' : 's'}`);
  const rounds = uniq(rows.map((r) => r.summary.n)).filter((n) => n > 0);
  const blocks = uniq(rows.map((r) => r.summary.blocks)).filter((n) => n > 0);
  if ((run.schema || 1) >= 2 && blocks.length) {
    meta.push(`${blocks.length === 1 ? blocks[0] : `${Math.min(...blocks)}–${Math.max(...blocks)}`} blocks (fresh server processes) × ${run.settings && run.settings.rounds} rounds`);
  } else if (rounds.length) meta.push(`${rounds.length === 1 ? rounds[0] : `${Math.min(...rounds)}–${Math.max(...rounds)}`} interleaved rounds each`);
  parts.push(`*${meta.join(' · ')}*`);
  if (run.settings && run.settings.why) parts.push(`**What this run is:** ${run.settings.why}.`);
  // A published study has a second run (repro) or says it is a single run.
  const preset = run.settings?.preset;
  if (preset && ctx.companions?.reproduced === false && !ctx.file?.includes('repro')) {
    parts.push(`*A single run: no second run of this preset is committed (\`ctxbench repro --preset ${preset}\` makes one); its intervals are over blocks of fresh processes within the run.*`);
  }
  if (run.status && run.status !== 'complete') {
    parts.push(`> ⚠ **Status: ${run.status}.** ${run.status === 'running' ? 'The run was still in progress when this report was generated' : 'The run stopped early'}: ` +
      'configurations may have fewer rounds than planned, and the intervals are wider for it.');
  }
  if (run.settings && run.settings.quick) parts.push('> ⚠ **Quick run:** short bursts and few rounds; a smoke test, not a measurement.');
  if (!((run.schema || 1) >= 2)) {
    parts.push('> ⓘ **Measured with the earlier design** (run JSON schema 1): one warm server process per configuration for the ' +
      'whole run, samples paired by round. The intervals do not include what a restart of the server changes (JIT decisions, ' +
      'heap layout), so they may be narrower than the run-to-run spread.');
  }

  // results.md shows the lead run briefly (its table and what the table needs); its own
  // page has everything.
  if (ctx.brief) {
    if (ctx.fullPage) parts.push(`The whole run — environment, precision, how the duet ratios were measured, charts, per-configuration detail, references — is on [its own page](${ctx.fullPage}).`);
    if (run.command) parts.push(f.fence(run.command, 'sh'));
    if (rows.length) {
      parts.push(summarySection(run, rows, baseline));
      const notes = integrityNotes(rows, run);
      if (notes.length) parts.push(notes.map((n) => `- ${n}`).join('\n'));
    }
    return parts.join('\n\n').replace(/\n{3,}/g, '\n\n') + '\n';
  }
  parts.push(environmentSection(run));
  if (run.command) parts.push([f.heading(3, 'Command'), '', f.fence(run.command, 'sh')].join('\n'));
  const settings = settingsSection(run);
  if (settings) parts.push(settings);

  parts.push(f.heading(3, 'Results'));
  if (rows.length) {
    parts.push(summarySection(run, rows, baseline));
    const notes = integrityNotes(rows, run);
    if (notes.length) parts.push(notes.map((n) => `- ${n}`).join('\n'));
    const precision = precisionSection(run, rows);
    if (precision) parts.push(precision);
    const duet = duetSection(run, rows, baseline, ctx);
    if (duet) parts.push(duet);
    const regimes = regimeSection(run, rows, baseline);
    if (regimes) parts.push(regimes);
  } else {
    parts.push('No configuration was measured.');
  }
  for (const piece of [failedSection(run), depthSweepSection(run, rows, baseline), logSection(run, baseline),
    preset === 'frameworks' ? frameworksSection(run) : '', storesSection(run), profileSection(run), await chartsSection(run, rows, ctx)]) {
    if (piece) parts.push(piece);
  }
  if (Array.isArray(run.warnings) && run.warnings.length) {
    parts.push([f.heading(3, 'Warnings'), '', ...run.warnings.map((w) => `- ⚠ ${String(w).replace(/\n/g, ' ')}`)].join('\n'));
  }
  const detail = detailSection(rows);
  if (detail) parts.push(detail);
  const refs = referencesSection(run);
  if (refs) parts.push(refs);
  return parts.join('\n\n').replace(/\n{3,}/g, '\n\n') + '\n';
}

module.exports = { render, summaryOf, sortConfigs, environmentSection, settingsSection };
