'use strict';
// Tier: all (needs PostgreSQL: an embedded one and the downstream
// for the whole file, the library scenarios, interrupted runs)
// Real I/O (issue 12) against a real embedded PostgreSQL and the real downstream
// service, one of each for the whole file (bench/services/services.js, as `ctxbench run` starts
// them): HOP=pg and HOP=http keep every id under concurrency, the library integrity
// scenarios give their measured verdicts (with the OpenTelemetry span check), and nothing
// outlives a run: not after stop(), not after Ctrl-C, not after SIGKILL. The refusals,
// which need no PostgreSQL: test/io.test.js.
const { runCli, running } = require('../helpers/cli');
const { describe, test, before, after } = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { startServices } = require('../../bench/services/services');
const { TMP_PREFIX } = require('../../bench/services/postgres');
const { startServer, get, fireConcurrent } = require('../helpers/server');
const systemTools = require('../../lib/system-tools');
const { tempDir } = require('../helpers/tmp');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function waitFor(check, ms = 60000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(100);
  }
  return false;
}
// Open sockets of a process (its /proc fd links), 0 once it is gone.
const socketsOf = (pid) => {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).filter((fd) => {
      try {
        return fs.readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:');
      } catch {
        return false;
      }
    }).length;
  } catch {
    return 0;
  }
};
// Processes whose command line names this folder (postgres runs with -D <dir>/data).
const processesUsing = (dir) => {
  try {
    return execFileSync('pgrep', ['-f', dir], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
};
// The PostgreSQL folders in a temporary folder. A run under test gets a TMPDIR of its own
// (privateTmp): other test files run at the same time and start PostgreSQL in the shared
// one, and a folder of theirs, alive, is not this run's leftover (CI read one as such).
const ourTempDirs = (tmp = os.tmpdir()) =>
  new Set(
    fs
      .readdirSync(tmp)
      .filter((n) => n.startsWith(TMP_PREFIX))
      .map((n) => path.join(tmp, n)),
  );
function privateTmp() {
  const tmp = tempDir('ctxbench-io-tmp-');
  // PostgreSQL runs as the user postgres and must reach its folder inside.
  fs.chmodSync(tmp, 0o755);
  return tmp;
}

let services;
let dir;
before(async () => {
  services = await startServices({ need: { pg: true, http: true } });
  dir = tempDir('ctxbench-io-test-');
});
after(async () => {
  if (services) await services.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('services: an embedded PostgreSQL and the downstream, started and removed', () => {
  test('PostgreSQL answers on loopback, runs as a non-root user, in a temporary folder', async () => {
    assert.ok(services.pg.embedded);
    assert.match(services.env.PG_URL, /^postgres:\/\/\w+:\w+@127\.0\.0\.1:\d+\/postgres$/);
    assert.ok(services.pg.dir.startsWith(path.join(os.tmpdir(), TMP_PREFIX)), services.pg.dir);
    assert.ok(fs.existsSync(path.join(services.pg.dir, 'data', 'PG_VERSION')));
    const owner = fs.statSync(path.join(services.pg.dir, 'data')).uid;
    if (process.getuid() === 0)
      assert.notStrictEqual(owner, 0, 'the data directory belongs to the postgres user, not root');
    assert.ok(
      processesUsing(services.pg.dir).includes(services.pg.pid),
      'the postgres process runs with our data directory',
    );
    const { Client } = require('pg');
    const c = new Client(services.env.PG_URL);
    await c.connect();
    try {
      assert.strictEqual((await c.query('SELECT $1::text AS id', ['abc'])).rows[0].id, 'abc');
    } finally {
      await c.end();
    }
    const answer = await get(`${services.env.DOWNSTREAM_URL}/`, {
      headers: { traceparent: `00-${'ab'.repeat(16)}-00f067aa0ba902b7-01` },
    });
    assert.strictEqual(answer.body, 'ab'.repeat(16));
  });

  test('stop() leaves no PostgreSQL process, no folder and no downstream', async () => {
    const own = await startServices({ need: { pg: true, http: true } });
    const pgDir = own.pg.dir;
    assert.ok(running(own.pg.pid) && running(own.downstream.pid) && fs.existsSync(pgDir));
    await own.stop();
    assert.ok(!running(own.pg.pid), 'postgres still running');
    assert.ok(!running(own.downstream.pid), 'downstream still running');
    assert.ok(!fs.existsSync(pgDir), `${pgDir} still exists`);
    assert.deepStrictEqual(processesUsing(pgDir), []);
  });
});

describe('HOP=pg and HOP=http: a real query and a real downstream call per level', () => {
  for (const hop of ['pg', 'http']) {
    test(`HOP=${hop}: 400 requests, 100 in flight, every answer its own id (als, depth 8)`, async () => {
      const server = await startServer({ STRATEGY: 'als', DEPTH: '8', HOP: hop, PG_POOL_SIZE: '4', ...services.env });
      try {
        const counts = await fireConcurrent(`${server.url}/`, { total: 400, concurrency: 100 });
        assert.deepStrictEqual(
          { errors: counts.errors, kept: counts.kept },
          { errors: 0, kept: 400 },
          JSON.stringify(counts),
        );
        const stats = JSON.parse((await get(`${server.url}/__stats`)).body);
        assert.strictEqual(stats.hop, hop);
      } finally {
        await server.stop();
      }
    });
  }

  test(
    'otel-selective, HOP=http: the span check counts ' + 'every client span only with CTXBENCH_SPAN_CHECK=1',
    async () => {
      for (const check of ['1', '']) {
        const server = await startServer({
          STRATEGY: 'otel-selective',
          DEPTH: '4',
          HOP: 'http',
          CTXBENCH_SPAN_CHECK: check,
          ...services.env,
        });
        try {
          const counts = await fireConcurrent(`${server.url}/`, { total: 20, concurrency: 5 });
          assert.strictEqual(counts.kept, 20, JSON.stringify(counts));
          const stats = JSON.parse((await get(`${server.url}/__stats`)).body);
          if (check)
            assert.deepStrictEqual([stats.spansChecked, stats.spansForeignTrace, stats.spansDetached], [20 * 3, 0, 0]);
          else
            assert.strictEqual(
              stats.spansChecked,
              undefined,
              'no span bookkeeping on the request path of a measured server',
            );
        } finally {
          await server.stop();
        }
      }
    },
  );
});

test(
  '`ctxbench run` with HOP=pg and HOP=http starts its own PostgreSQL and downstream, measures in ' +
    'pairs at a fixed rate (the method follows the hops, not the preset) and says why, and removes them',
  async () => {
    const tmp = privateTmp();
    const out = path.join(dir, 'run.json');
    // No --method: the default preset's duet does not fit a server that waits on I/O.
    const r = await runCli(
      [
        'run',
        '--strategies',
        'als',
        '--hops',
        'pg,http',
        '--depths',
        '4',
        '--blocks',
        '3',
        '--windows',
        '2',
        '--window',
        '0.2',
        '--warmup',
        '0.2',
        '--connections',
        '10',
        '--out',
        out,
        '--report',
        'none',
      ],
      { env: { TMPDIR: tmp } },
    );
    assert.strictEqual(r.code, 0, r.stderr);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(run.settings.method, 'pair');
    assert.match(
      run.settings.methodWhy,
      new RegExp(
        String.raw`^the pair at a fixed rate, not the default preset's duet: HOP=pg,http: ` +
          String.raw`a server waiting on I/O or timers is idle part of every window`,
      ),
    );
    assert.match(
      r.stderr,
      /ctxbench: measuring pair: the pair at a fixed rate, not the default preset's duet: HOP=pg,http/,
    );
    assert.match(
      r.stdout,
      new RegExp(
        String.raw`complete, pair at a fixed rate, .*\nMethod: ` +
          String.raw`the pair at a fixed rate, not the default preset's duet: HOP=pg,http`,
      ),
    );
    assert.strictEqual(run.learned.postgres, 'embedded');
    // Each hop's candidate beside a `none` baseline of the same hop, at one rate per hop.
    const als = run.configs.filter((c) => c.strategy === 'als');
    assert.deepStrictEqual(
      als.map((c) => c.hop),
      ['pg', 'http'],
    );
    for (const c of als) {
      assert.strictEqual(c.error, null, JSON.stringify(c.error));
      const windows = c.samples.filter((s) => s.kind === 'window');
      assert.ok(
        windows.length > 0 &&
          windows.every((w) => w.method === 'pair' && w.partner.startsWith('express/none/d4/' + c.hop + '/')),
        c.id,
      );
      const blocks = c.samples.filter((s) => s.kind === 'pair');
      assert.strictEqual(blocks.length, 3, c.id);
      for (const b of blocks)
        assert.deepStrictEqual([b.requests > 0, b.errors, b.mismatches, b.lost], [true, 0, 0, 0], c.id);
    }
    assert.deepStrictEqual([...ourTempDirs(tmp)], [], 'the run left its PostgreSQL folder');
    fs.rmSync(tmp, { recursive: true, force: true });
  },
);

describe('integrity with real libraries', () => {
  // Measured on Node 20 (and the reasons are in the scenario files). A cell that
  // changes fails the test: fix the cause or re-measure, never loosen the table.
  const EXPECTED = {
    als: {
      'pg-callback': 'leaked',
      'pg-callback-bound': 'kept',
      'pg-promise': 'kept',
      'pg-promise-bound': 'kept',
      'generic-pool': 'kept',
      'generic-pool-bound': 'kept',
      'dataloader-fn': 'leaked',
      dataloader: 'kept',
      'dataloader-bound': 'kept',
      bluebird: 'leaked',
      'bluebird-bound': 'kept',
      'query-builder': 'kept',
      'query-builder-bound': 'kept',
      undici: 'kept',
      'undici-bound': 'kept',
      interval: 'leaked',
      'interval-bound': 'kept',
      worker: 'lost',
      'worker-bound': 'kept',
      // Redis (test/all/redis.test.js has the rest): results come back through promises, a
      // pub/sub message on the subscriber's socket.
      'ioredis-callback': 'kept',
      'ioredis-callback-bound': 'kept',
      'ioredis-promise': 'kept',
      'ioredis-multi': 'kept',
      'ioredis-multi-bound': 'kept',
      'ioredis-pubsub': 'lost',
      'ioredis-pubsub-bound': 'kept',
      'redis-promise': 'kept',
      'redis-multi': 'kept',
      // MariaDB through mysql2 (test/all/mysql.test.js): a waiting getConnection() is called
      // back from another request's release().
      'mysql-callback': 'leaked',
      'mysql-callback-bound': 'kept',
      'mysql-query': 'leaked',
      'mysql-query-bound': 'kept',
      'mysql-promise': 'kept',
    },
    // The OpenTelemetry pg instrumentation binds the pool's callbacks itself; the undici
    // one creates the client span when undici dispatches a queued request, inside the
    // request whose response freed the connection.
    'otel-selective': { 'pg-callback': 'kept', undici: 'leaked', 'undici-bound': 'leaked' },
  };
  let run;
  before(async () => {
    const out = path.join(dir, 'libraries.json');
    const r = await runCli(
      [
        'integrity',
        '--strategies',
        'als,otel-selective,global',
        '--scenarios',
        'libraries',
        '--requests',
        '200',
        '--concurrency',
        '100',
        '--pg-url',
        services.env.PG_URL,
        '--out',
        out,
        '--report',
        'none',
      ],
      { timeoutMs: 600000 },
    );
    assert.strictEqual(r.code, 0, r.stderr);
    run = JSON.parse(fs.readFileSync(out, 'utf8'));
  });
  const cell = (strategy, scenario) =>
    run.integrity.cells.find((c) => c.strategy === strategy && c.scenario === scenario);

  // Without redis-server or mariadbd their scenarios are skipped (in one line; test/redis.test.js).
  const ran = (s) =>
    (s.needs !== 'redis' || Boolean(systemTools.find('redis'))) &&
    (s.needs !== 'mysql' || Boolean(systemTools.find('mariadb')));
  test('every library scenario ran for every strategy, without errors', () => {
    const all = require('../../handlers/scenarios').LIBRARY_SCENARIOS;
    assert.deepStrictEqual(Object.keys(EXPECTED.als).sort(), all.map((s) => s.name).sort());
    const names = all.filter(ran).map((s) => s.name);
    for (const strategy of ['als', 'otel-selective', 'global']) {
      for (const name of names) {
        const c = cell(strategy, name);
        assert.ok(c, `${strategy} ${name} missing`);
        assert.strictEqual(c.errors, 0, `${strategy} ${name}: ${JSON.stringify(c.examples)}`);
      }
    }
    assert.deepStrictEqual(run.integrity.errors, []);
    assert.strictEqual(run.learned.postgres.includes('***') || run.learned.postgres === 'embedded', true);
    assert.doesNotMatch(JSON.stringify(run), new RegExp(new URL(services.env.PG_URL).password));
  });

  test('als and otel-selective: the measured verdicts, each failing cell explained', () => {
    for (const [strategy, table] of Object.entries(EXPECTED)) {
      for (const [name, verdict] of Object.entries(table)) {
        const c = cell(strategy, name);
        if (!c && !ran(require('../../handlers/scenarios').LIBRARY_SCENARIOS.find((s) => s.name === name))) continue;
        assert.strictEqual(c.verdict, verdict, `${strategy} ${name}: ${JSON.stringify(c)}`);
        if (verdict !== 'kept') {
          assert.ok(
            c.explanation && !/no recorded explanation/.test(c.explanation),
            `${strategy} ${name} unexplained: ${c.explanation}`,
          );
        }
      }
    }
  });

  test('the control leaks in every library scenario, bound or not', () => {
    for (const c of run.integrity.cells.filter((x) => x.strategy === 'global')) {
      assert.strictEqual(c.verdict, 'leaked', `${c.scenario}: ${JSON.stringify(c)}`);
      assert.match(c.explanation, /module-level variable/);
    }
  });

  test("the span check: pg spans stay in their request's trace, queued undici spans land in another request's", () => {
    const pg = cell('otel-selective', 'pg-callback');
    assert.strictEqual(pg.spans.checked, pg.requests);
    assert.deepStrictEqual([pg.spans.foreignTrace, pg.spans.detached], [0, 0]);
    const undici = cell('otel-selective', 'undici');
    assert.strictEqual(undici.spans.checked, undici.requests);
    assert.ok(undici.spans.foreignTrace > undici.requests / 2, JSON.stringify(undici.spans));
    assert.strictEqual(cell('als', 'undici').spans, undefined, 'no span check without an OpenTelemetry SDK');
    const { render } = require('../../report/sections/integrity');
    assert.match(render(run), /spans in another request's trace/);
  });
});

describe('nothing outlives an interrupted run', () => {
  // The runner's children by their command line (the keeper and the downstream).
  const childrenOf = (pid) =>
    execFileSync('ps', ['-o', 'pid=,ppid=,args=', '-e'], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => Number(f[1]) === pid)
      .map((f) => ({ pid: Number(f[0]), args: f.slice(2).join(' ') }));

  for (const signal of ['SIGINT', 'SIGKILL']) {
    test(
      `${signal} to \`ctxbench integrity\` with the pg and undici ` +
        `scenarios: no postgres, no folder, no downstream left`,
      async () => {
        const tmp = privateTmp();
        let child;
        const args = [
          'integrity',
          '--strategies',
          'als',
          '--scenarios',
          'pg-callback,undici',
          '--requests',
          '10000000',
          '--concurrency',
          '20',
          '--out',
          path.join(dir, `${signal}.json`),
          '--report',
          'none',
        ];
        const done = runCli(args, { env: { TMPDIR: tmp }, onSpawn: (c) => (child = c) });
        // Running: a new folder with a live postgres in it, and the downstream.
        let pgDir;
        assert.ok(
          await waitFor(() => {
            [pgDir] = [...ourTempDirs(tmp)];
            return (
              pgDir &&
              processesUsing(pgDir).length > 0 &&
              childrenOf(child.pid).some((c) => c.args.includes('downstream.js')) &&
              childrenOf(child.pid).some((c) => c.args.includes('app.js'))
            );
          }, 120000),
          'the run did not start its PostgreSQL, downstream and integrity server',
        );
        const kids = childrenOf(child.pid).filter((c) => /postgres\.js|downstream\.js/.test(c.args));
        assert.strictEqual(kids.length, 2, JSON.stringify(kids));
        // The integrity server itself (app.js) must not outlive the runner either.
        const servers = childrenOf(child.pid).filter((c) => c.args.includes('app.js'));
        assert.ok(servers.length >= 1, 'the integrity server is running');
        const postgresPids = processesUsing(pgDir);
        // Requests in flight: the integrity server holds at least the 20 client connections.
        assert.ok(
          await waitFor(() => servers.some((sv) => socketsOf(sv.pid) >= 20), 120000),
          'the load never reached the integrity server',
        );
        child.kill(signal);
        const r = await done;
        if (signal === 'SIGINT') assert.strictEqual(r.code, 130, r.stderr);
        // After SIGINT the runner stopped them itself before exiting; after SIGKILL the
        // keeper and the downstream see their stdin close and go on their own.
        const clean = () =>
          !fs.existsSync(pgDir) &&
          processesUsing(pgDir).length === 0 &&
          [...kids.map((k) => k.pid), ...servers.map((k) => k.pid), ...postgresPids].every((pid) => !running(pid));
        assert.ok(
          signal === 'SIGINT' ? clean() : await waitFor(clean, 120000),
          `left behind: dir ${fs.existsSync(pgDir)}, processes ${processesUsing(pgDir)}, ` +
            `children ${[...kids, ...servers].filter((k) => running(k.pid)).map((k) => k.args)}`,
        );
        fs.rmSync(tmp, { recursive: true, force: true });
      },
    );
  }
});
