'use strict';
// Tier: all (the upgrade matrix: integrity on Node 20 and 24, AsyncContextFrame off and on, every answer checked)
// The Node upgrade's integrity scenarios (handlers/scenarios/upgrade.js): the same request
// patterns on async_hooks (Node 20, Node 24 with AsyncContextFrame off) and on
// AsyncContextFrame (Node 24), every answer checked. The table is measured (this machine,
// 200 requests, 100 in flight); a cell that changes fails the test: find the cause or
// re-measure, never loosen the table. The preset's settings: test/upgrade.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli } = require('../helpers/cli');
const { render } = require('../../report/sections/integrity');
const { tempDir } = require('../helpers/tmp');
const { SCENARIOS } = require('../helpers/upgrade-table');

const dir = tempDir('ctxbench-upgrade-test-');
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

// A team's own strategy with enter/exit (AsyncLocalStorage, as README shows): the
// enterWith-style scenarios run for it, as for `als`.
const OWN = `'use strict';
const { AsyncLocalStorage, AsyncResource } = require('node:async_hooks');
const storage = new AsyncLocalStorage();
module.exports = {
  name: 'own-als',
  describe: 'a strategy file with enter and exit',
  run: (id, fn) => storage.run({ id }, fn),
  current: () => storage.getStore()?.id,
  bind: (fn) => AsyncResource.bind(fn),
  enter: (id) => storage.enterWith({ id }),
  exit: (fn) => storage.exit(fn),
};
`;

// The rows every runtime agrees on, then the one answer that moved: exit-enter for the
// AsyncLocalStorage strategies (nodejs/node#62290).
//                 thenable  exit-enter enter-in-callback asyncresource-bind unhandled-rejection timer-in-run
const SAME = {
  'cls-hooked': ['kept', 'n/a', 'n/a', 'kept', 'lost', 'kept'],
  param: ['kept', 'n/a', 'n/a', 'kept', 'kept', 'lost'],
  global: ['leaked', 'leaked', 'leaked', 'leaked', 'leaked', 'leaked'],
};
const ALS = (exitEnter) => ['kept', exitEnter, 'kept', 'kept', 'kept', 'kept'];
const EXPECTED = {
  async_hooks: { ...SAME, als: ALS('leaked'), 'own-als': ALS('leaked') },
  AsyncContextFrame: { ...SAME, als: ALS('kept'), 'own-als': ALS('kept') },
};

test(
  'the Node upgrade scenarios: each answer per runtime, n/a with why where a ' +
    'strategy has no enter()/exit(), and the page says where the runtimes disagree',
  { timeout: 600000 },
  async () => {
    const own = path.join(dir, 'own-als.js');
    fs.writeFileSync(own, OWN);
    const out = path.join(dir, 'upgrade.json');
    const r = await runCli([
      'integrity',
      '--strategies',
      'als,cls-hooked,param,global',
      '--strategy-file',
      own,
      '--scenarios',
      'upgrade',
      '--node',
      '20,24',
      '--acf',
      'both',
      '--requests',
      '200',
      '--concurrency',
      '100',
      '--out',
      out,
      '--report',
      'none',
    ]);
    assert.strictEqual(r.code, 0, r.stderr);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.deepStrictEqual(run.integrity.errors, []);
    const targets = [...new Set(run.integrity.cells.map((c) => `${c.node}|${c.acf}`))];
    assert.strictEqual(targets.length, 3, targets.join(' '));
    const seen = {};
    for (const c of run.integrity.cells) {
      const impl = c.acf ? 'AsyncContextFrame' : 'async_hooks';
      const detail =
        `${c.node} ${impl} ${c.strategy} ${c.scenario}: ` +
        `${JSON.stringify({
          kept: c.kept,
          lost: c.lost,
          leaked: c.leaked,
          errors: c.errors,
          failedReads: c.failedReads,
        })}`;
      const expected = EXPECTED[impl][c.strategy][SCENARIOS.indexOf(c.scenario)];
      assert.strictEqual(c.verdict, expected, detail);
      (seen[impl] ??= new Set()).add(`${c.strategy}|${c.scenario}`);
      if (c.verdict === 'n/a') {
        assert.strictEqual(c.requests, 0, detail);
        assert.match(
          c.explanation,
          /^the pattern is AsyncLocalStorage's enterWith\/exit, and the strategy's module has no enter\(\)/,
          detail,
        );
      } else {
        assert.strictEqual(c.requests, 200, detail);
        if (c.verdict !== 'kept')
          assert.ok(c.explanation && !/no recorded explanation/.test(c.explanation), `${detail}: ${c.explanation}`);
      }
    }
    for (const impl of Object.keys(EXPECTED)) assert.strictEqual(seen[impl].size, 5 * SCENARIOS.length, impl);
    const page = render(run);
    assert.match(page, /### Where the runtimes disagree/);
    const disagree = page
      .slice(page.indexOf('### Where the runtimes disagree'))
      .split('\n')
      .filter((l) => /^\| `/.test(l));
    // exit-enter is the answer that moved (nodejs/node#62290); every other cell agrees.
    assert.deepStrictEqual(
      disagree
        .map((l) =>
          l
            .split('|')
            .slice(1, 3)
            .map((x) => x.trim()),
        )
        .sort(),
      [
        ['`exit-enter`', 'als'],
        ['`exit-enter`', 'own-als'],
      ],
    );
  },
);
