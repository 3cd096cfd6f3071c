'use strict';
// Tier: quick (overhead's one end-to-end run on a tiny setting, and its early Ctrl-C)
// `ctxbench overhead` end to end on a tiny setting: the same session code as `run`, two
// arms, judged by the interval; an early Ctrl-C does not crash it.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ROOT } = require('./helpers/server');
const { analyze, REQUIRED } = require('../bench/cli/overhead');
const { tempDir } = require('./helpers/tmp');

function overhead(args, onStart) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'ctxbench.js'), 'overhead', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  onStart?.(child);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

const tmp = () => tempDir('ctxbench-overhead-');

test(
  'a tiny overhead run: two arms through blocks of fresh processes, ' + 'passed or failed by the lower CI bound',
  async () => {
    const out = path.join(tmp(), 'overhead.json');
    const { code, stderr } = await overhead([
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
      '--pipelining',
      '1',
      '--out',
      out,
    ]);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(run.status, 'complete', stderr);
    assert.deepStrictEqual(
      run.configs.map((c) => c.arm),
      ['ctxbench', 'hello-world'],
    );
    for (const c of run.configs) assert.strictEqual(c.processes.length, 3, `${c.id}: a fresh process per block`);
    const ours = run.configs[0];
    assert.ok(
      ours.samples.every((s) => s.pairSeq !== null),
      'every ctxbench burst is paired with an adjacent hello-world burst',
    );
    const o = run.overhead;
    assert.strictEqual(o.required, REQUIRED);
    for (const side of Object.values(o.sides))
      assert.ok(
        side.rps.estimate > 0 && side.rps.ci95[0] <= side.rps.estimate,
        'the report reads sides[*].rps.estimate with its own interval',
      );
    assert.strictEqual(o.pass, o.ratio.ci95[0] >= REQUIRED, 'pass is decided by the lower bound');
    assert.strictEqual(code, { met: 0, 'not met': 1, 'cannot tell': 2 }[o.verdict]);
  },
);

test('analyze: met only when the whole interval is at or above 90%, not met when it is below, else cannot tell', () => {
  const run = {
    configs: [
      { samples: [{}], summary: { rps: { estimate: 1 }, ratio: { estimate: 0.97, ci95: [0.85, 1.1] } } },
      { samples: [{}], summary: { rps: { estimate: 1 } } },
    ],
  };
  assert.deepStrictEqual([analyze(run).verdict, analyze(run).pass], ['cannot tell', false]);
  run.configs[0].summary.ratio.ci95 = [0.91, 1.02];
  assert.deepStrictEqual([analyze(run).verdict, analyze(run).pass], ['met', true]);
  run.configs[0].summary.ratio.ci95 = [0.7, 0.89];
  assert.deepStrictEqual([analyze(run).verdict, analyze(run).pass], ['not met', false]);
  run.configs[0].summary.ratio.ci95 = null;
  assert.strictEqual(analyze(run).verdict, 'not shown');
});

test('Ctrl-C before two rounds: exit 130, no crash, no verdict', async () => {
  const out = path.join(tmp(), 'early.json');
  const { code, stderr } = await overhead(['--out', out, '--report', 'none'], (child) => {
    const poll = setInterval(() => {
      if (fs.existsSync(out)) {
        clearInterval(poll);
        child.kill('SIGINT');
      }
    }, 20);
  });
  assert.strictEqual(code, 130, stderr);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.strictEqual(run.status, 'interrupted');
  assert.strictEqual(run.overhead.pass, false);
  assert.match(stderr, /NOT SHOWN|NOT MET/);
});

test(
  'overhead section: the verdict of an older result without one is read ' +
    'from its interval, and the figure is the statistic its interval is of',
  () => {
    const { render } = require('../report/sections/overhead');
    const side = { rps: { estimate: 40000, median: 41000, ci95: [38000, 42000] }, samples: 12 };
    const run = (ci95, extra = {}) => ({
      kind: 'overhead',
      environment: { date: '2026-11-23T00:00:00Z' },
      settings: { rounds: 4, duration: 2, connections: 100, pipelining: 10 },
      overhead: {
        required: REQUIRED,
        sides: { ours: side, hello: side },
        ratio: { estimate: 0.975, ci95 },
        pass: false,
        ...extra,
      },
    });
    assert.match(render(run([0.85, 1.1])), /❔ cannot tell: the interval straddles it/);
    assert.match(render(run([0.7, 0.89])), /❌ not met/);
    assert.match(render(run([0.92, 1.03], { verdict: 'met', pass: true })), /✅ met/);
    assert.match(render(run([0.85, 1.1])), /\| ours \| 40,000 \[38,000–42,000\] \|/);
    assert.match(render(run([0.85, 1.1])), /req\/s geo\. mean \[95% CI\]/);
    // Sides keyed by their arm's code are named by the report (report/words.js).
    const coded = run([0.85, 1.1]);
    coded.overhead.sides = { ctxbench: side, 'hello-world': side };
    assert.match(render(coded), /\| ctxbench none depth 1 \| 40,000 .*\n\| express hello-world \| 40,000/);
  },
);
