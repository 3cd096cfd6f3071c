'use strict';
// A stand-in run's page (--instance, --slo; analysis/capacity.js): capacity within the SLO
// per deployment with its interval, the candidate's as % of the baseline's, the instances
// it takes to serve a stated load, the latency–load curve per deployment (p99 against the
// rate, the SLO line, the CFS throttling beside it), and what the stand-in reproduces and
// what it does not.
const fs = require('node:fs');
const path = require('node:path');
const f = require('../../format');
const { sloCapacity } = require('../../../analysis');
const { describeInstance, ASSUMPTION } = require('../../../lib/instances');
const { loadChart } = require('../../charts');

const capText = (c) => {
  if (!c || !f.isNum(c.estimate)) return f.DASH;
  const above = c.censored?.some((x) => x.censored === 'above');
  const below = c.censored?.some((x) => x.censored === 'below');
  return `${above ? '≥ ' : below ? '< ' : ''}${f.withCi(c.estimate, c.ci95, f.int)} req/s`;
};

// Whether a capacity ratio's interval leaves 100%, and the twin resolves it: only then is an
// instance count said.
const differs = (r) =>
  Boolean(r.resolvable?.ok !== false && r.ratio?.ci95 && (r.ratio.ci95[1] < 1 || r.ratio.ci95[0] > 1));

// Where the A/A twin's own capacity ratio is wider than the rule allows (analysis/capacity.js).
const unresolved = (x) =>
  Number.isFinite(x.twinHalfWidthPp)
    ? `not resolvable on this stand-in (its A/A twin reads ±${x.twinHalfWidthPp.toFixed(0)} pp)`
    : 'not resolvable: no A/A twin measured';

// What the stand-in is, as every page that uses it must say. method: the run's (a pair's two
// stand-ins at once, or one at a time); a request limit not applied (the curl driver's closed
// loop) is neither reproduced nor said to queue.
function standInNote(instance, { method = 'pair', environment = null } = {}) {
  if (!instance) return '';
  // The clock of the machine that ran it (its run file), never of the one writing the page.
  const mhz = environment?.noise?.before?.cpuMHz?.[0];
  const clock = environment?.cpuFrequency ?? (Number.isFinite(mhz) && mhz > 0 ? `${f.int(mhz)} MHz` : null);
  const limited = Boolean(instance.requestLimit);
  const cloudRun = instance.platform === 'Cloud Run';
  // Below 1 vCPU Cloud Run runs the first-generation environment (docs/deploy.md, "Cloud Run").
  const sandbox = cloudRun
    ? `Cloud Run's ${instance.cpus < 1 ? 'first-generation execution environment (gVisor)' : 'execution environment'}`
    : "App Engine's second-generation sandbox (gVisor)";
  return [
    `**Stand-in:** ${describeInstance(instance)}. Each server ran in a cgroup of its own ` +
      `(${instance.periodUs.toLocaleString('en-US')}-µs CFS period) on the server CPU, ` +
      (method === 'pair' ? 'two at once (the pair), each held to its own quota' : 'one at a time, held to its quota') +
      (limited
        ? "; requests beyond the request limit waited in the load generator's queue and the wait counts in their " +
          `latency, as in ${cloudRun ? "Cloud Run's request queue" : "App Engine's pending queue"}.`
        : '.'),
    `**It reproduces** the CPU quota, the memory limit${limited ? ', the request limit' : ''} and one instance. ` +
      `**It does not reproduce** ${limited ? '' : 'the request limit, '}${sandbox}, autoscaling, the network, ` +
      'or a cold start.',
    ...(instance.mhz
      ? [
          `**Assumption:** ${ASSUMPTION}; the CPU it ran on reports ` +
            `${clock ?? 'no clock'} (${environment?.cpuModel ?? 'its model not recorded'}), so ` +
            `${instance.name}'s ${instance.mhz.toLocaleString('en-US')} MHz is taken as ` +
            `${instance.cpus} of one of its CPUs.`,
        ]
      : []),
  ].join('\n\n');
}

// How analysis/capacity.js sloCapacity reads a capacity, and the CPU per request below the knee.
function capacityRule(cap) {
  const { key, boundMs } = cap.slo;
  return (
    `per block the highest rate whose ${key} stays within ${boundMs} ms (interpolated on the log of the ${key} ` +
    'between the rates tried), a rate not kept counting as over; geometric mean over blocks with a t-interval of the ' +
    `logs; the candidate's as % of the baseline ${
      cap.method === 'pair' ? 'process beside it in the same pairs' : 'measured in the same block'
    }, paired by block`
  );
}

function cpuRule({ kneeLoad, quotaBinds }) {
  return (
    "the baseline's CPU per request ÷ the candidate's over the counted windows of the rates up to " +
    `${kneeLoad * 100}% of the ladder (the knee) in which neither was throttled in more than ${quotaBinds * 100}% of ` +
    'its CFS periods, per block, t-interval over blocks: a cost under the quota, not a capacity (docs/deploy.md)'
  );
}

// Per deployment: its capacity, the baseline's beside it, the ratio, the CPU below the
// knee and the instances it takes.
function capacityTable(cap) {
  const body = cap.rows.map((r) => [
    f.code(r.strategy) + (r.aa ? ' (A/A twin)' : ''),
    r.depth ?? f.DASH,
    capText(r.capacity),
    capText(r.baselineCapacity),
    !r.ratio
      ? f.DASH
      : r.resolvable && !r.resolvable.ok
        ? unresolved(r.resolvable)
        : `${f.withCi(r.ratio.estimate, r.ratio.ci95, f.pctOf)}${r.ratio.censored ? ' *' : ''}`,
    r.cpuBelowKnee?.ratio ? f.withCi(r.cpuBelowKnee.ratio.estimate, r.cpuBelowKnee.ratio.ci95, f.pctOf) : f.DASH,
    r.instances
      ? `${r.instances.candidate}` +
        (r.instances.candidateRange && r.instances.candidateRange[0] !== r.instances.candidateRange[1]
          ? ` [${r.instances.candidateRange[0]}–${r.instances.candidateRange[1]}]`
          : '') +
        ` ` +
        `vs ${r.instances.baseline}`
      : f.DASH,
    r.instances?.per100 ? f.withCi(r.instances.per100.estimate, r.instances.per100.ci95, (x) => x.toFixed(0)) : f.DASH,
  ]);
  return f.table(
    [
      'Deployment',
      'Depth',
      `Capacity within ${cap.slo.text} [95% CI]`,
      'Baseline beside it',
      '% of the baseline [95% CI]',
      'CPU per request below the knee, % of the baseline [95% CI]',
      `Instances for ${f.int(cap.serve)} req/s (vs baseline)`,
      "Per 100 of the baseline's",
    ],
    body,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
}

// A sentence per deployment whose instance count differs from the baseline's, and one for
// those that cannot tell.
function instanceSentences(cap) {
  const sentences = cap.rows
    .filter((r) => r.instances && !r.aa && differs(r))
    .map(
      (r) =>
        `to serve ${f.int(cap.serve)} req/s within ` +
        `${cap.slo.text}${cap.instance ? ` on ${cap.instance.name}` : ''}: ${r.instances.baseline} ` +
        `instance${r.instances.baseline === 1 ? '' : 's'} with the baseline, ${r.instances.candidate} with ` +
        `${f.code(r.strategy)}${r.depth ? ` (depth ${r.depth})` : ''}`,
    );
  const unsure = cap.rows
    .filter((r) => r.instances && !r.aa && r.resolvable?.ok !== false && !differs(r))
    .map((r) => `${f.code(r.strategy)}${r.depth ? ` (depth ${r.depth})` : ''}`);
  if (unsure.length)
    sentences.push(
      `${unsure.join(', ')}: cannot tell from the baseline in instances (the capacity ratio's interval spans 100%)`,
    );
  return sentences;
}

// Per rate: the deployment's own figures, the kernel's throttling beside them.
function perRateLines(run, cap) {
  const rateRows = cap.rows.flatMap((r) =>
    r.rates.map((x) => [
      f.code(r.strategy) + (r.aa ? ' (A/A)' : ''),
      r.depth ?? f.DASH,
      `${f.int(x.rate)}${f.isNum(x.load) ? ` (${Math.round(x.load * 100)}%)` : ''}`,
      x.held ? '✅' : `❌ ${x.heldBlocks}/${x.blocks}`,
      ...['p50', 'p99', 'p99_9'].map((k) => (x[k] ? f.withCi(x[k].estimate, x[k].ci95, f.num) : f.DASH)),
      f.num(x.cpuUsPerRequest),
      f.isNum(x.throttledShare) ? f.pctOf(x.throttledShare) : f.DASH,
      f.num(x.throttledMsPerS),
      f.isNum(x.memoryPeakMB)
        ? `${f.num(x.memoryPeakMB)}${cap.instance ? ` / ${Math.round(cap.instance.memoryBytes / 2 ** 20)}` : ''}`
        : f.DASH,
    ]),
  );
  return [
    f.heading(4, 'Per rate'),
    '',
    f.table(
      [
        'Deployment',
        'Depth',
        `req/s (% of the ` +
          `${run.learned?.capacity?.knee || run.learned?.capacity?.groups?.some((g) => g.knee) ? 'knee' : 'capacity'})`,
        'Rate kept',
        'p50 ms',
        'p99 ms',
        'p99.9 ms',
        'CPU µs/req (cgroup)',
        'CFS periods throttled',
        'Throttled ms/s',
        'Peak MiB / limit',
      ],
      rateRows,
      ['l', 'r', 'r', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
  ];
}

async function capacitySection(run, ctx = {}) {
  const cap = sloCapacity(run);
  if (!cap) return '';
  const out = [f.heading(3, `Capacity within ${cap.slo.text}`), ''];
  const note = standInNote(cap.instance, {
    method: run.settings?.method,
    environment: run.environment,
  });
  if (note) out.push(note, '');
  const cpu = cap.cpuRule ? ` *CPU per request below the knee* is ${cpuRule(cap.cpuRule)}.` : '';
  out.push(
    `*Capacity* is ${capacityRule(cap)}.${cpu} *Instances* serve ${f.int(cap.serve)} req/s at that ` +
      "capacity each (one instance per capacity, rounded up; autoscaling's target utilisation would add more); " +
      '*per 100* is how many the deployment needs where the baseline needs 100.',
    '',
  );
  out.push(capacityTable(cap), '');
  if (cap.rows.some((r) => r.ratio?.censored))
    out.push(
      '\\* a block where a deployment kept the SLO at every rate tried (≥) or missed it at the lowest: its ' +
        'capacity is a bound, not a crossing.',
      '',
    );
  const sentences = instanceSentences(cap);
  if (sentences.length) out.push(sentences.map((x) => `- ${x[0].toUpperCase()}${x.slice(1)}.`).join('\n'), '');
  out.push(...perRateLines(run, cap));
  const chart = await curveChart(cap, ctx);
  if (chart) out.push(chart, '');
  return out.join('\n').trimEnd();
}

// p99 against the rate per deployment (log scale), the SLO as a line.
async function curveChart(cap, ctx) {
  if (!ctx.chartsDir) return '';
  const points = [];
  const seen = new Set();
  for (const r of cap.rows) {
    for (const [series, rates] of [
      [r.strategy, r.rates],
      [`${r.baselineId?.split('/')[1] ?? 'baseline'} (baseline)`, r.baselineRates],
    ]) {
      if (seen.has(`${series}/${r.depth}`) && series.endsWith('(baseline)')) continue;
      seen.add(`${series}/${r.depth}`);
      for (const x of rates) {
        const p = x[cap.slo.key];
        if (p && x.held)
          points.push({
            series: r.depth === null || r.depth === undefined ? series : `${series} d${r.depth}`,
            x: x.rate,
            y: p.estimate,
            lo: p.ci95?.[0] ?? null,
            hi: p.ci95?.[1] ?? null,
            blocks: p.n,
          });
      }
    }
  }
  if (!points.length) return '';
  fs.mkdirSync(ctx.chartsDir, { recursive: true });
  const file = path.join(ctx.chartsDir, `${ctx.name || 'capacity'}-latency-load.svg`);
  const svg = await loadChart({
    title:
      `${cap.slo.key} against the rate${cap.instance ? ` on ${cap.instance.name} stand-ins` : ''} (geometric ` +
      `mean over blocks, 95% CI)`,
    points: points.sort((a, b) => a.x - b.x),
    xTitle: 'rate (req/s per server)',
    yTitle: `${cap.slo.key} latency (ms, log scale)`,
    yLog: true,
    rule: { y: cap.slo.boundMs, label: `SLO ${cap.slo.text}` },
  });
  fs.writeFileSync(file, svg);
  if (Array.isArray(ctx.written)) ctx.written.push(file);
  return `![${cap.slo.key} against the rate](${encodeURI(ctx.relativeChartPath ? ctx.relativeChartPath(file) : file)})`;
}

module.exports = { capacitySection, standInNote };
