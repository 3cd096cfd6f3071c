'use strict';
// Tier: quick (run --resume's rules, and its one end-to-end run stopped and resumed)
// `ctxbench run --resume FILE` (bench/run/resume.js): a stopped run goes on from its saved JSON,
// its complete blocks kept as they were, an unfinished block measured again. Structure
// only: which blocks, which samples, which status; no timing is judged.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { completeBlocks, prepareResume, joinNewConfigs } = require('../bench/run/resume');
const { runCli, runCliInterrupted, readRunSoFar } = require('./helpers/cli');
const { tempDir } = require('./helpers/tmp');

const dir = tempDir('ctxbench-resume-test-');
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

const sample = (block, extra = {}) => ({ kind: 'burst', block, ...extra });

test('the blocks kept are those every configuration finished; a configuration with no sample holds none back', () => {
  const configs = [
    {
      id: 'a',
      samples: [sample(0, { round: 0, seq: 0 }), sample(1, { round: 1, seq: 2 }), sample(2, { round: 2, seq: 4 })],
      processes: [{ block: 0 }, { block: 1 }, { block: 2 }],
    },
    {
      id: 'b',
      samples: [sample(0, { round: 0, seq: 1 }), sample(1, { round: 1, seq: 3 })],
      processes: [{ block: 0 }, { block: 1 }, { block: 2 }],
      status: 'failed',
    },
    { id: 'dead', samples: [], processes: [], status: 'failed' },
  ];
  assert.strictEqual(completeBlocks(configs), 2);
  const run = { kind: 'run', status: 'interrupted', settings: { method: 'sequential' }, configs, measuringSeconds: 42 };
  const r = prepareResume(run, 'x.json');
  assert.deepStrictEqual(
    [r.fromBlock, r.dropped, r.counters, r.measuredSeconds],
    [2, { samples: 1, processes: 2 }, { round: 2, seq: 4, group: 0 }, 42],
  );
  assert.deepStrictEqual(
    run.configs.map((c) => c.samples.map((s) => s.block)),
    [[0, 1], [0, 1], []],
  );
  assert.strictEqual(run.configs[1].status, 'ok', 'a failure is measured again in the next block, as in a run');
  assert.strictEqual(completeBlocks([{ samples: [sample(1)] }]), 0, 'block 0 missing: nothing kept');
});

test(
  'a configuration the preset gained joins at the block ' + 'the run goes on at, and counts its blocks from there',
  () => {
    const old = () => ({ id: 'a', samples: [sample(0), sample(1), sample(2)], processes: [] });
    const run = { kind: 'run', status: 'complete', settings: { method: 'duet' }, configs: [old()] };
    const r = prepareResume(run, 'x.json', { extendTo: 5 });
    const added = joinNewConfigs(
      run,
      [
        { id: 'a', samples: [] },
        { id: 'new', samples: [], processes: [] },
      ],
      r.fromBlock,
    );
    assert.deepStrictEqual(
      added.map((c) => c.id),
      ['new'],
      "compared by id: the run's own are kept as they are",
    );
    assert.deepStrictEqual(
      run.configs.map((c) => [c.id, c.joinedBlock]),
      [
        ['a', undefined],
        ['new', 3],
      ],
    );
    // Measured in block 3 only: block 3 is complete, blocks 0-2 are not held back by it.
    run.configs[0].samples.push(sample(3));
    run.configs[1].samples.push(sample(3));
    assert.strictEqual(completeBlocks(run.configs), 4);
    // Stopped inside block 4 with the new one measured there and the old one not: 4 kept.
    run.configs[1].samples.push(sample(4));
    assert.strictEqual(completeBlocks(run.configs), 4);
    assert.strictEqual(
      completeBlocks([old(), { id: 'new', samples: [sample(3)] }]),
      0,
      'without joinedBlock a configuration missing block 0 holds every block back',
    );
  },
);

test('what cannot resume says why in one line', () => {
  const base = { kind: 'run', status: 'interrupted', settings: { method: 'duet' }, configs: [] };
  for (const [run, pattern] of [
    [{ ...base, status: 'complete' }, /^x\.json: the run is complete, nothing to resume/],
    [{ ...base, kind: 'integrity' }, /^x\.json: a integrity run, not a `ctxbench run`/],
    [{ ...base, configs: [{ target: 'https://x', samples: [] }] }, /^x\.json: a run of deployed targets/],
  ])
    assert.throws(() => prepareResume(run, 'x.json'), { message: pattern });
});

test(
  '--blocks N goes on to N blocks: a complete run with fewer ' +
    'resumes from its last complete block, one with as many adds none',
  () => {
    const configs = () => [
      { id: 'a', samples: [sample(0), sample(1), sample(2)], processes: [{ block: 0 }, { block: 1 }, { block: 2 }] },
    ];
    const run = { kind: 'run', status: 'complete', settings: { method: 'duet' }, configs: configs() };
    assert.strictEqual(prepareResume(run, 'x.json', { extendTo: 6 }).fromBlock, 3);
    assert.throws(() => prepareResume({ ...run, configs: configs() }, 'x.json', { extendTo: 3 }), {
      message: /^x\.json: the run already has 3 complete blocks; --blocks 3 adds none/,
    });
    assert.throws(() => prepareResume({ ...run, configs: configs() }, 'x.json'), {
      message: /nothing to resume .*--blocks N adds blocks to a complete one/,
    });
  },
);

test('ctxbench run --resume: bad input is one line and exit 1, before anything starts', async () => {
  const complete = path.join(dir, 'complete.json');
  fs.writeFileSync(
    complete,
    JSON.stringify({ kind: 'run', status: 'complete', settings: { method: 'duet' }, configs: [] }),
  );
  // A complete run of three blocks without roles: it resumes, but it is no model study.
  const withRoles = path.join(dir, 'roles.json');
  const three = [0, 1, 2].map((block) => sample(block));
  fs.writeFileSync(
    withRoles,
    JSON.stringify({
      kind: 'run',
      status: 'complete',
      settings: { method: 'duet', baseline: 'none' },
      configs: [{ id: 'a', samples: three, processes: [] }],
    }),
  );
  for (const [args, pattern] of [
    [['--resume', path.join(dir, 'missing.json')], /^ctxbench: .*missing\.json: cannot read run \(ENOENT\)\n$/],
    [['--resume', complete], /^ctxbench: .*complete\.json: the run is complete, nothing to resume[^\n]*\n$/],
    [
      ['--resume', complete, '--depths', '8'],
      new RegExp(
        String.raw`^ctxbench: --resume takes every setting from the run it resumes: give no other ` +
          String.raw`option than --report, --blocks, --max-time and --held-out \(got --depths\)\n$`,
      ),
    ],
    [['--resume', complete, '--blocks', '2'], /^ctxbench: --blocks=2 is not valid/],
    // The held-out resume of a model study (bench/run/held-out.js).
    [['--held-out', '600'], /^ctxbench: --held-out goes with --resume FILE: it resumes a model study\n$/],
    [
      ['--resume', complete, '--held-out', '600'],
      /^ctxbench: --held-out needs --blocks N: the blocks in all a projected word must decide by\n$/,
    ],
    [
      ['--resume', complete, '--held-out', '600', '--blocks', '9', '--max-time', '60'],
      /^ctxbench: --held-out S is its own time budget: give it without --max-time\n$/,
    ],
    [['--resume', complete, '--held-out', '10', '--blocks', '9'], /^ctxbench: --held-out=10 is not valid/],
    [
      ['--resume', withRoles, '--held-out', '600', '--blocks', '9'],
      /^ctxbench: .*roles\.json: --held-out: not a model study: no configuration has a fit or held-out role\n$/,
    ],
  ]) {
    const r = await runCli(['run', ...args]);
    assert.strictEqual(r.code, 1, r.stderr);
    assert.match(r.stderr, pattern);
  }
});

test(
  'a run stopped in its second block goes on: its first block kept as it was, every block complete at the end',
  { timeout: 600000 },
  async () => {
    const out = path.join(dir, 'run.json');
    const args = [
      'run',
      '--strategies',
      'none,als',
      '--depths',
      '4',
      '--hops',
      'immediate',
      '--method',
      'sequential',
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
      out,
      '--report',
      'none',
    ];
    // Ctrl-C once a sample of the second block is saved: that block is then unfinished (or,
    // if its last step was under way, finished); either way the run says which it kept.
    const stopped = await runCliInterrupted(args, {
      when: () => readRunSoFar(out)?.configs?.some((c) => c.samples.some((s) => s.block === 1)),
    });
    assert.strictEqual(stopped.code, 130, stopped.stderr);
    const before = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(before.status, 'interrupted');
    const firstBlock = before.configs.map((c) => c.samples.filter((s) => s.block === 0));

    const resumed = await runCli(['run', '--resume', out, '--report', 'none']);
    assert.strictEqual(resumed.code, 0, resumed.stderr);
    assert.match(
      resumed.stderr,
      new RegExp(
        String.raw`ctxbench: resuming .*run\.json \(interrupted\): [12] complete ` +
          String.raw`block\(s\) kept, \d+ sample\(s\) of an unfinished block dropped`,
      ),
    );
    const after = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.strictEqual(after.status, 'complete');
    assert.strictEqual(after.command, before.command, 'the run is still the command that started it');
    assert.deepStrictEqual(after.environment.date, before.environment.date);
    assert.strictEqual(after.resumes.length, 1);
    assert.ok([1, 2].includes(after.resumes[0].fromBlock), JSON.stringify(after.resumes));
    assert.strictEqual(after.resumes[0].status, 'interrupted');
    assert.deepStrictEqual(
      after.configs.map((c) => c.samples.filter((s) => s.block === 0)),
      firstBlock,
      'the first block as it was measured',
    );
    for (const c of after.configs)
      assert.deepStrictEqual([...new Set(c.samples.map((s) => s.block))].sort(), [0, 1, 2], c.id);
    const seqs = after.configs.flatMap((c) => c.samples.map((s) => s.seq));
    assert.strictEqual(new Set(seqs).size, seqs.length, 'sample sequence numbers go on, never repeat');
    assert.ok(
      after.configs.every((c) => c.summary?.ratio || c.id.includes('none')),
      'summaries over every block',
    );
    // The page says the run was resumed, from which block and on which commit.
    const { environmentSection } = require('../report/sections/run/environment');
    assert.match(
      environmentSection(after),
      new RegExp(
        `- \\*\\*Resumed:\\*\\* [^\\n]*, ` +
          `from block ${after.resumes[0].fromBlock + 1} \\(` +
          `${after.resumes[0].fromBlock} complete block`,
      ),
    );
    // Each sitting names its machine; the page says so only when it is another one (a fit's
    // blocks are in the µs of the CPU they ran on).
    assert.deepStrictEqual(after.resumes[0].machine, {
      cpuModel: after.environment.cpuModel,
      cores: after.environment.cores,
      kernel: after.environment.kernel,
    });
    assert.doesNotMatch(environmentSection(after), /on another machine/);
    const moved = {
      ...after,
      resumes: [{ ...after.resumes[0], machine: { cpuModel: 'Elsewhere CPU', cores: 2, kernel: 'x' } }],
    };
    assert.match(
      environmentSection(moved),
      /\*\*on another machine\*\*: Elsewhere CPU \(2 cores\), where the run began on /,
    );
  },
);
