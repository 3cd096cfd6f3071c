'use strict';
// Tier: quick (the packed file list and publish-readiness, from npm pack;
// the tarball installed in a fresh project is in test/all/package.test.js)
// ctxbench as a team installs it: `npm pack` (the tarball installed into a fresh project
// and the commands run there with npx: test/all/package.test.js). The package holds
// exactly the committed file list, and
// everything its commands require is a dependency or a peer (which npm installs with it),
// while the repository's own production install (App Engine, the Dockerfile) gets only the
// server's dependencies (test/appengine.test.js).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { builtinModules } = require('node:module');
const { ROOT, ONE_MB, pkg, packBefore } = require('./helpers/pack');

const FILES = path.join(__dirname, 'fixtures', 'package-files.txt');

const packed = packBefore();

test(
  'the package holds the committed file list (no results but the cost ' +
    "model's fits, no tests, docs or profiles) and stays under 1 MB",
  () => {
    const want = fs.readFileSync(FILES, 'utf8').trim().split('\n');
    const got = packed.files.map((f) => f.path).sort();
    assert.deepStrictEqual(
      got,
      want,
      `the packed files changed: if that is meant, write the new list ` +
        `to test/fixtures/package-files.txt (npm pack --dry-run --json)`,
    );
    // One derived file of results ships: the cost model's fitted terms, which `ctxbench app
    // --predict` applies in a team's project (the studies' run files stay out).
    assert.ok(
      !got.some(
        (f) =>
          (/^(results|test|docs|scripts)\//.test(f) && f !== 'results/model-fit.json') || f.endsWith('.cpuprofile'),
      ),
      "nothing measured, tested or written up ships but the model's fits",
    );
    assert.ok(packed.size < ONE_MB, `${packed.size} bytes packed`);
  },
);

test(
  'ready to publish: not private, a bin, engines, a license file, ' +
    'and every module the commands require comes with the install',
  () => {
    assert.strictEqual(pkg.private, undefined);
    assert.deepStrictEqual(pkg.bin, { ctxbench: 'bin/ctxbench.js' });
    assert.match(pkg.engines.node, /^>=\d+/);
    assert.strictEqual(pkg.license, 'MIT');
    assert.match(fs.readFileSync(path.join(ROOT, 'LICENSE'), 'utf8'), /^MIT License/);
    // The tool's own packages are peers (npm 7+ installs them with ctxbench) and, for this
    // repository's own install, devDependencies of the same range: a production install of
    // the repository (a deploy) does not get them.
    for (const [name, range] of Object.entries(pkg.peerDependencies))
      assert.strictEqual(pkg.devDependencies[name], range, `${name}: the same range as a peer and a devDependency`);
    const provided = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]);
    const optional = new Set(
      Object.keys(pkg.peerDependenciesMeta ?? {}).filter((n) => pkg.peerDependenciesMeta[n].optional),
    );
    const builtins = new Set(builtinModules);
    const missing = [];
    for (const file of packed.files.map((f) => f.path).filter((f) => f.endsWith('.js'))) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/(?:require\(|import\()\s*['"`]([^.'"`/][^'"`]*)['"`]\s*\)/g)) {
        const name = m[1].startsWith('@') ? m[1].split('/').slice(0, 2).join('/') : m[1].split('/')[0];
        if (name.startsWith('node:') || builtins.has(name) || name.includes('${')) continue;
        if (!provided.has(name)) missing.push(`${name} (${file})`);
        else if (optional.has(name) && m[0].startsWith('require('))
          missing.push(`${name} is an optional peer but ${file} requires it unconditionally`);
      }
    }
    assert.deepStrictEqual(missing, []);
  },
);
