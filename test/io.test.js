'use strict';
// Tier: quick (the refusals of HOP=pg, HOP=http and --pg-url, which start no
// PostgreSQL; everything against a real PostgreSQL is in test/all/io.test.js)
// Real I/O (issue 12) without a PostgreSQL: start-up refuses HOP=pg/http without their
// URLs (and a PG_URL that is not one, without echoing it), --pg-url is checked with one
// query, an embedded PostgreSQL that cannot start is one line, and a downstream that
// answers another id is counted. The real embedded PostgreSQL and downstream, the library
// integrity scenarios and what outlives an interrupted run: test/all/io.test.js.
const { runCli } = require('./helpers/cli');
const { describe, test, before, after } = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { redactArgs } = require('../bench/services/services');
const { startServer, runToExit, get, traceId } = require('./helpers/server');
const { tempDir } = require('./helpers/tmp');

let dir;
before(() => {
  dir = tempDir('ctxbench-io-test-');
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('services: an embedded PostgreSQL and the downstream, started and removed', () => {
  test('--pg-url is checked with one query, and its password never reaches the recorded command', async () => {
    const r = await runCli([
      'integrity',
      '--strategies',
      'als',
      '--scenarios',
      'pg-callback',
      '--pg-url',
      'postgres://u:secret@127.0.0.1:1/db',
      '--out',
      path.join(dir, 'bad.json'),
      '--report',
      'none',
    ]);
    assert.strictEqual(r.code, 1);
    assert.match(
      r.stderr,
      /^ctxbench: --pg-url: cannot query PostgreSQL at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/db \(ECONNREFUSED\)\n$/,
    );
    assert.deepStrictEqual(
      redactArgs(['--pg-url', 'postgres://u:secret@h:1/d', '--pg-url=postgres://u:secret@h:1/d']),
      ['--pg-url', 'postgres://u:***@h:1/d', '--pg-url=postgres://u:***@h:1/d'],
    );
  });

  test('an embedded PostgreSQL that cannot start is one line and exit 1', async () => {
    const r = await runCli(
      [
        'integrity',
        '--strategies',
        'als',
        '--scenarios',
        'pg-callback',
        '--out',
        path.join(dir, 'nopg.json'),
        '--report',
        'none',
      ],
      { env: { TMPDIR: path.join(dir, 'missing') } },
    );
    assert.strictEqual(r.code, 1);
    assert.match(r.stderr, /^ctxbench: embedded PostgreSQL could not start: ENOENT[^\n]*mkdtemp[^\n]*\n$/);
  });
});

describe('HOP=pg and HOP=http: a real query and a real downstream call per level', () => {
  test('HOP=http: a downstream that saw another id makes that id the answer (counted, not hidden)', async () => {
    const other = 'ee'.repeat(16);
    const liar = http.createServer((req, res) => res.end(other));
    await new Promise((resolve) => liar.listen(0, '127.0.0.1', resolve));
    const server = await startServer({
      STRATEGY: 'als',
      DEPTH: '4',
      HOP: 'http',
      DOWNSTREAM_URL: `http://127.0.0.1:${liar.address().port}`,
    });
    try {
      const own = traceId(1);
      const res = await get(`${server.url}/`, { headers: { 'x-cloud-trace-context': `${own}/1;o=1` } });
      assert.strictEqual(res.body, other);
    } finally {
      await server.stop();
      liar.close();
    }
  });

  for (const [hop, variable] of [
    ['pg', 'PG_URL'],
    ['http', 'DOWNSTREAM_URL'],
  ]) {
    test(`HOP=${hop} without ${variable}: one line, exit 1`, async () => {
      const env = { STRATEGY: 'als', HOP: hop, PG_URL: '', DOWNSTREAM_URL: '' };
      const r = await runToExit(env);
      assert.strictEqual(r.code, 1);
      assert.match(r.stderr, new RegExp(`^ctxbench: HOP=${hop} needs ${variable} [^\\n]*\\n$`));
    });
  }

  test('a PG_URL that is not a postgres URL is refused without echoing it', async () => {
    const r = await runToExit({ STRATEGY: 'als', HOP: 'pg', PG_URL: 'mysql://root:secret@db/x' });
    assert.strictEqual(r.code, 1);
    assert.match(r.stderr, /^ctxbench: PG_URL="\(hidden\)" is not valid/);
    assert.doesNotMatch(r.stderr, /secret/);
  });
});

test(
  'the io preset: the strategies and agents through every real client (pg, mysql2, ioredis, ' +
    "a downstream), as pairs at half of none's capacity, more requests in flight than pool clients",
  () => {
    const { PRESETS } = require('../lib/presets');
    const { loadConfig } = require('../servers/config');
    const { resolveSettings } = require('../bench/cli/run');
    const io = PRESETS.io;
    assert.deepStrictEqual(
      [io.strategies, io.depths, io.hops, io.baseline],
      [
        ['none', 'param', 'als', 'cls-hooked', 'otel', 'sentry', 'datadog'],
        [8],
        ['pg', 'mysql', 'redis', 'http'],
        'none',
      ],
    );
    assert.ok(io.connections > loadConfig({}).pgPoolSize, 'requests must wait for a pool client');
    const s = resolveSettings({ preset: 'io' });
    assert.deepStrictEqual([s.method, s.loads, s.aa, s.precision], ['pair', [0.5], true, 2]);
    assert.match(s.methodWhy, /the io preset's method/);
  },
);
