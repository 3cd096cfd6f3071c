'use strict';
// A run page's published references: the seeds' figures, quoted as references, never
// as measurements.
const f = require('../../format');
const references = require('../../references');

function refTable(header, rows) {
  return f.table(
    header,
    rows.map((r) => [r.reads ? `${r.label} — ${r.reads}` : r.label, ...r.cells]),
    ['l', ...header.slice(1).map(() => 'r')],
  );
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
  const out = [
    f.heading(3, 'Published references (not our measurements)'),
    '',
    '> Figures quoted verbatim from published write-ups, for orientation only: single runs on other machines and ' +
      'Node versions, with no repetition or confidence interval. Compare *ratios* to ours, not absolute req/s.',
    '',
  ];
  if (keys.length === 0) {
    out.push(
      'This preset is not one published study. The closest published figures, quoted in the sections of the ' +
        'matching presets:',
      '',
    );
    for (const ref of references.all) {
      const p = Object.entries(references.byPreset).find(([, v]) => v.includes(ref.key));
      out.push(`- ${ref.title} (seed \`${ref.seed}\`) — reproduce with \`ctxbench run --preset ${p ? p[0] : '?'}\`.`);
    }
    const als = references.platformatic.tables
      .map((t) => `${t.rows.find((r) => r.label === 'AsyncLocalStorage').cells[2]} (${t.node})`)
      .join(' and ');
    const impact = references.appEngineDepth.rows.find((r) => r.label === 'Impact (-)');
    out.push(
      '',
      `Headline figures: AsyncLocalStorage kept ${als} of a plain http server's throughput (platformatic); ` +
        `cls-hooked at ${references.alsContext.rows[3].cells[0]} vs ` +
        `${references.alsContext.rows[0].cells[0]} req/s for parameter passing (als-context); ` +
        `async_hooks latency impact ${impact.cells.join(' / ')} at call depths ` +
        `${references.appEngineDepth.depths.join(' / ')} (App Engine; ${impact.reads}).`,
    );
  } else {
    for (const k of keys) out.push(referenceBlock(references[k]), '');
  }
  return out.join('\n').trimEnd();
}

module.exports = { referencesSection };
