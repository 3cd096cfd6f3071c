'use strict';
// `ctxbench app`'s summary on the terminal: the duet's ratio, the stand-ins' operating point or
// capacity, the ids, the probe and the prediction (bench/cli/app.js prints it after a session).
const { describeInstance } = require('../../lib/instances');
const { capacityLines, operatingLines } = require('./deployment-lines');
const { probeText, resourceMix, fittedRange, wordText } = require('../../report/sections/app');
const f = require('../../report/format');
const { AT_SATURATION, caveatText, predictErrorText, predictWhyText } = require('../../report/words');
const { equivalenceText, ratioVerdictText } = require('../../report/verdict-text');

// Every block run, and in how many the windows counted where a busy machine dropped the rest.
function blocksText(a) {
  if (!(a && a.blocks < a.blocksRun)) return `${a?.blocksRun ?? 0} block(s)`;
  return `${a.blocksRun} block(s) (windows counted in ${a.blocks}: the rest dropped, see the warnings)`;
}

function summaryLine(run) {
  if (run.settings?.method === 'pair') return instanceSummary(run);
  const a = run.app;
  const r = a?.ratio;
  const [base, cand] = run.configs;
  const lines = [''];
  if (cand) {
    lines.push(`ctxbench app: ${run.status}, duet, ${blocksText(a)}`);
    if (r && Number.isFinite(r.estimate)) {
      const eq = a.broken ? null : r.judgement?.equivalence;
      lines.push(
        `${cand.name} at ${pct(r.estimate)}${r.ci95 ? ` [${pct(r.ci95[0])}–${pct(r.ci95[1])}]` : ''} of ` +
          `${base.name}'s throughput on one CPU (CPU per request in duet): ` +
          `${ratioVerdictText(r, a)}${eq ? `; ${equivalenceText(eq)}` : ''}`,
      );
    } else lines.push('no ratio: too few windows measured');
    for (const c of run.configs) {
      const ids = a?.ids?.[c.arm];
      lines.push(
        `  ${c.name}: ` +
          (ids
            ? ids.checked
              ? `${ids.kept.toLocaleString('en-US')} ids kept, ${ids.mismatches} mismatched, ${ids.lost} lost`
              : 'ids not checked (no --id-header)'
            : ''),
      );
    }
    if (a?.probe) lines.push(probeText(a.probe));
  } else lines.push(`ctxbench app --predict: ${run.status}`);
  if (run.predict) lines.push(...predictLines(run.predict));
  return `${lines.join('\n')}\n`;
}

// --instance: the capacity within the SLO of each, the candidate's as % of the baseline's,
// the p99 it adds at half of the baseline's capacity, the throttling, the instances.
function instanceSummary(run) {
  const a = run.app;
  const s = run.settings;
  const [base, cand] = s.names ?? ['baseline', 'candidate'];
  const lines = [
    '',
    `ctxbench app: ${run.status}, the pair ` +
      `${s.targetCpu ? "at the autoscaler's operating point" : 'at a fixed rate'} on ${s.instance.name} ` +
      `stand-ins (${describeInstance(s.instance)}; docs/deploy.md), ${blocksText(a)}`,
  ];
  if (s.targetCpu) {
    lines.push(
      `At the autoscaler's target: ${Math.round(s.targetCpu * 100)}% of each quota, CFS period ` +
        `${(s.instance.periodUs / 1000).toLocaleString('en-US')} ms (an assumption: no cloud documents it)`,
    );
    lines.push(...(a?.operating ? operatingLines(a.operating, { name: cand, base }) : [`${cand}: not measured`]));
  }
  const c = run.learned?.capacity;
  if (c)
    lines.push(
      `${base} stand-in's closed-loop capacity: ${c.rps.toLocaleString('en-US')} ` +
        `req/s` +
        (c.knee
          ? `; its open-loop knee within ${run.settings.slo.text}: ` +
            `${c.knee.censored === 'above' ? 'at least ' : ''}${c.knee.rps.toLocaleString('en-US')} req/s`
          : '') +
        `; ` +
        `rates ${run.settings.loads.map((l) => `${Math.round(l * 100)}%`).join(', ')} of ` +
        `${c.knee ? 'the knee' : 'it'}`,
    );
  if (a?.capacity?.rows?.length)
    lines.push(...capacityLines(run, a.capacity, a.capacity.rows[0], { name: cand, baseline: base }));
  else if (!s.targetCpu) lines.push('no capacity: too few pairs measured');
  const ids = a?.ids;
  for (const [arm, name] of [
    ['baseline', base],
    ['candidate', cand],
  ]) {
    const x = ids?.[arm];
    if (x)
      lines.push(
        `  ${name}: ` +
          (x.checked
            ? `${x.kept.toLocaleString('en-US')} ids kept, ${x.mismatches} mismatched, ${x.lost} lost`
            : 'ids not checked (no --id-header)'),
      );
  }
  if (a?.probe) lines.push(probeText(a.probe));
  return `${lines.join('\n')}\n`;
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const withCi = (x) => (x && Number.isFinite(x.estimate) ? f.withCi(x.estimate, x.ci95, f.pctOf) : 'n/a');

// The prediction on the terminal: what the probe found, the scale, a line per strategy
// (the cheapest first), and the candidate's prediction beside its measurement.
function predictLines(p) {
  const mix = resourceMix(p.probe);
  const range = fittedRange(p.model);
  const lines = [
    `Async resources per request (probe process): ` +
      `${p.probe.perRequest.total.toFixed(1)}${mix ? ` (${mix})` : ''}; runtime ${p.probe.runtime.node} ` +
      `(AsyncContextFrame ${p.probe.runtime.acf ? 'on' : 'off'}): the ${p.runtime} ` +
      `model${range ? `, fitted on ${range} per request` : ''}`,
  ];
  if (p.error) return [...lines, `no prediction: ${p.error}`];
  const pr = p.prediction;
  if (!pr) return [...lines, 'no prediction: the reference measurement did not finish'];
  if (pr.error) return [...lines, `no prediction: ${predictErrorText(pr.error)}`];
  lines.push(
    `CPU per request on the model's scale: ${pr.baselineUs.estimate.toFixed(1)} µs (beside ctxbench's ` +
      `reference server in duet; model from ` +
      `${p.model.source.file}${p.model.source.commit ? ` at ${p.model.source.commit}` : ''})`,
  );
  lines.push("Predicted % of this service's throughput on one CPU with each strategy (95% interval):");
  const rows = [...pr.rows].sort((x, y) => (y.estimate ?? 0) - (x.estimate ?? 0));
  const width = Math.max(...rows.map((x) => x.strategy.length));
  // Each figure with its word (claimed, not validated); a not modelled strategy has no
  // figure, and its reason starts with the word.
  for (const row of rows) {
    const word = wordText(row);
    lines.push(
      `  ${row.strategy.padEnd(width)}  ` +
        `${row.why ? `no prediction: ${predictWhyText(row)}` : withCi(row)}` +
        `${word && row.word !== 'not modelled' ? `  ${word}` : ''}` +
        `${Number.isFinite(row.extraUs) ? `  (+${row.extraUs.toFixed(1)} µs per request)` : ''}`,
    );
  }
  const caveated = rows.filter((x) => x.caveat);
  if (caveated.length)
    lines.push(`  ${caveated.map((x) => x.strategy).join(', ')}: ${caveatText(caveated[0].caveat)}`);
  lines.push(`  ${AT_SATURATION[0].toUpperCase()}${AT_SATURATION.slice(1)}.`);
  if (p.candidate) {
    const j = p.candidate.judgement;
    lines.push(
      `Candidate as ${p.candidate.strategy}: predicted ${withCi(p.candidate.predicted)}, measured ` +
        `${withCi(p.candidate.measured)}: ` +
        `${j.outcome}` +
        (Number.isFinite(j.gapPp)
          ? ` (${j.gapPp >= 0 ? '+' : ''}${j.gapPp.toFixed(1)} pp` +
            (j.marginPp ? `, margin ±${j.marginPp.toFixed(1)} pp` : '') +
            `)`
          : ''),
    );
  }
  return lines;
}

module.exports = { summaryLine, predictLines };
