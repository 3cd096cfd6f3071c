'use strict';
// results.md section for `ctxbench overhead`: does ctxbench's request path add anything
// but the strategy?
const f = require('../format');
const { header } = require('./method');
const { verdictOf } = require('../../analysis/method');
const { sideName } = require('../words');

const VERDICT = {
  met: '✅ met (the whole interval is at or above it)',
  'not met': '❌ not met (the whole interval is below it)',
  'cannot tell': '❔ cannot tell: the interval straddles it (more blocks would narrow it)',
  'not shown': '— not shown (too few samples)',
};

function render(run, ctx = {}) {
  const o = run.overhead;
  const s = run.settings || {};
  const parts = [
    header(
      run,
      ctx,
      'request-path overhead',
      `\`STRATEGY=none DEPTH=1 HOP=sync\` (trace-id parsing, the context middleware, a one-level chain) ` +
        `beside a 10-line ` +
        `Express hello-world (\`bench/processes/hello-world.js\`), ${s.rounds} rounds of alternating ` +
        `${s.duration} s bursts ` +
        `(${s.connections} connections, pipelining ` +
        `${s.pipelining}). ctxbench's floor must reach at least 90% of the hello-world.`,
    ),
  ];
  if (!o) {
    parts.push('No analysis: the run stopped before it finished.');
    return parts.join('\n\n') + '\n';
  }
  // The figure beside an interval is the statistic the interval is of (runs before the
  // geometric mean was recorded here carry only a median, and say so).
  const geo = Object.values(o.sides).every((side) => f.isNum(side.rps.estimate));
  const rows = Object.entries(o.sides).map(([code, side]) => [
    sideName(code),
    geo ? f.withCi(side.rps.estimate, side.rps.ci95) : f.withCi(side.rps.median, side.rps.ci95),
  ]);
  parts.push(f.table(['server', geo ? 'req/s geo. mean [95% CI]' : 'req/s median [95% CI]'], rows, ['l', 'r']));
  const r = o.ratio;
  parts.push(
    `ctxbench's floor reaches **${f.pctOf(r.estimate)}** [95% CI ` +
      `${f.pctOf(r.ci95 && r.ci95[0])}–${f.pctOf(r.ci95 && r.ci95[1])}] ` +
      `of the hello-world's throughput (required ≥ ${o.required * 100}%): ` +
      `${VERDICT[o.verdict ?? verdictOf(r.ci95, o.required)]}.`,
  );
  return parts.join('\n\n') + '\n';
}

module.exports = { render };
