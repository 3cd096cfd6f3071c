'use strict';
// Tier: quick (calibrate's and aa's one end-to-end run each, in sequential, their cheapest; the bad flags)
// `ctxbench calibrate` and `ctxbench aa` end to end on a tiny setting: real servers,
// output in a temp dir, no report. No timing is asserted: the JSON's structure and that
// every verdict follows from the intervals and counts the JSON itself holds. aa in duet:
// test/all/method-commands.test.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const calibrate = require('../bench/cli/calibrate');
const aa = require('../bench/cli/aa');
const { pairs } = require('../analysis/pairing');
const sections = { calibrate: require('../report/sections/calibrate'), aa: require('../report/sections/aa') };
const { runCli } = require('./helpers/cli');
const { tempDir } = require('./helpers/tmp');

const tmp = tempDir('ctxbench-method-');
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const TINY = ['--duration', '0.5', '--warmup', '0', '--connections', '4', '--pipelining', '1', '--report', 'none'];
const EXIT = { pass: 0, fail: 1, inconclusive: 2 };

// Schema 2 runs record the adjacent pair; schema 1 runs pair by round.
function checkPairing(config, base) {
  const p = pairs(config, base);
  assert.ok(p.length >= 1, `${config.id} has paired samples`);
  for (const [s, b] of p) {
    if (s.seq !== undefined) {
      assert.strictEqual(b.seq, s.pairSeq);
      assert.strictEqual(b.block, s.block, 'a pair comes from one block');
    } else assert.strictEqual(b.round, s.round);
  }
  return p;
}

test(
  'calibrate end to end: arms and group set, ' + 'verdicts follow from the intervals, exit code from the verdict',
  async () => {
    const out = path.join(tmp, 'calibrate.json');
    const r = await runCli([
      'calibrate',
      '--method',
      'sequential',
      '--at',
      '1/sync',
      '--burns',
      '100',
      '--blocks',
      '3',
      '--rounds',
      '2',
      '--out',
      out,
      ...TINY,
    ]);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(run.kind, 'calibrate');
    assert.strictEqual(run.status, 'complete', r.stderr);
    assert.strictEqual(run.settings.baseline, 'burn0');
    assert.deepStrictEqual(run.settings.at, [{ depth: 1, hop: 'sync' }]);
    assert.deepStrictEqual(
      run.configs.map((c) => [c.arm, c.group, c.burnUs, c.depth, c.hop]),
      [
        ['burn0', 'calibrate/d1/sync', 0, 1, 'sync'],
        ['burn100', 'calibrate/d1/sync', 100, 1, 'sync'],
      ],
    );
    const [base, burn] = run.configs;
    for (const c of run.configs) assert.strictEqual(c.error, null, c.id);
    assert.ok(base.samples.every((s) => s.burnUsPerRequest === 0));
    assert.ok(
      burn.samples.every((s) => s.burnUsPerRequest > 0),
      'the server timed its burn',
    );
    const p = checkPairing(burn, base);

    const c = run.calibrate;
    assert.strictEqual(c.points.length, 1);
    const [level] = c.points[0].levels;
    assert.strictEqual(level.burnUs, 100);
    assert.strictEqual(level.checked, true);
    assert.strictEqual(level.pairs, p.length);
    assert.strictEqual(level.verdict, calibrate.judgeInterval(level.seenRatio.ci95));
    assert.strictEqual(level.cpuVerdict, calibrate.judgeInterval(level.cpuRatio.ci95));
    assert.strictEqual(c.points[0].verdict, level.verdict);
    assert.strictEqual(c.verdict, level.verdict);
    assert.strictEqual(c.pass, c.verdict === 'pass');
    assert.strictEqual(r.code, EXIT[c.verdict], r.stderr);
    assert.match(r.stderr, new RegExp(`DEPTH=1 HOP=sync: ${c.verdict.toUpperCase()}`));
    assert.match(sections.calibrate.render(run, {}), new RegExp(`### DEPTH=1 HOP=sync: .* ${c.verdict}`));
  },
);

test(
  'aa end to end: arms A and B in one group, each trial tested, ' + 'pass by the binomial tail, exit code from it',
  async () => {
    const out = path.join(tmp, 'aa.json');
    const r = await runCli([
      'aa',
      '--method',
      'sequential',
      '--depth',
      '1',
      '--hop',
      'sync',
      '--trials',
      '1',
      '--blocks-per-trial',
      '2',
      '--rounds',
      '2',
      '--out',
      out,
      ...TINY,
    ]);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(run.kind, 'aa');
    assert.strictEqual(run.status, 'complete', r.stderr);
    assert.strictEqual(run.settings.baseline, 'A');
    assert.deepStrictEqual(
      run.configs.map((c) => [c.arm, c.group]),
      [
        ['A', 'aa'],
        ['B', 'aa'],
      ],
    );
    checkPairing(run.configs[1], run.configs[0]);
    const a = run.aa;
    // A trial without an interval (too few pairs for the statistics) is not counted.
    assert.ok(a.completedTrials <= 1, `${a.completedTrials} trials`);
    for (const t of a.trials) assert.strictEqual(t.significant, t.pValue < 0.05);
    assert.strictEqual(a.significant, a.trials.filter((t) => t.significant).length);
    assert.deepStrictEqual({ tailP: a.tailP, pass: a.pass }, aa.binomialRule(a.significant, a.completedTrials));
    assert.strictEqual(r.code, a.completedTrials === 0 ? 2 : a.pass ? 0 : 1, r.stderr);
    assert.match(sections.aa.render(run, {}), new RegExp(`\\*\\*${a.significant} of ${a.completedTrials}\\*\\*`));
  },
);

test('calibrate and aa: bad flags are one line and exit 1, before any server starts', async () => {
  const cases = [
    [['calibrate', '--at', '8/bogus'], /--at 8\/bogus: unknown hop bogus/],
    [['aa', '--method', 'both'], /--method both is not valid; expected duet, pair or sequential/],
    [['calibrate', '--method', 'both'], /--method both is not valid; expected duet, pair or sequential/],
    // The pair measures at a rate: given with it, refused without it.
    [['aa', '--method', 'pair'], /--method pair needs --rate R: the requests per second sent to each server of a pair/],
    [['calibrate', '--rate', '100'], /--rate is the pair's setting: give --method pair/],
    [['calibrate', '--at', '0/sync'], /--at 0\/sync: depth must be from 1/],
    [['calibrate', '--at', 'eight'], /--at eight is not valid/],
    [['calibrate', '--at', '8/immediate', '--depth', '3'], /--at and --depth\/--hop/],
    [['calibrate', '--blocks', '2'], /--blocks=2 is not valid/],
    [['aa', '--blocks-per-trial', '1'], /--blocks-per-trial=1 is not valid/],
    [
      ['aa', '--method', 'sequential', '--windows', '2'],
      /--windows and --window are duet and pair settings: not with --method sequential/,
    ],
    [['calibrate', '--window', '0.1'], /--window=0.1 is not valid/],
  ];
  for (const [args, pattern] of cases) {
    const out = path.join(tmp, 'never.json');
    const r = await runCli([...args, '--out', out, '--report', 'none']);
    assert.strictEqual(r.code, 1, args.join(' '));
    assert.strictEqual(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, pattern);
    assert.ok(!fs.existsSync(out));
  }
});
