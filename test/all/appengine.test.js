'use strict';
// Tier: all (long real runs: every deployable strategy and framework started
// once to record what it loads, and once more from a production-only tree)
// App Engine / Cloud Run packaging, what gets shipped: the Dockerfile and .gcloudignore
// ship every file `npm start` loads (recorded from every strategy and framework), and the
// server starts and answers with production dependencies only. The yamls, their deploy
// rehearsals and the Dockerfile's Node: test/appengine.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { once } = require('node:events');
const strategies = require('../../context');
const { tempDir } = require('../helpers/tmp');

// The rows with an endpoint (the APM agents, the OTLP rows) are local only: they send to
// ctxbench's local sink (docs/agents.md), and the agents' packages live in its cache, so no
// deploy carries them.
const deployable = strategies.names.filter((name) => !strategies.info(name).sink);
const frameworks = require('../../servers');
const { ROOT, startServer, get } = require('../helpers/server');

// ---- what gets shipped ------------------------------------------------------------

// A gitignore-syntax matcher, enough for .gcloudignore: comments, `!`, `*`, `**`,
// leading `/` (anchored), trailing `/` (directories only).
function ignoreMatcher(text) {
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((line) => {
      const negate = line.startsWith('!');
      let p = negate ? line.slice(1) : line;
      const dirOnly = p.endsWith('/');
      if (dirOnly) p = p.slice(0, -1);
      const anchored = p.includes('/');
      if (p.startsWith('/')) p = p.slice(1);
      const body = p
        .split('**')
        .map((part) =>
          part
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '[^/]*')
            .replace(/\?/g, '[^/]'),
        )
        .join('.*');
      const re = new RegExp(`^${anchored ? '' : '(?:.*/)?'}${body}$`);
      return { negate, dirOnly, re };
    });
  // file: a path relative to the root, '/'-separated.
  return (file) => {
    const parts = file.split('/');
    let ignored = false;
    for (let i = 1; i <= parts.length; i++) {
      const candidate = parts.slice(0, i).join('/');
      const isDir = i < parts.length;
      for (const rule of rules) {
        if (rule.dirOnly && !isDir) continue;
        if (rule.re.test(candidate)) ignored = !rule.negate;
      }
      if (ignored && isDir) return true; // nothing inside an ignored directory comes back
    }
    return ignored;
  };
}

// Every file outside node_modules that `node app.js` loads, for every strategy (on a
// framework it runs on) and every framework, recorded from require.cache when the server exits.
async function filesTheServerLoads() {
  const dir = tempDir('ctxbench-requires-');
  const recorder = path.join(dir, 'record.js');
  fs.writeFileSync(
    recorder,
    "process.on('exit', () => require('fs').writeFileSync(process.env.CTXBENCH_REQUIRE_LOG," +
      ' JSON.stringify(Object.keys(require.cache))));\n',
  );
  const runs = [
    ...deployable.map((strategy) => ({
      STRATEGY: strategy,
      FRAMEWORK: strategies.info(strategy).frameworks?.[0] ?? 'express',
    })),
    ...frameworks.names.map((framework) => ({ STRATEGY: 'param', FRAMEWORK: framework })),
  ].map((env) => ({ ...env, LOG: 'stdout', BURN_US: '10', HOST: '127.0.0.1' }));
  const files = new Set();
  try {
    for (const [i, env] of runs.entries()) {
      const log = path.join(dir, `run-${i}.json`);
      const server = await startServer(
        { ...env, CTXBENCH_REQUIRE_LOG: log },
        { args: ['--require', recorder], timeoutMs: 300000 },
      );
      try {
        await get(server.url + '/');
        await get(server.url + '/depth/2');
        await get(server.url + '/__stats');
        const exited = once(server.child, 'exit');
        server.child.kill('SIGTERM');
        assert.deepStrictEqual(await exited, [0, null]);
      } finally {
        await server.stop();
      }
      for (const abs of JSON.parse(fs.readFileSync(log, 'utf8'))) {
        const rel = path.relative(ROOT, abs).split(path.sep).join('/');
        if (!rel.startsWith('..') && !rel.startsWith('node_modules/')) files.add(rel);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return [...files].sort();
}

test(
  '.gcloudignore and the Dockerfile ship every file `npm start` loads, and nothing heavy',
  { timeout: 600000 },
  async () => {
    const ignored = ignoreMatcher(fs.readFileSync(path.join(ROOT, '.gcloudignore'), 'utf8'));
    const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const copied = dockerfile
      .split('\n')
      .filter((l) => /^COPY\s/i.test(l))
      .flatMap((l) => l.trim().split(/\s+/).slice(1, -1))
      .map((src) => src.replace(/^\.\//, '').replace(/\/$/, ''));
    for (const src of copied) assert.ok(fs.existsSync(path.join(ROOT, src)), `Dockerfile copies missing ${src}`);
    const inImage = (file) => copied.some((src) => file === src || file.startsWith(src + '/'));

    const loaded = await filesTheServerLoads();
    for (const f of ['app.js', 'servers/config.js', 'context/index.js', 'handlers/chain.js', 'servers/express.js']) {
      assert.ok(loaded.includes(f), `recorder saw ${f}`);
    }
    for (const file of [...loaded, 'package.json', 'package-lock.json']) {
      assert.ok(!ignored(file), `.gcloudignore leaves out ${file}, which npm start needs`);
      assert.ok(inImage(file), `the Dockerfile does not copy ${file}, which npm start needs`);
    }
    assert.ok(!ignored('Dockerfile'), 'Cloud Run source deploys need the Dockerfile');

    for (const file of [
      'node_modules/express/index.js',
      'results/run.json',
      'results.md',
      'test/smoke.test.js',
      '.git/HEAD',
      'micro/x.js',
      'analysis/stats.js',
      'load/curl.sh',
      'a/b/c.tmp',
    ]) {
      assert.ok(ignored(file), `.gcloudignore should leave out ${file}`);
    }
  },
);

// What ships is what runs: `npm ci --omit=dev` (the image, App Engine's install) leaves out
// every package the lock file marks dev. Rebuilt here without the network: a copy of the
// shipped files whose node_modules links only the lock's non-dev packages, run with
// --preserve-symlinks so no require can reach the full install behind the links; every
// strategy (on a framework it runs on) and every framework must start and answer.
function productionTree(t) {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const dir = tempDir('ctxbench-prod-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const ignored = ignoreMatcher(fs.readFileSync(path.join(ROOT, '.gcloudignore'), 'utf8'));
  for (const top of ['app.js', 'package.json', 'lib', 'context', 'handlers', 'servers']) {
    if (!ignored(top)) fs.cpSync(path.join(ROOT, top), path.join(dir, top), { recursive: true });
  }
  const shipped = Object.entries(lock.packages).filter(
    ([p, e]) => p.startsWith('node_modules/') && !e.dev && !p.includes('/node_modules/', 'node_modules/'.length),
  );
  for (const [p] of shipped) {
    const real = path.join(ROOT, p);
    if (!fs.existsSync(real)) continue; // optional, platform-specific packages
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.symlinkSync(fs.realpathSync(real), path.join(dir, p), 'dir');
  }
  return { dir, dev: Object.keys(lock.packages).filter((p) => lock.packages[p].dev) };
}

test(
  'the server starts and answers with production dependencies only (as after npm ci --omit=dev)',
  { timeout: 600000 },
  async (t) => {
    const { dir, dev } = productionTree(t);
    assert.ok(dev.includes('node_modules/autocannon'), 'the lock marks bench-only packages dev');
    assert.ok(!fs.existsSync(path.join(dir, 'node_modules', 'autocannon')), 'dev packages are not linked');
    const runs = [
      ...deployable.map((strategy) => ({
        STRATEGY: strategy,
        FRAMEWORK: strategies.info(strategy).frameworks?.[0] ?? 'express',
      })),
      ...frameworks.names.map((framework) => ({ STRATEGY: 'param', FRAMEWORK: framework })),
    ];
    for (const env of runs) {
      const server = await startServer(
        { ...env, HOST: '127.0.0.1', OTEL_EXPORTER: 'otlp-unreachable' },
        { args: ['--preserve-symlinks'], cwd: dir, app: path.join(dir, 'app.js'), timeoutMs: 300000 },
      );
      try {
        const res = await get(server.url + '/', { headers: { 'x-request-id': 'shipped' } });
        assert.strictEqual(res.status, 200, `${env.STRATEGY} on ${env.FRAMEWORK}`);
      } finally {
        await server.stop();
      }
    }
  },
);
