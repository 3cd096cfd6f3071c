'use strict';
// Tier: quick (reads the test files' first lines and package.json: nothing started)
// Two test tiers (docs/testing.md): `npm test` runs test/*.test.js, the quick tier;
// `npm run test:all` runs those and test/all/*.test.js. Every test file names its tier and
// why on its first line after 'use strict', and the scripts run exactly those files (no
// helper or fixture is picked up as a test).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

const TEST = __dirname;
const files = (dir) =>
  fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.test.js'))
    .sort();

test(
  'every test file names its tier and why on its first line ' + "after 'use strict': quick in test/, all in test/all/",
  () => {
    const wrong = [];
    for (const [dir, tier] of [
      [TEST, 'quick'],
      [path.join(TEST, 'all'), 'all'],
    ]) {
      for (const name of files(dir)) {
        const first = fs
          .readFileSync(path.join(dir, name), 'utf8')
          .split('\n')
          .find((l) => l.trim() !== "'use strict';");
        if (!new RegExp(`^// Tier: ${tier} \\(\\S`).test(first))
          wrong.push(
            `${path.relative(TEST, path.join(dir, name))}: ${JSON.stringify(first)}, expected "// Tier: ${tier} (why)"`,
          );
      }
    }
    assert.deepStrictEqual(wrong, []);
    assert.ok(files(path.join(TEST, 'all')).length > 0, 'the all tier has its files');
  },
);

test('npm test runs the quick tier and npm run test:all both tiers, by shell glob, test files only', () => {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(TEST, '..', 'package.json'), 'utf8'));
  assert.match(scripts.test, /^CTXBENCH_CPUS=none node --test .*test\/\*\.test\.js$/);
  assert.doesNotMatch(scripts.test, /test\/all/);
  // The same runner and glob; the all tier may run more files at once (they wait on servers).
  const runner = (script) => script.replace(/--test-concurrency=\d+ /, '');
  assert.strictEqual(runner(scripts['test:all']), `${runner(scripts.test)} test/all/*.test.js`);
  // Helpers and fixtures are required by the tests, never run as tests themselves.
  for (const dir of ['helpers', 'fixtures'])
    assert.deepStrictEqual(files(path.join(TEST, dir)), [], `test/${dir}/ holds no *.test.js`);
});
