'use strict';
// Tier: quick (without redis-server, the one line that skips the
// Redis scenarios; against a real Redis: test/all/redis.test.js)
// The Redis driver scenarios (handlers/scenarios/redis.js) need a real redis-server,
// which `ctxbench integrity` starts itself: without one, those scenarios are skipped in one
// line naming the package and the others run. Against a real Redis: test/all/redis.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli } = require('./helpers/cli');
const { tempDir } = require('./helpers/tmp');

const dir = tempDir('ctxbench-redis-test-');
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

test(
  'ctxbench integrity without redis-server: the Redis scenarios ' +
    'are skipped in one line naming the package, the others run',
  { timeout: 600000 },
  async () => {
    const out = path.join(dir, 'none.json');
    // A PATH without redis-server (node itself is called by its full path).
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    const r = await runCli(
      [
        'integrity',
        '--strategies',
        'als',
        '--scenarios',
        'ioredis-promise,chain-immediate',
        '--quick',
        '--out',
        out,
        '--report',
        'none',
      ],
      { env: { PATH: bin } },
    );
    assert.strictEqual(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        String.raw`^ctxbench: 1 Redis scenario\(s\) skipped: redis is not installed \(the Redis ` +
          String.raw`driver scenarios \(a real Redis server\)\): apt-get install -y redis-server$`,
        'm',
      ),
    );
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.deepStrictEqual(
      run.integrity.cells.map((c) => c.scenario),
      ['chain-immediate'],
    );
    assert.ok(run.warnings.some((w) => w.includes('apt-get install -y redis-server')));
  },
);
