'use strict';
// results.md section for `ctxbench calibrate`: is a known per-request cost recovered?
const f = require('../format');
const { header } = require('./method');

function ratioCell(r, checked, tolerance) {
  if (!f.isNum(r)) return f.DASH;
  const text = `×${r.toFixed(3)}`;
  if (!checked) return text;
  return Math.abs(r - 1) <= tolerance ? `${text} ✅` : `${text} ❌`;
}

function render(run, ctx = {}) {
  const c = run.calibrate;
  const s = run.settings || {};
  const parts = [header(run, ctx, 'calibration against a known cost',
    `The server burned a fixed amount of CPU per request (\`BURN_US\`, sized at start-up, timed by the server itself) in ` +
    `\`STRATEGY=${s.strategy} DEPTH=${s.depth} HOP=${s.hop}\`, one warm server per level, ${s.rounds} interleaved rounds of ` +
    `${s.duration} s bursts at saturation (${s.connections} connections, pipelining ${s.pipelining}). "Seen from outside" is ` +
    '1/throughput with the burn minus 1/throughput without it, paired by round; "server CPU" is the extra CPU µs per request ' +
    'from `/__stats`. Both should equal what the server measured.')];
  if (!c) {
    parts.push('No analysis: the run stopped before it finished.');
    return parts.join('\n\n') + '\n';
  }
  const tol = c.tolerance;
  const rows = c.levels.map((l) => [
    l.burnUs,
    f.num(l.actualUs),
    f.withCi(l.seenUs.mean, l.seenUs.ci95, f.num),
    ratioCell(l.seenRatio, l.checked, tol),
    f.withCi(l.cpuUs.mean, l.cpuUs.ci95, f.num),
    ratioCell(l.cpuRatio, false, tol),
  ]);
  parts.push(f.table(['BURN_US', 'server measured µs/req', 'seen from outside µs/req [95% CI]', 'seen ÷ measured', 'server CPU µs/req [95% CI]', 'CPU ÷ measured'], rows, ['r', 'r', 'r', 'r', 'r', 'r']));
  if (c.fit) {
    parts.push(`Linear fit of seen-from-outside against server-measured cost over ${c.fit.points} levels: slope ${c.fit.slope.toFixed(3)}, ` +
      `intercept ${c.fit.interceptUs.toFixed(1)} µs, R² ${c.fit.r2.toFixed(4)} (a perfect harness: slope 1, intercept 0, R² 1).`);
  }
  parts.push(c.pass
    ? `✅ Within ±${tol * 100}% at ${c.checkedLevels.join(' and ')} µs: the harness recovers a known cost.`
    : `❌ Not within ±${tol * 100}% at ${c.checkedLevels.join(' and ')} µs: differences of this size are not resolved on this machine with these settings (more rounds or longer bursts narrow it).`);
  return parts.join('\n\n') + '\n';
}

module.exports = { render };
