'use strict';
// Tier: all (a real duet run, then a held-out resume that measures a block of real servers)
// `ctxbench run --resume FILE --held-out S --blocks N` (bench/run/held-out.js): a model study's
// later blocks measure only the pairs whose word can be decided, with an A/A point; every
// other configuration rests. The first blocks' windows are the test's own (a fixture:
// their verdicts known), the resumed block is measured. Structure only, no timing judged.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli } = require('../helpers/cli');
const { tempDir } = require('../helpers/tmp');

const dir = tempDir('ctxbench-held-out-test-');
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

// The async resources per request of each point (a fixture's, as a probe would count them),
// and each point's role: the reference point (DEPTH=8) and DEPTH=16 held out.
const R = { 4: 44.4, 8: 48.8, 16: 57.6, 32: 75.2 };
const ROLE = { 4: 'fit', 8: 'held-out', 16: 'held-out', 32: 'fit' };
const ARGS = [
  '--method',
  'duet',
  '--strategies',
  'none,param,als',
  '--depths',
  '4,8,16,32',
  '--hops',
  'immediate',
  '--blocks',
  '3',
  '--windows',
  '2',
  '--window',
  '0.3',
  '--connections',
  '5',
];

// A complete model study of three blocks, planned as `run` plans one, its windows the
// test's own: `als` on its line at every point, `param`'s DEPTH=8 noisy enough to read
// cannot tell (its word projected decided in two more blocks), everything else exact.
async function fixtureRun(out) {
  const { resolveSettings, OPTIONS } = require('../../bench/cli/run');
  const { parse } = require('../../lib/cli');
  const { expandConfigs } = require('../../bench/run/matrix');
  const { resolveNodeTargets } = require('../../bench/run/targets');
  const { captureEnvironment } = require('../../bench/run/environment');
  // As the model presets plan them: without A/A twins (`aa` off), so the resume adds one.
  const settings = { ...resolveSettings(parse(ARGS, OPTIONS).values), aa: false };
  const { targets } = await resolveNodeTargets(settings.node, settings.acf);
  const configs = expandConfigs(settings, targets);
  const cost = { param: () => 0.01, als: (r) => 2 + 0.05 * r };
  for (const c of configs) {
    c.role = ROLE[c.depth];
    if (c.strategy === 'none') continue;
    c.samples = [0, 1, 2].flatMap((block) =>
      [0, 1].map((window) => {
        const c0 = (20 + 0.4 * R[c.depth]) * [1, 1.04, 0.97][block];
        const noisy = c.strategy === 'param' && c.depth === 8 ? NOISE[block] : 1;
        return {
          kind: 'window',
          block,
          window,
          counted: true,
          partnerCpuUsPerRequest: c0,
          cpuUsPerRequest: (c0 + cost[c.strategy](R[c.depth])) * noisy,
          requests: 1000,
          partnerRequests: 1000,
        };
      }),
    );
  }
  const label = configs[0].nodeLabel;
  const run = {
    schema: 3,
    kind: 'run',
    title: 'held-out fixture',
    command: `ctxbench run ${ARGS.join(' ')}`,
    status: 'complete',
    environment: captureEnvironment(),
    settings,
    learned: {},
    warnings: [],
    configs,
    measuringSeconds: 30,
    probes: Object.keys(R).map((depth) => ({
      framework: 'express',
      depth: Number(depth),
      hop: 'immediate',
      stores: 0,
      nodeLabel: label,
      perRequest: { total: R[depth], byType: {} },
    })),
  };
  fs.writeFileSync(out, JSON.stringify(run));
  return label;
}
// Its projection 5 blocks, clear of the edge where 3 blocks already read within (at 1.008, 0.993).
const NOISE = [1, 1.01, 0.995];

test(
  'a held-out resume measures the pair whose word is nearest, its points and an A/A point; the others rest',
  { timeout: 600000 },
  async () => {
    const out = path.join(dir, 'model.json');
    const label = await fixtureRun(out);
    const r = await runCli(['run', '--resume', out, '--held-out', '300', '--blocks', '5', '--report', 'none']);
    assert.strictEqual(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `^ctxbench: held-out resume: param on ${label} \\(claimed by 5\\), with their fitted ` +
          `points and an A/A point: 7 configuration\\(s\\) measured from block 4 on, 6 resting$`,
        'm',
      ),
    );
    const after = JSON.parse(fs.readFileSync(out, 'utf8'));
    const blocksOf = (c) => [...new Set(c.samples.filter((s) => s.kind === 'window').map((s) => s.block))].sort();
    const byId = Object.fromEntries(after.configs.map((c) => [c.id.replace(`/${label}`, ''), c]));
    // `als` (whose word cannot move) rests: its three blocks as they were, none after; so do
    // `param`'s DEPTH=16 (within already) and its `none`. `param`'s fitted points and its open
    // one are measured, beside their `none`.
    const resting = (id) => [blocksOf(byId[id]), byId[id].restingFrom];
    for (const d of [4, 8, 16, 32])
      assert.deepStrictEqual(resting(`express/als/d${d}/immediate`), [[0, 1, 2], 3], `als d${d}`);
    assert.deepStrictEqual(resting('express/param/d16/immediate'), [[0, 1, 2], 3]);
    assert.strictEqual(byId['express/none/d16/immediate'].restingFrom, 3);
    for (const d of [4, 8, 32]) {
      assert.deepStrictEqual(resting(`express/param/d${d}/immediate`), [[0, 1, 2, 3, 4], undefined], `param d${d}`);
      assert.strictEqual(byId[`express/none/d${d}/immediate`].restingFrom, undefined);
    }
    // The A/A twin at the reference point joined at block 4, measured beside its `none`.
    const twin = byId['express/none/d8/immediate/aa'];
    assert.deepStrictEqual([twin.arm, twin.joinedBlock, twin.role, blocksOf(twin)], ['aa', 3, undefined, [3, 4]]);
    assert.ok(
      twin.samples.some((s) => s.kind === 'window' && s.partner === `express/none/d8/immediate/${label}`),
      'beside its none',
    );
    // The record says what this resume measured and why.
    const record = after.resumes.at(-1);
    assert.deepStrictEqual(
      record.heldOut.pairs.map((p) => [p.runtime, p.strategy, p.toward, p.projected]),
      [[label, 'param', 'claimed', 5]],
    );
    assert.deepStrictEqual(
      [record.heldOut.budgetS, record.heldOut.measured, record.heldOut.rested, record.heldOut.added],
      [300, 7, 6, [`express/none/d8/immediate/${label}/aa`]],
    );
    assert.strictEqual(after.status, 'complete');
  },
);
