'use strict';
// Tier: all (long real runs: the tiny run of three strategies with its report, a killed
// server, Ctrl-C twice, the curl driver; the quick tier's run is test/runner.test.js's)
// The runner end to end, on real servers, beyond test/runner.test.js: a tiny run yields the
// run JSON docs/run-json.md promises (blocks of fresh processes, adjacent pairs, warm-up
// bursts, the fingerprint) and its report flags the control caught leaking; a server
// killed mid-run is replaced; Ctrl-C (once and twice) keeps what was measured; deployed
// targets are swept by depth with the curl driver.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { startServer } = require('../helpers/server');
const { runCli, runCliJson, runCliUntil, readRunSoFar, running } = require('../helpers/cli');
const { checkSequentialRatio } = require('../helpers/ratio-check');
const { tempDir } = require('../helpers/tmp');
const { VERSION } = require('../../lib/run-schema');

const tmpdir = () => tempDir('ctxbench-runner-');

// The run JSON's blocks, pairing and samples, as docs/run-json.md says.
function checkDesign(run, { blocks, baseline, minPerConnection, connections }) {
  const all = run.configs.flatMap((c) => c.samples.map((s) => ({ ...s, config: c })));
  const bySeq = new Map(all.map((s) => [s.seq, s]));
  assert.strictEqual(bySeq.size, all.length, 'seq is unique across the run');
  for (const c of run.configs) {
    assert.deepStrictEqual(
      c.processes.map((p) => p.block),
      [...Array(blocks).keys()],
      `${c.id}: one process per block`,
    );
    assert.strictEqual(new Set(c.processes.map((p) => p.pid)).size, blocks, `${c.id}: a fresh process (pid) per block`);
    assert.strictEqual(new Set(c.processes.map((p) => p.nonce)).size, blocks, `${c.id}: a fresh nonce per block`);
    for (const p of c.processes) {
      assert.strictEqual(p.dead, false);
      assert.ok(p.exit && p.endedAt >= p.startedAt, `${c.id}: process ${p.pid} stopped and recorded`);
    }
    assert.deepStrictEqual(
      [...new Set(c.samples.map((s) => s.block))].sort(),
      [...Array(blocks).keys()],
      `${c.id}: samples in every block`,
    );
    for (const s of c.samples) {
      assert.ok(s.windowMs > 0);
      assert.ok(Math.abs(s.rps - s.requests / (s.windowMs / 1000)) < 1e-6, 'rps = requests over the exact window');
      assert.ok(
        s.requests >= minPerConnection * connections,
        `${c.id}: ${s.requests} completed, wanted >= ${minPerConnection} x ${connections}`,
      );
      if (c.strategy === baseline) {
        assert.strictEqual(s.pairSeq, null);
        continue;
      }
      const partner = bySeq.get(s.pairSeq);
      assert.ok(partner, `${c.id} seq ${s.seq}: pairSeq ${s.pairSeq} is a recorded sample`);
      assert.strictEqual(partner.config.strategy, baseline, 'paired with a baseline burst');
      assert.strictEqual(partner.block, s.block, 'of the same block');
      assert.strictEqual(Math.abs(partner.seq - s.seq), 1, 'right before or after it');
    }
  }
  // Samples were taken in seq order: the rounds of a later block come after.
  const sorted = [...all].sort((a, b) => a.seq - b.seq);
  for (let i = 1; i < sorted.length; i++)
    assert.ok(sorted[i].block >= sorted[i - 1].block && sorted[i].round >= sorted[i - 1].round);
}

test(
  'a tiny real run: blocks of fresh processes, adjacent pairs, ' +
    'work-sized samples; a run written outside results/ leaves ./results.md alone',
  async () => {
    const dir = tmpdir();
    const sentinel = '# committed report\n';
    fs.writeFileSync(path.join(dir, 'results.md'), sentinel);
    const out = path.join(dir, 'elsewhere', 'tiny.json');
    const { code, stderr } = await runCli(
      [
        'run',
        '--method',
        'sequential',
        '--strategies',
        'none,als,global',
        '--depths',
        '8',
        '--hops',
        'immediate',
        '--duration',
        '0.5',
        '--warmup',
        '0.3',
        '--blocks',
        '3',
        '--rounds',
        '1',
        '--connections',
        '10',
        '--out',
        out,
      ],
      { cwd: dir, env: { CTXBENCH_FINGERPRINT: '1', CTXBENCH_CPUS: 'none' } },
    );
    assert.strictEqual(code, 0, stderr);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'results.md'), 'utf8'), sentinel, 'results.md not rewritten');
    assert.doesNotMatch(stderr, /wrote .*results\.md/);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.deepStrictEqual([run.schema, run.kind, run.status], [VERSION, 'run', 'complete']);
    assert.strictEqual(run.environment.taskset, false, 'CTXBENCH_CPUS=none: nothing pinned, and the run says so');
    assert.deepStrictEqual([run.settings.blocks, run.settings.rounds, run.settings.minPerConnection], [3, 1, 30]);
    const fp = run.environment.fingerprint;
    assert.ok(
      fp.cpuUsPerRequest > 0 && fp.rps > 0 && /STRATEGY=none DEPTH=1 HOP=sync/.test(fp.what),
      JSON.stringify(fp),
    );
    assert.strictEqual(run.configs.length, 3);
    for (const c of run.configs) assert.deepStrictEqual([c.status, c.error], ['ok', null], c.id);
    checkDesign(run, { blocks: 3, baseline: 'none', minPerConnection: 30, connections: 10 });
    // Every fresh process was warmed in bursts until its cost stopped falling: at least
    // three bursts, each recorded with its rate and cost.
    for (const c of run.configs) {
      for (const p of c.processes) {
        assert.ok(p.warmup.length >= 3, `${c.id} block ${p.block}: ${p.warmup.length} warm-up bursts`);
        for (const b of p.warmup) assert.ok(b.rps > 0 && b.cpuUsPerRequest > 0, JSON.stringify(b));
      }
    }

    const byStrategy = Object.fromEntries(run.configs.map((c) => [c.strategy, c]));
    assert.strictEqual(byStrategy.als.summary.mismatches, 0, 'AsyncLocalStorage keeps every id');
    assert.strictEqual(byStrategy.als.summary.lost, 0);
    assert.ok(byStrategy.global.summary.mismatches > 0, 'the global control must be caught leaking');
    assert.ok(byStrategy.none.summary.lost > 0, 'none carries no id');
    const r = byStrategy.als.summary.ratio;
    assert.strictEqual(r.baseline, byStrategy.none.id, 'als is compared with the none baseline of its group');
    // The stored ratio is the one its adjacent pairs give (its width is the machine's).
    const want = checkSequentialRatio(r, byStrategy.als.samples, byStrategy.none.samples, 'als');
    assert.strictEqual(want.blocks, 3);
    assert.ok(
      Math.abs(r.halfWidthPct - 50 * (want.ci95[1] - want.ci95[0])) < 1e-9,
      'half-width in points of the same interval',
    );
    assert.strictEqual(byStrategy.none.summary.ratio, null, 'the baseline is not compared with itself');

    // The report of that run (asked for by name) flags the leaking control.
    const report = path.join(dir, 'report.md');
    const rep = await runCli(['report', out, '--out', report]);
    assert.strictEqual(rep.code, 0, rep.stderr);
    const md = fs.readFileSync(report, 'utf8');
    const globalRow = md.split('\n').find((l) => l.includes('global') && l.startsWith('|'));
    assert.ok(globalRow, 'report has a row for global');
    assert.match(globalRow, /⚠/, 'the leak is flagged in the report');
    // Event-loop utilization is collected per sample and shown, not hidden.
    for (const c of run.configs) for (const s of c.samples) assert.ok(s.elu > 0 && s.elu <= 1, `${c.id}: elu ${s.elu}`);
    assert.match(md, /\| CPU µs\/req \| ELU \| Mismatches \| Lost \|/);
    assert.match(globalRow, /\| [01]\.\d\d \| ⚠/);
  },
);

test(
  'a server SIGKILLed mid-run is named dead with its signal, ' + 'replaced next block, and the run fails with exit 1',
  async () => {
    const out = path.join(tmpdir(), 'killed.json');
    let victim = null;
    const { code, stderr } = await runCliUntil(
      [
        'run',
        '--method',
        'sequential',
        '--strategies',
        'none,als',
        '--depths',
        '8',
        '--hops',
        'immediate',
        '--duration',
        '0.5',
        '--warmup',
        '0',
        '--blocks',
        '3',
        '--rounds',
        '2',
        '--connections',
        '10',
        '--out',
        out,
        '--report',
        'none',
      ],
      {
        everyMs: 50,
        when: () => {
          const als = readRunSoFar(out)?.configs.find((c) => c.strategy === 'als');
          return als?.samples.some((s) => s.block === 0) && als.processes.length === 1 && als.processes[0].pid;
        },
        then: (pid) => process.kill((victim = pid), 'SIGKILL'),
      },
    );
    assert.ok(victim, `never saw a block-0 sample of als: ${stderr}`);
    assert.strictEqual(code, 1, stderr);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(run.status, 'failed');
    const als = run.configs.find((c) => c.strategy === 'als');
    assert.strictEqual(als.status, 'failed');
    assert.match(als.error.message, new RegExp(`server process ${victim} died \\(killed by SIGKILL\\) \\(block 1\\)`));
    assert.doesNotMatch(als.error.message, /ECONNREFUSED/);
    assert.deepStrictEqual(als.error.exit, { code: null, signal: 'SIGKILL' });
    assert.deepStrictEqual([als.processes[0].dead, als.processes[0].exit], [true, { code: null, signal: 'SIGKILL' }]);
    assert.strictEqual(als.processes.length, 3, 'a fresh process in each later block');
    assert.ok(als.processes.slice(1).every((p) => !p.dead && p.pid !== victim));
    assert.ok(
      als.samples.some((s) => s.block === 2),
      'measured again after the death',
    );
    assert.strictEqual(run.configs.find((c) => c.strategy === 'none').status, 'ok');
  },
);

function interruptible(out, onText) {
  return runCli(
    [
      'run',
      '--method',
      'sequential',
      '--strategies',
      'none,als',
      '--depths',
      '8',
      '--duration',
      '0.5',
      '--warmup',
      '0',
      '--connections',
      '10',
      '--rounds',
      '50',
      '--out',
      out,
      '--report',
      'none',
    ],
    { onStderr: onText },
  );
}

test('Ctrl-C keeps every finished sample and marks the run interrupted', async () => {
  const out = path.join(tmpdir(), 'interrupted.json');
  let sent = false;
  const { code, stderr } = await interruptible(out, (text, child) => {
    if (!sent && /block 1 round 1\/50 done/.test(text)) {
      sent = true;
      child.kill('SIGINT');
    }
  });
  assert.ok(sent, `never saw round 1 finish: ${stderr}`);
  assert.strictEqual(code, 130);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.strictEqual(run.status, 'interrupted');
  for (const c of run.configs) assert.ok(c.samples.length >= 1 && c.samples.length < 50, `${c.id} kept its samples`);
});

test('a second Ctrl-C quits at once: exit 130, what was saved stays, no server left running', async () => {
  const out = path.join(tmpdir(), 'quit.json');
  let first = false;
  let second = false;
  const { code, stderr } = await interruptible(out, (text, child) => {
    if (!first && /block 1 round 1\/50 done/.test(text)) {
      first = true;
      child.kill('SIGINT');
    } else if (first && !second && /interrupted: finishing/.test(text)) {
      second = true;
      child.kill('SIGINT');
    }
  });
  assert.ok(second, stderr);
  assert.strictEqual(code, 130);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.ok(
    run.configs.every((c) => c.samples.length >= 1),
    'the samples of round 1 are kept',
  );
  const pids = run.configs.flatMap((c) => c.processes.map((p) => p.pid));
  assert.ok(pids.length >= 2);
  // A killed child is gone once it has been reaped; wait for that (a hang guard of 20 s,
  // not a claim about how fast).
  for (let i = 0; i < 400 && pids.some(running); i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepStrictEqual(pids.filter(running), [], 'no server left running');
});

test(
  'deployed targets swept by depth with the curl driver: ' + '/depth/N per depth, compared with the param service',
  async (t) => {
    const param = await startServer({ STRATEGY: 'param', HOP: 'immediate' });
    const als = await startServer({ STRATEGY: 'als', HOP: 'immediate' });
    t.after(() => Promise.all([param.stop(), als.stop()]));
    const out = path.join(tmpdir(), 'appengine.json');
    const { run } = await runCliJson(
      [
        'run',
        '--target',
        `baseline=${param.url}`,
        '--target',
        `als=${als.url}`,
        '--depths',
        '4,16',
        '--driver',
        'curl',
        '--amount',
        '60',
        '--connections',
        '10',
        '--warmup',
        '0',
        '--rounds',
        '1',
      ],
      out,
    );
    assert.deepStrictEqual(run.configs.map((c) => c.id).sort(), [
      'target/als/d16',
      'target/als/d4',
      'target/baseline/d16',
      'target/baseline/d4',
    ]);
    for (const c of run.configs) {
      assert.strictEqual(c.error, null, c.id);
      assert.strictEqual(c.samples.length, 3, c.id);
      assert.ok(
        c.samples.every((s) => s.requests === 60 && s.mismatches === 0 && s.lost === 0),
        c.id,
      );
    }
    const alsDeep = run.configs.find((c) => c.id === 'target/als/d16');
    assert.strictEqual(alsDeep.strategy, 'als');
    assert.strictEqual(alsDeep.depth, 16);
    assert.strictEqual(
      alsDeep.summary.ratio.baseline,
      'target/baseline/d16',
      'compared with the param service at the same depth',
    );
  },
);
