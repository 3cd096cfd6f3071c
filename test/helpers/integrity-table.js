'use strict';
// The integrity matrix's measured table and its one check, shared by test/integrity.test.js
// (quick: the table covers every strategy and hop; none loses every id) and
// test/all/integrity.test.js (the matrix itself, every strategy x every hop on real servers).
//   kept   every request read its own id at the deepest level
//   leaks  requests read other requests' ids (most of them do)
//   lost   no request read any id
// The tables below are measured truths (Node 20, this machine). A cell that changes
// fails the test: fix the cause or re-measure, never loosen the table.
const assert = require('node:assert');

// 200 distinct ids, all in flight at once: a context shared between requests shows in every
// cell (the global control leaks most of them); a cell is mostly its server's start-up.
const TOTAL = 200;
const CONCURRENCY = 200;
const DEPTH = 8;

const COLUMNS = ['await', 'sync', 'nexttick', 'immediate', 'timeout', 'emitter', 'thenable', 'mixed'];
const EXPECTED = {
  //                await   sync    nexttick immediate timeout emitter thenable mixed
  param: ['kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept'],
  'cls-hooked': ['kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept'],
  alscontext: ['lost', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'lost'], // see ALSCONTEXT_CLS_DEFECT
  'alscontext-als': ['kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept'],
  als: ['kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept'],
  otel: ['kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept'],
  'otel-selective': ['kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept'],
  'otel-full': ['kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept'],
  'cls-rtracer': ['kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept'],
  'express-http-context': ['kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept'],
  // A Fastify plugin: measured on FRAMEWORK=fastify (the others on Express).
  'fastify-request-context': ['kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept'],
  // The control. It "keeps" on await/sync/nexttick only because those hops never leave
  // the microtask queue: a request runs to the end before the next is parsed, so requests
  // never interleave. Every macrotask hop exposes it.
  global: ['kept', 'kept', 'kept', 'leaks', 'leaks', 'leaks', 'leaks', 'leaks'],
};

// A defect of the alscontext package's CLS part (0.0.3), not of ctxbench. Its init hook
// gives a new async resource the store of its *trigger* rather than of the code running
// when it is created, and for a promise the trigger is the promise it chains onto. The
// 'await' hop awaits one shared, already-resolved promise created outside any request,
// so once the chain has awaited it the store stops propagating and a level or two later
// reads nothing (awaiting a fresh Promise.resolve() keeps it; cls-hooked and ALS keep it
// either way). getStore()'s fallback cannot help: it reads
// `_contexts.get(async_hooks.triggerAsyncId)`, the function itself. 'mixed' includes an
// 'await' hop at DEPTH=8 and loses the id the same way.
const ALSCONTEXT_CLS_DEFECT = {
  strategy: 'alscontext',
  lostOnHops: ['await', 'mixed'], // at DEPTH=8, every request
  keptAtDepths: [1, 2], // the same hops, shallow enough
};

function assertOutcome(expected, counts, what) {
  const detail = `${what}: ${JSON.stringify(counts)}`;
  assert.strictEqual(counts.errors, 0, detail);
  assert.strictEqual(counts.kept + counts.leaked + counts.lost, TOTAL, detail);
  if (expected === 'kept') {
    assert.strictEqual(counts.kept, TOTAL, detail);
  } else if (expected === 'leaks') {
    assert.strictEqual(counts.lost, 0, detail);
    assert.ok(counts.leaked > TOTAL / 2, `expected most requests to leak; ${detail}`);
  } else if (expected === 'lost') {
    assert.strictEqual(counts.lost, TOTAL, detail);
  } else {
    throw new Error(`unknown expectation ${expected}`);
  }
}

module.exports = { TOTAL, CONCURRENCY, DEPTH, COLUMNS, EXPECTED, ALSCONTEXT_CLS_DEFECT, assertOutcome };
