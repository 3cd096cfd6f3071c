'use strict';
// Tier: quick (the yamls App Engine reads, their deploy rehearsals, npm start, the lock file and the
// Dockerfile's Node; starting every strategy to record what ships is in test/all/appengine.test.js)
// App Engine / Cloud Run packaging: every app_*.yaml is one App Engine standard service
// whose fields App Engine accepts, and a "deploy rehearsal" runs what App Engine runs
// (npm start's command with that yaml's env_variables and App Engine's own variables)
// and checks the service answers as that yaml says. The Dockerfile runs the Node major
// measured on. That the Dockerfile and .gcloudignore ship every file `npm start` loads,
// and that it starts with production dependencies only: test/all/appengine.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { once } = require('node:events');
const YAML = require('yaml');
const strategies = require('../context');
const { loadConfig } = require('../servers/config');
const { spawn } = require('node:child_process');
const { DEFAULT_MAJOR } = require('../lib/node-versions');
const { ROOT, startServer, get } = require('./helpers/server');

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

// The services README and docs/deploy.md name, the strategy each runs, and what GET / answers there.
// alscontext's CLS part loses the context at DEPTH=8 with the default HOP=await (the
// package's defect, see ALSCONTEXT_CLS_DEFECT in test/helpers/integrity-table.js): the deployed service
// answers an empty body, which load drivers count as lost. That is the truth to measure.
const SERVICES = {
  'app_baseline.yaml': { service: 'default', strategy: 'param', answers: 'id' },
  'app_cls.yaml': { service: 'cls', strategy: 'cls-hooked', answers: 'id' },
  'app_alscontext.yaml': { service: 'alscontext', strategy: 'alscontext', answers: 'lost' },
  'app_als.yaml': { service: 'als', strategy: 'als', answers: 'id' },
  'app_otel.yaml': { service: 'otel', strategy: 'otel', answers: 'id' },
};

// Top-level app.yaml elements App Engine standard (second generation) accepts.
const TOP_LEVEL = new Set([
  'runtime',
  'service',
  'instance_class',
  'automatic_scaling',
  'basic_scaling',
  'manual_scaling',
  'env_variables',
  'build_env_variables',
  'entrypoint',
  'handlers',
  'inbound_services',
  'default_expiration',
  'error_handlers',
  'app_engine_apis',
  'service_account',
  'vpc_access_connector',
]);
const AUTOMATIC_SCALING = new Set([
  'max_instances',
  'min_instances',
  'max_idle_instances',
  'min_idle_instances',
  'target_cpu_utilization',
  'target_throughput_utilization',
  'max_concurrent_requests',
  'max_pending_latency',
  'min_pending_latency',
]);
// Instance classes for automatic scaling (B classes are for basic/manual scaling).
const F_CLASSES = ['F1', 'F2', 'F4', 'F4_1G'];
// Set by App Engine itself; an app.yaml must not try to.
const RESERVED_ENV = /^(PORT|NODE_ENV|GOOGLE_CLOUD_PROJECT|GAE_\w+|K_\w+|CLOUD_RUN_\w+|HOST)$/;
// What the server reads (servers/config.js).
const SERVER_ENV = new Set(['STRATEGY', 'DEPTH', 'HOP', 'FRAMEWORK', 'LOG', 'BURN_US', 'STORES']);

const engineMajor = Number(/(\d+)/.exec(pkg.engines.node)[1]);

function readYaml(file) {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const doc = YAML.parseDocument(text, { uniqueKeys: true });
  assert.deepStrictEqual(doc.errors.map(String), [], `${file} parses`);
  assert.deepStrictEqual(doc.warnings.map(String), [], `${file} parses without warnings`);
  return doc.toJS();
}

test('the app_*.yaml files are exactly the services README and docs/deploy.md name', () => {
  const files = fs
    .readdirSync(ROOT)
    .filter((f) => /^app_.*\.ya?ml$/.test(f))
    .sort();
  assert.deepStrictEqual(files, Object.keys(SERVICES).sort());
});

test('exactly one yaml is the default service, and service names are distinct', () => {
  const names = Object.keys(SERVICES).map((f) => readYaml(f).service);
  assert.strictEqual(names.filter((n) => n === 'default').length, 1);
  assert.strictEqual(new Set(names).size, names.length);
  assert.strictEqual(readYaml('app_baseline.yaml').service, 'default');
});

for (const [file, want] of Object.entries(SERVICES)) {
  test(`${file}: fields App Engine standard accepts`, () => {
    const app = readYaml(file);
    assert.strictEqual(typeof app, 'object');
    for (const key of Object.keys(app)) assert.ok(TOP_LEVEL.has(key), `unknown top-level key ${key}`);

    assert.match(app.runtime, /^nodejs\d+$/);
    const major = Number(app.runtime.slice('nodejs'.length));
    assert.ok(major >= engineMajor, `${app.runtime} is older than package.json engines ${pkg.engines.node}`);
    assert.ok(major % 2 === 0, 'App Engine only offers LTS (even) Node majors');

    assert.match(app.service, /^[a-z][a-z0-9-]{0,62}$/);
    assert.ok(!app.service.endsWith('-'));
    assert.strictEqual(app.service, want.service);

    assert.ok(F_CLASSES.includes(app.instance_class), `instance_class ${app.instance_class}`);
    assert.strictEqual(app.instance_class, 'F1', 'as the original study');
    assert.strictEqual(typeof app.automatic_scaling, 'object');
    for (const key of Object.keys(app.automatic_scaling)) {
      assert.ok(AUTOMATIC_SCALING.has(key), `unknown automatic_scaling key ${key}`);
    }
    assert.strictEqual(app.automatic_scaling.max_instances, 1, 'one instance, as the original study');
    assert.ok(!('basic_scaling' in app) && !('manual_scaling' in app), 'one scaling type only');
    assert.ok(!('entrypoint' in app), 'App Engine runs `npm start`');

    const env = app.env_variables;
    assert.strictEqual(typeof env, 'object');
    for (const [key, value] of Object.entries(env)) {
      assert.strictEqual(typeof value, 'string', `env_variables.${key} must be a string`);
      assert.doesNotMatch(key, RESERVED_ENV, `env_variables.${key} is set by the platform`);
      assert.ok(SERVER_ENV.has(key), `env_variables.${key} is not read by the server`);
    }
    assert.ok(strategies.names.includes(env.STRATEGY), `STRATEGY ${env.STRATEGY} is registered`);
    assert.strictEqual(env.STRATEGY, want.strategy);
    assert.strictEqual(env.DEPTH, '8');
    assert.strictEqual(env.LOG, 'stdout');

    // The server accepts this environment as App Engine gives it.
    const config = loadConfig({ ...env, GAE_SERVICE: app.service, GOOGLE_CLOUD_PROJECT: 'demo', PORT: '8081' });
    assert.strictEqual(config.host, '0.0.0.0', "reachable from App Engine's front end");
    assert.strictEqual(config.strategy, want.strategy);
  });
}

test('`npm start` (what App Engine and the image run) starts a server that answers', { timeout: 600000 }, async (t) => {
  const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', STRATEGY: 'als' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: npm runs the server as a child of its own, and both must go.
    detached: process.platform !== 'win32',
  });
  const exited = once(child, 'exit');
  t.after(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (process.platform === 'win32') child.kill('SIGKILL');
    else process.kill(-child.pid, 'SIGKILL');
    await exited;
  });
  let stdout = '';
  const port = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      const line = stdout.split('\n').find((l) => l.includes('"ctxbench listening"'));
      if (line) resolve(JSON.parse(line).port);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code} before listening`)));
  });
  const res = await get(`http://127.0.0.1:${port}/`, { headers: { 'x-request-id': 'npm-start' } });
  assert.strictEqual(res.body, 'npm-start');
});

test('package-lock.json is in step with package.json, so `npm ci` (App Engine, the image) can install', () => {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const root = lock.packages[''];
  assert.deepStrictEqual(root.dependencies || {}, pkg.dependencies || {});
  assert.deepStrictEqual(root.devDependencies || {}, pkg.devDependencies || {});
});

for (const [file, want] of Object.entries(SERVICES)) {
  test(`${file}: deploy rehearsal answers as the yaml says`, { timeout: 600000 }, async (t) => {
    const app = readYaml(file);
    const server = await startServer(
      {
        ...app.env_variables,
        GAE_SERVICE: app.service,
        GOOGLE_CLOUD_PROJECT: 'demo',
        PORT: '0',
        // With GAE_SERVICE set the server would bind 0.0.0.0; keep the rehearsal on loopback.
        HOST: '127.0.0.1',
      },
      { timeoutMs: 300000 },
    );
    const stdout = [];
    server.child.stdout.on('data', (d) => stdout.push(d));
    t.after(() => server.stop());

    const stats = JSON.parse((await get(server.url + '/__stats')).body);
    assert.strictEqual(stats.strategy, want.strategy);
    assert.strictEqual(stats.depth, Number(app.env_variables.DEPTH));

    const id = 'feedface'.repeat(4);
    const res = await get(server.url + '/', { headers: { 'x-cloud-trace-context': `${id}/123456789;o=1` } });
    assert.strictEqual(res.status, 200);
    if (want.answers === 'id') {
      assert.strictEqual(res.body, id);
      assert.strictEqual(res.headers['x-trace-id'], id);
    } else {
      assert.strictEqual(res.body, '', 'the context is lost: an empty answer');
      assert.strictEqual(res.headers['x-trace-id'], undefined);
    }
    assert.strictEqual((await get(server.url + '/healthz')).status, 200);

    // LOG=stdout: one line per level, the lines App Engine's agent correlates with the
    // request's trace; the first level always still has the id.
    const closed = once(server.child, 'close');
    await server.stop();
    await closed;
    const lines = stdout
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const depth = Number(app.env_variables.DEPTH);
    assert.strictEqual(lines.filter((l) => 'depth' in l).length, depth);
    const trace = `projects/demo/traces/${id}`;
    const mine = lines.filter((l) => l['logging.googleapis.com/trace'] === trace);
    assert.strictEqual(lines.find((l) => l.depth === depth)['logging.googleapis.com/trace'], trace);
    if (want.answers === 'id') assert.strictEqual(mine.length, depth);
  });
}

test(
  'Dockerfile and App Engine run the Node major the ' + 'benchmark measures on, with production dependencies only',
  () => {
    const lines = fs
      .readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const from = lines.filter((l) => /^FROM\s/i.test(l));
    assert.strictEqual(from.length, 1);
    // The official image of that major (a -slim or -alpine variant of it is the same Node).
    const image = /^FROM\s+node:(\d+)(?:-(?:slim|alpine))?$/i.exec(from[0]);
    assert.ok(image, `official node image: ${from[0]}`);
    const major = Number(image[1]);
    assert.strictEqual(
      major,
      Number(DEFAULT_MAJOR),
      'the image runs what the benchmark measures (lib/node-versions.js DEFAULT_MAJOR)',
    );
    assert.ok(major >= engineMajor);
    for (const file of Object.keys(SERVICES))
      assert.strictEqual(readYaml(file).runtime, `nodejs${major}`, `${file} runs what the image runs`);
    assert.ok(
      lines.some((l) => /^RUN\s.*\bnpm ci --omit=dev\b/.test(l)),
      'npm ci --omit=dev',
    );
    const cmd = lines.filter((l) => /^CMD\s/i.test(l));
    assert.strictEqual(cmd.length, 1);
    assert.match(cmd[0], /^CMD\s+(\["npm",\s*"start"\]|npm start)$/);
    assert.ok(!lines.some((l) => /^ENV\s+PORT\b/.test(l)), 'PORT is left to the platform (default 8080)');
  },
);
