'use strict';
// Tier: quick (the probe's count on a fixture whose work is known, and its one-line refusal)
// The async-resource probe (bench/probes/probe.js, bench/probes/probe-hook.js): counts, in a probe
// process reached through NODE_OPTIONS (as a team's `npm start` would be), the async
// resources one request creates. Checked on services whose per-request work is known.
// Compared to 2 decimals: a resource made once a second rather than once a request (the
// HTTP Date header's cache timer) adds ~0.001 per request to a slower build, and a machine
// would have to take over 10 s for 2,000 requests to move the second decimal. On
// ctxbench's own server and through `ctxbench app --probe`: test/all/probe.test.js.
const test = require('node:test');
const assert = require('node:assert');
const { startApp } = require('../bench/app/app-process');
const { countResources } = require('../bench/probes/probe');
const { FIXTURE, round, probeDir, probe } = require('./helpers/probe');

test(
  'the probe counts what a request creates: 5 setImmediate more per ' +
    'request read as 5 Immediate more; the total is the sum of the types',
  { timeout: 120000 },
  async (t) => {
    const none = await probe(t, `"${process.execPath}" "${FIXTURE}"`, { env: { IMMEDIATES: '0' } });
    const five = await probe(t, `"${process.execPath}" "${FIXTURE}"`, { env: { IMMEDIATES: '5' } });
    assert.strictEqual(none.requests, 401, 'the plain requests and the second label');
    assert.strictEqual(
      round((five.perRequest.byType.Immediate || 0) - (none.perRequest.byType.Immediate || 0)),
      5,
      JSON.stringify({ none, five }),
    );
    // Not +5 in total: answering from an Immediate saves the response one nextTick (measured:
    // TickObject 10.1 -> 9.1 per request), which is the probe's point: it counts, not assumes.
    for (const p of [none, five])
      assert.strictEqual(
        round(Object.values(p.perRequest.byType).reduce((a, x) => a + x, 0)),
        round(p.perRequest.total),
      );
  },
);

test('a server without the hook: one line saying where it must be loaded', { timeout: 60000 }, async (t) => {
  const dir = probeDir(t);
  const app = await startApp({ name: 'plain', command: `"${process.execPath}" "${FIXTURE}"` });
  try {
    await assert.rejects(
      countResources({ url: app.url, dir, requests: 10, warmup: 0, waitMs: 1000 }),
      /the probe hook wrote no counts for request a: is .*probe-hook\.js loaded in the process that serves/,
    );
  } finally {
    await app.stop();
  }
});
