'use strict';
// The micro page's published reference (report/sections/micro.js): the study's own figures
// and targets, quoted exactly and labelled as not ours.
const f = require('../format');

// The vitest-bench AsyncLocalStorage study (seeds/002_78d202859073746e.txt), copied
// exactly. NOT our measurement.
const REFERENCE = {
  seed: '002_78d202859073746e.txt',
  title: 'AsyncLocalStorage Tracing Performance Overhead',
  setup: 'Vitest v4.0.18 bench, Node.js v22.22.0, macOS (darwin arm64); one run, no repetition or confidence interval.',
  mapping:
    '"Baseline (no tracing)" ≈ our `none`; "With AsyncLocalStorage" ≈ our `als`. Their async operation and ' +
    'their "DB query" are not described; ours are `setImmediate` hops. They generated span ids only in the ' +
    'traced arm; ' +
    'we generate them in every arm, so our overhead is the context mechanism alone.',
  rows: [
    ['Sync operations (100 iterations)', 'Baseline (no tracing)', '1,715,792', '0.0006', '0.0008', '-'],
    ['Sync operations (100 iterations)', 'With AsyncLocalStorage', '329,452', '0.0030', '0.0069', '5.21x slower'],
    ['Async operations (100 iterations)', 'Baseline (no tracing)', '718', '1.3919', '1.6469', '-'],
    ['Async operations (100 iterations)', 'With AsyncLocalStorage', '706', '1.4160', '1.6882', '1.7% slower'],
    ['Nested trace contexts', 'Depth=2', '48,257', '0.0207', '0.0382', 'Root + 1 child span'],
    ['Nested trace contexts', 'Depth=5', '36,221', '0.0276', '0.0435', 'Root + 4 nested child spans'],
    ['Real-world HTTP request handler', 'Without tracing', '17,566', '0.0569', '0.0892', '-'],
    ['Real-world HTTP request handler', 'With tracing', '14,177', '0.0705', '0.1111', '19.3% slower'],
  ],
  targets: [
    ['Async operation overhead', '< 5%', '1.7%', 'PASS'],
    ['Nested context (depth=5) P99', '< 100μs', '43.5μs', 'PASS'],
    ['Real-world HTTP request overhead', '< 50%', '19.3%', 'PASS'],
    ['Absolute overhead per operation', '< 10μs', '~3-5μs', 'PASS'],
  ],
};

function referenceBlock() {
  const r = REFERENCE;
  return [
    f.heading(3, 'Published reference (not our measurement)'),
    '',
    `> Quoted exactly from "${r.title}" (seed \`${r.seed}\`). ${r.setup} ${r.mapping}`,
    '',
    f.table(['Scenario', 'Row', 'Hz (ops/sec)', 'Mean (ms)', 'P99 (ms)', 'Overhead / notes'], r.rows, [
      'l',
      'l',
      'r',
      'r',
      'r',
      'l',
    ]),
    '',
    "The study's own target table:",
    '',
    f.table(['Metric', 'Target', 'Actual', 'Status'], r.targets),
  ].join('\n');
}

module.exports = { REFERENCE, referenceBlock };
