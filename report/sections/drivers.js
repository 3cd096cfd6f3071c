'use strict';
// results.md: two rate-mode runs of the same configurations by different drivers (issue
// 14: the Artillery engine beside ctxbench's own open-loop driver), side by side. The
// question a reader has is not whether the absolute latencies match (they cannot: the
// drivers connect and time differently, see docs/commands.md) but whether both drivers tell the
// same story about what a strategy adds.
const f = require('../format');
const { isRateConfig } = require('../../analysis/latency');
const latencySection = require('./latency');

const driverOf = (run) => (run.settings && run.settings.driver) || 'autocannon';
const idsOf = (run) =>
  (run.configs || [])
    .filter(isRateConfig)
    .map((c) => c.id)
    .sort();

// results: [{ file, run }] -> [[a, b]]: rate runs whose configuration ids are identical
// and whose drivers differ (the first run of each driver with that matrix).
function driverPairs(results) {
  const rate = results.filter(({ run }) => latencySection.isRateRun(run) && idsOf(run).length > 0);
  const pairs = [];
  for (let i = 0; i < rate.length; i++) {
    for (let j = i + 1; j < rate.length; j++) {
      const a = rate[i];
      const b = rate[j];
      if (driverOf(a.run) === driverOf(b.run)) continue;
      if (idsOf(a.run).join('\n') !== idsOf(b.run).join('\n')) continue;
      if (pairs.some(([x, y]) => x === a || y === b || x === b || y === a)) continue;
      // The engine second, whichever file sorts first.
      pairs.push(driverOf(a.run) === 'autocannon' ? [a, b] : [b, a]);
    }
  }
  return pairs;
}

const summaries = (run) => new Map(latencySection.summaries(run).map((r) => [r.config.id, r]));

const pct = (s, k) => (s && s.held.held && s.percentiles ? s.percentiles[k].estimate : null);

function pctCell(s, k) {
  if (!s) return f.DASH;
  return s.held.held ? latencySection.percentileCell(s, k) : 'not held';
}

// The direction the driver's added p99 points to, or null when it cannot tell.
function direction(s) {
  const a = s && s.held.held && !s.broken && s.added && s.added.p99;
  if (!a || !a.ci95) return null;
  if (a.ci95[0] > 0) return 'adds';
  if (a.ci95[1] < 0) return 'saves';
  return 'no clear difference';
}

function addedCell(s) {
  if (!s || !s.held.held) return f.DASH;
  if (s.broken) return 'context broken';
  return s.added ? latencySection.addedCell(s) : 'baseline';
}

// A row per configuration of the first run, with whether both drivers' verdicts on the
// added p99 agree, and each configuration's ratio of the two drivers' p99.
function comparisonRows(sa, sb, nameA, nameB) {
  const rows = [];
  let agree = 0;
  let judged = 0;
  const ratios = [];
  for (const id of [...sa.keys()]) {
    const x = sa.get(id);
    const y = sb.get(id);
    const dx = direction(x.s);
    const dy = direction(y && y.s);
    let same = f.DASH;
    if (dx && dy) {
      judged++;
      if (dx === dy) agree++;
      same = dx === dy ? `✅ both: ${dx}` : `❌ ${nameA}: ${dx}; ${nameB}: ${dy}`;
    }
    const r = pct(y && y.s, 'p99') / pct(x.s, 'p99');
    if (Number.isFinite(r) && r > 0) ratios.push(r);
    rows.push([
      f.code(id),
      pctCell(x.s, 'p50'),
      pctCell(y && y.s, 'p50'),
      pctCell(x.s, 'p99'),
      pctCell(y && y.s, 'p99'),
      addedCell(x.s),
      addedCell(y && y.s),
      same,
    ]);
  }
  return { rows, agree, judged, ratios };
}

// [{ file, run }, { file, run }] -> markdown
function render([a, b], ctx = {}) {
  const nameA = driverOf(a.run);
  const nameB = driverOf(b.run);
  const sa = summaries(a.run);
  const sb = summaries(b.run);
  const file = (x) => f.code(ctx.relative ? ctx.relative(x.file) : x.file);
  const { rows, agree, judged, ratios } = comparisonRows(sa, sb, nameA, nameB);
  const thin = [sa, sb].some((m) =>
    [...m.values()].some(({ s }) => s.percentiles && Object.values(s.percentiles).some((p) => p.thin)),
  );
  ratios.sort((p, q) => p - q);
  const median = ratios.length ? ratios[Math.floor((ratios.length - 1) / 2)] : null;
  const out = [
    f.heading(2, `Drivers compared: ${nameA} and ${nameB} on the same configurations`),
    '',
    `*${file(a)} and ${file(b)}*`,
    '',
    `The same configurations at the same rates, once with each driver (each run its own blocks of fresh processes). ` +
      'Absolute latencies are not comparable across drivers: they open connections and time requests ' +
      'differently (docs/commands.md, "Load beyond one machine: Artillery"). ' +
      `What should agree is the verdict on what a strategy **adds** to p99 over its baseline: "adds" or ` +
      `"saves" when a driver's 95% interval of the added p99 excludes zero, "no clear difference" when it ` +
      `does not. ` +
      'Each verdict is its own 95% interval, not corrected for the other configurations: where nothing ' +
      'differs, about 1 call in 20 is "adds" or "saves" by chance.',
    '',
    f.table(
      [
        'Configuration',
        `p50 ms ${nameA}`,
        `p50 ms ${nameB}`,
        `p99 ms ${nameA}`,
        `p99 ms ${nameB}`,
        `Added p99 ms ${nameA}`,
        `Added p99 ms ${nameB}`,
        'Same verdict',
      ],
      rows,
      ['l', 'r', 'r', 'r', 'r', 'l', 'l', 'l'],
    ),
    '',
    ...(thin
      ? [
          '\\* fewer requests per block than ~10 beyond that percentile: the figure is imprecise whatever its ' +
            'interval says.',
          '',
        ]
      : []),
    `Verdicts on the added p99 agree in ${agree} of ${judged} configuration${judged === 1 ? '' : 's'} both ` +
      `drivers could judge` +
      (median
        ? `; ${nameB}'s p99 is ${f.num(median)}× ${nameA}'s (median over the ${ratios.length} configurations ` +
          `both held).`
        : '.'),
  ];
  return out.join('\n') + '\n';
}

module.exports = { render, driverPairs };
