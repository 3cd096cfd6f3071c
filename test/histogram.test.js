'use strict';
// Tier: quick (synthetic histograms: nothing started)
// lib/histogram.js's percentiles read a histogram's mean and standard deviation from its
// counts array directly (moments), not with the library's iterator: the same bits as
// hdr-histogram-js's own `mean` and `stdDeviation`, so a report reads what it read before.
const test = require('node:test');
const assert = require('node:assert');
const { newHistogram, moments, percentiles } = require('../lib/histogram');
const { mulberry32 } = require('./helpers/random');

test('moments: the mean and standard deviation of hdr-histogram-js, bit for bit, on histograms of every shape', () => {
  const uniform = mulberry32(20261202);
  for (let t = 0; t < 60; t++) {
    const h = newHistogram();
    const n = 1 + Math.floor(uniform() * 400);
    // Latencies from 1 µs to about an hour, log-uniform (every bucket of the range is used),
    // each seen up to a thousand times.
    const latency = () => 1 + Math.floor(Math.exp(uniform() * Math.log(3.5e9)));
    for (let i = 0; i < n; i++) h.recordValueWithCount(latency(), 1 + Math.floor(uniform() * 1000));
    if (t % 3 === 0) h.recordValueWithCount(7, 1 + Math.floor(uniform() * 1e6));
    const merged = newHistogram();
    merged.add(h);
    for (const x of [h, merged]) {
      const m = moments(x);
      assert.strictEqual(m.mean, x.mean, `mean of histogram ${t}`);
      assert.strictEqual(m.stdev, x.stdDeviation, `standard deviation of histogram ${t}`);
    }
  }
  const one = newHistogram();
  one.recordValue(1500);
  assert.deepStrictEqual(
    { avg: percentiles(one).avg, stdev: percentiles(one).stdev },
    { avg: one.mean / 1000, stdev: 0 },
  );
});
