'use strict';
// Tier: quick (the progress line's arithmetic)
// The progress line of a run that adds blocks: it never counts past its total or shows a
// negative ETA, and it says where the run stands against the precision target and cap.
const test = require('node:test');
const assert = require('node:assert');
const { createProgress } = require('../bench/run/progress');

function capture(fn) {
  const lines = [];
  const write = process.stderr.write;
  process.stderr.write = (chunk) => {
    lines.push(String(chunk));
    return true;
  };
  try {
    fn();
  } finally {
    process.stderr.write = write;
  }
  return lines;
}

test('extra blocks grow the total; the ETA stays >= 0 and within the time cap', () => {
  const lines = capture(() => {
    const p = createProgress({ total: 2, perBlock: 2, label: 't' });
    p.plan({ block: 0, minBlocks: 1, precision: 3, missing: [], elapsedS: 0, maxTimeS: 100 });
    p.tick('a');
    p.tick('b');
    p.plan({
      block: 1,
      minBlocks: 1,
      precision: 3,
      missing: [{ id: 'x', halfWidthPct: 4.2 }],
      elapsedS: 50,
      maxTimeS: 100,
    });
    p.tick('c');
    p.tick('d');
    p.tick('e');
    p.log('done');
  });
  const last = lines.at(-1);
  const m = /\((\d+)\/(\d+), ETA (\d+)m(\d\d)s\)/.exec(last);
  assert.ok(m, last);
  assert.ok(Number(m[1]) <= Number(m[2]), `counted past its total: ${last}`);
  assert.ok(Number(m[3]) * 60 + Number(m[4]) <= 50, `ETA beyond the cap: ${last}`);
  assert.match(last, /extra block 2 · worst ±4\.2 pp → ±3 · 0m50s\/1m40s/);
});

test(
  'a ratio with no interval yet (one block, too few windows) ' +
    'shows as unknown, not as precise, beside the worst of the others',
  () => {
    const plan = (missing) =>
      capture(() => {
        const p = createProgress({ total: 2, perBlock: 2, label: 't' });
        p.plan({ block: 1, minBlocks: 3, precision: 3, missing, elapsedS: 5, maxTimeS: 100 });
        p.tick('a');
        p.log('done');
      }).at(-1);
    assert.match(
      plan([
        { id: 'x', halfWidthPct: null },
        { id: 'y', halfWidthPct: 1 },
        { id: 'z', halfWidthPct: 4.5 },
      ]),
      /block 2\/3 · worst ±4\.5 pp, 1 without an interval → ±3/,
    );
    assert.match(plan([{ id: 'x', halfWidthPct: null }]), /block 2\/3 · worst ±\? pp → ±3/);
  },
);
