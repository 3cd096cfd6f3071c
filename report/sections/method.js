'use strict';
// Shared pieces of the "Method" sections (calibrate, aa, overhead): the heading, where
// the figures came from, and the machine in one line.
const f = require('../format');

function header(run, ctx, title, why) {
  const env = run.environment || {};
  const meta = [];
  if (ctx.file) meta.push(`from ${f.code(ctx.file)}`);
  if (run.status && run.status !== 'complete') meta.push(`⚠ status ${run.status}`);
  const machine = [
    env.cpuModel,
    env.cores && `${env.cores} cores`,
    env.node && `Node ${env.node}`,
    env.date && env.date.slice(0, 10),
    env.commit && `commit ${env.commit}${env.dirty ? ' (uncommitted changes)' : ''}`,
    env.taskset ? 'pinned with taskset' : 'not pinned',
  ].filter(Boolean);
  const lines = [
    f.heading(2, `Method: ${title}`),
    '',
    `*${meta.join(' · ')}*`,
    '',
    why,
    '',
    `Machine: ${machine.join(', ')}.`,
    '',
    'A single run: no second run of this check is committed; its intervals are over blocks of fresh processes ' +
      'within the run.',
  ];
  const flags = (env.noise && env.noise.flags) || [];
  for (const flag of flags) lines.push('', `> ⚠ Noisy machine: ${flag}`);
  if (run.command) lines.push('', f.fence(run.command, 'sh'));
  return lines.join('\n');
}

module.exports = { header };
