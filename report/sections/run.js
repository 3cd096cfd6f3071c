'use strict';
// results.md section for one `kind: "run"` JSON (docs/run-json.md): the page assembled
// from its parts in report/sections/run/ (environment, summary, method, depth, detail,
// references), each formatting what analysis/ computed.
const f = require('../format');
const { PRESETS } = require('../../lib/presets');
const { frameworksSection } = require('./frameworks');
const { profileSection } = require('./profile');
const { storesSection } = require('./stores');
const { summaryOf } = require('../../analysis');
const { uniq, sortConfigs } = require('./run/common');
const { depthSweepSection, logSection, chartsSection } = require('./run/depth');
const { detailSection } = require('./run/detail');
const { environmentSection, settingsSection } = require('./run/environment');
const { precisionSection, duetSection, regimeSection } = require('./run/method');
const { referencesSection } = require('./run/references');
const { modelSection } = require('./run/model');
const { summarySection, integrityNotes, failedSection } = require('./run/summary');
const { pairSummarySection } = require('./run/pair');
const { capacitySection: sloSection, standInNote } = require('./run/capacity');
const { capacitySection } = require('./latency');
const { operatingSection } = require('./run/operating');

// The line under the title: where from, how many configurations, blocks and rounds.
function metaLine(run, ctx, rows) {
  const configs = run.configs || [];
  const meta = [];
  if (ctx.file) meta.push(`from ${f.code(ctx.file)}`);
  meta.push(`${configs.length} configuration${configs.length === 1 ? '' : 's'}`);
  const rounds = uniq(rows.map((r) => r.summary.n)).filter((n) => n > 0);
  const blocks = uniq(rows.map((r) => r.summary.blocks)).filter((n) => n > 0);
  if ((run.schema || 1) >= 2 && blocks.length) {
    meta.push(
      `${blocks.length === 1 ? blocks[0] : `${Math.min(...blocks)}–${Math.max(...blocks)}`} blocks (fresh ` +
        `server processes) × ${run.settings && run.settings.rounds} rounds`,
    );
  } else if (rounds.length)
    meta.push(
      `${rounds.length === 1 ? rounds[0] : `${Math.min(...rounds)}–${Math.max(...rounds)}`} interleaved rounds each`,
    );
  return `*${meta.join(' · ')}*`;
}

// A published study has a second run (repro) or says it is a single run.
function singleRunNote(run, ctx) {
  const preset = run.settings?.preset;
  if (!(preset && ctx.companions?.reproduced === false && !ctx.file?.includes('repro'))) return '';
  // `repro` takes only the presets of lib/presets.js; a study made by another command
  // (`ctxbench deploy` records preset "deploy") is run again by its own command.
  // A stand-in's period and burst change what is measured: the repro names them too.
  const standIn = (run.command?.match(/--cfs-(?:period|burst)[= ]\S+/g) ?? []).map((x) => ` ${x.replace('=', ' ')}`);
  const again = Object.hasOwn(PRESETS, preset)
    ? `\`ctxbench repro --preset ${preset}${standIn.join('')}\` makes one`
    : run.command
      ? `running \`${run.command}\` again makes one`
      : 'running its command again makes one';
  return (
    `*A single run: no second run of this preset is committed (${again}); its intervals are over blocks of ` +
      `fresh processes within the run.*`
  );
}

// `ctxbench deploy` and the deployment study answer two questions: one line says which is whose.
function deployVsStudy(s) {
  const study = PRESETS['deployment-f1'];
  const env = (hop, logs, baseline) =>
    `HOP=${[hop].flat().join(',')}, LOG=${[logs ?? 'none'].flat().join(',')}, against ${f.code(baseline)}`;
  return (
    `**Which figure answers you:** this page measures the yamls as they deploy (${env(s.hops, s.logs, s.baseline)}), ` +
    `and answers a team deploying them; the deployment study ([deployment-f1.md](deployment-f1.md)) measures each ` +
    `strategy alone (${env(study.hops, study.logs, study.baseline)}) and answers which strategy to choose. Their ` +
    'figures differ where those settings do.'
  );
}

// Above the results: the title, what the run is, and what limits it (status, a quick run,
// the earlier design).
function headerParts(run, ctx, rows) {
  const title = run.title || (run.settings && run.settings.preset ? `${run.settings.preset} preset` : 'ctxbench run');
  const parts = [f.heading(2, title)];
  parts.push(metaLine(run, ctx, rows));
  if (run.settings && run.settings.why) parts.push(`**What this run is:** ${run.settings.why}.`);
  if (run.settings?.deploy) parts.push(deployVsStudy(run.settings));
  const single = singleRunNote(run, ctx);
  if (single) parts.push(single);
  if (run.status && run.status !== 'complete') {
    parts.push(
      `> ⚠ **Status: ${run.status}.** ` +
        (run.status === 'running'
          ? 'The run was still in progress when this report was generated'
          : 'The run stopped early') +
        `: ` +
        'configurations may have fewer rounds than planned, and the intervals are wider for it.',
    );
  }
  if (run.settings && run.settings.quick)
    parts.push('> ⚠ **Quick run:** short bursts and few rounds; a smoke test, not a measurement.');
  if (!((run.schema || 1) >= 2)) {
    parts.push(
      '> ⓘ **Measured with the earlier design** (run JSON schema 1): one warm server process per ' +
        'configuration for the ' +
        'whole run, samples paired by round. The intervals do not include what a restart of the server ' +
        'changes (JIT decisions, ' +
        'heap layout), so they may be narrower than the run-to-run spread.',
    );
  }
  return parts;
}

// results.md shows the lead run briefly (its table and what the table needs); its own
// page has everything.
function briefParts(run, ctx, rows, baseline) {
  const parts = [];
  if (ctx.fullPage)
    parts.push(
      `The whole run — environment, precision, how the duet ratios were measured, charts, per-configuration ` +
        `detail, references — is on [its own page](${ctx.fullPage}).`,
    );
  if (run.command) parts.push(f.fence(run.command, 'sh'));
  if (rows.length) {
    parts.push(
      run.settings?.targetCpu
        ? operatingSection(run, { brief: true })
        : run.settings?.method === 'pair'
          ? pairSummarySection(run, rows, baseline)
          : summarySection(run, rows, baseline),
    );
    const notes = integrityNotes(rows, run);
    if (notes.length) parts.push(notes.map((n) => `- ${n}`).join('\n'));
  }
  return parts;
}

// The results table by method, then the notes and sections that qualify its figures.
async function resultsParts(run, ctx, rows, baseline) {
  const parts = [];
  if (rows.length) {
    const pair = run.settings?.method === 'pair';
    const operating = Boolean(run.settings?.targetCpu);
    parts.push(
      operating
        ? operatingSection(run)
        : pair
          ? pairSummarySection(run, rows, baseline)
          : summarySection(run, rows, baseline),
    );
    const notes = integrityNotes(rows, run);
    if (notes.length) parts.push(notes.map((n) => `- ${n}`).join('\n'));
    if (operating) parts.push(standInNote(run.settings.instance, { environment: run.environment }));
    const capacity = pair && !operating ? capacitySection(run) : '';
    if (capacity) parts.push(capacity);
    const slo = run.settings?.slo ? await sloSection(run, ctx) : '';
    if (slo) parts.push(slo);
    else if (run.settings?.instance && !operating)
      parts.push(
        standInNote(run.settings.instance, {
          method: run.settings.method,
          environment: run.environment,
        }),
      );
    const precision = precisionSection(run, rows);
    if (precision) parts.push(precision);
    const duet = duetSection(run, rows, baseline, ctx);
    if (duet) parts.push(duet);
    const regimes = regimeSection(run, rows, baseline);
    if (regimes) parts.push(regimes);
  } else {
    parts.push('No configuration was measured.');
  }
  return parts;
}

async function render(run, ctx = {}) {
  const baseline = run.settings && run.settings.baseline;
  const configs = run.configs || [];
  const rows = sortConfigs(run).map((config) => ({ config, summary: summaryOf(config, configs, baseline) }));
  const parts = headerParts(run, ctx, rows);
  const preset = run.settings?.preset;

  if (ctx.brief) {
    parts.push(...briefParts(run, ctx, rows, baseline));
    return parts.join('\n\n').replace(/\n{3,}/g, '\n\n') + '\n';
  }
  parts.push(environmentSection(run));
  if (run.command) parts.push([f.heading(3, 'Command'), '', f.fence(run.command, 'sh')].join('\n'));
  const settings = settingsSection(run);
  if (settings) parts.push(settings);

  parts.push(f.heading(3, 'Results'));
  parts.push(...(await resultsParts(run, ctx, rows, baseline)));
  for (const piece of [
    failedSection(run),
    depthSweepSection(run, rows, baseline),
    logSection(run, baseline),
    preset === 'frameworks' ? frameworksSection(run) : '',
    modelSection(run, ctx),
    storesSection(run),
    profileSection(run),
    await chartsSection(run, rows, ctx),
  ]) {
    if (piece) parts.push(piece);
  }
  if (Array.isArray(run.warnings) && run.warnings.length) {
    parts.push(
      [f.heading(3, 'Warnings'), '', ...run.warnings.map((w) => `- ⚠ ${String(w).replace(/\n/g, ' ')}`)].join('\n'),
    );
  }
  const detail = detailSection(rows);
  if (detail) parts.push(detail);
  const refs = referencesSection(run);
  if (refs) parts.push(refs);
  return parts.join('\n\n').replace(/\n{3,}/g, '\n\n') + '\n';
}

module.exports = { render, sortConfigs, environmentSection, settingsSection, deployVsStudy };
