'use strict';
// Tier: quick (Node binaries per major from the cache; one bounded registry lookup)
// lib/node-versions.js: AsyncContextFrame flags per major, Node binaries per major.
// Only the bogus-major case asks the npm registry (one `npm view`); a second real major is
// exercised when it is cached or installs within a bounded time, and skipped otherwise.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {
  acfArgs,
  resolveNode,
  resolveTargets,
  cacheDirectory,
  packageName,
  latestPublished,
  nodeLabel,
  DEFAULT_MAJOR,
} = require('../lib/node-versions');
const { startServer, get } = require('./helpers/server');

const CURRENT = Number(process.versions.node.split('.')[0]);

function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-nv-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function assertOneLine(err, pattern) {
  assert.strictEqual(err.oneLine, true, `oneLine flag on: ${err.message}`);
  assert.ok(!err.message.includes('\n'), `one line: ${err.message}`);
  if (pattern) assert.match(err.message, pattern);
  return true;
}

test('acfArgs: flags and expectation per major and mode', () => {
  const NO20 = 'Node 20 has no AsyncContextFrame';
  const table = [
    [20, 'default', { args: [], expected: false }],
    [20, 'off', { args: [], expected: false }],
    [20, 'on', { args: [], expected: false, unsupported: NO20 }],
    [22, 'default', { args: [], expected: false }],
    [22, 'off', { args: [], expected: false }],
    [22, 'on', { args: ['--experimental-async-context-frame'], expected: true }],
    [24, 'default', { args: [], expected: true }],
    [24, 'on', { args: [], expected: true }],
    [24, 'off', { args: ['--no-async-context-frame'], expected: false }],
    [26, 'default', { args: [], expected: true }],
    [26, 'off', { args: ['--no-async-context-frame'], expected: false }],
  ];
  for (const [major, mode, expected] of table)
    assert.deepStrictEqual(acfArgs(major, mode), expected, `${major} ${mode}`);
  // 22 before 22.7.0 has no flag: said, not failed.
  const old = acfArgs(22, 'on', 'v22.5.1');
  assert.deepStrictEqual(old.args, []);
  assert.strictEqual(old.expected, false);
  assert.match(old.unsupported, /22\.5\.1/);
  assert.throws(
    () => acfArgs(24, 'sideways'),
    (err) => assertOneLine(err, /--acf "sideways"/),
  );
});

test('cacheDirectory: CTXBENCH_CACHE, else XDG_CACHE_HOME/ctxbench, else ~/.cache/ctxbench', () => {
  assert.strictEqual(cacheDirectory({ CTXBENCH_CACHE: '/tmp/cb', XDG_CACHE_HOME: '/tmp/x' }), path.resolve('/tmp/cb'));
  assert.strictEqual(cacheDirectory({ XDG_CACHE_HOME: '/tmp/x' }), path.join(path.resolve('/tmp/x'), 'ctxbench'));
  assert.strictEqual(cacheDirectory({}), path.join(os.homedir(), '.cache', 'ctxbench'));
});

test('resolveNode: the current major is this very node, found without npm or network', async (t) => {
  const saved = process.env.PATH;
  process.env.PATH = ''; // npm cannot even be found: proof that nothing is looked up
  t.after(() => (process.env.PATH = saved));
  const node = await resolveNode(CURRENT, { cacheDir: tempDir(t) });
  assert.deepStrictEqual(node, { major: CURRENT, version: process.version, path: process.execPath });
});

test('resolveNode: malformed, nonexistent and broken majors fail with one line', async (t) => {
  await assert.rejects(resolveNode('twenty'), (err) => assertOneLine(err, /"twenty" is not a Node major/));

  // A cached binary that does not answer --version with v<major>. is reported, never used.
  const cacheDir = tempDir(t);
  const major = CURRENT === 24 ? 22 : 24;
  const bin = path.join(cacheDir, `node-${major}`, 'node_modules', packageName(), 'bin', 'node');
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  fs.writeFileSync(bin, '#!/bin/sh\necho v1.2.3\n', { mode: 0o755 });
  await assert.rejects(resolveNode(major, { cacheDir }), (err) =>
    assertOneLine(err, /broken.*v1\.2\.3.*expected v\d+\.x/),
  );
});

// Network: whether the registry answers is found out first (one `npm view` of the default
// major, which certainly exists); only then can "not on the registry" be told apart from
// "cannot reach it", and each is asserted where it is the truth.
test('resolveNode: a major the registry does not have is named as such; an unreachable registry as such', async (t) => {
  const reachable = await latestPublished(packageName(), DEFAULT_MAJOR, 30000).then(
    () => null,
    (err) => err.message,
  );
  if (reachable === null) {
    await assert.rejects(resolveNode(3, { cacheDir: tempDir(t), timeoutMs: 30000 }), (err) =>
      assertOneLine(err, /^Node 3 is not available as node-\S+@3 on the npm registry$/),
    );
  } else {
    t.diagnostic(`npm registry not reachable (${reachable}): checking the unreachable path instead`);
    assert.match(reachable, /^cannot reach the npm registry to look up /);
    t.skip(`the registry could not be reached, so "not on the registry" was not checked: ${reachable}`);
  }
  // An unreachable registry (a closed loopback port) is reported as unreachable, never as absent.
  const saved = process.env.npm_config_registry;
  process.env.npm_config_registry = 'http://127.0.0.1:9/';
  t.after(() =>
    saved === undefined ? delete process.env.npm_config_registry : (process.env.npm_config_registry = saved),
  );
  await assert.rejects(resolveNode(3, { cacheDir: tempDir(t), timeoutMs: 30000 }), (err) =>
    assertOneLine(err, /^cannot reach the npm registry to look up node-\S+@3 /),
  );
});

test('nodeLabel: end-of-life majors are marked from their date on, others not', () => {
  assert.strictEqual(nodeLabel('v20.20.2', '2026-05-01'), 'Node 20.20.2 (end-of-life since 2026-04-30)');
  assert.strictEqual(nodeLabel('v20.20.2', '2026-04-29'), 'Node 20.20.2');
  assert.strictEqual(nodeLabel('v24.21.0', '2026-11-23'), 'Node 24.21.0');
  assert.strictEqual(nodeLabel('v26.1.0', '2026-11-23'), 'Node 26.1.0');
  assert.strictEqual(nodeLabel('remote'), 'remote');
});

test('the default run, integrity and custom runs measure on DEFAULT_MAJOR; --node 20 stays available', () => {
  const { resolveSettings } = require('../bench/cli/run');
  assert.deepStrictEqual(resolveSettings({}).node, [DEFAULT_MAJOR]);
  assert.deepStrictEqual(resolveSettings({ quick: true }).node, [DEFAULT_MAJOR]);
  assert.deepStrictEqual(resolveSettings({ strategies: 'als' }).node, [DEFAULT_MAJOR]);
  assert.deepStrictEqual(resolveSettings({ node: '20' }).node, ['20']);
  const integrity = require('../bench/cli/integrity');
  assert.deepStrictEqual(integrity.resolveSettings({}).node, [DEFAULT_MAJOR]);
  assert.deepStrictEqual(integrity.resolveSettings({ node: '20' }).node, ['20']);
  // The per-runtime matrix: Node 20 (end-of-life), the default major both ways, and 26.
  const runtimes = integrity.resolveSettings({ preset: 'runtimes' });
  assert.deepStrictEqual([runtimes.node, runtimes.acf], [['20', DEFAULT_MAJOR, '26'], 'both']);
  assert.throws(
    () => integrity.resolveSettings({ preset: 'everything' }),
    /--preset everything is unknown \(valid: runtimes, upgrade\)/,
  );
});

test(
  'every preset names its runtimes, and without --node the servers of ' +
    'every command run on DEFAULT_MAJOR (not the node running ctxbench)',
  async (t) => {
    const { PRESETS } = require('../lib/presets');
    for (const [name, preset] of Object.entries(PRESETS))
      assert.ok(Array.isArray(preset.node) && preset.node.length > 0, `preset ${name} names its node majors`);
    const { resolveSettings } = require('../bench/cli/run');
    assert.deepStrictEqual(resolveSettings({ preset: 'io' }).node, [DEFAULT_MAJOR]);
    // A preset may name its AsyncContextFrame mode; --acf still wins.
    assert.deepStrictEqual(
      [
        resolveSettings({ preset: 'stores' }).acf,
        resolveSettings({ preset: 'stores', acf: 'on' }).acf,
        resolveSettings({}).acf,
      ],
      ['both', 'on', 'default'],
    );
    // The io run of 2026-11-23 ran on Node 20 because its preset named no node and "no
    // node" meant this process's own: resolveNodeTargets(null) is the default runtime now.
    const { resolveNodeTargets } = require('../bench/run/targets');
    let resolved;
    try {
      resolved = await resolveNodeTargets(null, 'default');
    } catch (err) {
      t.skip(`Node ${DEFAULT_MAJOR} is not cached and could not be installed: ${err.message}`);
      return;
    }
    assert.deepStrictEqual(
      resolved.targets.map((x) => [x.label, x.version.split('.')[0]]),
      [[`node${DEFAULT_MAJOR}`, `v${DEFAULT_MAJOR}`]],
    );
  },
);

test('resolveTargets: labels, flags and per-major errors', async (t) => {
  const { targets, errors } = await resolveTargets([CURRENT, 'x', CURRENT], 'both', { cacheDir: tempDir(t) });
  assert.deepStrictEqual(errors, ['--node "x" is not a Node major version (expected e.g. 20, 22, 24)']);
  const labels = targets.map((x) => x.label);
  if (CURRENT >= 24) assert.deepStrictEqual(labels, [`node${CURRENT}`, `node${CURRENT}-noacf`]);
  else if (CURRENT >= 22) assert.deepStrictEqual(labels, [`node${CURRENT}-acf`, `node${CURRENT}`]);
  else {
    assert.deepStrictEqual(labels, [`node${CURRENT}`]);
    assert.match(targets[0].note, /has no AsyncContextFrame/);
  }
  for (const target of targets) {
    assert.strictEqual(target.path, process.execPath);
    assert.strictEqual(target.version, process.version);
  }
  await assert.rejects(resolveTargets([CURRENT], 'maybe'), (err) => assertOneLine(err, /--acf "maybe"/));
});

// Other majors: every one already cached among 22, 24 and 26, else one installed within a
// bounded time; skipped (with the reason) when neither works, e.g. offline CI.
async function otherMajors() {
  const candidates = [22, 24, 26].filter((m) => m !== CURRENT);
  const cached = candidates.filter((m) =>
    fs.existsSync(path.join(cacheDirectory(), `node-${m}`, 'node_modules', packageName(), 'bin', 'node')),
  );
  if (cached.length > 0) return { majors: cached };
  const major = CURRENT === 24 ? 22 : 24;
  try {
    await resolveNode(major, { timeoutMs: 45000 });
    return { majors: [major] };
  } catch (err) {
    return {
      skip: `Node ${major} is not cached in ${cacheDirectory()} and could not be installed quickly: ${err.message}`,
    };
  }
}

test('other majors: AsyncContextFrame detected as the flags say (app.js /__stats acf)', async (t) => {
  const { majors, skip } = await otherMajors();
  if (skip) t.skip(skip);
  else await acfAsTheFlagsSay(t, majors);
});

async function acfAsTheFlagsSay(t, majors) {
  const { targets, errors } = await resolveTargets([...majors, CURRENT], 'both');
  assert.deepStrictEqual(errors, []);
  assert.ok(targets.some((x) => x.expectAcf) && targets.some((x) => !x.expectAcf), 'both ACF states covered');
  for (const target of targets) {
    const server = await startServer(
      { STRATEGY: 'als', HOP: 'immediate' },
      { nodePath: target.path, args: target.args },
    );
    t.after(() => server.stop());
    const stats = JSON.parse((await get(server.url + '/__stats')).body);
    assert.strictEqual(stats.node, target.version, target.label);
    assert.strictEqual(stats.acf, target.expectAcf, `${target.label} (${target.args.join(' ') || 'no flags'})`);
    t.diagnostic(`${target.label}: ${target.version} ${target.args.join(' ') || '(no flags)'} -> acf ${stats.acf}`);
    await server.stop();
  }
}
