#!/usr/bin/env node
'use strict';
// What the pair's added-latency rule costs and buys, read from the committed A/A runs of
// the pair (results/method-check/aa-pair-*.json, `npm run check:method -- --only-pair`):
// per hop and percentile, the A/A twin's added latency over every counted block, over the
// blocks the rule keeps (the generator's lateness p99 at most 1 ms), and over those where
// the lateness p99 is at most 10% of the baseline's p99. Analysis only: it measures
// nothing, so it may run beside anything. Usage: node scripts/pair-latency-rule.js
const path = require('node:path');
const { pairBlocks, isPairConfig } = require('../analysis/pair');
const { describe } = require('../analysis/stats');

const dir = path.join(__dirname, '..', 'results', 'method-check');
const f = (d) =>
  d.n
    ? `${d.mean.toFixed(3)} [${d.ci95 ? d.ci95.map((x) => x.toFixed(3)).join(', ') : '—'}] (${d.n} blocks)`
    : '— (0 blocks)';
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const hop of ['pg', 'http', 'mixed']) {
  const run = require(path.join(dir, `aa-pair-${hop}.json`));
  for (const twin of run.configs.filter(isPairConfig)) {
    const blocks = pairBlocks(twin).filter((b) => b.counted > 0);
    process.stdout.write(
      `HOP=${hop} (${run.environment?.commit ?? '?'}): ` +
        `${blocks.length} blocks; generator lateness p99 median ${median(blocks.map((b) => b.lateness.p99))} ` +
        `ms, baseline p99 median ${median(blocks.map((b) => b.baseline.p99))} ms\n`,
    );
    for (const k of ['p50', 'p99']) {
      const added = (bs) => describe(bs.map((b) => b.candidate[k] - b.baseline[k]));
      process.stdout.write(
        `  added ${k} ms: every block ${f(added(blocks))}; lateness p99 <= 1 ms ` +
          `${f(added(blocks.filter((b) => b.addedOk)))}; lateness p99 <= 10% of the baseline's ` +
          `${f(added(blocks.filter((b) => b.lateness.p99 <= 0.1 * b.baseline.p99)))}\n`,
      );
    }
  }
}
