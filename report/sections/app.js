'use strict';
// results.md section for a `kind: "app"` JSON (`ctxbench app`): the user's own service,
// two start commands measured in duet, or with --instance as stand-ins of an instance in
// pairs at fixed rates. Formats analysis/index.js analyzeApp().
const f = require('../format');
const { analyzeApp } = require('../../analysis');
const { equivalenceText, ratioVerdictText } = require('../verdict-text');
const { AT_SATURATION, caveatText, predictErrorText, predictWhyText } = require('../words');
const { environmentSection } = require('./run');
const { capacitySection } = require('./run/capacity');
const { operatingSection } = require('./run/operating');

function idsCell(ids) {
  if (!ids) return f.DASH;
  if (!ids.checked) return 'not checked (no --id-header)';
  const bad = ids.mismatches + ids.lost;
  return `${bad ? '❌' : '✅'} ${f.int(ids.kept)} kept, ${f.int(ids.mismatches)} mismatched, ${f.int(ids.lost)} lost`;
}

// The page's head, whichever way the two commands were measured: title, what was measured,
// how, the command, the environment, and the Results heading.
function head(run, a, ctx, { title = 'Your service', meta: extra, how }) {
  const lines = [f.heading(2, run.title || title), ''];
  const meta = ['kind `app`', ...extra];
  if (ctx.file) meta.push(`from ${f.code(ctx.file)}`);
  meta.push(
    `${a.blocksRun} block(s) of fresh processes` + (a.blocks < a.blocksRun ? ` (windows counted in ${a.blocks})` : ''),
    `${a.windows.counted} windows counted${a.windows.dropped ? `, ${a.windows.dropped} dropped` : ''}`,
  );
  if (run.status) meta.push(`status ${run.status}`);
  lines.push(`*${meta.join(' · ')}*`, '');
  if (run.status === 'failed' || run.status === 'interrupted')
    lines.push(
      `> ⚠ The run ${run.status === 'failed' ? 'failed' : 'was interrupted'}: what it measured before is below.`,
      '',
    );
  lines.push(how, '');
  if (run.command) lines.push(f.fence(run.command, 'sh'), '');
  lines.push(
    '*One run: its intervals are over blocks of fresh processes within the run; run the command again to see ' +
      'where a second run lands.*',
    '',
  );
  lines.push(environmentSection(run), '');
  lines.push(f.heading(3, 'Results'), '');
  return lines;
}

function render(run, ctx = {}) {
  if (run.settings?.method === 'pair') return renderOnInstance(run, ctx);
  const a = analyzeApp(run);
  const s = run.settings || {};
  const [base, cand] = run.configs || [];
  const lines = head(run, a, ctx, {
    meta: [],
    how:
      'Two start commands of the same service, measured in duet: per block a fresh process of each, both ' +
      'pinned to one CPU and loaded at ' +
      "the same time from the other; per window, each side's CPU per request (its process and children, from /proc). " +
      "*% of baseline* is the baseline's CPU per request ÷ the candidate's, log ratios averaged per block, " +
      '95% CI over blocks: read it like throughput on one CPU.',
  });
  if (run.predict) lines.push(predictSection(run.predict), '');
  if (!cand) {
    const errors = (run.configs || []).filter((c) => c.error);
    if (errors.length) lines.push(...errors.map((c) => `- ${f.code(c.name)} failed: ${f.cell(c.error.message)}`));
    return `${lines.join('\n')}\n`;
  }
  const r = a.ratio;
  const rows = [base, cand].filter(Boolean).map((c) => {
    const isBase = c === base;
    const ratio = isBase ? 'baseline' : r && f.isNum(r.estimate) ? f.withCi(r.estimate, r.ci95, f.pctOf) : f.DASH;
    const eq = isBase || a.broken ? null : r?.judgement?.equivalence;
    return [
      f.code(c.name),
      f.code(c.command),
      ratio,
      isBase ? '' : (ratioVerdictText(r, a) ?? 'not enough windows'),
      eq ? `${equivalenceText(eq)} (90% CI ${f.pctOf(eq.ci90[0])}–${f.pctOf(eq.ci90[1])})` : '',
      f.num(a.cpuUsPerRequest?.[c.arm]),
      f.int(a.requestsPerWindow?.[c.arm]),
      idsCell(a.ids[c.arm]),
    ];
  });
  lines.push(
    f.table(
      [
        'Side',
        'Command',
        '% of baseline: CPU/req in duet [95% CI]',
        'Verdict',
        'Equivalence (two one-sided tests at 5%)',
        'CPU µs/req (median window)',
        'Requests per window (median)',
        `Ids${s.idHeader ? ` (${f.code(s.idHeader)})` : ''}`,
      ],
      rows,
      ['l', 'l', 'r', 'l', 'l', 'r', 'r', 'l'],
    ),
    '',
  );
  lines.push(
    `Load: ${(s.paths || ['/']).map(f.code).join(', ')} in turn, ${f.int(s.connections)} connections per ` +
      `side, ${s.windows} windows of ${s.window} s per block after ` +
      `${s.warmup} s of unmeasured load; ready when ${f.code(s.health || '/')} answered 2xx.`,
  );
  const beside = besideText(run);
  if (beside) lines.push('', beside);
  if (a.probe)
    lines.push(
      '',
      `${probeText(a.probe)}. Counted with an async_hooks init counter preloaded through NODE_OPTIONS into ` +
        `one more process of each side (${f.int(a.probe.sides[1].requests)} requests on ` +
        `${f.code(a.probe.sides[1].path)} at ${a.probe.sides[1].concurrency} in flight), never into a measured ` +
        `one.`,
    );
  return endOfPage(lines, a, run);
}

// How an --instance run measured, at the operating point or at a ladder of rates.
const targetHow = (s) =>
  `Two start commands of the same service, each as a stand-in of ${s.instance?.name ?? 'an instance'}: per ` +
  'block a fresh process of each, warmed closed loop, both sent the same open-loop schedule at once (the ' +
  `pair) at the autoscaler's operating point, the rate at which the baseline used ${Math.round(s.targetCpu * 100)}% ` +
  'of its quota (or held the requests in flight its concurrency target allows, where that came first), searched ' +
  "per block; every latency timed from the request's intended send time; the positions " +
  'swapped between blocks.';

const ladderHow = (s, known) =>
  `Two start commands of the same service, each as a stand-in of ${s.instance?.name ?? 'an instance'}: ` +
  `the baseline stand-in's closed-loop capacity${known?.knee ? ' and open-loop knee' : ''} ` +
  `first` +
  (known
    ? ` (${f.int(known.rps)} req/s` +
      (known.knee
        ? `, knee ${known.knee.censored === 'above' ? '≥ ' : ''}${f.int(known.knee.rps)} req/s, the 100% of the rates`
        : '') +
      `: ${known.method})`
    : '') +
  `, ` +
  'then per block and rate a fresh process of each, both sent the same open-loop schedule at once (the ' +
  'pair at a fixed rate), ' +
  "every latency timed from the request's intended send time; the positions swapped between blocks.";

// `ctxbench app --instance`: the two sides as stand-ins of an instance, in pairs at the
// autoscaler's operating point (report/sections/run/operating.js) or at a ladder of rates
// (the capacity within the SLO leads: report/sections/run/capacity.js).
async function renderOnInstance(run, ctx) {
  const a = analyzeApp(run);
  const s = run.settings || {};
  const known = run.learned?.capacity;
  const [baseName, candName] = (run.configs || []).map((c) => c.name);
  const lines = head(run, a, ctx, {
    title: 'Your service on an instance',
    meta: ['method pair'],
    how: s.targetCpu ? targetHow(s) : ladderHow(s, known),
  });
  if (s.targetCpu) {
    const candidate = (run.configs || []).find((c) => c.arm === 'candidate');
    const op = operatingSection(run, { app: { baseline: baseName, row: { config: candidate, op: a.operating } } });
    const none = `No figure at the operating point: too few windows of ${f.code(candName ?? 'the candidate')}.`;
    lines.push(op || none, '');
  } else {
    const cap = await capacitySection(run, { ...ctx, name: ctx.name || 'app' });
    if (cap) lines.push(cap, '');
  }
  const sides = (run.configs || []).filter((c, i, all) => all.findIndex((x) => x.arm === c.arm) === i);
  lines.push(
    f.table(
      ['Side', 'Command', `Ids${s.idHeader ? ` (${f.code(s.idHeader)})` : ''}`],
      sides.map((c) => [f.code(c.name), f.code(c.command), idsCell(a.ids[c.arm])]),
      ['l', 'l', 'l'],
    ),
    '',
  );
  lines.push(
    `Load: ${f.code((s.paths || ['/'])[0])}, at most ${f.int(s.connections)} request(s) in flight per side ` +
      `(the instance's request limit), ${s.windows} windows of ${s.window} s per pair after its warm-up; ready ` +
      `when ${f.code(s.health || '/')} answered 2xx.`,
  );
  const beside = besideText(run);
  if (beside) lines.push('', beside);
  if (a.probe) lines.push('', `${probeText(a.probe)}.`);
  return endOfPage(lines, a, run);
}

// --with: what ran beside the service for the whole run, and what the agents' sink received
// (an agent's cost follows the spans it sends: docs/model.md).
function besideText(run) {
  const names = run.settings?.with ?? [];
  if (!names.length) return '';
  const servers = {
    mariadb: run.learned?.mysql?.server,
    postgres: run.learned?.postgres && `PostgreSQL (${run.learned.postgres})`,
    redis: run.learned?.redis?.server,
  };
  const parts = names.map((n) => servers[n] || (n === 'sink' ? "ctxbench's agent sink" : n));
  const sink = run.agentSink?.counts;
  const sent = sink
    ? ['sentry', 'datadog']
        .filter((a) => sink[a]?.posts)
        .map((a) => `${a}: ${f.int(sink[a].posts)} posts, ${f.int(sink[a].spans)} spans`)
    : [];
  return (
    `Beside the service (\`--with\`, on the load CPU, for the whole run, warm-ups included): ` +
    `${parts.join(', ')}.${sent.length ? ` The sink received ${sent.join('; ')}.` : ''}`
  );
}

// --predict (docs/model.md): the model applied, the scale, a row per strategy, and the
// candidate's measurement beside its prediction.
// The kinds of async resource a request creates, most first (what the model's terms are
// fitted on is a mix of its own: docs/model.md).
function resourceMix(probe) {
  const byType = Object.entries(probe?.perRequest?.byType ?? {})
    .filter(([, n]) => n >= 0.05)
    .sort((a, b) => b[1] - a[1]);
  return byType.map(([type, n]) => `${type} ${n.toFixed(1)}`).join(', ');
}

// The range of async resources per request the model's claimed terms were fitted on.
const fittedRange = (model) => (Array.isArray(model?.rangeR) ? model.rangeR.map((x) => x.toFixed(0)).join('–') : null);

// A prediction's word (analysis/model.js: claimed, not validated, not modelled), with the
// count behind a "not validated"; '' for a row recorded before the words (issue 61).
function wordText(row) {
  if (!row?.word) return '';
  const v = row.validation;
  if (row.word !== 'not validated' || !v) return row.word;
  return `not validated (${v.within} of ${v.judged} judged held-out point${v.judged === 1 ? '' : 's'} within)`;
}

// The reference server's STRATEGY, DEPTH and HOP as `K=V` words, or 'none'.
function referenceEnv(p) {
  if (!p.reference?.env) return 'none';
  return Object.entries(p.reference.env)
    .filter(([k]) => ['STRATEGY', 'DEPTH', 'HOP'].includes(k))
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

// The strategies whose prediction carries a caveat (an agent's), with it in words.
function caveatLines(rows) {
  const caveated = rows.filter((x) => x.caveat);
  if (!caveated.length) return [];
  const who = caveated.map((x) => f.code(x.strategy)).join(', ');
  return ['', `${who}: ${caveatText(caveated[0].caveat)} (docs/model.md).`];
}

function predictSection(p) {
  const out = [f.heading(4, 'Predicted by the cost model'), ''];
  const rt = p.probe?.runtime;
  out.push(
    `The service creates ` +
      `${f.isNum(p.probe?.perRequest?.total) ? p.probe.perRequest.total.toFixed(1) : f.DASH} async resources ` +
      `per request (a probe process, not measured${resourceMix(p.probe) ? `: ${resourceMix(p.probe)}` : ''}) ` +
      `and runs on ` +
      `${rt ? `${rt.node}, AsyncContextFrame ${rt.acf ? 'on' : 'off'}` : 'an unknown runtime'}: ` +
      `the \`${p.runtime}\` model ` +
      `applies` +
      `${fittedRange(p.model) ? `, its terms fitted on ${fittedRange(p.model)} async resources per request` : ''}.`,
  );
  if (p.error) return [...out, '', `No prediction: ${p.error}.`].join('\n');
  const pr = p.prediction;
  if (!pr || pr.error) {
    const why = pr ? predictErrorText(pr.error) : 'the reference measurement did not finish';
    return [...out, '', `No prediction: ${why}.`].join('\n');
  }
  out.push(
    '',
    `Its CPU per request on the model's scale: ${f.withCi(pr.baselineUs.estimate, pr.baselineUs.ci95, f.num)} µs, ` +
      `from its ratio to ctxbench's reference server (${f.code(referenceEnv(p))}) measured beside it in duet; ` +
      `the model: ${f.code(p.model.source.file)}` +
      `${p.model.source.commit ? ` at ${f.code(p.model.source.commit)}` : ''} (docs/model.md).`,
    '',
  );
  const ci = (x) => (x ? f.withCi(x.estimate, x.ci95, f.pctOf) : f.DASH);
  // A run recorded before the words (issue 61) keeps its table as it was.
  const worded = pr.rows.some((x) => x.word);
  const rows = [...pr.rows]
    .sort((x, y) => (y.estimate ?? 0) - (x.estimate ?? 0))
    .map((x) => [
      f.code(x.strategy),
      x.why ? `no prediction: ${predictWhyText(x)}` : ci(x),
      f.isNum(x.extraUs) ? `+${f.num(x.extraUs)}` : f.DASH,
      ...(worded ? [wordText(x) || f.DASH] : []),
    ]);
  out.push(
    f.table(
      [
        'Strategy',
        'Predicted % of its throughput on one CPU [95% CI]',
        'Extra CPU µs per request',
        ...(worded ? ['The model says'] : []),
      ],
      rows,
      ['l', 'r', 'r', ...(worded ? ['l'] : [])],
    ),
  );
  if (worded)
    out.push(
      '',
      "The model says, per strategy on this runtime, what its held-out points showed (docs/model.md): *claimed*, " +
        '*not validated* (a figure all the same, not shown right by enough points) or *not modelled* (its line ' +
        'is shown wrong somewhere: no figure).',
    );
  out.push(...caveatLines(pr.rows), '', `Predicted figures are ${AT_SATURATION}.`);
  if (p.candidate) {
    const j = p.candidate.judgement;
    out.push(
      '',
      `**The candidate as ${f.code(p.candidate.strategy)}:** predicted ` +
        `${ci(p.candidate.predicted)}, measured ${ci(p.candidate.measured)}: ` +
        `${j.outcome}` +
        (f.isNum(j.gapPp)
          ? ` (prediction ${j.gapPp >= 0 ? '+' : '−'}${Math.abs(j.gapPp).toFixed(1)} pp from the measurement` +
            (j.marginPp ? `, against a margin of ±${j.marginPp.toFixed(1)} pp` : '') +
            `)`
          : '') +
        `. ` +
        "Judged as the model's held-out points are: two one-sided tests at 5% on the gap (both intervals " +
        'taken as independent) against max(1 pp, 15% of the predicted cost).',
    );
  }
  return out.join('\n');
}

// `ctxbench app --probe`: each side's async resources per request and what the candidate
// adds (analysis/index.js probeOf), as a sentence (the terminal prints it too).
function probeText(probe) {
  const [base, cand] = probe.sides;
  const n = (x) => x.toFixed(1);
  const signed = (x) => `${x >= 0 ? '+' : ''}${n(x)}`;
  const types = Object.entries(probe.added.byType)
    .slice(0, 4)
    .map(([t, d]) => `${t} ${signed(d)}`);
  return (
    `Async resources per request (probe process, not measured): ${base.name} ${n(base.perRequest.total)}, ` +
    `${cand.name} ${n(cand.perRequest.total)} ` +
    `(${signed(probe.added.total)}${types.length ? `: ${types.join(', ')}` : ''})`
  );
}

// The end of both of an app page's forms: the broken note, the sides that failed.
function endOfPage(lines, a, run) {
  if (a.broken)
    lines.push(
      '',
      "> ❌ Answers carried another request's id or none: the service loses its request context under load, " +
        'whatever it costs.',
    );
  const errors = (run.configs || []).filter((c) => c.error);
  if (errors.length) lines.push('', ...errors.map((c) => `- ${f.code(c.name)} failed: ${f.cell(c.error.message)}`));
  return `${lines.join('\n')}\n`;
}

module.exports = { render, probeText, resourceMix, fittedRange, wordText };
