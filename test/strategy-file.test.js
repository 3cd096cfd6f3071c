'use strict';
// Tier: quick (a team's strategy file validated, and run through the integrity scenarios beside the control)
// A team's own strategy (--strategy-file): validated at load with one line per problem,
// run through the integrity scenarios, and marked user-supplied. Its measurement in duet,
// exactly like a built-in one, is in test/all/duet.test.js's end-to-end run.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { inspect } = require('../context/strategy-file');
const { runCli } = require('./helpers/cli');
const { tempDir } = require('./helpers/tmp');

const EXAMPLE = path.join(__dirname, '..', 'examples', 'als-logger.js');
const dir = tempDir('ctxbench-strategy-file-');
const file = (name, text) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};
const GOOD = "module.exports = { name: 'mine', describe: 'mine', run: (id, fn) => fn(), current: () => 'x' };";

test('inspect: the example passes; each broken file is one line naming the file and what is wrong', () => {
  assert.deepStrictEqual(inspect(EXAMPLE, ['none']), {
    name: 'als-logger',
    describe: require(EXAMPLE).describe,
    file: EXAMPLE,
    operations: [],
  });
  // The optional enterWith-style operations a file has (the Node-upgrade scenarios use them).
  const withOps = file(
    'ops.js',
    GOOD.replace("current: () => 'x'", "current: () => 'x', enter: () => {}, exit: (fn) => fn()"),
  );
  assert.deepStrictEqual(inspect(withOps, ['none']).operations, ['enter', 'exit']);
  const cases = [
    [path.join(dir, 'missing.js'), /missing\.js: does not exist/],
    [file('throws.js', "throw new Error('no config found');"), /throws\.js: throws when loaded: no config found/],
    [
      file('norun.js', "module.exports = { name: 'x', describe: 'x', current: () => 1 };"),
      /norun\.js: does not export run\(id, fn\)/,
    ],
    [
      file('nocurrent.js', "module.exports = { name: 'x', describe: 'x', run: (id, fn) => fn() };"),
      /nocurrent\.js: does not export current\(\)/,
    ],
    [
      file(
        'badbind.js',
        "module.exports = { name: 'x', describe: 'x', run: (id, fn) => fn(), current: () => 1, bind: 3 };",
      ),
      /badbind\.js: exports bind, but not as a function/,
    ],
    [
      file(
        'badenter.js',
        "module.exports = { name: 'x', describe: 'x', run: (id, fn) => fn(), current: () => 1, enter: 'yes' };",
      ),
      /badenter\.js: exports enter, but not as a function/,
    ],
    [
      file('badname.js', GOOD.replace("'mine', describe", "'My Strategy', describe")),
      /badname\.js: must export name: .*"My Strategy"/,
    ],
    [
      file('builtin.js', GOOD.replace("'mine', describe", "'als', describe")),
      /builtin\.js: name 'als' is a built-in strategy's/,
    ],
    [file('nodescribe.js', GOOD.replace("describe: 'mine', ", '')), /nodescribe\.js: must export describe/],
    [file('noisy.js', `console.log('hello'); ${GOOD}`), /noisy\.js: printed to stdout while loading/],
  ];
  for (const [f, pattern] of cases) {
    assert.throws(
      () => inspect(f, ['none', 'als']),
      (err) => pattern.test(err.message) && !err.message.includes('\n'),
      f,
    );
  }
});

test('ctxbench run and integrity: a bad strategy file is one line and exit 1, before any server starts', async () => {
  for (const cmd of ['run', 'integrity']) {
    const r = await runCli([
      cmd,
      '--strategy-file',
      file('throws2.js', "throw new Error('boom');"),
      '--out',
      path.join(dir, `${cmd}.json`),
    ]);
    assert.strictEqual(r.code, 1, r.stderr);
    assert.strictEqual(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /strategy file .*throws2\.js: throws when loaded: boom/);
    assert.ok(!fs.existsSync(path.join(dir, `${cmd}.json`)), 'nothing was started or written');
  }
  const twice = await runCli([
    'run',
    '--strategy-file',
    file('a.js', GOOD),
    '--strategy-file',
    file('b.js', GOOD),
    '--out',
    path.join(dir, 'x.json'),
  ]);
  assert.match(twice.stderr, /two strategy files export the name 'mine'/);
});

// Measured in duet beside the built-ins: test/all/duet.test.js's end-to-end run includes
// examples/als-logger.js (one run of fresh pairs serves both files' claims).

test(
  'ctxbench integrity --strategy-file: the example keeps ' +
    'the id in the chain scenarios, beside the leaking control',
  async () => {
    const out = path.join(dir, 'integrity.json');
    const r = await runCli(
      [
        'integrity',
        '--strategy-file',
        EXAMPLE,
        '--strategies',
        'global',
        '--scenarios',
        'chain-immediate,chain-timeout',
        '--quick',
        '--out',
        out,
        '--report',
        'none',
      ],
      { timeoutMs: 600000 },
    );
    assert.ok([0, 1].includes(r.code), r.stderr);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    const cells = run.integrity.cells.filter((c) => c.strategy === 'als-logger');
    assert.deepStrictEqual(cells.map((c) => c.scenario).sort(), ['chain-immediate', 'chain-timeout']);
    for (const c of cells) assert.strictEqual(c.verdict, 'kept', JSON.stringify(c));
    const control = run.integrity.cells.find((c) => c.strategy === 'global' && c.scenario === 'chain-immediate');
    assert.strictEqual(control.verdict, 'leaked', 'the control leaks beside it');
  },
);
