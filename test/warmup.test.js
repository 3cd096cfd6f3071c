'use strict';
// Tier: quick (the warm-up rule on synthetic bursts)
const test = require('node:test');
const assert = require('node:assert');
const { warmMore, burstCost, MIN_WARMUP_BURSTS, MAX_WARMUP_BURSTS } = require('../bench/measure/warmup');

test(
  'warm-up takes at least three bursts, then goes on while a ' +
    'burst is more than 5% cheaper than the cheapest before it',
  () => {
    assert.strictEqual(MIN_WARMUP_BURSTS, 3);
    assert.deepStrictEqual(warmMore([]), { more: true, reason: 'too few bursts to judge' });
    // A noisy second burst no cheaper than the first does not end the warm-up.
    assert.strictEqual(warmMore([192, 194]).more, true);
    // Seen in the first run with burst-to-burst judging (otel d256): the third burst fell further.
    assert.deepStrictEqual(warmMore([192, 194, 150]), { more: true, reason: 'still getting faster' });
    assert.deepStrictEqual(warmMore([181, 158, 126, 126]), { more: false, reason: 'steady' });
    // Judged against the cheapest so far: 127 after 116 is steady, not a fall from 154.
    assert.strictEqual(warmMore([161, 154, 116, 127]).more, false);
    // A slower burst (noise) is steady too: warm-up stops, it does not chase noise.
    assert.strictEqual(warmMore([43, 28, 30]).more, false);
    // Just past the 5% line is still falling; just inside it is steady.
    assert.strictEqual(warmMore([200, 100, 94.9]).more, true);
    assert.strictEqual(warmMore([200, 100, 95.1]).more, false);
  },
);

test('warm-up stops at its limit and says it was still getting faster', () => {
  const falling = Array.from({ length: MAX_WARMUP_BURSTS }, (_, i) => 100 * 0.8 ** i);
  assert.deepStrictEqual(warmMore(falling), {
    more: false,
    atLimit: true,
    reason: 'still getting faster at the limit',
  });
  assert.strictEqual(warmMore(falling.slice(0, -1)).more, true);
  assert.deepStrictEqual(warmMore([100, 80, 60], { maxBursts: 3 }), {
    more: false,
    atLimit: true,
    reason: 'still getting faster at the limit',
  });
});

test('a burst costs its server CPU per request, or the client-seen time per request without one', () => {
  assert.strictEqual(burstCost({ cpuUsPerRequest: 27, rps: 1000 }), 27);
  assert.strictEqual(burstCost({ cpuUsPerRequest: null, rps: 2000 }), 500);
  assert.strictEqual(burstCost({ cpuUsPerRequest: null, rps: 0 }), null);
  assert.deepStrictEqual(warmMore([null, 5, 4]), { more: false, reason: 'cost not measurable' });
});

// A warm-up burst on a cold, live server that completed nothing still warmed it (a 0.2-s
// burst of HOP=pg on a busy machine did): its empty value; any other error stands.
test('burstOrEmpty: a burst with no response reads empty; a dead server still fails', async () => {
  const { burstOrEmpty } = require('../bench/measure/warmup');
  const noResponses = Object.assign(new Error('no response during the run'), { code: 'ERR_NO_RESPONSES' });
  assert.deepStrictEqual(await burstOrEmpty(Promise.reject(noResponses), { rps: 0 }), { rps: 0 });
  assert.strictEqual(await burstOrEmpty(Promise.resolve(5), 0), 5);
  await assert.rejects(burstOrEmpty(Promise.reject(new Error('no response (ECONNREFUSED)')), 0), /ECONNREFUSED/);
});

// A capacity burst that completed nothing reads 0 req/s and the bursts go on: the capacity
// is the median of the last three that agree (a pg-hop baseline's first 1-s burst on a busy
// machine completed nothing, and the run stopped on the driver's error).
test('capacity: an empty burst reads 0 and the bursts go on until the last three agree', async () => {
  const { burstOrEmpty } = require('../bench/measure/warmup');
  const { settledBursts } = require('../bench/rates/capacity');
  const noResponses = Object.assign(new Error('no response during the run'), { code: 'ERR_NO_RESPONSES' });
  const seq = [null, 1000, 1010, 990];
  const burst = () => {
    const x = seq.shift();
    return burstOrEmpty(x === null ? Promise.reject(noResponses) : Promise.resolve(x), 0);
  };
  assert.deepStrictEqual(await settledBursts(burst), { rps: 1000, bursts: [0, 1000, 1010, 990], settled: true });
});
