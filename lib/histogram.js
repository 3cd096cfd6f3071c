'use strict';
// Rate mode's latency histograms, shared by the drivers that record them (load/) and the
// analysis that reads them (analysis/latency.js, pair.js, capacity.js): the histogram's
// range, a fresh one, its percentiles in the run JSON's names, and the held-rate mark.
const hdr = require('hdr-histogram-js');

// A configuration held its rate when at least this share of the scheduled requests went
// out within the window and was answered.
const HELD_MIN = 0.99;
// Histograms count microseconds from 1 µs to 1 h with 3 significant digits.
const HIST = { lowestDiscernibleValue: 1, highestTrackableValue: 3.6e9, numberOfSignificantValueDigits: 3 };

function newHistogram() {
  return hdr.build(HIST);
}

const round3 = (x) => Math.round(x * 1000) / 1000;

// The histogram's mean and standard deviation, the same floating-point sums in the same
// order as hdr-histogram-js's `mean` and `stdDeviation` (so the same bits), over its counts
// array directly: the library walks it with an iterator that copies eight fields per value,
// and computes the mean twice; that was most of the CPU of a report.
function moments(h) {
  const total = h.totalCount;
  const values = [];
  const counts = [];
  for (let i = 0, seen = 0; seen < total && i < h.countsArrayLength; i++) {
    const c = h.getCountAtIndex(i);
    if (c === 0) continue;
    values.push(h.medianEquivalentValue(h.highestEquivalentValue(h.valueFromIndex(i))));
    counts.push(c);
    seen += c;
  }
  let sum = 0;
  for (let k = 0; k < values.length; k++) sum += values[k] * counts[k];
  const mean = sum / total;
  let squares = 0;
  for (let k = 0; k < values.length; k++) squares += (values[k] - mean) * (values[k] - mean) * counts[k];
  return { mean, stdev: Math.sqrt(squares / total) };
}

// Percentiles (ms) of a histogram of µs, in the names the run JSON uses.
function percentiles(h) {
  if (h.totalCount === 0) return { p50: null, p90: null, p99: null, p99_9: null, avg: null, max: null, count: 0 };
  const ms = (x) => round3(x / 1000);
  const { mean, stdev } = moments(h);
  return {
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p99: ms(h.getValueAtPercentile(99)),
    p99_9: ms(h.getValueAtPercentile(99.9)),
    avg: ms(mean),
    stdev: ms(stdev),
    max: ms(h.maxValue),
    count: h.totalCount,
  };
}

module.exports = { newHistogram, percentiles, moments, HELD_MIN, HIST };
