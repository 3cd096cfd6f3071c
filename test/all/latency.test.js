'use strict';
// Tier: all (the open-loop drivers against the planted stalling server: real runs of seconds each)
// Rate mode's drivers against a real stalling server (test/helpers/stall-server.js): every
// scheduled request answered or counted, and a rate the server cannot hold gets no
// latencies. Structure and correctness only: that a stall shows in p99 is the method
// check's (npm run check:method). The one rate asserted not held is one a server cannot
// hold however fast the machine (10 ms of CPU a request asked for at 400 req/s). The rest
// of rate mode, its end-to-end run among it: test/latency.test.js.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const hdr = require('hdr-histogram-js');
const { startScript } = require('../helpers/child');
const openLoop = require('../../load/open-loop');
const curlRate = require('../../load/curl-rate');
const { latencySummary } = require('../../analysis/latency');
const latencySection = require('../../report/sections/latency');

const STALL_SERVER = path.join(__dirname, '..', 'helpers', 'stall-server.js');
const STALL_MS = 300;

// That a planted stall shows in open-loop p99 and hides from closed loop is timing: it is
// a method check (npm run check:method), run alone. Here, against the same stalling
// server: every scheduled request is answered or counted, every id checked, and the
// histogram holds every answer.
test(
  'open loop against a stalling server: every scheduled request ' +
    'answered or counted, ids checked, the histogram holds every answer',
  async () => {
    const server = await startScript(STALL_SERVER, { STALL_MS: String(STALL_MS), STALL_EVERY_MS: '1000' });
    try {
      const open = await openLoop.measure({ url: server.url, rate: 200, duration: 1, connections: 2 });
      assert.strictEqual(open.scheduled, 200);
      assert.ok(open.sent <= open.scheduled);
      assert.strictEqual(
        open.requests + open.errors,
        open.scheduled,
        'every scheduled request is answered or counted as an error',
      );
      assert.strictEqual(open.mismatches + open.lost, 0);
      assert.strictEqual(
        hdr.decodeFromCompressedBase64(open.histogram).totalCount,
        open.requests,
        'the serialised histogram holds every answered request',
      );
      for (const k of ['p50', 'p90', 'p99']) assert.ok(open.latency[k] > 0, k);
      assert.ok(
        open.latency.p50 <= open.latency.p90 && open.latency.p90 <= open.latency.p99,
        'percentiles are ordered',
      );

      // The curl scheduler is open loop too.
      const curl = await curlRate.measure({ url: server.url, rate: 50, duration: 1 });
      assert.strictEqual(curl.scheduled, 50);
      assert.strictEqual(curl.mismatches + curl.lost, 0);
      assert.strictEqual(hdr.decodeFromCompressedBase64(curl.histogram).totalCount, curl.requests);
    } finally {
      await server.stop();
    }
  },
);

test('a server that cannot keep the rate fails the held-rate check and gets no latencies', async () => {
  // 10 ms of CPU per request: about 100 req/s at most, asked for 400 req/s. (A stall the
  // server catches up from within the window is not this: its rate was held, and the
  // stall shows in the latencies instead.)
  const server = await startScript(STALL_SERVER, { STALL_MS: '0', WORK_MS: '10' });
  try {
    const m = await openLoop.measure({ url: server.url, rate: 400, duration: 1, connections: 2, timeout: 10 });
    assert.strictEqual(m.heldRate.held, false);
    assert.ok(m.sent < m.scheduled, `sent ${m.sent} of ${m.scheduled}`);
    const config = { id: 'slow', strategy: 'als', rate: 400, samples: [{ round: 0, ...m }] };
    const s = latencySummary(config, null);
    assert.strictEqual(s.held.held, false);
    assert.strictEqual(s.percentiles, null);
    assert.deepStrictEqual(s.judgement, { reason: 'rate not held' });
    const md = await latencySection.render(
      { kind: 'run', title: 't', settings: { rates: [400], baseline: 'none' }, configs: [config] },
      {},
    );
    assert.match(md, /Rate not held/);
    assert.match(md, /\| als \| — \| rate not held \|/);
  } finally {
    await server.stop();
  }
});
