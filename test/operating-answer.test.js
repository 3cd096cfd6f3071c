'use strict';
// Tier: quick (synthetic windows at the operating point: nothing started)
// The table a deployment page opens with (issue 76): a level whose 95% interval is wider than
// itself reads "not resolved", an added p99 whose interval holds zero reads as its bound;
// instances per 1,000 req/s and req/s per instance are one measurement; the share of its
// quota the baseline used where the figures were read is printed, and said where it is off
// the target.
const test = require('node:test');
const assert = require('node:assert');
const hdr = require('hdr-histogram-js');
const { operatingPoint } = require('../analysis/operating-point');
const { operatingSection } = require('../report/sections/run/operating');
const { newHistogram } = require('../lib/histogram');

const F1 = { name: 'F1', cpus: 0.25, periodUs: 100000, quotaUs: 25000 };

// A latency histogram (µs) of n requests at ms, and k more at slowMs.
function latencies(ms, n, slowMs = null, k = 0) {
  const h = newHistogram();
  h.recordValueWithCount(Math.round(ms * 1000), n);
  if (k) h.recordValueWithCount(Math.round(slowMs * 1000), k);
  return hdr.encodeIntoCompressedBase64(h);
}

// A counted window of one pair, both sides at `rate` req/s for 1 s: each side's cgroup CPU is
// its µs per request × its answers, so its share of an F1's quota is that ÷ 250,000 µs.
function window({ block, rate, baseUs, candUs, slow = 0 }) {
  return {
    kind: 'window',
    method: 'pair',
    phase: 'base',
    block,
    rate,
    counted: true,
    wallMs: 1000,
    requests: rate,
    partnerRequests: rate,
    instance: { cpuUs: candUs * rate, cpuUsPerRequest: candUs, periods: 10, throttled: 0 },
    partnerInstance: { cpuUs: baseUs * rate, cpuUsPerRequest: baseUs, periods: 10, throttled: 0 },
    histogram: latencies(1, 100 - slow, 50, slow),
    partnerHistogram: latencies(1, 100),
    latenessHistogram: latencies(0.01, 100),
  };
}

// Four blocks of three windows; the candidate costs 1.25× the baseline. rate: the rate sent,
// so the baseline's share of its quota is rate × its µs ÷ 250,000. slowIn: the block whose
// candidate had three requests of 100 at 50 ms (its pooled p99 rests on whether a resample draws it).
function windows({ rate, slowIn = null }) {
  const out = [];
  const bases = [200, 210, 190, 205];
  bases.forEach((baseUs, block) => {
    for (let i = 0; i < 3; i++)
      out.push(window({ block, rate, baseUs, candUs: 1.25 * baseUs, slow: block === slowIn ? 3 : 0 }));
  });
  return out;
}

const runOf = (samples) => ({
  settings: { baseline: 'none', targetCpu: 0.6, instance: F1, slo: null },
  configs: [
    { id: 'b', framework: 'express', strategy: 'none', depth: 8, samples: [] },
    { id: 'c', framework: 'express', strategy: 'als', depth: 8, samples },
  ],
});

// The section's tables: each as { header, rows } of cells.
function tables(md) {
  const out = [];
  let cur = null;
  for (const line of md.split('\n')) {
    if (!line.startsWith('|')) {
      cur = null;
      continue;
    }
    const cells = line.slice(1, -1).split(' | ').map((x) => x.trim());
    if (!cur) out.push((cur = { header: cells, rows: [] }));
    else if (!cells.every((c) => /^-+:?$/.test(c))) cur.rows.push(cells);
  }
  return out;
}
const cell = (t, row, name) => t.rows[row][t.header.findIndex((h) => h.startsWith(name))];

test('the answer opens the section: one table of at most 8 columns, the detail below it', () => {
  const md = operatingSection(runOf(windows({ rate: 625 })));
  const [answer, detail] = tables(md);
  assert.ok(answer.header.length <= 8, answer.header.join(' | '));
  assert.ok(md.indexOf('#### Detail at the operating point') > md.indexOf(answer.header[0]));
  assert.ok(detail.header.length > 8, 'the detail keeps every figure');
});

test('a level whose interval is wider than itself is "not resolved"; a difference holding zero, its bound', () => {
  const md = operatingSection(runOf(windows({ rate: 625, slowIn: 3 })));
  const [answer] = tables(md);
  // The candidate's pooled p99: 1 ms without the slow block's three requests, 50 ms with it drawn twice.
  assert.strictEqual(cell(answer, 0, 'p99 its users see'), 'not resolved (4 blocks)', md);
  assert.match(cell(answer, 0, 'p99 added'), /^at most \+\d+(\.\d+)? ms$/);
  // The ratio and the instances are resolved: their figures stay.
  assert.match(cell(answer, 0, 'Throughput per instance'), /^80\.0% \[[\d.]+%–[\d.]+%\]$/);
  // The rule itself (analysis/operating-answer.js), on the committed page's cells.
  const { level, difference } = require('../analysis/operating-answer');
  assert.strictEqual(level({ estimate: 65.7, ci95: [4.24, 123] }, 8).resolved, false);
  assert.strictEqual(level({ estimate: 7.08, ci95: [6.13, 12.3] }, 8).resolved, true);
  assert.strictEqual(level({ estimate: 7.08, ci95: null }, 1).resolved, false, 'no interval: not resolved');
  assert.strictEqual(difference({ estimate: 0.51, ci95: [-0.17, 5.92] }, 8).atMost, 5.92);
  assert.strictEqual(difference({ estimate: 66.5, ci95: [0.16, 120] }, 8).atMost, null);
});

test('instances per 1,000 req/s and req/s per instance are one measurement, not the rate sent', () => {
  const op = operatingPoint({ id: 'c', samples: windows({ rate: 625 }) }, { instance: F1, targetCpu: 0.6 });
  for (const side of ['baseline', 'candidate']) {
    const [n, r] = [op.instances[side], op.perInstance[side]];
    assert.ok(Math.abs(n.estimate * r.estimate - 1000) < 1e-6, `${side}: ${n.estimate} × ${r.estimate}`);
    assert.ok(Math.abs(n.ci95[0] * r.ci95[1] - 1000) < 1e-6 && Math.abs(n.ci95[1] * r.ci95[0] - 1000) < 1e-6);
  }
  // 200 µs at 60% of a quarter CPU: 750 req/s per instance, where 625 were sent (at 50%).
  assert.ok(Math.abs(op.perInstance.baseline.estimate / 750 - 1) < 0.03, op.perInstance.baseline.estimate);
  const md = operatingSection(runOf(windows({ rate: 625 })));
  const [answer, detail] = tables(md);
  const per = cell(detail, 0, 'req/s per instance at the target').split(' / ');
  const inst = [cell(answer, 0, 'Instances per 1,000'), cell(answer, 0, "`none`'s instances")];
  per.forEach((p, i) => {
    const [a, b] = [parseFloat(p.replace(/,/g, '')), parseFloat(inst[i])];
    assert.ok(Math.abs((a * b) / 1000 - 1) < 0.01, `${p} req/s per instance beside ${inst[i]} instances`);
  });
  assert.strictEqual(cell(detail, 0, 'req/s sent'), '625 / 625');
  assert.match(md, /one measurement said two ways \(1,000 ÷ each other\): the CPU each request took/);
});

test("the share of its quota the baseline used is printed, and said where it is off the target's ±3 pp", () => {
  const off = operatingPoint({ id: 'c', samples: windows({ rate: 625 }) }, { instance: F1, targetCpu: 0.6 });
  // 625 req/s × 201 µs on average over 250,000 µs of quota a second: about 50%.
  assert.ok(Math.abs(off.share.baseline.estimate - (625 * 201.25) / 250000) < 1e-9, off.share.baseline.estimate);
  assert.ok(Math.abs(off.share.candidate.estimate - 1.25 * off.share.baseline.estimate) < 1e-9);
  // A run that recorded no cgroup µs: its CPU per request × its answers, the same share.
  const bare = windows({ rate: 625 }).map((w) => ({
    ...w,
    partnerInstance: { cpuUsPerRequest: w.partnerInstance.cpuUsPerRequest },
  }));
  const fromPerRequest = operatingPoint({ id: 'c', samples: bare }, { instance: F1, targetCpu: 0.6 });
  assert.ok(Math.abs(fromPerRequest.share.baseline.estimate - off.share.baseline.estimate) < 1e-9);
  const md = operatingSection(runOf(windows({ rate: 625 })));
  assert.match(md, /`none` used 50% of its CPU quota at depth 8, against the 60% target/);
  assert.match(md, /That is not within ±3 pp of 60%: the figures were measured at that share of the quota/);
  assert.strictEqual(cell(tables(md)[1], 0, 'Share of the quota used'), '63% / 50%');
  // At 740 req/s it used 59.6%: within the tolerance, nothing more to say.
  const near = operatingSection(runOf(windows({ rate: 740 })));
  assert.match(near, /`none` used 60% of its CPU quota at depth 8/);
  assert.doesNotMatch(near, /not within/);
  // Rows whose baseline the concurrency target held are left out of the depth's share.
  const { studyShares } = require('../analysis/operating-answer');
  const row = (estimate, held) => ({ config: { depth: 8 }, op: { share: { baseline: { estimate } }, boundBy: held } });
  const [g] = studyShares([row(0.59), row(0.3, { baseline: 1 })], 0.6);
  assert.deepStrictEqual([g.rows, g.within, g.concurrencyRows], [1, true, 1]);
});
