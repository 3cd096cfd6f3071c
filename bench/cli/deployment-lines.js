'use strict';
// One deployment against its baseline on the terminal, as `deploy` and `app --instance`
// print it: at the autoscaler's operating point, or its capacity within the SLO.
const { latencySummaries } = require('../../analysis');
const { latencyVerdictText } = require('../../report/verdict-text');

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const num = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '—');

const withCi = (x, fmt) =>
  x && Number.isFinite(x.estimate)
    ? `${fmt(x.estimate)}${x.ci95 ? ` [${fmt(x.ci95[0])}–${fmt(x.ci95[1])}]` : ''}`
    : '—';
const ms = (x) => (Number.isFinite(x) ? `${num(x, x < 10 ? 2 : 1)} ms` : '—');

// One deployment at the operating point (`deploy`, `app --instance`; analysis/operating-point.js):
// its throughput per instance against the baseline's, instances per 1,000 req/s, the p99
// there and the throttled share. names: { name (the line's label), base (the baseline's),
// rateOf (whose rate the baseline's is) }; cap: deploy's yamls' caps, or nothing.
function operatingLines(op, { name, base, rateOf = base }, cap = '') {
  const t = op.tails;
  const at = op.ownBlocks ? `at its own rate in ${op.ownBlocks} of ${op.blocks} blocks` : `at ${rateOf}'s rate`;
  const share = (x) => (Number.isFinite(x) ? pct(x) : '—');
  const flight = (side) => (Number.isFinite(op.inFlight?.[side]?.estimate) ? num(op.inFlight[side].estimate, 2) : '—');
  const allowed = op.concurrencyAllowed;
  // Which target set the instances (analysis/operating-point.js boundBy), where the run recorded it.
  const by = (x) => (x === 0 ? 'its CPU' : x === 1 ? 'its requests in flight' : `its requests in flight in ${pct(x)}`);
  const theirs = Number.isFinite(op.boundBy?.baseline) ? ` (${base}: ${by(op.boundBy.baseline)})` : '';
  const bound = Number.isFinite(op.boundBy?.candidate) ? `; set by ${by(op.boundBy.candidate)}${theirs}` : '';
  return [
    `${name}: throughput per instance ${withCi(op.ratio, pct)} of ${base}'s (${at}, ` +
      `${op.blocks} blocks); instances per 1,000 req/s: ${withCi(op.instances.candidate, (x) => num(x, 2))} ` +
      `(${base}: ${withCi(op.instances.baseline, (x) => num(x, 2))})${bound}`,
    `  there: p99 ${t ? withCi({ estimate: t.candidate.p99, ci95: t.candidate.ci95.p99 }, ms) : '—'} ` +
      `(${base}: ${t ? ms(t.baseline.p99) : '—'}); CFS periods throttled ${share(op.throttled.candidate)} ` +
      `(${base}: ${share(op.throttled.baseline)}); requests in flight ${flight('candidate')} (${base}: ` +
      `${flight('baseline')}${Number.isFinite(allowed) ? `; the concurrency target ${num(allowed, 2)}` : ''})` +
      `${cap ? `; ${cap}` : ''}`,
    ...(op.concurrencyBound
      ? [
          `  ⚠ above the concurrency target: its latency, not its CPU, sets the instances an autoscaler runs, ` +
            `so the instances above are a lower bound`,
        ]
      : []),
  ];
}

// The p99 a configuration adds at 50% load, with its interval, or what its summary says instead.
function addedText(added, s) {
  if (!added || !Number.isFinite(added.estimate)) return latencyVerdictText(s?.judgement) ?? '—';
  const ci = added.ci95 ? ` [${num(added.ci95[0], 2)}, ${num(added.ci95[1], 2)}]` : '';
  return `${added.estimate >= 0 ? '+' : ''}${num(added.estimate, 2)} ms${ci}`;
}

// One deployment against its baseline on the terminal (`deploy`, `app --instance`): its
// capacity within the SLO and as % of the baseline's, the p99 it adds at 50% of the
// baseline's capacity, the CFS throttling there, and the instances sentence.
// names: { name (the line's label), candidate, baseline (as the sentence names them) }.
function capacityLines(run, cap, row, { name, candidate = name, baseline }) {
  const half = latencySummaries(run).find(
    (l) => l.config.strategy === row.strategy && Math.abs((l.config.load ?? 0) - 0.5) < 1e-9,
  )?.s;
  const added = half?.added?.p99;
  const at50 = row.rates.find((x) => Math.abs((x.load ?? 0) - 0.5) < 1e-9);
  const r = row.ratio;
  const ci = (x) =>
    x && Number.isFinite(x.estimate)
      ? `${pct(x.estimate)}${x.ci95 ? ` [${pct(x.ci95[0])}–${pct(x.ci95[1])}]` : ''}`
      : '—';
  const cpu = row.cpuBelowKnee
    ? `; CPU per request below the knee: ${ci(row.cpuBelowKnee.ratio)} of the baseline's (a cost under the ` +
      `quota, not a capacity)`
    : '';
  // A capacity ratio the A/A twin cannot resolve is not given (analysis/capacity.js).
  const open = row.resolvable && !row.resolvable.ok;
  const ratioText = open
    ? Number.isFinite(row.resolvable.twinHalfWidthPp)
      ? `not resolvable on this stand-in (its A/A twin reads ±${row.resolvable.twinHalfWidthPp.toFixed(0)} pp)`
      : 'not resolvable against the baseline: no A/A twin measured'
    : `${ci(r)} of the baseline's`;
  const lines = [
    `${name}: capacity within ${cap.slo.text} ${num(row.capacity.estimate, 0)} req/s, ${ratioText}${cpu}; ` +
      `p99 added at 50%: ${addedText(added, half)}; ` +
      `CFS periods throttled at 50%: ${at50 && Number.isFinite(at50.throttledShare) ? pct(at50.throttledShare) : '—'}`,
  ];
  if (row.instances && !open) {
    const per = row.instances.per100;
    lines.push(
      `  to serve ${cap.serve.toLocaleString('en-US')} req/s within ${cap.slo.text} on ` +
        `${run.settings.instance.name}: ${row.instances.baseline} ` +
        `instance${row.instances.baseline === 1 ? '' : 's'} with ${baseline}, ${row.instances.candidate} with ` +
        `${candidate}` +
        (per
          ? `; for every 100 instances with ${baseline}, ` +
            `${num(per.estimate, 0)}${per.ci95 ? ` [${num(per.ci95[0], 0)}–${num(per.ci95[1], 0)}]` : ''} with ` +
            `${candidate}`
          : ''),
    );
  }
  return lines;
}


module.exports = { capacityLines, operatingLines };
