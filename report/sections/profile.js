'use strict';
// results.md: where each configuration's CPU time goes, from the V8 CPU profiles of
// `ctxbench run --profile` (run.profiles, written by bench/probes/profile.js): the top packages
// and functions by self time, and what a strategy spends a larger share of its time on
// than its baseline does. Shares are of the profiled process's busy (non-idle) time.
const f = require('../format');

const TOP_FUNCTIONS = 8;
const TOP_PACKAGES = 5;

function pct(share) {
  return `${(100 * share).toFixed(1)}%`;
}

function packagesLine(summary) {
  return summary.packages
    .slice(0, TOP_PACKAGES)
    .map((p) => `${p.name} ${pct(p.share)}`)
    .join(', ');
}

function growthLine(growth) {
  const fmt = (e) => `${f.code(e.name)} ${pct(e.baselineShare)} → ${pct(e.share)}`;
  const parts = [];
  if (growth.packages.length) parts.push(`packages: ${growth.packages.slice(0, 3).map(fmt).join('; ')}`);
  if (growth.functions.length) parts.push(`functions: ${growth.functions.slice(0, 3).map(fmt).join('; ')}`);
  return parts.join(' — ') || 'nothing grows by share';
}

// run -> markdown ('' when the run has no profiles).
function profileSection(run) {
  const profiles = run && run.profiles;
  if (!profiles || !profiles.configs || Object.keys(profiles.configs).length === 0) return '';
  const lines = [
    f.heading(3, 'Where the time goes (CPU profiles)'),
    '',
    `One V8 CPU profile per configuration, recorded with \`--cpu-prof\` in a separate ${profiles.seconds} s ` +
      `burst after the ` +
      'measured rounds (the profiler costs CPU, so these bursts are not part of any number above). Shares are of the ' +
      `server's busy time under load (idle and the server's start-up excluded), by self time. The ` +
      `\`.cpuprofile\` files open in Chrome DevTools (Performance → load) from ${f.code(profiles.dir)}.`,
    '',
  ];
  const rows = [];
  for (const config of run.configs || []) {
    const p = profiles.configs[config.id];
    if (!p) continue;
    rows.push([
      f.code(config.id),
      packagesLine(p.summary),
      p.overBaseline ? growthLine(p.overBaseline) : '(baseline or none)',
    ]);
  }
  lines.push(
    f.table(['configuration', 'top packages (self time)', 'grows most over its baseline (share of busy time)'], rows, [
      'l',
      'l',
      'l',
    ]),
    '',
  );
  for (const config of run.configs || []) {
    const p = profiles.configs[config.id];
    if (!p) continue;
    const fns = p.summary.functions.slice(0, TOP_FUNCTIONS).map((e) => `${f.code(e.name)} ${pct(e.share)}`);
    lines.push(`- ${f.code(config.id)} (${f.code(p.file)}): ${fns.join(', ')}`);
  }
  if (profiles.errors && profiles.errors.length) {
    lines.push('', 'Profiles that could not be recorded:', '', ...profiles.errors.map((e) => `- ${f.cell(e)}`));
  }
  return lines.join('\n') + '\n';
}

module.exports = { profileSection };
