'use strict';
// Tier: quick (app.js started on the Node on PATH and on Node 24 with AsyncContextFrame on and off)
// `npm start` runs whatever Node is on PATH, while the headline figures are Node 24's with
// AsyncContextFrame: at listen, app.js says on stderr which Node serves and, where
// AsyncLocalStorage runs on async_hooks, that its figures differ (docs/server.md).
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { once } = require('node:events');
const { startServer, get, ROOT } = require('./helpers/server');
const { resolveTargets, DEFAULT_MAJOR } = require('../lib/node-versions');
const { anchorsOf } = require('../scripts/docs-links');

// The runtime line: written (synchronously, to a pipe on Linux) in the listen callback,
// so before /__stats answers; read once the server is stopped and its pipes closed.
async function stopAndReadLine(server) {
  const closed = once(server.child, 'close');
  await server.stop();
  await closed;
  return (
    server
      .stderr()
      .split('\n')
      .find((l) => /^ctxbench: Node v\d+/.test(l)) ?? '(no runtime line)'
  );
}

async function check(t, nodePath, args = []) {
  const server = await startServer({}, { nodePath, args });
  t.after(() => server.stop());
  const { node, acf } = JSON.parse((await get(server.url + '/__stats')).body);
  const line = await stopAndReadLine(server);
  assert.ok(line.startsWith(`ctxbench: Node ${node}`), line);
  assert.match(line, /\(?docs\/server\.md#which-node-runs-it\)$/);
  if (acf) {
    assert.match(line, /AsyncLocalStorage on AsyncContextFrame/);
    assert.strictEqual(/async_hooks/.test(line), false, line);
    if (node.startsWith(`v${DEFAULT_MAJOR}.`)) assert.match(line, /the runtime of the headline figures/);
  } else {
    assert.match(
      line,
      new RegExp(
        `uses async_hooks here, not AsyncContextFrame, so figures differ from the ` +
          `headline's \\(Node ${DEFAULT_MAJOR}, AsyncContextFrame`,
      ),
    );
  }
  return { node, acf, line };
}

test('the anchor the line names exists in docs/server.md', () => {
  assert.ok(anchorsOf(path.join(ROOT, 'docs', 'server.md')).has('which-node-runs-it'));
});

test('npm start on the Node on PATH says which Node serves, and what that changes', async (t) => {
  const { node, line } = await check(t, 'node');
  t.diagnostic(`${node}: ${line}`);
});

test(`Node ${DEFAULT_MAJOR}: the headline's runtime with AsyncContextFrame, async_hooks without`, async (t) => {
  const { targets, errors } = await resolveTargets([DEFAULT_MAJOR], 'both');
  assert.deepStrictEqual(errors, []);
  const seen = [];
  for (const target of targets) seen.push((await check(t, target.path, target.args)).acf);
  assert.deepStrictEqual(seen.sort(), [false, true], 'both AsyncContextFrame states');
});
