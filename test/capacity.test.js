'use strict';
// Tier: quick (analysis only, on pair windows built here). Capacity within an SLO
// (analysis/capacity.js): the SLO crossing per block is the capacity; the CPU per request
// below the knee stands beside it (only windows up to the ladder's knee in which the quota
// did not bind), never as a capacity; and the instances per 100 of the baseline's.
const test = require('node:test');
const assert = require('node:assert');
const hdr = require('hdr-histogram-js');
const { newHistogram } = require('../lib/histogram');
const { sloCapacity } = require('../analysis/capacity');

const SLO = { key: 'p99', boundMs: 100, text: 'p99 ≤ 100 ms' };
const KNEE = 2000;
const LOADS = [0.5, 1, 1.5];
const BASE_CAPS = [2000, 2600, 1500];

// Every request of a window at the p99 a server has at `rate` when its SLO capacity is
// `cap`: 100 ms × (rate / cap)^3, so the crossing lies at `cap`.
function histogramAt(rate, cap) {
  const h = newHistogram();
  h.recordValueWithCount(Math.round(100000 * (rate / cap) ** 3), 1000);
  return hdr.encodeIntoCompressedBase64(h);
}

const lateness = (() => {
  const h = newHistogram();
  h.recordValueWithCount(100, 1000);
  return hdr.encodeIntoCompressedBase64(h);
})();

// A pair run: `none` and one candidate whose SLO crossing is `crossing[b]` of the
// baseline's in block b and whose CPU per request is `cpu(load)` times the baseline's.
function pairRun({ crossing, cpu }) {
  const id = (strategy, load) => `express/${strategy}/d8/immediate/node24/load${load * 100}`;
  const configs = [];
  for (const load of LOADS) {
    const rate = load * KNEE;
    configs.push({ id: id('none', load), strategy: 'none', depth: 8, hop: 'immediate', load, rate, samples: [] });
    const samples = [];
    BASE_CAPS.forEach((capB, block) => {
      for (let window = 0; window < 2; window++) {
        samples.push({
          kind: 'window',
          method: 'pair',
          block,
          window,
          rate,
          partner: id('none', load),
          counted: true,
          cpuUsPerRequest: 100 * cpu(load) * (1 + 0.01 * (block - 1)),
          partnerCpuUsPerRequest: 100,
          // From the knee up both are throttled in most CFS periods.
          instance: { periods: 10, throttled: load >= 1 ? 9 : 1 },
          partnerInstance: { periods: 10, throttled: load >= 1 ? 9 : 0 },
          schedule: { due: 1000, sent: 1000 },
          partnerSchedule: { due: 1000, sent: 1000 },
          histogram: histogramAt(rate, capB * crossing[block]),
          partnerHistogram: histogramAt(rate, capB),
          latenessHistogram: lateness,
        });
      }
    });
    configs.push({ id: id('otel', load), strategy: 'otel', depth: 8, hop: 'immediate', load, rate, samples });
  }
  return { settings: { method: 'pair', baseline: 'none', slo: SLO, instance: { name: 'F1' } }, configs };
}

test(
  'the capacity is the SLO crossing per block; the CPU per request below the knee beside it, ' +
    'read only where the quota did not bind, and never taken for a capacity',
  () => {
    // Where both are throttled in most CFS periods (the knee, 100%) each uses its whole quota
    // and the CPU ratio reads 1 whatever the cost; past the knee (150%) likewise: neither is read.
    const cap = sloCapacity(pairRun({ crossing: [0.74, 0.86, 0.8], cpu: (load) => (load >= 1 ? 1 : 1.25) }));
    const row = cap.rows.find((r) => r.strategy === 'otel');
    assert.ok(Math.abs(row.ratio.estimate - 0.8) < 0.02, JSON.stringify(row.ratio));
    assert.ok(
      Math.abs(row.capacity.estimate / row.baselineCapacity.estimate - row.ratio.estimate) < 0.05,
      `${row.capacity.estimate} vs ${row.baselineCapacity.estimate}`,
    );
    assert.deepStrictEqual(row.cpuBelowKnee.rungs, [0.5]);
    assert.ok(Math.abs(row.cpuBelowKnee.ratio.estimate - 0.8) < 0.01, JSON.stringify(row.cpuBelowKnee));
    assert.ok(Math.abs(row.instances.per100.estimate - 100 / row.ratio.estimate) < 1e-9, JSON.stringify(row.instances));
    assert.deepStrictEqual(cap.cpuRule, { kneeLoad: 1, quotaBinds: 0.5 });
    // A candidate as dear in CPU whose SLO crossing is the baseline's: its capacity is the
    // crossing's (100%), not the 80% its CPU would suggest.
    const same = sloCapacity(pairRun({ crossing: [0.99, 1.01, 1.0], cpu: () => 1.25 })).rows.find(
      (r) => r.strategy === 'otel',
    );
    assert.ok(Math.abs(same.ratio.estimate - 1) < 0.02, JSON.stringify(same.ratio));
    assert.ok(Math.abs(same.cpuBelowKnee.ratio.estimate - 0.8) < 0.01);
  },
);
