'use strict';
// Tier: quick (start-up configuration refused in one line before anything listens)
// Start-up configuration: a bad value stops the server before anything listens, with
// exactly one line naming the variable, the value and what would have been valid.
const test = require('node:test');
const assert = require('node:assert');
const net = require('node:net');
const { runToExit } = require('./helpers/server');
const { loadConfig, serverSettings, envOf, ConfigError, MAX_DEPTH, OTEL_EXPORTERS } = require('../servers/config');
const strategies = require('../context');
const hops = require('../handlers/hops');
const frameworks = require('../servers');
const logs = require('../handlers/log');

// [variable, bad value, words the line must name as valid]
const BAD = [
  ['STRATEGY', 'bogus', strategies.names],
  ['STRATEGY', 'ALS', strategies.names],
  ['STRATEGY', '', strategies.names],
  ['HOP', 'promise', hops.names],
  ['FRAMEWORK', 'koa', frameworks.names],
  ['LOG', 'file', logs.names],
  ['DEPTH', '0', ['1', String(MAX_DEPTH)]],
  ['DEPTH', '1025', ['1', String(MAX_DEPTH)]],
  ['DEPTH', 'abc', ['1', String(MAX_DEPTH)]],
  ['DEPTH', '1.5', ['1', String(MAX_DEPTH)]],
  ['DEPTH', '-1', ['1', String(MAX_DEPTH)]],
  ['DEPTH', '', ['1', String(MAX_DEPTH)]],
  ['PORT', '70000', ['0', '65535']],
  ['PORT', '-1', ['0', '65535']],
  ['PORT', 'x', ['0', '65535']],
  ['BURN_US', '-1', ['0']],
  ['BURN_US', 'x', ['0']],
  ['PG_POOL_SIZE', '0', ['1', '1000']],
  ['DOWNSTREAM_URL', 'ftp://downstream', ['http://host:port']],
  ['REDIS_URL', 'http://127.0.0.1:6379', ['redis://host:port']],
  ...(OTEL_EXPORTERS ? [['OTEL_EXPORTER', 'jaeger', OTEL_EXPORTERS]] : []),
];

// Everything else valid and explicit, so the test does not depend on the caller's env.
const GOOD = {
  STRATEGY: 'param',
  HOP: 'await',
  FRAMEWORK: 'express',
  LOG: 'none',
  DEPTH: '8',
  BURN_US: '0',
  PORT: '0',
  HOST: '127.0.0.1',
};

for (const [variable, value, valid] of BAD) {
  test(`${variable}=${JSON.stringify(value)} stops start-up with one clear line`, async () => {
    const { code, stdout, stderr } = await runToExit({ ...GOOD, [variable]: value });
    assert.strictEqual(code, 1, `exit code; stderr: ${stderr}`);
    assert.ok(!stdout.includes('listening'), `nothing may listen; stdout: ${stdout}`);
    assert.strictEqual(stdout, '', 'nothing on stdout');
    const lines = stderr.split('\n').filter((l) => l !== '');
    assert.strictEqual(lines.length, 1, `exactly one line on stderr, got:\n${stderr}`);
    assert.ok(stderr.endsWith('\n'));
    const [line] = lines;
    assert.ok(line.includes(variable), `names the variable: ${line}`);
    assert.ok(line.includes(JSON.stringify(value)), `names the value: ${line}`);
    for (const word of valid) assert.ok(line.includes(word), `names valid value ${word}: ${line}`);
    assert.doesNotMatch(line, /\bat .+:\d+:\d+|Error:|node:internal/, 'no stack trace');
  });
}

test('a PORT already in use stops start-up with one line naming PORT, exit 1', async (t) => {
  const blocker = net.createServer();
  await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.after(() => blocker.close());
  const { port } = blocker.address();
  const { code, stdout, stderr } = await runToExit({ ...GOOD, PORT: String(port) });
  assert.strictEqual(code, 1);
  assert.ok(!stdout.includes('listening'), stdout);
  const lines = stderr.split('\n').filter((l) => l !== '');
  assert.strictEqual(lines.length, 1, stderr);
  assert.match(lines[0], new RegExp(`PORT=${port}\\b.*in use`));
});

test('every valid name of every list is accepted by loadConfig', () => {
  // A framework's own plugin (fastify-request-context) is valid on that framework only.
  // A row with an endpoint (an APM agent, an OTLP row) needs the sink (test/agents.test.js,
  // test/deployed-rows.test.js: without it, one line).
  const sink = (s) => (strategies.info(s).sink ? { SINK_URL: 'http://127.0.0.1:1' } : {});
  for (const s of strategies.names)
    assert.strictEqual(
      loadConfig({ STRATEGY: s, FRAMEWORK: strategies.info(s).frameworks?.[0], ...sink(s) }).strategy,
      s,
    );
  // HOP=pg, mysql, redis and http need where to go (test/io.test.js: without it, one line).
  const io = {
    PG_URL: 'postgres://u:p@127.0.0.1:5432/d',
    MYSQL_URL: 'mysql://root@127.0.0.1:3306',
    REDIS_URL: 'redis://127.0.0.1:6379',
    DOWNSTREAM_URL: 'http://127.0.0.1:1',
  };
  for (const h of hops.names) assert.strictEqual(loadConfig({ HOP: h, ...io }).hop, h);
  assert.strictEqual(loadConfig({}).pgPoolSize, 10);
  assert.strictEqual(loadConfig({ PG_POOL_SIZE: '3' }).pgPoolSize, 3);
  for (const f of frameworks.names) assert.strictEqual(loadConfig({ FRAMEWORK: f }).framework, f);
  for (const l of logs.names) assert.strictEqual(loadConfig({ LOG: l }).log, l);
  assert.strictEqual(loadConfig({ DEPTH: '1' }).depth, 1);
  assert.strictEqual(loadConfig({ DEPTH: '1024' }).depth, 1024);
  assert.strictEqual(loadConfig({ PORT: '0' }).port, 0);
  assert.strictEqual(loadConfig({ PORT: '65535' }).port, 65535);
  assert.strictEqual(loadConfig({ BURN_US: '200' }).burnUs, 200);
  assert.strictEqual(loadConfig({ STORES: '1000' }).stores, 1000);
});

test('loadConfig defaults match the environment table of docs/server.md', () => {
  const config = loadConfig({});
  const named = {
    strategy: 'param',
    depth: 8,
    hop: 'await',
    framework: 'express',
    log: 'none',
    burnUs: 0,
    port: 8080,
    host: '127.0.0.1',
    project: 'local',
  };
  for (const [key, value] of Object.entries(named)) assert.strictEqual(config[key], value, key);
});

test('HOST defaults to 0.0.0.0 on App Engine (GAE_SERVICE) and Cloud Run (K_SERVICE), else loopback', () => {
  assert.strictEqual(loadConfig({}).host, '127.0.0.1');
  assert.strictEqual(loadConfig({ GAE_SERVICE: 'default' }).host, '0.0.0.0');
  assert.strictEqual(loadConfig({ K_SERVICE: 'ctxbench' }).host, '0.0.0.0');
  assert.strictEqual(loadConfig({ GAE_SERVICE: 'cls', HOST: '127.0.0.1' }).host, '127.0.0.1');
  assert.strictEqual(loadConfig({ HOST: '::1' }).host, '::1');
});

test('GOOGLE_CLOUD_PROJECT names the project in trace fields', () => {
  assert.strictEqual(loadConfig({ GOOGLE_CLOUD_PROJECT: 'demo' }).project, 'demo');
});

test('loadConfig throws a ConfigError whose message is the single line', () => {
  for (const [variable, value] of BAD) {
    assert.throws(
      () => loadConfig({ [variable]: value }),
      (err) => err instanceof ConfigError && !err.message.includes('\n') && err.message.startsWith(`${variable}=`),
      `${variable}=${value}`,
    );
  }
  assert.throws(() => loadConfig({ HOST: 'a b' }), ConfigError);
  assert.throws(() => loadConfig({ HOST: 'evil\nhost' }), ConfigError);
});

test('envOf writes the variables serverSettings reads: a configuration survives the round trip', () => {
  const configs = [
    { strategy: 'als', depth: 256, hop: 'immediate', framework: 'fastify', log: 'stdout', burnUs: 40, stores: 10 },
    { strategy: 'none', depth: 1, hop: 'sync', framework: 'http', log: 'none', burnUs: 0, stores: 0 },
    ...hops.names.map((hop) => ({ strategy: 'param', depth: MAX_DEPTH, hop, framework: 'express' })),
  ];
  for (const c of configs) {
    const back = serverSettings(envOf(c));
    assert.deepStrictEqual(back, { log: 'none', burnUs: 0, stores: 0, ...c });
  }
  // Its checks are loadConfig's: one line naming the variable.
  assert.throws(() => serverSettings({ DEPTH: '2000' }), {
    message: `DEPTH="2000" is not valid; expected an integer from 1 to ${MAX_DEPTH}`,
  });
});
