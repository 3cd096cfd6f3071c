'use strict';
// Tier: all (the real APM agents: installed into the cache on first
// use, their spans to the sink, a network namespace under strace)
// The APM agent strategies (context/sentry.js, context/datadog.js) with the real agents
// (installed on first use into the cache, lib/agents.js) and ctxbench's local sink
// (bench/services/agent-sink.js): the id check proves each agent's own context holds, each client
// span's trace is checked, and nothing they send leaves loopback, proven in a network
// namespace that has only `lo`. The sink's decoding and the refusal without a sink:
// test/agents.test.js.
const test = require('node:test');
const assert = require('node:assert');
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const agents = require('../../lib/agents');
const systemTools = require('../../lib/system-tools');
const { runCliJson } = require('../helpers/cli');
const { assertIdsKept, runExampleApp } = require('../helpers/app-services');
const { render } = require('../../report/sections/integrity');
const { tempDir } = require('../helpers/tmp');

const ROOT = path.join(__dirname, '..', '..');
const dir = tempDir('ctxbench-agents-test-');
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

// The agents come from the npm registry on first use: without it (and not cached) the
// tests that run them skip and say why.
async function agentsOrSkip(t) {
  try {
    await Promise.all(Object.keys(agents.AGENTS).map((name) => agents.ensureAgent(name)));
    return true;
  } catch (err) {
    t.skip(`the agents could not be installed (${err.message})`);
    return false;
  }
}

// `ctxbench integrity` of both agents on the scenarios, 200 requests a cell with 100 in flight:
// resolves the run JSON.
async function runAgents(scenarios, out) {
  const args = ['--strategies', 'sentry,datadog', '--scenarios', scenarios.join(',')];
  const { run } = await runCliJson(['integrity', ...args, '--requests', '200', '--concurrency', '100'], out);
  return run;
}

// What each agent must do, with the reasons written in bench/integrity/integrity.js's EXPLAIN.
const EXPECTED = {
  sentry: { 'chain-mixed': 'kept', 'pool-bound': 'kept', nested: 'kept', pool: 'leaked' },
  datadog: { 'chain-mixed': 'kept', 'pool-bound': 'leaked', nested: 'leaked', pool: 'leaked' },
};

test(
  'ctxbench integrity with the real agents: each keeps the id through ' +
    'its own context, spans reach the local sink, nothing else is asked for',
  { timeout: 600000 },
  async (t) => {
    if (!(await agentsOrSkip(t))) return;
    const out = path.join(dir, 'agents.json');
    const scenarios = Object.keys(EXPECTED.sentry);
    const run = await runAgents(scenarios, out);
    for (const c of run.integrity.cells) {
      const detail =
        `${c.strategy} ${c.scenario}: ` +
        `${JSON.stringify({ kept: c.kept, lost: c.lost, leaked: c.leaked, errors: c.errors })}`;
      assert.strictEqual(c.verdict, EXPECTED[c.strategy][c.scenario], detail);
      if (c.verdict !== 'kept')
        assert.ok(c.explanation && !/no recorded explanation/.test(c.explanation), `${detail}: ${c.explanation}`);
    }
    assert.strictEqual(run.integrity.cells.length, 2 * scenarios.length);
    const { counts } = run.agentSink;
    for (const agent of ['sentry', 'datadog']) {
      assert.ok(
        counts[agent].spans > 0 && counts[agent].requestSpans > 0,
        `${agent}: the sink received its spans ${JSON.stringify(counts[agent])}`,
      );
      assert.strictEqual(counts[agent].undecodable, 0);
    }
    assert.deepStrictEqual(
      counts.unexpected,
      { requests: 0, paths: {} },
      'telemetry, remote config and the like are off',
    );
  },
);

// Each request's query or Redis command names it (`ctxbench:<id>`): the sink checks every
// such client span against the request's trace, and the run gives each scenario its own
// counts, whenever the agent flushed them.
test(
  "the span check covers the agents' database and Redis client spans, per scenario",
  { timeout: 600000 },
  async (t) => {
    if (!(await agentsOrSkip(t))) return;
    const scenarios = [
      'pg-promise',
      ...(systemTools.find('mariadb') ? ['mysql-promise'] : []),
      ...(systemTools.find('redis') ? ['ioredis-promise'] : []),
    ];
    const out = path.join(dir, 'agent-spans.json');
    const run = await runAgents(scenarios, out);
    assert.strictEqual(run.integrity.cells.length, 2 * scenarios.length);
    for (const c of run.integrity.cells) {
      const detail = `${c.strategy} ${c.scenario}: ${JSON.stringify(c.spans)}`;
      assert.strictEqual(c.verdict, 'kept', detail);
      // One query (two Redis commands) per request, each naming it; none in another trace.
      assert.ok(c.spans && c.spans.checked >= c.requests, detail);
      assert.deepStrictEqual([c.spans.foreignTrace, c.spans.detached], [0, 0], detail);
    }
    if (scenarios.length < 3) t.diagnostic(`MariaDB or Redis missing here: checked ${scenarios.join(', ')} only`);
  },
);

test(
  'an agent on a runtime its package does not support: every cell "n/a" with the package\'s reason, no server started',
  { timeout: 600000 },
  async (t) => {
    if (!(await agentsOrSkip(t))) return;
    assert.match(
      agents.runtimeProblem('datadog', 'v20.20.2'),
      /^dd-trace@6\.21\.0 supports Node >=22, not v20\.20\.2$/,
    );
    assert.strictEqual(agents.runtimeProblem('datadog', 'v24.21.0'), null);
    const out = path.join(dir, 'node20.json');
    // Node 20 is this repository's test runtime when it runs on 20; else it comes from the cache.
    const { run } = await runCliJson(
      ['integrity', '--strategies', 'datadog', '--node', '20', '--scenarios', 'chain-await,nested', '--requests', '10'],
      out,
    );
    assert.deepStrictEqual(
      run.integrity.cells.map((c) => [c.scenario, c.verdict, c.requests]),
      [
        ['chain-await', 'n/a', 0],
        ['nested', 'n/a', 0],
      ],
    );
    assert.match(run.integrity.cells[0].explanation, /supports Node >=22, not v20\./);
    // The page says it once per strategy and runtime, not once per scenario.
    const why = render(run)
      .split('\n')
      .filter((l) => l.includes('supports Node'));
    assert.deepStrictEqual(why.length, 1, why.join('\n'));
    assert.match(
      why[0],
      new RegExp(
        String.raw`^- datadog: n/a on node20[^,]*, every scenario \(not run\): ` +
          String.raw`dd-trace@6\.21\.0 supports Node >=22, not v20\.\d+\.\d+\.$`,
      ),
    );
  },
);

// dd-trace's undici integration injects a traceparent of its own after the one the hop
// forwards (its trace, not the request's id): the hop must read the one it sent, or every
// HOP=http answer of `datadog` counts as lost (what the first io run with the agents saw).
test(
  "datadog over HOP=http: the id the hop forwarded is what it checks, not dd-trace's own traceparent beside it",
  { timeout: 600000 },
  async (t) => {
    if (!(await agentsOrSkip(t))) return;
    const out = path.join(dir, 'http.json');
    // A fixed rate (no capacity probe) and no blocks past the three: the claim is the ids.
    const { run } = await runCliJson(
      [
        'run',
        '--strategies',
        'datadog',
        '--hops',
        'http',
        '--depths',
        '4',
        '--rate',
        '100',
        '--blocks',
        '3',
        '--windows',
        '2',
        '--window',
        '0.2',
        '--max-time',
        '1',
        '--connections',
        '10',
      ],
      out,
    );
    // HOP=http runs as a pair now, beside a `none` baseline that carries no id by design
    // (its every answer is "lost"): the claim is datadog's.
    for (const c of run.configs.filter((x) => x.strategy === 'datadog')) {
      assert.strictEqual(c.error, null, JSON.stringify(c.error));
      const [sample] = c.samples;
      assert.ok(sample.requests > 0, c.id);
      assert.deepStrictEqual([c.id, sample.errors, sample.mismatches, sample.lost], [c.id, 0, 0, 0]);
    }
    assert.ok(run.configs.some((c) => c.strategy === 'datadog'));
  },
);

// ---- Nothing leaves the machine ---------------------------------------------------------
// The whole command runs in a network namespace with only `lo` (any other destination
// fails at once there), under strace, which records every connect/sendto/sendmsg of every
// process it starts; attempts: those to an address outside loopback.
const NETNS_WHY = () => {
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  for (const tool of ['strace', 'iproute2'])
    if (!systemTools.find(tool)) return `${systemTools.hint(tool)} (.ci/run installs it)`;
  if (spawnSync('ip', ['netns', 'list']).status !== 0)
    return '`ip netns list` failed: this kernel or container gives no network namespaces';
  return null;
};

function attemptsOutsideLoopback(traceFile) {
  const lines = fs
    .readFileSync(traceFile, 'utf8')
    .split('\n')
    .filter((l) => /\b(connect|sendto|sendmsg)\(/.test(l));
  const outside = lines.filter((l) => {
    const v4 = /inet_addr\("([\d.]+)"\)/.exec(l);
    const v6 = /inet_pton\(AF_INET6, "([^"]+)"/.exec(l);
    if (v4) return !v4[1].startsWith('127.');
    if (v6) return v6[1] !== '::1' && !/^::ffff:127\./.test(v6[1]);
    return false; // AF_UNIX, or no address (a connected socket)
  });
  return { syscalls: lines.length, outside };
}

function inNamespace(t, argv, traceFile) {
  const ns = `ctxbench-test-${process.pid}`;
  execFileSync('ip', ['netns', 'add', ns]);
  // `ip netns exec` mounts /etc/netns/<ns>/resolv.conf over /etc/resolv.conf: a name
  // server outside loopback, so that a DNS lookup (the first step of reaching any host
  // by name) is an attempt the counter sees, whatever this machine's resolver is.
  const etc = path.join('/etc/netns', ns);
  fs.mkdirSync(etc, { recursive: true });
  fs.writeFileSync(path.join(etc, 'resolv.conf'), 'nameserver 192.0.2.53\n');
  t.after(() => {
    spawnSync('ip', ['netns', 'delete', ns]);
    fs.rmSync(etc, { recursive: true, force: true });
  });
  execFileSync('ip', ['netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up']);
  const links = execFileSync('ip', ['netns', 'exec', ns, 'ip', '-o', 'link']).toString().trim().split('\n');
  assert.deepStrictEqual(
    links.map((l) => l.split(':')[1].trim()),
    ['lo'],
    'the namespace has only lo',
  );
  return spawnSync(
    'ip',
    ['netns', 'exec', ns, 'strace', '-f', '-qq', '-e', 'trace=connect,sendto,sendmsg', '-o', traceFile, ...argv],
    {
      cwd: ROOT,
      env: { ...process.env, CTXBENCH_FINGERPRINT: '0' },
      timeout: 600000,
      encoding: 'utf8',
    },
  );
}

test(
  'the counter sees an attempt to leave: a connect to an address, and a lookup of a name, in the namespace',
  { timeout: 60000 },
  (t) => {
    const why = NETNS_WHY();
    if (why) return t.skip(why);
    const trace = path.join(dir, 'planted.strace');
    // 192.0.2.1 (TEST-NET-1) is never routed; in the namespace the connect fails at once,
    // and so does the lookup (its name server is 192.0.2.53, unreachable there).
    const script =
      "require('net').connect(80, '192.0.2.1').on('error', (e) => console.log(e.code)); " +
      "require('dns').lookup('example.com', (e) => console.log(e && e.code))";
    const r = inNamespace(t, [process.execPath, '-e', script], trace);
    assert.match(r.stdout, /ENETUNREACH/);
    const { outside } = attemptsOutsideLoopback(trace);
    assert.ok(
      outside.some((l) => l.includes('"192.0.2.1"')),
      `the connect:\n${outside.join('\n')}`,
    );
    assert.ok(
      outside.some((l) => l.includes('"192.0.2.53"')),
      `the lookup:\n${outside.join('\n')}`,
    );
  },
);

test(
  'sentry and datadog servers, in a namespace with only lo, try no destination but loopback',
  { timeout: 600000 },
  async (t) => {
    const why = NETNS_WHY();
    if (why) return t.skip(why);
    if (!(await agentsOrSkip(t))) return;
    const trace = path.join(dir, 'agents.strace');
    const out = path.join(dir, 'netns.json');
    const r = inNamespace(
      t,
      [
        process.execPath,
        path.join(ROOT, 'bin', 'ctxbench.js'),
        'integrity',
        '--strategies',
        'sentry,datadog',
        '--scenarios',
        'chain-mixed,undici',
        '--requests',
        '100',
        '--out',
        out,
        '--report',
        'none',
      ],
      trace,
    );
    assert.strictEqual(r.status, 0, r.stderr);
    const { syscalls, outside } = attemptsOutsideLoopback(trace);
    assert.deepStrictEqual(outside, [], 'attempts to leave loopback');
    assert.ok(syscalls > 0, 'strace saw the processes talk (to loopback)');
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.ok(
      run.agentSink.counts.sentry.spans > 0 && run.agentSink.counts.datadog.spans > 0,
      'the agents sent their spans to the sink',
    );
  },
);

// A team's own service with Sentry, as examples/app runs it: Sentry's documented instrument
// file first, the id on the isolation scope its http instrumentation forks per request,
// every envelope to the sink `ctxbench app --with sink` starts.
test(
  'examples/app with Sentry under ctxbench app --with sink: every id kept ' +
    "through Sentry's scope, its envelopes reach the sink, nothing else asked for",
  { timeout: 600000 },
  async (t) => {
    if (!(await agentsOrSkip(t))) return;
    const { run } = await runExampleApp({
      example: 'app',
      context: 'sentry',
      service: 'sink',
      out: path.join(dir, 'app-sentry.json'),
    });
    assertIdsKept(run.app.ids.candidate, 'candidate');
    const { counts } = run.agentSink;
    assert.ok(
      counts.sentry.posts > 0 && counts.sentry.spans > 0 && counts.sentry.undecodable === 0,
      JSON.stringify(counts.sentry),
    );
    assert.deepStrictEqual(counts.unexpected, { requests: 0, paths: {} });
  },
);
