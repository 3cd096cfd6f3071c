'use strict';
// Section for `kind: 'compare'` results (`ctxbench compare a.json b.json --out FILE`): the
// gate's table and outcome, recomputed from the two runs the file holds so that a file
// saved by an older ctxbench is judged by today's rules.
const f = require('../format');
const { compare } = require('../../analysis/compare');
const { compareText } = require('../compare-text');

function render(run, ctx = {}) {
  const result =
    Array.isArray(run.runs) && run.runs.length === 2
      ? compare(run.runs[0], run.runs[1], { maxRegression: run.maxRegression })
      : run.compare;
  const lines = [f.heading(2, run.title || 'Gate'), ''];
  if (ctx.file) lines.push(`*from ${f.code(ctx.file)}*`, '');
  if (run.command) lines.push(f.fence(run.command, 'sh'), '');
  const [a, b] = run.files || ['a', 'b'];
  const describeRun = (r, file) =>
    `${f.code(file)}: ${r?.title ?? '?'} (ctxbench commit ${f.code(r?.environment?.commit ?? '?')}, ` +
    `${r?.settings?.method}, ` +
    `${r?.environment?.date ? String(r.environment.date).slice(0, 16).replace('T', ' ') : '?'} UTC, ` +
    `${r?.environment?.cpuModel ?? '?'} × ${r?.environment?.cores ?? '?'})`;
  if (Array.isArray(run.runs))
    lines.push(`- **a:** ${describeRun(run.runs[0], a)}`, `- **b:** ${describeRun(run.runs[1], b)}`, '');
  if (!result) return lines.concat('No comparison recorded.').join('\n');
  if (result.machines?.same === false)
    lines.push(
      `> ⚠ **Across machines** (` +
        `${result.machines.differences.join(', ')}): a comparison of two machines, not of one change.`,
      '',
    );
  const outcome =
    { 0: '✅ OK (exit 0)', 1: '❌ REGRESSION (exit 1)', 2: '⚠ INCONCLUSIVE (exit 2)' }[result.exitCode] ??
    `exit ${result.exitCode}`;
  lines.push(
    `**Outcome at ${result.maxRegression}%: ${outcome}.** The gate's own output:`,
    '',
    f.fence(compareText(result).trimEnd(), 'text'),
  );
  return lines.join('\n');
}

module.exports = { render };
