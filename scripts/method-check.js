#!/usr/bin/env node
'use strict';
// The method check of the cost model (issue 48, docs/model.md "The method check"): one
// point measured with the duet and with the pair at fixed rates, their blocks interleaved
// in time (measured by scripts/method-check.sh), judged per strategy and rate by
// analysis/model.js methodAgreement. Prints the table docs/model.md quotes, from the two
// committed run files; nothing is measured here.
//   node scripts/method-check.js [--duet FILE] [--pair FILE]
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { methodAgreement } = require('../analysis/model');
const { withCi, pctOf } = require('../report/format');
const { fatal } = require('../lib/fatal');

const RUNS = path.join(__dirname, '..', 'results', 'runs');
const { values } = parseArgs({
  options: {
    duet: { type: 'string', default: path.join(RUNS, 'method-check-duet.json') },
    pair: { type: 'string', default: path.join(RUNS, 'method-check-pair.json') },
  },
});

function load(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    return fatal(`${file}: ${err.code === 'ENOENT' ? 'no such file (scripts/method-check.sh measures it)' : err.message}`);
  }
}

const duet = load(values.duet);
const pair = load(values.pair);
const baseline = duet.settings?.baseline ?? 'none';
const pointOf = (c) => [c.strategy, c.arm ?? '', c.framework, c.depth, c.hop, c.stores ?? 0, c.nodeLabel ?? c.node].join('/');
const us = (x) => (Number.isFinite(x?.estimate) ? `${x.estimate.toFixed(1)}${x.ci95 ? ` [${x.ci95[0].toFixed(1)}, ${x.ci95[1].toFixed(1)}]` : ''}` : '—');
const pp = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}` : '—');
const n2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '—');
const VERDICT = { within: '✅ within', beyond: '❌ beyond', 'cannot tell': '… cannot tell' };

const rows = [];
// The A/A twin (a second baseline process) is the check's own control: 100% both ways.
for (const d of duet.configs.filter((c) => c.strategy !== baseline || c.arm)) {
  for (const p of pair.configs.filter((c) => pointOf(c) === pointOf(d)).sort((a, b) => a.rate - b.rate)) {
    const m = methodAgreement(d, p);
    if (!m) continue;
    const a = m.gapPp.agreement;
    rows.push(
      `| \`${d.strategy}\`${d.arm ? ' (A/A twin)' : ''} | ${p.rate.toLocaleString('en-US')} | ${us(m.duetExtraUs)} (on ${m.duetBaselineUs.estimate.toFixed(1)}) | ${us(m.pairExtraUs)} (on ${m.pairBaselineUs.estimate.toFixed(1)}) | ` +
        `${withCi(m.predicted.estimate, m.predicted.ci95, pctOf)} | ${withCi(m.measured.estimate, m.measured.ci95, pctOf)} | ${pp(m.gapPp.estimate)}${a ? ` [${pp(a.ci90[0])}, ${pp(a.ci90[1])}]` : ''} | ${a ? `${VERDICT[a.outcome]} ±${a.marginPp.toFixed(1)} pp` : 'not judged'} | ` +
        `${n2(m.wakeups.pair.candidate)} / ${n2(m.wakeups.pair.baseline)} | ${n2(m.wakeups.duet.candidate)} / ${n2(m.wakeups.duet.baseline)} | ${m.blocks} |`,
    );
  }
}
if (!rows.length) fatal(`no strategy of ${values.duet} was measured in the same blocks in ${values.pair}`);
const first = duet.configs.find((c) => c.strategy !== baseline);
process.stdout.write(
  [
    `Point: ${first.framework} DEPTH=${first.depth} HOP=${first.hop} on ${first.nodeLabel ?? first.node}; duet ${path.basename(values.duet)} (commit ${duet.environment?.commit ?? '?'}), pair ${path.basename(values.pair)} (commit ${pair.environment?.commit ?? '?'}).`,
    '',
    `| Strategy | Pair rate (req/s each) | Duet: extra µs/request [95% CI] (on \`${baseline}\`'s) | Pair: extra µs/request [95% CI] (on \`${baseline}\`'s) | Pair ratio predicted from the duet | Pair ratio measured | Gap pp [90% CI] | Verdict | Wake-ups/request, pair: strategy / \`${baseline}\` | Wake-ups/request, duet | Blocks |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |',
    ...rows,
    '',
  ].join('\n'),
);
