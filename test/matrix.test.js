'use strict';
// Tier: quick (which configurations a run measures and their order: pure functions)
// Which configurations a run measures and the order of their bursts: every non-baseline
// burst sits right next to a baseline burst of its group, and the neighbours change from
// round to round.
const test = require('node:test');
const assert = require('node:assert');
const { expandConfigs, measurementOrder } = require('../bench/run/matrix');
const { roundOrder } = require('../lib/round-order');
const { PRESETS } = require('../lib/presets');
const { armOf, groupKey } = require('../analysis/comparable');

const NODE20 = { label: 'node20', version: 'v20.0.0', path: '/usr/bin/node', args: [] };
const NODE24 = { label: 'node24', version: 'v24.0.0', path: '/opt/node24', args: ['--x'], expectAcf: true };

// The default preset's matrix as a sequential run measures it (no A/A twins: those are
// part of a duet, tested below and in test/duet.test.js).
function defaults() {
  return expandConfigs({ ...PRESETS.default, aa: false }, [NODE20]);
}

// Checks one round's bursts; returns Map(config id -> Set of ids sharing its baseline burst).
function checkAdjacent(bursts, baseline, unpaired = []) {
  const partners = new Map();
  bursts.forEach((b, i) => {
    if (unpaired.includes(b.config.id)) return;
    if (armOf(b.config) === baseline) {
      assert.strictEqual(b.partner, null, 'a baseline burst has no partner');
      return;
    }
    assert.ok(
      Math.abs(b.partner - i) === 1,
      `${b.config.id} at ${i} is paired with burst ${b.partner}, not a neighbour`,
    );
    const p = bursts[b.partner].config;
    assert.strictEqual(armOf(p), baseline, `${b.config.id}'s partner is a baseline burst`);
    assert.strictEqual(groupKey(p), groupKey(b.config), 'of the same group');
    const mates = bursts.filter((o, j) => j !== i && o.partner === b.partner).map((o) => o.config.id);
    partners.set(b.config.id, new Set(mates));
  });
  return partners;
}

test('expandConfigs: the cross product per Node target, with what the runner needs', () => {
  const settings = { ...PRESETS.default, configs: undefined, aa: false };
  const configs = expandConfigs(settings, [NODE20, NODE24]);
  assert.strictEqual(configs.length, settings.strategies.length * settings.depths.length * 2);
  assert.strictEqual(new Set(configs.map((c) => c.id)).size, configs.length, 'ids are unique');
  const c = configs.find((x) => x.id === 'express/als/d256/immediate/node24');
  assert.ok(c, 'ids name framework/strategy/depth/hop/node');
  assert.deepStrictEqual([c.strategy, c.depth, c.hop, c.node, c.expectAcf], ['als', 256, 'immediate', 'v24.0.0', true]);
  assert.deepStrictEqual(c.launch, { nodePath: '/opt/node24', nodeArgs: ['--x'] });
  assert.ok(!Object.keys(c).includes('launch'), 'launch stays out of the run JSON');
  assert.deepStrictEqual([c.processes, c.status, c.samples, c.error], [[], 'ok', [], null]);
  assert.strictEqual(configs.find((x) => x.strategy === 'global').control, true);
});

test('expandConfigs with aa: one A/A twin of the baseline per group, with its own arm, id, samples and launch', () => {
  const configs = expandConfigs(PRESETS.default, [NODE20, NODE24]);
  const plain = PRESETS.default.strategies.length * PRESETS.default.depths.length * 2;
  assert.strictEqual(configs.length, plain + PRESETS.default.depths.length * 2, 'one twin per depth and runtime');
  const twins = configs.filter((c) => c.arm === 'aa');
  for (const t of twins) {
    const base = configs.find((c) => c.id === t.id.replace(/\/aa$/, ''));
    assert.ok(base && base.strategy === 'none' && t.strategy === 'none', t.id);
    assert.strictEqual(groupKey(t), groupKey(base), 'compared within its group');
    assert.notStrictEqual(t.samples, base.samples);
    assert.deepStrictEqual(t.launch, base.launch);
  }
});

test('expandConfigs: a preset with a configs list measures exactly that list, at the first depth and hop', () => {
  const p = PRESETS.frameworks;
  const configs = expandConfigs(p, [NODE20]);
  assert.deepStrictEqual(
    configs.map((c) => `${c.framework}/${c.strategy}`),
    p.configs.map((c) => `${c.framework}/${c.strategy}`),
  );
  assert.ok(configs.every((c) => c.depth === p.depths[0] && c.hop === p.hops[0]));
  const burn = expandConfigs(
    { ...p, configs: [{ framework: 'express', strategy: 'none', burnUs: 100, variant: 'A' }] },
    [NODE20],
  );
  assert.strictEqual(burn[0].id, 'express/none/d1/sync/node20/burn100/A');
  assert.strictEqual(burn[0].burnUs, 100);
});

test(
  "the model presets record each configuration's role before anything is measured: " +
    'every strategy and `none` at every fitted and held-out point, the held-out ones apart',
  () => {
    const configs = expandConfigs(PRESETS.model, [NODE24]);
    const fit = configs.filter((c) => c.role === 'fit');
    const held = configs.filter((c) => c.role === 'held-out');
    assert.strictEqual(fit.length + held.length, configs.length);
    const points = (cs) =>
      [...new Set(cs.map((c) => `d${c.depth}/${c.hop}${c.stores ? `/stores${c.stores}` : ''}`))].sort();
    assert.deepStrictEqual(points(fit), [
      'd1/immediate',
      'd2/immediate',
      'd256/immediate',
      'd64/immediate',
      'd64/nexttick',
      'd8/immediate',
    ]);
    assert.deepStrictEqual(points(held), ['d32/immediate', 'd64/await', 'd64/immediate/stores10', 'd64/mixed']);
    // A held-out point is never a fitted one, and each point has its `none` to be measured against.
    for (const c of held) assert.ok(!fit.some((x) => groupKey(x) === groupKey(c)), c.id);
    for (const key of new Set(configs.map(groupKey)))
      assert.ok(
        configs.some((c) => groupKey(c) === key && c.strategy === 'none'),
        key,
      );
    assert.strictEqual(new Set(configs.map((c) => c.strategy)).size, PRESETS.model.strategies.length);
    assert.ok(PRESETS['model-runtimes'].configs.every((c) => ['fit', 'held-out'].includes(c.role)));
  },
);

// The committed model study was measured in duet; a fresh run of the preset must measure as
// it does (one of its held-out points waits on timers, which alone would choose the pair).
test(
  'the model preset is measured in duet, every point, ' + 'and says why; a custom matrix from it follows its points',
  () => {
    const { resolveSettings } = require('../bench/cli/run');
    const s = resolveSettings({ preset: 'model' });
    assert.strictEqual(s.method, 'duet');
    assert.match(
      s.methodWhy,
      new RegExp(
        String.raw`^the model preset's method, for every point: ` +
          String.raw`its fit is of duet ratios at saturation; the HOP=mixed held-out point`,
      ),
    );
    const custom = resolveSettings({ preset: 'model', hops: 'mixed' });
    assert.strictEqual(custom.method, 'pair', custom.methodWhy);
  },
);

test('measurementOrder: every non-baseline burst is next to a baseline burst of its group, every round', () => {
  const configs = defaults();
  for (let round = 0; round < 10; round++) {
    const bursts = measurementOrder(configs, round, 'none');
    checkAdjacent(bursts, 'none');
    for (const c of configs)
      if (c.strategy !== 'none')
        assert.strictEqual(bursts.filter((b) => b.config === c).length, 1, `${c.id} once per round`);
    // 7 others per depth -> 4 baseline bursts per depth.
    assert.strictEqual(bursts.filter((b) => b.config.strategy === 'none').length, 8);
  }
});

test('measurementOrder: the configs sharing a baseline burst change from round to round', () => {
  const configs = defaults();
  const seen = new Map();
  for (let round = 0; round < 7; round++) {
    for (const [id, mates] of checkAdjacent(measurementOrder(configs, round, 'none'), 'none')) {
      if (!seen.has(id)) seen.set(id, new Set());
      for (const m of mates) seen.get(id).add(m);
    }
  }
  for (const [id, mates] of seen)
    assert.ok(mates.size >= 2, `${id} shared a baseline burst with ${[...mates].join(', ')} only`);
  // And a config is sometimes before, sometimes after its baseline.
  const als = configs.find((c) => c.id === 'express/als/d8/immediate/node20');
  const sides = new Set(
    [0, 1, 2, 3, 4, 5, 6].map((r) => {
      const bursts = measurementOrder(configs, r, 'none');
      const i = bursts.findIndex((b) => b.config === als);
      return Math.sign(bursts[i].partner - i);
    }),
  );
  assert.deepStrictEqual([...sides].sort(), [-1, 1]);
});

test(
  'measurementOrder: groups come from analysis/comparable ' + '(arms and explicit groups); no baseline, no pairing',
  () => {
    const mk = (id, arm, group) => ({ id, arm, group, strategy: 'none' });
    const configs = [mk('a1', 'ctxbench', 'g'), mk('h', 'hello-world', 'g'), mk('x', 'ctxbench', 'other')];
    const bursts = measurementOrder(configs, 0, 'hello-world');
    checkAdjacent(bursts, 'hello-world', ['x']);
    assert.strictEqual(
      bursts.find((b) => b.config.id === 'x').partner,
      null,
      'a group without a baseline is not paired',
    );
    assert.strictEqual(bursts.length, 3);
  },
);

test('roundOrder: the one rotation puts every item in every position once per cycle', () => {
  const names = ['a', 'b', 'c', 'd'];
  for (const n of names)
    assert.deepStrictEqual([0, 1, 2, 3].map((r) => roundOrder(names, r).indexOf(n)).sort(), [0, 1, 2, 3]);
  assert.deepStrictEqual(roundOrder(names, 5), ['b', 'c', 'd', 'a']);
  assert.strictEqual(require('../micro').roundOrder, roundOrder, 'micro uses the same function');
});

// Issue 76: a custom matrix given a deadline alone spends it (the preset's precision target),
// where it used to stop at the minimum of blocks whatever time was left.
test("a custom matrix given --max-time alone takes its preset's precision target; without it, none", () => {
  const { resolveSettings } = require('../bench/cli/run');
  const { PRESETS } = require('../lib/presets');
  const strategies = 'none,als,otel';
  assert.strictEqual(resolveSettings({ strategies }).precision, null);
  const budgeted = resolveSettings({ strategies, 'max-time': '150' });
  assert.strictEqual(budgeted.precision, PRESETS.default.precision);
  assert.strictEqual(budgeted.maxTime, 150);
  assert.strictEqual(resolveSettings({ strategies, 'max-time': '150', precision: '3' }).precision, 3);
});
