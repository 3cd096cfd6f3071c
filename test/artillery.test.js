'use strict';
// Tier: quick (the scenario Artillery is given; Artillery's real run is in test/all/artillery.test.js)
// The Artillery driver's scenario: a trace id per request, every answer checked in the
// processor's afterResponse hook. Artillery run locally against real ctxbench servers:
// test/all/artillery.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const artillery = require('../load/artillery');
const { tempDir } = require('./helpers/tmp');

test('the scenario carries a trace id per request and checks every answer', () => {
  const dir = tempDir('ctxbench-art-');
  try {
    const file = artillery.writeScenario(dir, {
      target: 'http://127.0.0.1:8080',
      route: '/depth/8',
      rate: 50,
      duration: 2,
      timeout: 10,
    });
    const s = YAML.parse(fs.readFileSync(file, 'utf8'));
    assert.deepStrictEqual(s.config.phases, [{ duration: 2, arrivalRate: 50, name: 'ctxbench' }]);
    assert.strictEqual(s.config.processor, './artillery-processor.js');
    // One run id for every worker, so another worker's id in a body counts as a mismatch.
    assert.match(s.config.variables.ctxbenchRun, /^[0-9a-f]{16}$/);
    const get = s.scenarios[0].flow[0].get;
    assert.deepStrictEqual(
      [get.url, get.beforeRequest, get.afterResponse],
      ['/depth/8', 'ctxbenchStamp', 'ctxbenchCheck'],
    );
    const processor = require(path.join(dir, 'artillery-processor.js'));
    assert.strictEqual(typeof processor.ctxbenchStamp, 'function');
    assert.strictEqual(typeof processor.ctxbenchCheck, 'function');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
