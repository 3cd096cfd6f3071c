'use strict';
// The micro pages' tables and lines (report/sections/micro.js, micro-counts.js): a
// scenario's table, the achieved precision, the study's targets per strategy, the settings
// line, and the environment line and strategy label the timed and the counted page share.
const f = require('../format');
const { RESOLUTION_FACTOR, unresolved, achievedPrecision } = require('../../analysis/micro');
const { BROKEN, verdictText } = require('../verdict-text');
const { targetReasonText } = require('../words');
const { formatUs } = require('../../lib/format');

const DASH = f.DASH;

const TARGET_COLUMNS = [
  ['asyncOverhead', 'Async overhead < 5%'],
  ['nestedP99', 'Nested d=5 P99 < 100 µs'],
  ['realWorldOverhead', 'Real-world overhead < 50%'],
  ['perOpOverhead', 'Per-op overhead < 10 µs'],
  ['correct', 'Every read correct'],
];

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
      base ? DASH : ov ? verdictText(ov.judgement, { units: 'rounds' }) : 'no baseline',
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
  if (t.status === 'n/a') return t.reason ? `n/a (${targetReasonText(t.reason)})` : 'n/a';
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

module.exports = {
  strategyLabel,
  environmentLine,
  settingsLine,
  scenarioTable,
  precisionLine,
  targetCell,
  targetsTable,
};
