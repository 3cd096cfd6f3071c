'use strict';
// Tier: all (a long real run with a cached tool: Artillery, ~460 MB
// installed into the cache on first use, against real servers)
// The Artillery driver, run locally against real ctxbench servers: every id checked in
// the processor's afterResponse hook, Artillery's JSON report read back into a rate-mode
// sample. Artillery (pinned, ~460 MB) installs into the ctxbench cache on first use and
// runs on the cached Node 24; without them the test skips. The scenario it writes:
// test/artillery.test.js.
const test = require('node:test');
const assert = require('node:assert');
const hdr = require('hdr-histogram-js');
const artillery = require('../../load/artillery');
const { resolveNode } = require('../../lib/node-versions');
const { startServer } = require('../helpers/server');

let unavailable = null;
test.before(async () => {
  try {
    await Promise.all([artillery.ensureArtillery(), resolveNode('24')]);
  } catch (err) {
    unavailable = `artillery ${artillery.VERSION} or Node 24 unavailable: ${err.message}`;
  }
});

test(
  'artillery runs locally against ctxbench with every id checked, ' + 'and counts answers without our id as lost',
  async (t) => {
    if (unavailable) t.skip(unavailable);
    else await againstServers();
  },
);

async function againstServers() {
  const [als, none] = await Promise.all([
    startServer({ STRATEGY: 'als', HOP: 'immediate' }),
    startServer({ STRATEGY: 'none' }),
  ]);
  try {
    const ok = await artillery.measure({
      url: als.url,
      path: '/depth/8',
      rate: 50,
      duration: 2,
      connections: 100,
      pipelining: 1,
    });
    assert.strictEqual(ok.scheduled, 100);
    assert.strictEqual(ok.engine.vusersCreated, 100);
    assert.strictEqual(ok.requests, 100);
    assert.strictEqual(ok.engine.kept, ok.requests, 'every answer was checked and carried its own id');
    assert.strictEqual(ok.mismatches + ok.lost + ok.non2xx + ok.errors, 0);
    assert.strictEqual(
      typeof ok.heldRate.held,
      'boolean',
      "the held-rate check was made (whether it held is the machine's)",
    );
    assert.strictEqual(hdr.decodeFromCompressedBase64(ok.histogram).totalCount, ok.requests);
    assert.ok(ok.latency.p99 > 0 && ok.engine.responseTime.count === ok.requests);
    // Timed on a µs clock, not Artillery's whole milliseconds (which made most loopback
    // requests read 0 ms): the recorded latencies are not all whole milliseconds.
    const h = hdr.decodeFromCompressedBase64(ok.histogram);
    const fractional = [0.1, 0.25, 0.5, 0.75, 0.9]
      .map((q) => h.getValueAtPercentile(q * 100))
      .filter((us) => us % 1000 > 5 && us % 1000 < 995);
    assert.ok(
      fractional.length >= 3,
      `latencies should not be whole milliseconds: ` +
        `${[10, 25, 50, 75, 90].map((q) => h.getValueAtPercentile(q)).join(', ')} µs`,
    );

    // `none` answers without the request's id: every answer must count as lost.
    const lost = await artillery.measure({ url: none.url, path: '/', rate: 20, duration: 1 });
    assert.strictEqual(lost.requests, 20);
    assert.strictEqual(lost.lost, lost.requests);
    assert.strictEqual(lost.engine.kept, 0);
  } finally {
    await Promise.all([als.stop(), none.stop()]);
  }
}
