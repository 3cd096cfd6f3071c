'use strict';
// Artillery processor written by ctxbench (copied beside the scenario it writes, so the
// same files run locally or on Artillery's distributed platforms). Every request gets its
// own X-Cloud-Trace-Context id; every answer is checked in afterResponse: the body must be
// that id (kept), another id of this run (mismatches: the context leaked) or nothing of
// ours (lost). Counts go to Artillery's own counters (ctxbench.kept/mismatches/lost), so
// they appear in its report wherever it ran. Locally, with CTXBENCH_LATENCY_DIR set, each
// response time (µs, from this request's beforeRequest to its afterResponse on a
// sub-microsecond clock) is also appended to a file per worker so ctxbench can build an
// exact HDR histogram. Not Artillery's own `timings`: those come from Date.now() in whole
// milliseconds, and at loopback latencies most requests read 0 or 1 ms (a p50 of 0).
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

// 16 hex of the run + 8 hex per worker + an 8-hex counter. The run part comes from the
// scenario's `ctxbenchRun` variable, so every worker (on every machine, when run
// distributed) shares it and another worker's id in a body counts as a mismatch.
const HEX16 = /^[0-9a-f]{16}$/;
const FALLBACK = crypto.randomBytes(8).toString('hex');
const runOf = (context) => (HEX16.test(String(context.vars.ctxbenchRun)) ? String(context.vars.ctxbenchRun) : FALLBACK);
const WORKER = crypto.randomBytes(4).toString('hex');
const DIR = process.env.CTXBENCH_LATENCY_DIR;
const FILE = DIR ? path.join(DIR, `latency-${WORKER}.txt`) : null;
let counter = 0;

function ctxbenchStamp(requestParams, context, ee, next) {
  const n = (counter++ >>> 0).toString(16).padStart(8, '0');
  const id = runOf(context) + WORKER + n;
  context.vars.ctxbenchId = id;
  context.vars.ctxbenchSentAt = performance.now();
  requestParams.headers = { ...requestParams.headers, 'X-Cloud-Trace-Context': `${id}/1;o=1` };
  return next();
}

function ctxbenchCheck(requestParams, response, context, ee, next) {
  const id = context.vars.ctxbenchId;
  const body = typeof response.body === 'string' ? response.body : String(response.body ?? '');
  if (response.statusCode >= 200 && response.statusCode <= 299) {
    if (body === id) ee.emit('counter', 'ctxbench.kept', 1);
    else if (body.length === 32 && body.startsWith(runOf(context))) ee.emit('counter', 'ctxbench.mismatches', 1);
    else ee.emit('counter', 'ctxbench.lost', 1);
  }
  const elapsedMs = performance.now() - context.vars.ctxbenchSentAt;
  if (FILE && Number.isFinite(elapsedMs)) fs.appendFileSync(FILE, `${Math.max(1, Math.round(elapsedMs * 1000))}\n`);
  return next();
}

module.exports = { ctxbenchStamp, ctxbenchCheck };
