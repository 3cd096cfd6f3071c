'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { warmMore, burstCost, MAX_WARMUP_BURSTS } = require('../bench/warmup');

test('warm-up goes on while the cost per request keeps falling by more than 5%', () => {
  assert.deepStrictEqual(warmMore([]), { more: true, reason: 'first burst' });
  assert.deepStrictEqual(warmMore([43]), { more: true, reason: 'first burst' });
  // The cold first burst of a fresh none d8 process here: 43 µs, then 28 µs.
  assert.strictEqual(warmMore([43, 28]).more, true);
  assert.deepStrictEqual(warmMore([43, 28, 27]), { more: false, reason: 'steady' });
  // A slower burst (noise) is steady too: warm-up stops, it does not chase noise.
  assert.strictEqual(warmMore([43, 28, 30]).more, false);
  // Just past the 5% line is still falling; just inside it is steady.
  assert.strictEqual(warmMore([100, 94.9]).more, true);
  assert.strictEqual(warmMore([100, 95.1]).more, false);
});

test('warm-up stops at its limit and says it was still getting faster', () => {
  const falling = Array.from({ length: MAX_WARMUP_BURSTS }, (_, i) => 100 * 0.8 ** i);
  assert.deepStrictEqual(warmMore(falling), { more: false, reason: 'still getting faster at the limit' });
  assert.strictEqual(warmMore(falling.slice(0, -1)).more, true);
  assert.deepStrictEqual(warmMore([100, 80, 60], { maxBursts: 3 }), { more: false, reason: 'still getting faster at the limit' });
});

test('a burst costs its server CPU per request, or the client-seen time per request without one', () => {
  assert.strictEqual(burstCost({ cpuUsPerRequest: 27, rps: 1000 }), 27);
  assert.strictEqual(burstCost({ cpuUsPerRequest: null, rps: 2000 }), 500);
  assert.strictEqual(burstCost({ cpuUsPerRequest: null, rps: 0 }), null);
  assert.deepStrictEqual(warmMore([null, 5]), { more: false, reason: 'cost not measurable' });
});
