'use strict';
// Tier: quick (reads the README and docs/: nothing started)
// Every relative link in README.md and docs/*.md names a file that exists, and every
// #anchor one of its headings (scripts/docs-links.js). Links into the committed results are
// .ci/run's to check (`node scripts/docs-links.js --results`): tests never read them.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { deadLinks, anchorsOf } = require('../scripts/docs-links');
const { tempDir } = require('./helpers/tmp');

test('every relative link and anchor in README.md and docs/ resolves (results/ aside)', () => {
  assert.deepStrictEqual(deadLinks(), []);
});

test('the check sees a heading with code in it, and a missing one', () => {
  const dir = tempDir('ctxbench-links-');
  fs.writeFileSync(path.join(dir, 'a.md'), '# A page\n\n## Real I/O (HOP=pg)\n\n## `ctxbench app`: yours\n');
  fs.writeFileSync(path.join(dir, 'b.md'), '# B\n');
  assert.ok(
    anchorsOf(path.join(dir, 'a.md')).has('real-io-hoppg') &&
      anchorsOf(path.join(dir, 'a.md')).has('ctxbench-app-yours'),
  );
  assert.ok(!anchorsOf(path.join(dir, 'b.md')).has('real-io-hoppg'));
});
