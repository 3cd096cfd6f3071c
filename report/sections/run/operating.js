'use strict';
// A run at the autoscaler's operating point (settings.targetCpu; analysis/operating-point.js):
// per deployment its throughput per instance as % of the baseline's at the same CPU target,
// the instances 1,000 req/s take on each side, and the tail each side's users see there,
// pooled over the blocks.
const f = require('../../format');
const { operatingPoints } = require('../../../analysis');
const { strategyCell, isAaTwin } = require('./common');
const { answerHeader, answerRows, leadText, shareText } = require('./operating-answer');

const DEPLOY_DOC = '[docs/deploy.md](../docs/deploy.md#the-deployment-answer-at-the-autoscalers-target)';
const DEPLOY_DOC_BASE = '[docs/deploy.md](../docs/deploy.md#what-the-ratio-rests-on)';
const ms = (x) => (f.isNum(x) ? f.num(x) : f.DASH);
const msCi = (x, ci) => (f.isNum(x) ? `${ms(x)}${ci ? ` [${ms(ci[0])}–${ms(ci[1])}]` : ''}` : f.DASH);
const signed = (x) => (f.isNum(x) ? `${x > 0 ? '+' : x < 0 ? '−' : ''}${ms(Math.abs(x))}` : f.DASH);
const share = (x) => (f.isNum(x) ? `${(x * 100).toFixed(x < 0.01 && x > 0 ? 2 : 1)}%` : f.DASH);
const two = (x) => (f.isNum(x) ? x.toFixed(2) : f.DASH);
const perInstanceText = (x) => (x && f.isNum(x.estimate) ? f.withCi(x.estimate, x.ci95) : f.DASH);
const quotaText = (x) => (x && f.isNum(x.estimate) ? `${Math.round(x.estimate * 100)}%` : f.DASH);

const addedText = (a) =>
  a ? `${signed(a.estimate)}${a.ci95 ? ` [${signed(a.ci95[0])}…${signed(a.ci95[1])}]` : ''}` : f.DASH;

// Where the candidate's figure was read: at the baseline's rate in every block, at its own
// in every block, or some of each.
function measuredAt(op) {
  if (!op.ownBlocks) return "the baseline's rate";
  if (op.ownBlocks >= op.blocks) return 'its own rate';
  return `its own rate in ${op.ownBlocks} of ${op.blocks} blocks`;
}

// Requests in flight, and a ⚠ where the candidate's are above what the autoscaler's
// concurrency target allows (that target then decides the instance count).
function inFlightCell(op) {
  const x = op.inFlight?.candidate?.estimate;
  const y = op.inFlight?.baseline?.estimate;
  if (!f.isNum(x) && !f.isNum(y)) return f.DASH;
  return `${op.concurrencyBound ? '⚠ ' : ''}${two(x)} / ${two(y)}`;
}

// Which of the autoscaler's targets set a side's instance count (analysis/operating-point.js
// boundBy: the share of its windows the concurrency target did); '—' where the run recorded none.
function boundText(x) {
  if (!f.isNum(x)) return f.DASH;
  if (x === 0) return 'CPU';
  if (x === 1) return 'in flight';
  return `in flight in ${Math.round(x * 100)}%`;
}

// The absolute tail of a side the generator's lateness could have made: marked, not dropped.
const marked = (op, side, text) => (op.generatorLimited[side] ? `${text} (generator late)` : text);

// The detail below the answer (operating-answer.js), every figure with its interval.
// app: `ctxbench app --instance`'s one row, named by its command's name, without the depth and
// the id column (its page has a table of the sides' ids).
// bound: the run recorded which target bound (a column for it).
function operatingRows(rows, { app = false, bound = false } = {}) {
  return rows.map(({ config: c, op, summary: s }) => {
    const t = op.tails;
    const addedP99 = t?.added?.p99;
    const cells = [
      app ? f.code(c.name) : strategyCell(c),
      ...(app ? [] : [c.depth]),
      measuredAt(op),
      `${f.int(op.rates.candidate?.estimate)} / ${f.int(op.rates.baseline?.estimate)}`,
      `${quotaText(op.share?.candidate)} / ${quotaText(op.share?.baseline)}`,
      `${perInstanceText(op.perInstance?.candidate)} / ${perInstanceText(op.perInstance?.baseline)}`,
      ...(bound ? [`${boundText(op.boundBy?.candidate)} / ${boundText(op.boundBy?.baseline)}`] : []),
      t ? marked(op, 'candidate', msCi(t.candidate.p50, t.candidate.ci95.p50)) : f.DASH,
      t ? marked(op, 'candidate', msCi(t.candidate.p99, t.candidate.ci95.p99)) : f.DASH,
      t ? marked(op, 'baseline', msCi(t.baseline.p99, t.baseline.ci95.p99)) : f.DASH,
      addedText(addedP99),
      t ? msCi(t.candidate.p99_9, t.candidate.ci95.p99_9) : f.DASH,
      t ? `${share(t.candidate.overShare)} / ${share(t.baseline.overShare)}` : f.DASH,
      `${share(op.throttled.candidate)} / ${share(op.throttled.baseline)}`,
      inFlightCell(op),
      ...(app ? [] : [isAaTwin(c) || !s ? 'n/a' : s.mismatches ? `⚠ ${f.int(s.mismatches)}` : '0']),
    ];
    return cells.map(String);
  });
}

// What the ratio rests on (analysis/operating-point.js baseOf): per depth, the baseline's CPU per
// request at its operating point over the blocks, and a ⚠ for the ratios that moved with it.
function baseLines(rows, { base, named, app, brief }) {
  const depths = [...new Set(rows.map((r) => r.config.depth))];
  const per = depths
    .map((d) => {
      const at = rows.filter((r) => r.config.depth === d && r.op.base?.range);
      if (!at.length) return null;
      const lo = Math.min(...at.map((r) => r.op.base.range[0]));
      const hi = Math.max(...at.map((r) => r.op.base.range[1]));
      return `${f.int(lo)}–${f.int(hi)} µs${app ? '' : ` at depth ${d}`}`;
    })
    .filter(Boolean);
  const moved = rows.filter((r) => r.op.base?.dependence?.moves);
  const out = [];
  if (per.length && !brief)
    out.push(
      '',
      `*What the ratio rests on:* ${base}'s CPU per request at its operating point ranged ` +
        `${per.join(' and ')} over the blocks (each block's mean, in its pairs' ${base} processes). That is the ` +
        `machine's cost of a lightly loaded request, which moves with the machine's state, not the strategy's: ` +
        `where a ratio moved with it from block to block, a run whose blocks see other states reads it ` +
        `otherwise, beyond this run's interval (${app ? "ctxbench's docs/deploy.md" : DEPLOY_DOC_BASE}).`,
    );
  if (moved.length)
    out.push(
      '',
      `> ⚠ **Moved with ${base}'s cost of a lightly loaded request:** ` +
        moved
          .map(({ config: c, op }) => {
            const d = op.base.dependence;
            return (
              `${named(c)} (r = ${d.r.toFixed(2)} over ${d.n} blocks, ` +
              `p ${d.pValue < 0.001 ? '< 0.001' : `= ${d.pValue.toFixed(3)}`}; ` +
              `${d.move > 0 ? '+' : '−'}${Math.round(Math.abs(d.move) * 100)}% across the blocks' range)`
            );
          })
          .join(', ') +
        `. Their blocks' ratios followed ${base}'s CPU per request there, so their intervals hold for this ` +
        `run's mix of machine states; a second run on a machine in another state moves them.`,
    );
  return out;
}

// The table's header: the candidate's figures beside the baseline's, the target that set
// them only when the run recorded which did.
function operatingHeader({ app, base, who, both, bound, allowed }) {
  return [
    app ? 'Candidate' : 'Strategy',
    ...(app ? [] : ['Depth']),
    'Measured at',
    `req/s sent: ${who} / ${base}`,
    `Share of the quota used: ${who} / ${base}`,
    `req/s per instance at the target: ${who} / ${base} [95% CI]`,
    ...(both ? [`Target that set them: ${who} / ${base}`] : []),
    'p50 ms [95% CI]',
    'p99 ms [95% CI]',
    `${base}'s p99 ms [95% CI]`,
    `p99 added vs ${base} ms [95% CI]`,
    'p99.9 ms [95% CI]',
    `Requests over ${bound ?? 'the bound'}: ${who} / ${base}`,
    `CFS periods throttled: ${who} / ${base}`,
    `Requests in flight: ${who} / ${base}${allowed ? ` (target ${two(allowed)})` : ''}`,
    ...(app ? [] : ['Mismatches']),
  ];
}

// What *Throughput per instance* is: at the CPU target alone, or at whichever of the
// CPU and concurrency targets an instance reached first.
function introText({ app, base, who, both, inst, target, allowed }) {
  return both
    ? `*Throughput per instance* is ${base}'s µs of an instance per request ÷ the ${who}'s, per window of a ` +
      `pair of fresh ${inst.name} stand-ins loaded open loop at once. An autoscaler adds instances until each ` +
      `holds both its targets, ${target} of the CPU quota and ${two(allowed)} requests in flight ` +
      `(${inst.requestLimit} at once × ${inst.concurrencyTargetSource ?? 'its concurrency target, 0.6'}), so a ` +
      `request takes its CPU ÷ (quota × ${target}) of an instance, or the time it held its connection ÷ ` +
      `${two(allowed)}, whichever is more (*Target that set them*). ${base} at the rate at which it reached ` +
      `the first of its targets, found per block from its cgroup's CPU and its connections, and the ${who} at ` +
      `that rate too (*${base}'s rate*) or, where its cost there was more than 5% from ${base}'s, at the rate ` +
      `at which it reached its own (*its own rate*); log ratios averaged per block, t-interval over blocks. ` +
      `Below 100% the ${who} serves fewer requests per instance at the same targets, and an autoscaler runs ` +
      `more instances of it. *Instances per 1,000 req/s*: 1,000 × those µs ÷ 1,000,000` +
      `${app ? '' : ", without the yamls' instance cap"}. ` +
      `*req/s per instance at the target*: 1,000 ÷ that, the same measurement; *req/s sent*: the rate each side ` +
      `was sent there, at the *share of the quota used* (its cgroup's CPU ÷ the quota over the counted windows, ` +
      `mean over blocks). `
    : `*Throughput per instance* is ${base}'s CPU per request ÷ the ${who}'s, per window of a pair of fresh ` +
      `${inst.name} stand-ins loaded open loop at once: ${base} at the rate at which it used ${target} of its ` +
      `quota, found per block from its cgroup's CPU, and the ${who} at that rate too (*${base}'s rate*) or, ` +
      `where its CPU per request there was more than 5% from ${base}'s, at the rate at which its share of the ` +
      `quota was ${base}'s (*its own rate*); log ratios averaged per block, t-interval over blocks. CPU per ` +
      `request is the share of the quota × the quota ÷ the rate, so below 100% the ${who} serves fewer ` +
      `requests per instance at the same CPU target, and an autoscaler runs more instances of it. *Instances ` +
      `per 1,000 req/s*: 1,000 × CPU per request ÷ (quota × ${target})` +
      `${app ? '' : ", without the yamls' instance cap"}. ` +
      `*req/s per instance at the target*: 1,000 ÷ that, the same measurement; *req/s sent*: the rate each side ` +
      `was sent there, at the *share of the quota used* (its cgroup's CPU ÷ the quota over the counted windows, ` +
      `mean over blocks). `;
}

// What *Requests in flight* is, as measured by the targets the run had.
function flightTextOf({ who, both, inst, target, allowed, anyHeld }) {
  return both
    ? `*Requests in flight*: the time each side's answers held a connection (send to answer, on the load ` +
      `generator's clock, so the loopback's round trip is in it) ÷ the wall time, geometric mean over blocks` +
      (anyHeld ? '' : `; every side reached ${target} of its CPU first`)
    : `*Requests in flight*: each side's ` +
      `answers × their mean latency ÷ the wall time (Little's law), geometric mean over blocks` +
      (allowed
        ? `; the autoscaler also adds instances to hold them at ${two(allowed)} (${inst.requestLimit} at once × ` +
          `${inst.concurrencyTargetSource ?? 'its concurrency target, 0.6'}), so where a ${who}'s are above it ` +
          `(⚠) that target, not the CPU's, decides how many instances it takes, and its instance figures here ` +
          `are a lower bound`
        : '');
}

// The section of a run page (and of results.md's brief): '' for any other run. app: `ctxbench
// app --instance`'s page, { baseline (its name), row ({ config, op }) }: the candidate's row,
// the sides named as the team named them.
function operatingSection(run, { brief = false, app = null } = {}) {
  const rows = app ? (app.row?.op ? [app.row] : []) : operatingPoints(run);
  if (!rows.length) return '';
  const s = run.settings;
  const inst = s.instance;
  const base = f.code(app ? app.baseline : s.baseline);
  const who = app ? 'candidate' : 'strategy';
  const target = `${Math.round(s.targetCpu * 100)}%`;
  const period = `${(inst.periodUs / 1000).toLocaleString('en-US')}-ms CFS period`;
  const bound = s.slo ? `${s.slo.boundMs} ms` : null;
  const allowed = rows.map((r) => r.op.concurrencyAllowed).find(f.isNum) ?? null;
  const named = (c) => (app ? f.code(c.name) : `${strategyCell(c)} at depth ${c.depth}`);
  const over = rows.filter((r) => r.op.concurrencyBound);
  // The run recorded per window which target bound: the figures are read at whichever did.
  const both = Boolean(allowed) && rows.some((r) => f.isNum(r.op.boundBy?.candidate));
  const anyHeld = rows.some((r) => r.op.boundBy?.candidate > 0 || r.op.boundBy?.baseline > 0);
  const terms = { app, base, who, both, bound, inst, target, allowed, anyHeld, brief };
  const heading = both
    ? `At the autoscaler's targets: ${target} of the ${inst.name} quota or ${two(allowed)} requests in flight ` +
      `(${period})`
    : `At the autoscaler's target: ${target} of the ${inst.name} quota (${period})`;
  const answer = answerHeader(terms);
  const out = [
    f.heading(3, heading),
    '',
    leadText(terms),
    '',
    f.table(
      answer,
      answerRows(rows, { app: Boolean(app) }),
      answer.map((_, i) => (i === 0 ? 'l' : 'r')),
    ),
    '',
    shareText(rows, terms),
  ];
  if (over.length)
    out.push(
      '',
      `> ⚠ **The concurrency target binds first** for ${over.map(({ config: c }) => named(c)).join(', ')}: ` +
        `at its CPU target it held more requests in flight than the ${two(allowed)} an autoscaler allows an ` +
        `instance, so its instance count there is set by its latency, and the instances above understate it.`,
    );
  if (!brief) out.push(...detailLines(rows, terms));
  out.push(...baseLines(rows, { base, named, app, brief }));
  if (!brief)
    out.push(
      '',
      `The period is an assumption (no cloud documents the one that limits an instance): this run used ` +
        `${inst.periodUs.toLocaleString('en-US')} µs; how the answer moves with it, and what the stand-in does not ` +
        `reproduce: ${app ? "ctxbench's docs/deploy.md" : DEPLOY_DOC}.`,
    );
  return out.join('\n');
}

// The detail below the answer: how each figure is measured, and all of them with intervals.
function detailLines(rows, terms) {
  const header = operatingHeader(terms);
  return [
    '',
    f.heading(4, 'Detail at the operating point'),
    '',
    introText(terms) +
      `*The tail* is each side's at its own operating point: every request of every block pooled per side, from ` +
      `its intended send time, intervals by resampling blocks (2,000 resamples), the added p99 paired by block ` +
      `inside each resample; "(generator late)": the load ` +
      `generator's own lateness p99 there was over a tenth of the figure. ` +
      flightTextOf(terms) +
      '.',
    '',
    f.table(
      header,
      operatingRows(rows, { app: Boolean(terms.app), bound: terms.both }),
      header.map((h, i) => (i === 0 || h === 'Measured at' ? 'l' : 'r')),
    ),
  ];
}

module.exports = { operatingSection };
