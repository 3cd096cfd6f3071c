'use strict';
// A team's own strategy (--strategy-file): validated at load with one line per problem,
// measured exactly like a built-in one (in duet, against the baseline), run through the
// integrity scenarios, and marked user-supplied.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { inspect } = require('../context/strategy-file');
const { runCli } = require('./helpers/cli');
const { checkRatio } = require('./helpers/ratio-check');

const EXAMPLE = path.join(__dirname, '..', 'examples', 'als-logger.js');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-strategy-file-'));
const file = (name, text) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};
const GOOD = "module.exports = { name: 'mine', describe: 'mine', run: (id, fn) => fn(), current: () => 'x' };";

test('inspect: the example passes; each broken file is one line naming the file and what is wrong', () => {
  assert.deepStrictEqual(inspect(EXAMPLE, ['none']), { name: 'als-logger', describe: require(EXAMPLE).describe, file: EXAMPLE });
  const cases = [
    [path.join(dir, 'missing.js'), /missing\.js: does not exist/],
    [file('throws.js', "throw new Error('no config found');"), /throws\.js: throws when loaded: no config found/],
    [file('norun.js', "module.exports = { name: 'x', describe: 'x', current: () => 1 };"), /norun\.js: does not export run\(id, fn\)/],
    [file('nocurrent.js', "module.exports = { name: 'x', describe: 'x', run: (id, fn) => fn() };"), /nocurrent\.js: does not export current\(\)/],
    [file('badbind.js', "module.exports = { name: 'x', describe: 'x', run: (id, fn) => fn(), current: () => 1, bind: 3 };"), /badbind\.js: exports bind, but not as a function/],
    [file('badname.js', GOOD.replace("'mine', describe", "'My Strategy', describe")), /badname\.js: must export name: .*"My Strategy"/],
    [file('builtin.js', GOOD.replace("'mine', describe", "'als', describe")), /builtin\.js: name 'als' is a built-in strategy's/],
    [file('nodescribe.js', GOOD.replace("describe: 'mine', ", '')), /nodescribe\.js: must export describe/],
    [file('noisy.js', `console.log('hello'); ${GOOD}`), /noisy\.js: printed to stdout while loading/],
  ];
  for (const [f, pattern] of cases) {
    assert.throws(() => inspect(f, ['none', 'als']), (err) => pattern.test(err.message) && !err.message.includes('\n'), f);
  }
});

test('ctxbench run and integrity: a bad strategy file is one line and exit 1, before any server starts', async () => {
  for (const cmd of ['run', 'integrity']) {
    const r = await runCli([cmd, '--strategy-file', file('throws2.js', "throw new Error('boom');"), '--out', path.join(dir, `${cmd}.json`)]);
    assert.strictEqual(r.code, 1, r.stderr);
    assert.strictEqual(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /strategy file .*throws2\.js: throws when loaded: boom/);
    assert.ok(!fs.existsSync(path.join(dir, `${cmd}.json`)), 'nothing was started or written');
  }
  const twice = await runCli(['run', '--strategy-file', file('a.js', GOOD), '--strategy-file', file('b.js', GOOD), '--out', path.join(dir, 'x.json')]);
  assert.match(twice.stderr, /two strategy files export the name 'mine'/);
});

test('the example strategy measured in duet against none: marked user-supplied, every id kept, the ratio its windows give', async () => {
  const out = path.join(dir, 'own.json');
  const report = path.join(dir, 'own.md');
  const r = await runCli(['run', '--strategy-file', EXAMPLE, '--strategies', 'none', '--depths', '8', '--hops', 'immediate', '--connections', '5',
    '--windows', '2', '--window', '0.2', '--blocks', '3', '--out', out, '--report', report], { timeoutMs: 600000 });
  assert.strictEqual(r.code, 0, r.stderr);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.deepStrictEqual(run.settings.strategies, ['none', 'als-logger']);
  assert.deepStrictEqual(run.settings.strategyFiles.map((x) => x.name), ['als-logger']);
  const mine = run.configs.find((c) => c.strategy === 'als-logger');
  assert.strictEqual(mine.userSupplied, true);
  assert.strictEqual(mine.summary.mismatches + mine.summary.lost, 0, 'the example keeps every id');
  assert.ok(mine.samples.some((s) => s.kind === 'window') && mine.summary.ratio.baseline.includes('/none/'));
  checkRatio(mine.summary.ratio, mine.samples.filter((s) => s.kind === 'window'), 'als-logger');
  // The A/A twin (a second none process beside the first, as every default run has): a
  // fresh pair per block, measured against the baseline like any arm.
  assert.strictEqual(run.settings.aa, true);
  const twin = run.configs.find((c) => c.arm === 'aa');
  const base = run.configs.find((c) => c.strategy === 'none' && c.arm !== 'aa');
  assert.ok(twin && twin.strategy === 'none', 'the A/A twin is in the run');
  assert.deepStrictEqual(twin.processes.map((p) => p.block), [0, 1, 2]);
  const twinWindows = twin.samples.filter((s) => s.kind === 'window');
  assert.ok(twinWindows.length > 0 && twinWindows.every((w) => w.partner === base.id), 'measured against the baseline');
  checkRatio(twin.summary.ratio, twinWindows, 'A/A twin');
  assert.strictEqual(twin.summary.mismatches, 0);
  assert.strictEqual(new Set([...base.processes, ...twin.processes, ...mine.processes].map((p) => p.pid)).size, base.processes.length + 6, 'every process fresh');
  assert.match(fs.readFileSync(report, 'utf8'), /\| `als-logger` \(user-supplied\) \|/);
  assert.match(r.stdout, /als-logger \(user-supplied\)/, 'the terminal summary names it too');
});

test('ctxbench integrity --strategy-file: the example keeps the id in the chain scenarios, beside the leaking control', async () => {
  const out = path.join(dir, 'integrity.json');
  const r = await runCli(['integrity', '--strategy-file', EXAMPLE, '--strategies', 'global', '--scenarios', 'chain-immediate,chain-timeout', '--quick', '--out', out, '--report', 'none'], { timeoutMs: 600000 });
  assert.ok([0, 1].includes(r.code), r.stderr);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  const cells = run.integrity.cells.filter((c) => c.strategy === 'als-logger');
  assert.deepStrictEqual(cells.map((c) => c.scenario).sort(), ['chain-immediate', 'chain-timeout']);
  for (const c of cells) assert.strictEqual(c.verdict, 'kept', JSON.stringify(c));
  const control = run.integrity.cells.find((c) => c.strategy === 'global' && c.scenario === 'chain-immediate');
  assert.strictEqual(control.verdict, 'leaked', 'the control leaks beside it');
});
