'use strict';
// The load drivers' result and load/curl.sh, shared by test/load.test.js (quick) and
// test/all/load.test.js: the fields every driver result has, each a number of its kind, and
// curl.sh run as a command.
const assert = require('node:assert');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { ROOT } = require('./server');

const CURL_SH = path.join(ROOT, 'load', 'curl.sh');
const FIELDS = [
  'rps',
  'latency',
  'requests',
  'errors',
  'non2xx',
  'mismatches',
  'lost',
  'bytesPerSec',
  'loadgenCpu',
  'durationS',
  'finishLagS',
];
const LATENCY = ['p2_5', 'p50', 'p97_5', 'p99', 'avg', 'stdev', 'max'];

function assertShape(r) {
  assert.deepStrictEqual(Object.keys(r).sort(), [...FIELDS].sort());
  assert.deepStrictEqual(Object.keys(r.latency).sort(), [...LATENCY].sort());
  for (const key of FIELDS.filter((k) => k !== 'latency')) {
    assert.ok(Number.isFinite(r[key]) && r[key] >= 0, `${key} is a finite number >= 0, got ${r[key]}`);
  }
  for (const key of ['requests', 'errors', 'non2xx', 'mismatches', 'lost']) {
    assert.ok(Number.isInteger(r[key]), `${key} is an integer, got ${r[key]}`);
  }
  for (const key of LATENCY) {
    assert.ok(Number.isFinite(r.latency[key]) && r.latency[key] >= 0, `latency.${key} is a number >= 0`);
  }
  assert.ok(r.latency.p50 <= r.latency.p99 && r.latency.p99 <= r.latency.max, 'latency percentiles are ordered');
  assert.ok(r.requests > 0, 'some requests completed');
  assert.ok(r.durationS > 0 && r.rps > 0);
}

// load/curl.sh: resolves { code, stdout, stderr }.
function curlSh(args) {
  return new Promise((resolve) => {
    execFile(CURL_SH, args, { timeout: 600000 }, (err, stdout, stderr) => {
      resolve({ code: err ? err.code : 0, stdout, stderr });
    });
  });
}

module.exports = { FIELDS, LATENCY, assertShape, curlSh };
