'use strict';
// Tier: quick (the integrity checker and integrity's one end-to-end
// run on real servers, the global control caught leaking)
// `ctxbench integrity` against real servers: the checker tells kept, lost and leaked
// apart (the `global` control leaks, `none` is n/a, a planted strategy that returns
// nothing is lost), native AsyncLocalStorage keeps what it is known to keep, and the
// CLI fails in one line on bad input and writes valid JSON on a quick run.
const { runCli } = require('./helpers/cli');
const { describe, test, before, after } = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const integrity = require('../bench/integrity/integrity');
const client = require('../bench/integrity/integrity-client');
const { render } = require('../report/sections/integrity');
const { tempDir } = require('./helpers/tmp');

// Leaks need interleaving: at least 200 requests in flight.
const SETTINGS = { requests: 400, concurrency: 200, framework: 'express' };
const TARGET = integrity.currentTarget();

async function measure(strategy, names, { env, framework = 'express' } = {}) {
  const server = await integrity.startFor(TARGET, strategy, { ...SETTINGS, framework }, { soak: false, env });
  try {
    const checker = client.createChecker();
    const out = {};
    for (const name of names) {
      const tally = await integrity.measureScenario(server.url, name, SETTINGS, { checker });
      out[name] = { ...tally, verdict: integrity.verdictOf(strategy, tally) };
    }
    return { cells: out, url: server.url };
  } finally {
    await server.stop();
  }
}

function get(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      })
      .on('error', reject);
  });
}

describe('the checker', () => {
  test('classifies own id as kept, another issued id (or own child id) as leaked, anything else as lost', () => {
    const checker = client.createChecker();
    const a = checker.issue();
    const b = checker.issue();
    assert.notStrictEqual(a, b);
    assert.match(a, /^[0-9a-f]{32}$/);
    assert.strictEqual(checker.classify(a, a), 'kept');
    assert.strictEqual(checker.classify(a, b), 'leaked');
    assert.strictEqual(checker.classify(a, `child-${a}`), 'leaked');
    assert.strictEqual(checker.classify(a, ''), 'lost');
    assert.strictEqual(checker.classify(a, '0'.repeat(32)), 'lost');
    assert.strictEqual(checker.classify(a, 'f'.repeat(32)), 'lost');
  });

  test('parses pipelined responses split anywhere', () => {
    const one = 'HTTP/1.1 200 OK\r\ncontent-length: 3\r\nx-ctxbench-failed-read: here\r\n\r\nabc';
    const buf = Buffer.from(one + one.slice(0, 20));
    const { responses, rest } = client.parseResponses(buf);
    assert.deepStrictEqual(responses, [{ status: 200, body: 'abc', failedRead: 'here' }]);
    assert.strictEqual(rest.toString(), one.slice(0, 20));
  });
});

describe('real servers under 200 concurrent requests', () => {
  let planted;
  before(() => {
    // A strategy that keeps nothing: the server answers empty, the client must say lost.
    planted = path.join(tempDir('ctxbench-planted-'), 'returns-nothing.js');
    fs.writeFileSync(planted, "'use strict';\nmodule.exports = { run: (id, fn) => fn(), current: () => undefined };\n");
  });
  after(() => fs.rmSync(path.dirname(planted), { recursive: true, force: true }));

  test('global (the control) leaks wherever requests interleave, and only there', async () => {
    const { cells } = await measure('global', [
      'chain-await',
      'chain-immediate',
      'fanout',
      'pool-bound',
      'nested',
      'keepalive',
    ]);
    // Microtask-only hops: each request ends before the next is parsed, nothing interleaves.
    assert.strictEqual(cells['chain-await'].kept, SETTINGS.requests);
    for (const name of ['chain-immediate', 'fanout', 'pool-bound', 'nested', 'keepalive']) {
      const c = cells[name];
      assert.strictEqual(c.verdict, 'leaked', `${name}: ${JSON.stringify(c)}`);
      assert.ok(c.leaked >= SETTINGS.requests * 0.9, `${name}: most requests leak (${c.leaked})`);
      assert.strictEqual(c.errors, 0);
    }
    assert.ok(cells.keepalive.parts.pipelined.leaked > 0, 'pipelined requests leak too');
  });

  test('none carries no context: every answer is lost, the cell is n/a', async () => {
    const { cells } = await measure('none', ['chain-immediate', 'body']);
    for (const c of Object.values(cells)) {
      assert.strictEqual(c.lost, SETTINGS.requests);
      assert.strictEqual(c.verdict, 'n/a');
    }
  });

  test('a planted strategy that returns nothing is lost, not leaked, on the http framework too', async () => {
    const env = { CTXBENCH_EXTRA_STRATEGY: planted };
    for (const framework of ['express', 'http']) {
      const { cells } = await measure('test-extra', ['chain-immediate', 'fanout'], { env, framework });
      for (const [name, c] of Object.entries(cells)) {
        assert.strictEqual(c.verdict, 'lost', `${framework} ${name}: ${JSON.stringify(c)}`);
        assert.strictEqual(c.lost, SETTINGS.requests);
        assert.strictEqual(c.leaked, 0);
      }
      assert.deepStrictEqual(Object.keys(cells.fanout.failedReads), ['branch 0']);
    }
  });

  test('native AsyncLocalStorage keeps chains, fanout and nested; leaks in a shared pool unless bound', async () => {
    const kept = [...integrity.GROUPS.chains, 'fanout', 'nested'];
    const { cells, url } = await measure('als', [...kept, 'pool', 'pool-bound']);
    for (const name of kept) assert.strictEqual(cells[name].verdict, 'kept', `${name}: ${JSON.stringify(cells[name])}`);
    for (const name of kept) assert.strictEqual(cells[name].kept, SETTINGS.requests);
    assert.strictEqual(cells.pool.verdict, 'leaked');
    assert.deepStrictEqual(Object.keys(cells.pool.failedReads), ['in the acquire callback']);
    assert.strictEqual(cells['pool-bound'].verdict, 'kept');
    assert.ok(url.startsWith('http://127.0.0.1:'));
  });

  test('unknown scenarios are 404 and /__gc does not exist without CTXBENCH_ALLOW_GC', async () => {
    for (const framework of ['express', 'http']) {
      const server = await integrity.startFor(TARGET, 'als', { framework }, { soak: false });
      try {
        assert.strictEqual(await get(`${server.url}/scenario/nope`), 404, framework);
        assert.strictEqual(await get(`${server.url}/scenario/__proto__`), 404, framework);
        assert.strictEqual(await get(`${server.url}/scenario/chain-await`), 200, framework);
        await assert.rejects(client.postJson(`${server.url}/__gc`), /404/, framework);
      } finally {
        await server.stop();
      }
    }
  });
});

describe('ctxbench integrity (CLI)', () => {
  let dir;
  before(() => {
    dir = tempDir('ctxbench-integrity-');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a bad --scenarios is one line and exit 1', async () => {
    const r = await runCli(['integrity', '--scenarios', 'chains,nope', '--out', path.join(dir, 'bad.json')]);
    assert.strictEqual(r.code, 1);
    assert.strictEqual(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^ctxbench: --scenarios: unknown nope \(valid: .*chain-await/);
    assert.ok(!fs.existsSync(path.join(dir, 'bad.json')));
  });

  test(
    'a quick run writes valid JSON with the matrix and the soak, ' +
      'and it renders; written outside results/ it leaves ./results.md alone',
    async () => {
      const out = path.join(dir, 'integrity.json');
      const sentinel = '# committed report\n';
      fs.writeFileSync(path.join(dir, 'results.md'), sentinel);
      const r = await runCli(
        [
          'integrity',
          '--quick',
          '--strategies',
          'als,global,none',
          '--scenarios',
          'chain-immediate,emitter,soak',
          '--requests',
          '300',
          '--soak-requests',
          '600',
          '--out',
          out,
        ],
        { cwd: dir },
      );
      assert.strictEqual(r.code, 0, r.stderr);
      assert.strictEqual(fs.readFileSync(path.join(dir, 'results.md'), 'utf8'), sentinel, 'results.md not rewritten');
      assert.match(r.stderr, /global: chain-immediate leaked, emitter leaked/);
      const run = JSON.parse(fs.readFileSync(out, 'utf8'));
      assert.strictEqual(run.kind, 'integrity');
      assert.strictEqual(run.schema, 1);
      assert.strictEqual(run.status, 'complete');
      assert.ok(run.environment.node && run.settings.requests === 300 && run.settings.concurrency === 200);
      assert.deepStrictEqual(run.settings.scenarios, ['chain-immediate', 'emitter', 'soak']);
      const cells = run.integrity.cells;
      assert.strictEqual(cells.length, 9);
      for (const c of cells) {
        assert.strictEqual(c.kept + c.lost + c.leaked + c.errors, c.requests, JSON.stringify(c));
        assert.strictEqual(Boolean(c.explanation), ['lost', 'leaked', 'errors'].includes(c.verdict));
      }
      const cell = (st, sc) => cells.find((c) => c.strategy === st && c.scenario === sc);
      assert.strictEqual(cell('als', 'chain-immediate').verdict, 'kept');
      assert.strictEqual(cell('als', 'emitter').verdict, 'kept');
      assert.strictEqual(cell('global', 'emitter').verdict, 'leaked');
      assert.strictEqual(cell('none', 'emitter').verdict, 'n/a');
      assert.strictEqual(run.integrity.soak.length, 3);
      for (const s of run.integrity.soak) {
        assert.strictEqual(s.requests, 600);
        assert.ok(s.before.heapUsedBytes > 0 && s.after.rssBytes > 0);
        assert.strictEqual(typeof s.growth.heapUsedPct, 'number');
      }
      const md = render(run, { file: 'results/integrity.json' });
      assert.match(md, /\| `chain-immediate` \| kept 300 \| LEAKED \d+\/300 \| n\/a \|/);
      assert.match(md, /### Why the failing cells fail/);
      assert.match(md, /### Memory soak/);
    },
  );

  test('SIGINT stops after the current scenario and keeps what it measured, status interrupted', async () => {
    const out = path.join(dir, 'interrupted.json');
    let sent = false;
    // As soon as the first cell is saved, interrupt.
    const r = await runCli(
      [
        'integrity',
        '--strategies',
        'als,global',
        '--scenarios',
        'chain-immediate,fanout,nested,pool',
        '--requests',
        '3000',
        '--out',
        out,
        '--report',
        'none',
      ],
      {
        onSpawn: (child) => {
          const poll = setInterval(() => {
            let saved;
            try {
              saved = JSON.parse(fs.readFileSync(out, 'utf8'));
            } catch {
              return; // not written yet
            }
            if (saved.integrity.cells.length >= 1) {
              clearInterval(poll);
              sent = true;
              child.kill('SIGINT');
            }
          }, 50);
          child.once('exit', () => clearInterval(poll));
        },
      },
    );
    assert.ok(sent, 'SIGINT was sent');
    assert.strictEqual(r.code, 130, r.stderr);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(run.status, 'interrupted');
    assert.ok(run.integrity.cells.length >= 1 && run.integrity.cells.length < 8);
  });
});
