'use strict';
// What a test may check of a measured ratio without depending on how fast or busy the
// machine is: every duet window either counted or dropped with its reason, and the ratio
// the run stored is the one its own windows (or adjacent pairs) give, recomputed here
// independently of analysis/ (log ratios averaged per block, t-interval over blocks).
// Whether an interval formed, and how wide it is, depends on the machine; that it is the
// right one for the samples it came from does not.
const assert = require('node:assert');
const { jStat } = require('jstat');

const DROP_REASONS = new RegExp(
  String.raw`^(server \d+ served no request|load generator at \d+% of a core|server CPU not ` +
    String.raw`saturated \(\d+% used\)|server \d+ not busy throughout \(\d+% of the CPU\))$`,
);

function checkWindows(windows, label = '') {
  for (const w of windows) {
    if (w.counted) assert.strictEqual(w.dropped, undefined, `${label} window ${w.window}: counted, no reason`);
    else assert.match(w.dropped, DROP_REASONS, `${label} window ${w.window}: dropped, with its reason`);
  }
}

// { estimate, ci95, blocks } of log differences { block, d }: averaged per block, the mean
// over blocks and its t-interval (estimate null without a pair, ci95 null with one block).
function overBlocks(pairs) {
  const byBlock = new Map();
  for (const { block, d } of pairs) {
    if (!byBlock.has(block)) byBlock.set(block, []);
    byBlock.get(block).push(d);
  }
  const means = [...byBlock.values()].map((ds) => ds.reduce((a, b) => a + b, 0) / ds.length);
  const k = means.length;
  if (k === 0) return { estimate: null, ci95: null, blocks: 0 };
  const m = means.reduce((a, b) => a + b, 0) / k;
  if (k < 2) return { estimate: Math.exp(m), ci95: null, blocks: k };
  const sd = Math.sqrt(means.reduce((a, x) => a + (x - m) ** 2, 0) / (k - 1));
  const half = jStat.studentt.inv(0.975, k - 1) * (sd / Math.sqrt(k));
  return { estimate: Math.exp(m), ci95: [Math.exp(m - half), Math.exp(m + half)], blocks: k };
}

// Duet: the partner's CPU per request ÷ this one's, per counted window.
const expectedRatio = (windows) =>
  overBlocks(
    windows
      .filter((w) => w.counted)
      .map((w) => ({ block: w.block, d: Math.log(w.partnerCpuUsPerRequest / w.cpuUsPerRequest) })),
  );

const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

function checkAgainst(ratio, want, label) {
  if (want.estimate === null) {
    assert.strictEqual(ratio.estimate, null, `${label}: nothing to compare, no estimate`);
    return want;
  }
  assert.ok(
    close(ratio.estimate, want.estimate),
    `${label}: estimate ${ratio.estimate}, its samples give ${want.estimate}`,
  );
  if (want.ci95 === null) assert.strictEqual(ratio.ci95, null, `${label}: one block, no interval`);
  else
    assert.ok(
      ratio.ci95 && close(ratio.ci95[0], want.ci95[0]) && close(ratio.ci95[1], want.ci95[1]),
      `${label}: interval ${JSON.stringify(ratio.ci95)}, its samples give ${JSON.stringify(want.ci95)}`,
    );
  return want;
}

// A duet ratio is the one its windows give: every window counted or dropped with its
// reason, the counts, the estimate and the interval, to rounding.
function checkRatio(ratio, windows, label = '') {
  checkWindows(windows, label);
  assert.strictEqual(ratio.windows.counted, windows.filter((w) => w.counted).length, `${label}: counted windows`);
  assert.strictEqual(ratio.windows.dropped, windows.filter((w) => !w.counted).length, `${label}: dropped windows`);
  return checkAgainst(ratio, expectedRatio(windows), label);
}

// A sequential ratio is the one its adjacent pairs give: this burst's req/s ÷ the baseline
// burst next to it (pairSeq), per block.
function checkSequentialRatio(ratio, samples, baseSamples, label = '') {
  const bySeq = new Map(baseSamples.map((s) => [s.seq, s]));
  const pairs = samples
    .filter((s) => s.rps > 0 && bySeq.get(s.pairSeq)?.rps > 0)
    .map((s) => ({ block: s.block, d: Math.log(s.rps / bySeq.get(s.pairSeq).rps) }));
  assert.ok(pairs.length > 0, `${label}: paired samples`);
  return checkAgainst(ratio, overBlocks(pairs), label);
}

module.exports = { checkWindows, checkRatio, checkSequentialRatio, expectedRatio, DROP_REASONS };
