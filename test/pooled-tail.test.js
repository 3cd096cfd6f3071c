'use strict';
// Tier: quick (synthetic histograms: nothing started)
// The tail at an operating point (analysis/pooled-tail.js): every request of every block
// pooled per side, the interval by resampling blocks, the added latency paired by block.
const test = require('node:test');
const assert = require('node:assert');
const { newHistogram } = require('../lib/histogram');
const { pooledTails } = require('../analysis/pooled-tail');

// A histogram of n requests at each of the given latencies (ms).
function hist(spec) {
  const h = newHistogram();
  for (const [ms, n] of spec) h.recordValueWithCount(Math.round(ms * 1000), n);
  return h;
}

test('pooled, not a mean of per-block percentiles: one stalled block sets the pooled p99', () => {
  // Four blocks of 1,000 requests at 1 ms; block 0 also has 100 stalled at 200 ms (2.4% of all).
  const blocks = [0, 1, 2, 3].map((block) => ({
    block,
    baseline: hist(
      block === 0
        ? [
            [1, 1000],
            [200, 100],
          ]
        : [[1, 1000]],
    ),
    candidate: hist([[1.5, 1000]]),
  }));
  const t = pooledTails(blocks, { boundMs: 100 });
  const merged = newHistogram();
  for (const b of blocks) merged.add(b.baseline);
  assert.strictEqual(
    t.baseline.p99,
    merged.getValueAtPercentile(99) / 1000,
    "the pooled p99 is the merged histogram's",
  );
  assert.ok(t.baseline.p99 > 150, `pooled p99 ${t.baseline.p99}`);
  const meanOfBlocks = blocks.map((b) => b.baseline.getValueAtPercentile(99) / 1000).reduce((a, x) => a + x) / 4;
  assert.ok(Math.abs(t.baseline.p99 - meanOfBlocks) > 50, 'a mean of per-block p99s would read another figure');
  assert.strictEqual(t.baseline.overShare, 100 / 4100, 'the share over the bound counts requests');
  assert.strictEqual(t.candidate.overShare, 0);
  // Resampling blocks: a resample without block 0 has no stall, so the interval spans both.
  const [lo, hi] = t.baseline.ci95.p99;
  assert.ok(lo < 2 && hi > 150, `p99 interval [${lo}, ${hi}]`);
  assert.strictEqual(t.blocks, 4);
});

test('the added latency is paired by block: a shift shared by both sides cancels in the resample', () => {
  // Blocks differ a lot (machine state), the candidate is 2 ms slower in every one of them.
  const levels = [1, 8, 3, 20, 5, 12];
  const blocks = levels.map((ms, block) => ({
    block,
    baseline: hist([
      [ms, 990],
      [ms * 4, 10],
    ]),
    candidate: hist([
      [ms + 2, 990],
      [ms * 4 + 2, 10],
    ]),
  }));
  const t = pooledTails(blocks, { boundMs: null });
  const width = (ci) => ci[1] - ci[0];
  assert.ok(width(t.baseline.ci95.p50) > 5, `each side's own p50 moves with the blocks drawn: ${t.baseline.ci95.p50}`);
  assert.ok(width(t.added.p50.ci95) < 1, `the paired difference does not: ${t.added.p50.ci95}`);
  assert.ok(
    Math.abs(t.added.p50.estimate - 2) < 0.05 && t.added.p50.ci95[0] <= 2 && t.added.p50.ci95[1] >= 1.9,
    JSON.stringify(t.added.p50),
  );
  assert.strictEqual(t.baseline.overShare, null);
});

test('deterministic, and no figure from fewer than two blocks with both sides measured', () => {
  const blocks = [0, 1, 2].map((block) => ({
    block,
    baseline: hist([[1 + block, 100]]),
    candidate: hist([[2 + block, 100]]),
  }));
  assert.deepStrictEqual(pooledTails(blocks, { seed: 7 }), pooledTails(blocks, { seed: 7 }));
  assert.strictEqual(
    pooledTails([blocks[0], { block: 1, baseline: blocks[1].baseline, candidate: newHistogram() }]),
    null,
  );
});

// The resamples are read through cumulative counts by bisection (analysis/pooled-tail.js):
// each must give what merging its drawn blocks' histograms gives, bit for bit.
test(
  "every figure, pooled and resampled, is the merged histogram's own: " + 'quantiles and the share over the bound',
  () => {
    const { mulberry32 } = require('./helpers/random');
    const uniform = mulberry32(62);
    const random = (n) => {
      const h = newHistogram();
      for (let i = 0; i < n; i++) h.recordValue(50 + Math.floor(Math.exp(uniform() * Math.log(4e5))));
      return h;
    };
    const blocks = [0, 1, 2, 3, 4].map((block) => ({
      block,
      baseline: random(400 + 300 * block),
      candidate: random(900),
    }));
    const boundMs = 20;
    const seed = 5;
    const t = pooledTails(blocks, { boundMs, resamples: 2, seed });
    const figures = (picks, side) => {
      const m = newHistogram();
      for (const i of picks) m.add(blocks[i][side]);
      let over = 0;
      const it = m.recordedValuesIterator;
      it.reset();
      while (it.hasNext()) {
        const v = it.next();
        if (v.valueIteratedTo > boundMs * 1000) over += v.countAtValueIteratedTo;
      }
      return {
        p50: m.getValueAtPercentile(50) / 1000,
        p99: m.getValueAtPercentile(99) / 1000,
        p99_9: m.getValueAtPercentile(99.9) / 1000,
        overShare: over / m.totalCount,
      };
    };
    for (const side of ['baseline', 'candidate']) {
      const whole = figures([0, 1, 2, 3, 4], side);
      for (const k of Object.keys(whole)) assert.strictEqual(t[side][k], whole[k], `${side} ${k}`);
    }
    // The same draws as the analysis (mulberry32(seed), five per resample); with two resamples
    // the interval is their lower and higher figure.
    const draw = mulberry32(seed);
    const resampled = [0, 1].map(() => Array.from({ length: 5 }, () => Math.floor(draw() * 5)));
    for (const side of ['baseline', 'candidate']) {
      const [a, b] = resampled.map((picks) => figures(picks, side));
      for (const k of Object.keys(a)) {
        assert.deepStrictEqual(t[side].ci95[k], [Math.min(a[k], b[k]), Math.max(a[k], b[k])], `${side} ${k} resampled`);
      }
    }
  },
);
