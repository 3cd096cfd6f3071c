'use strict';
// Tier: quick (the stopping rule: a pure function)
// The stopping rule: a pure function of what is known after a block.
const test = require('node:test');
const assert = require('node:assert');
const { decide } = require('../bench/run/stopping');

const base = { elapsedS: 100, maxTimeS: 480, nextBlockS: 90, precision: 3, blocks: 3, minBlocks: 3 };

test('below the minimum number of blocks there is always another block, even past the cap', () => {
  const d = decide({ ...base, blocks: 2, elapsedS: 1000, ratios: [{ id: 'a', halfWidthPct: 1, blocks: 2 }] });
  assert.strictEqual(d.more, true);
});

test('without a precision target the run stops at the minimum', () => {
  const d = decide({ ...base, precision: null, ratios: [{ id: 'a', halfWidthPct: 50, blocks: 3 }] });
  assert.deepStrictEqual([d.more, d.reached, d.missing], [false, false, []]);
});

test('every ratio within the target: stop, reached', () => {
  const d = decide({
    ...base,
    ratios: [
      { id: 'a', halfWidthPct: 2.9, blocks: 3 },
      { id: 'b', halfWidthPct: 3, blocks: 3 },
    ],
  });
  assert.deepStrictEqual([d.more, d.reached, d.missing], [false, true, []]);
});

test('a ratio above the target buys another block while one fits before the cap', () => {
  const d = decide({
    ...base,
    ratios: [
      { id: 'a', halfWidthPct: 6, blocks: 3 },
      { id: 'b', halfWidthPct: 2, blocks: 3 },
    ],
  });
  assert.strictEqual(d.more, true);
  // half-width shrinks with sqrt(blocks): 6 pp at 3 blocks -> 3 * (6/3)^2 = 12 blocks.
  assert.deepStrictEqual(d.missing, [{ id: 'a', halfWidthPct: 6, blocksNeeded: 12 }]);
});

test('the cap is a deadline for the whole run: no block that would end after it', () => {
  const ratios = [{ id: 'a', halfWidthPct: 4, blocks: 5 }];
  assert.strictEqual(
    decide({ ...base, ratios, elapsedS: 390, nextBlockS: 90 }).more,
    true,
    '390 + 90 = 480 still fits',
  );
  const d = decide({ ...base, ratios, elapsedS: 391, nextBlockS: 90 });
  assert.strictEqual(d.more, false);
  assert.strictEqual(d.reached, false);
  assert.match(d.reason, /time cap/);
  assert.deepStrictEqual(d.missing, [{ id: 'a', halfWidthPct: 4, blocksNeeded: Math.ceil(5 * (4 / 3) ** 2) }]);
});

test('a ratio without a half-width yet is missing, with no projection', () => {
  const d = decide({ ...base, ratios: [{ id: 'a', halfWidthPct: null, blocks: 1 }] });
  assert.strictEqual(d.more, true);
  assert.deepStrictEqual(d.missing, [{ id: 'a', halfWidthPct: null, blocksNeeded: null }]);
});

test("a budget (a held-out resume's own time) stops before the minimum of blocks; the cap does not", () => {
  const early = { ...base, blocks: 1, minBlocks: 10, elapsedS: 400, nextBlockS: 90 };
  assert.strictEqual(decide(early).more, true, 'the minimum is the design, the cap no budget');
  const d = decide({ ...early, budgetS: 480 });
  assert.deepStrictEqual([d.more, d.reason], [false, 'time budget: another block (~90 s) would end after 480 s']);
  assert.strictEqual(decide({ ...early, budgetS: 490 }).more, true, '400 + 90 fits the budget');
});

test('the next block is reckoned as the longest so far plus their spread, so a longer one still fits the cap', () => {
  const { nextBlockSeconds } = require('../bench/run/stopping');
  assert.strictEqual(nextBlockSeconds([]), 0);
  assert.strictEqual(nextBlockSeconds([500]), 500);
  assert.strictEqual(nextBlockSeconds([480, 520, 500]), 560, '520 + (520 - 480)');
  const ratios = [{ id: 'a', halfWidthPct: 4, blocks: 5 }];
  const d = decide({ ...base, ratios, maxTimeS: 3600, elapsedS: 3060, nextBlockS: nextBlockSeconds([480, 520]) });
  assert.strictEqual(d.more, false, '3,060 + 560 would end after 3,600 s, though 3,060 + 520 would not');
});

// A time budget spent where it buys precision (issue 76): past the minimum of blocks, a
// ratio within the target is measured no more, so the next blocks go to the wide ones.
test('past the minimum, a duet configuration within the target rests; the wide one and the baseline go on', () => {
  const { restPrecise } = require('../bench/run/runner');
  const config = (id, halfWidthPct) => ({
    id,
    samples: [0, 1, 2].map((block) => ({ block })),
    ...(halfWidthPct !== null && { summary: { ratio: { halfWidthPct } } }),
  });
  const run = {
    settings: { precision: 2, blocks: 3, method: 'duet' },
    configs: [config('none', null), config('als', 1.5), config('otel', 4)],
  };
  const ctx = { run, excluded: new Set(), progress: null };
  restPrecise(ctx, 2);
  assert.deepStrictEqual([...ctx.excluded], [], 'below the minimum nothing rests');
  restPrecise(ctx, 3);
  assert.deepStrictEqual([...ctx.excluded].map((c) => c.id), ['als']);
  assert.strictEqual(run.configs[1].restingFrom, 3);
  // Sequential rounds measure every configuration in every round: nothing rests there.
  const sequential = { run: { ...run, settings: { ...run.settings, method: 'sequential' } }, excluded: new Set() };
  restPrecise(sequential, 3);
  assert.strictEqual(sequential.excluded.size, 0);
});
