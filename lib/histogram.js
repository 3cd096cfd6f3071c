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

// Percentiles (ms) of a histogram of µs, in the names the run JSON uses.
function percentiles(h) {
  if (h.totalCount === 0) return { p50: null, p90: null, p99: null, p99_9: null, avg: null, max: null, count: 0 };
  const ms = (x) => round3(x / 1000);
  return {
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p99: ms(h.getValueAtPercentile(99)),
    p99_9: ms(h.getValueAtPercentile(99.9)),
    avg: ms(h.mean),
    stdev: ms(h.stdDeviation),
    max: ms(h.maxValue),
    count: h.totalCount,
  };
}

module.exports = { newHistogram, percentiles, HELD_MIN, HIST };
