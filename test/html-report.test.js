'use strict';
// Tier: quick (the HTML page's cell markup and sort keys; the page in headless Chromium is in test/all/html-report.test.js)
// The HTML report's cell markup and sort keys (report/html.js). The page itself in a real
// headless browser: test/all/html-report.test.js.
const test = require('node:test');
const assert = require('node:assert');
const { inline, sortKey } = require('../report/html');

test('inline markup of table cells becomes HTML; sort keys are the first figure of a cell', () => {
  assert.strictEqual(inline('`als` **1.3%** [page](io.md) <b>'), '<code>als</code> <strong>1.3%</strong> <a href="io.md">page</a> &lt;b&gt;');
  assert.strictEqual(inline('[96.1% [93.7%–98.5%]](default.md)'), '<a href="default.md">96.1% [93.7%–98.5%]</a>');
  assert.strictEqual(sortKey('96.1% [93.7%–98.5%]'), 96.1);
  assert.strictEqual(sortKey('−0.25 ms'), -0.25);
  assert.strictEqual(sortKey('12,431 [11,741–13,163]'), 12431);
  assert.strictEqual(sortKey('baseline'), null);
});
