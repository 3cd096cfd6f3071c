'use strict';
// The deployment page's answer at the autoscaler's operating point (analysis/operating-point.js),
// as codes and numbers: which figures are resolved, the bound an unresolved difference gives,
// and the share of its quota the baseline used where the figures were read, per depth
// (report/sections/run/operating-answer.js words them).

// The search stops on a step within a tenth of the target (bench/rates/operating-point.js TOLERANCE);
// a share this far from the target, or nearer, is "at the target".
const SHARE_TOLERANCE = 0.03;

const finite = (x) => typeof x === 'number' && Number.isFinite(x);
const hasCi = (ci) => Array.isArray(ci) && finite(ci[0]) && finite(ci[1]);

// A level (a latency, a rate, a ratio, an instance count) with its 95% interval -> { estimate,
// ci95, n (blocks), resolved }: resolved where the interval is no wider (upper − lower) than the
// figure; without an interval it is not. null without a figure.
function level(x, n) {
  if (!x || !finite(x.estimate)) return null;
  const ci = hasCi(x.ci95) ? x.ci95 : null;
  return { estimate: x.estimate, ci95: ci, n, resolved: ci !== null && ci[1] - ci[0] <= Math.abs(x.estimate) };
}

// A difference with its 95% interval -> { estimate, ci95, n, resolved, atMost }: where the
// interval holds zero, atMost is its upper end (the bound it gives); resolved where it has an
// interval. null without a figure.
function difference(x, n) {
  if (!x || !finite(x.estimate)) return null;
  const ci = hasCi(x.ci95) ? x.ci95 : null;
  const atMost = ci && ci[0] <= 0 && ci[1] >= 0 ? ci[1] : null;
  return { estimate: x.estimate, ci95: ci, n, resolved: ci !== null, atMost };
}

// One row of the answer: op -> { ratio, instances { candidate, baseline }, p99 (the candidate's
// pooled p99), added (its p99 over the baseline's) }.
function answerRow(op) {
  const t = op.tails;
  const tailBlocks = t?.blocks ?? 0;
  return {
    ratio: level(op.ratio, op.ratio?.blocks ?? op.blocks),
    instances: {
      candidate: level(op.instances.candidate, op.instances.candidate?.n ?? 0),
      baseline: level(op.instances.baseline, op.instances.baseline?.n ?? 0),
    },
    p99: t ? level({ estimate: t.candidate.p99, ci95: t.candidate.ci95?.p99 }, tailBlocks) : null,
    added: t ? difference(t.added.p99, tailBlocks) : null,
  };
}

// The baseline's share of its quota where the figures were read, per depth: rows ({ config, op })
// -> [{ depth, target, estimate (mean of the rows' shares), range [min, max] of the rows', rows,
// within (the estimate within SHARE_TOLERANCE of the target), outside (rows beyond it),
// concurrencyRows (rows whose baseline the concurrency target held in most windows: their CPU
// share is below the target by design, and left out) }], in the rows' order of depths.
function studyShares(rows, target) {
  const depths = [...new Set(rows.map((r) => r.config.depth))];
  return depths
    .map((depth) => {
      const at = rows.filter((r) => r.config.depth === depth);
      const held = at.filter((r) => r.op.boundBy?.baseline > 0.5);
      const shares = at
        .filter((r) => !held.includes(r))
        .map((r) => r.op.share?.baseline?.estimate)
        .filter(finite);
      if (!shares.length) return null;
      const estimate = shares.reduce((a, x) => a + x, 0) / shares.length;
      const near = (x) => finite(target) && Math.abs(x - target) <= SHARE_TOLERANCE + 1e-9;
      return {
        depth,
        target,
        estimate,
        range: [Math.min(...shares), Math.max(...shares)],
        rows: shares.length,
        within: near(estimate),
        outside: shares.filter((x) => !near(x)).length,
        concurrencyRows: held.length,
      };
    })
    .filter(Boolean);
}

module.exports = { level, difference, answerRow, studyShares, SHARE_TOLERANCE };
