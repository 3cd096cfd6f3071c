'use strict';
// results.md section for `ctxbench overhead`: does ctxbench's request path add anything
// but the strategy?
const f = require('../format');
const { header } = require('./method');

function render(run, ctx = {}) {
  const o = run.overhead;
  const s = run.settings || {};
  const parts = [header(run, ctx, 'request-path overhead',
    `\`STRATEGY=none DEPTH=1 HOP=sync\` (trace-id parsing, the context middleware, a one-level chain) beside a 10-line ` +
    `Express hello-world (\`bench/hello-world.js\`), ${s.rounds} rounds of alternating ${s.duration} s bursts ` +
    `(${s.connections} connections, pipelining ${s.pipelining}). ctxbench's floor must reach at least 90% of the hello-world.`)];
  if (!o) {
    parts.push('No analysis: the run stopped before it finished.');
    return parts.join('\n\n') + '\n';
  }
  const rows = Object.entries(o.sides).map(([name, side]) => [name, f.withCi(side.rps.median, side.rps.ci95)]);
  parts.push(f.table(['server', 'req/s median [95% CI]'], rows, ['l', 'r']));
  const r = o.ratio;
  parts.push(`ctxbench's floor reaches **${f.pctOf(r.estimate)}** [95% CI ${f.pctOf(r.ci95 && r.ci95[0])}–${f.pctOf(r.ci95 && r.ci95[1])}] ` +
    `of the hello-world's throughput (required ≥ ${o.required * 100}%): ${o.pass ? '✅ met' : '❌ not met'}.`);
  return parts.join('\n\n') + '\n';
}

module.exports = { render };
