'use strict';
// results.md section for a `kind: "app"` JSON (`ctxbench app`): the user's own service,
// two start commands measured in duet. Formats analysis/index.js analyzeApp().
const f = require('../format');
const { analyzeApp, equivalenceText } = require('../../analysis');
const { environmentSection } = require('./run');

function idsCell(ids) {
  if (!ids) return f.DASH;
  if (!ids.checked) return 'not checked (no --id-header)';
  const bad = ids.mismatches + ids.lost;
  return `${bad ? '❌' : '✅'} ${f.int(ids.kept)} kept, ${f.int(ids.mismatches)} mismatched, ${f.int(ids.lost)} lost`;
}

function render(run, ctx = {}) {
  const a = analyzeApp(run);
  const s = run.settings || {};
  const [base, cand] = run.configs || [];
  const lines = [f.heading(2, run.title || 'Your service'), ''];
  const meta = ['kind `app`'];
  if (ctx.file) meta.push(`from ${f.code(ctx.file)}`);
  meta.push(`${a.blocks} block(s) of fresh processes`, `${a.windows.counted} windows counted${a.windows.dropped ? `, ${a.windows.dropped} dropped` : ''}`);
  if (run.status) meta.push(`status ${run.status}`);
  lines.push(`*${meta.join(' · ')}*`, '');
  if (run.status === 'failed' || run.status === 'interrupted') lines.push(`> ⚠ The run ${run.status === 'failed' ? 'failed' : 'was interrupted'}: what it measured before is below.`, '');
  lines.push(
    'Two start commands of the same service, measured in duet: per block a fresh process of each, both pinned to one CPU and loaded at ' +
      'the same time from the other; per window, each side\'s CPU per request (its process and children, from /proc). ' +
      '*% of baseline* is the baseline\'s CPU per request ÷ the candidate\'s, log ratios averaged per block, 95% CI over blocks: read it like throughput on one CPU.',
    '',
  );
  if (run.command) lines.push(f.fence(run.command, 'sh'), '');
  lines.push('*One run: its interval is over blocks of fresh processes within the run; run the command again to see where a second run lands.*', '');
  lines.push(environmentSection(run), '');
  lines.push(f.heading(3, 'Results'), '');
  const r = a.ratio;
  const rows = [base, cand].filter(Boolean).map((c) => {
    const isBase = c === base;
    const ratio = isBase ? 'baseline' : r && f.isNum(r.estimate) ? f.withCi(r.estimate, r.ci95, f.pctOf) : f.DASH;
    const eq = isBase || a.broken ? null : r?.judgement?.equivalence;
    return [f.code(c.name), f.code(c.command), ratio, isBase ? '' : r?.verdict ?? 'not enough windows', eq ? `${equivalenceText(eq)} (90% CI ${f.pctOf(eq.ci90[0])}–${f.pctOf(eq.ci90[1])})` : '', f.num(a.cpuUsPerRequest?.[c.arm]), f.int(a.requestsPerWindow?.[c.arm]), idsCell(a.ids[c.arm])];
  });
  lines.push(f.table(['Side', 'Command', '% of baseline: CPU/req in duet [95% CI]', 'Verdict', 'Equivalence (two one-sided tests at 5%)', 'CPU µs/req (median window)', 'Requests per window (median)', `Ids${s.idHeader ? ` (${f.code(s.idHeader)})` : ''}`], rows, ['l', 'l', 'r', 'l', 'l', 'r', 'r', 'l']), '');
  lines.push(`Load: ${(s.paths || ['/']).map(f.code).join(', ')} in turn, ${f.int(s.connections)} connections per side, ${s.windows} windows of ${s.window} s per block after ${s.warmup} s of unmeasured load; ready when ${f.code(s.health || '/')} answered 2xx.`);
  if (a.probe) lines.push('', `${probeText(a.probe)}. Counted with an async_hooks init counter preloaded through NODE_OPTIONS into one more process of each side (${f.int(a.probe.sides[1].requests)} requests on ${f.code(a.probe.sides[1].path)} at ${a.probe.sides[1].concurrency} in flight), never into a measured one.`);
  if (a.broken) lines.push('', '> ❌ Answers carried another request\'s id or none: the service loses its request context under load, whatever it costs.');
  const errors = (run.configs || []).filter((c) => c.error);
  if (errors.length) lines.push('', ...errors.map((c) => `- ${f.code(c.name)} failed: ${f.cell(c.error.message)}`));
  return `${lines.join('\n')}\n`;
}

// `ctxbench app --probe`: each side's async resources per request and what the candidate
// adds (analysis/index.js probeOf), as a sentence (the terminal prints it too).
function probeText(probe) {
  const [base, cand] = probe.sides;
  const n = (x) => x.toFixed(1);
  const signed = (x) => `${x >= 0 ? '+' : ''}${n(x)}`;
  const types = Object.entries(probe.added.byType).slice(0, 4).map(([t, d]) => `${t} ${signed(d)}`);
  return `Async resources per request (probe process, not measured): ${base.name} ${n(base.perRequest.total)}, ${cand.name} ${n(cand.perRequest.total)} (${signed(probe.added.total)}${types.length ? `: ${types.join(', ')}` : ''})`;
}

module.exports = { render, probeText };
