'use strict';
// Settings -> the list of configurations to measure, and the order they are measured in.
const strategies = require('../context');
const { groupConfigs, baselineFor } = require('../analysis/comparable');
const { roundOrder } = require('../lib/round-order');

function configId({ framework, strategy, depth, hop, nodeLabel, burnUs, stores, log, variant }) {
  const extra = (burnUs ? `/burn${burnUs}` : '') + (stores !== undefined ? `/stores${stores}` : '') + (log && log !== 'none' ? `/log-${log}` : '') + (variant ? `/${variant}` : '');
  return `${framework}/${strategy}/d${depth}/${hop}/${nodeLabel}${extra}`;
}

// One config per point of the matrix (or per explicit preset entry) per Node target, and
// with settings.aa the A/A twin of each group's baseline.
function expandConfigs(settings, nodeTargets) {
  const configs = matrixConfigs(settings, nodeTargets);
  return settings.aa ? withAaTwins(configs, settings.baseline) : configs;
}

function matrixConfigs(settings, nodeTargets) {
  const points = settings.configs
    ? settings.configs.map((c) => ({ depth: settings.depths[0], hop: settings.hops[0], ...c }))
    : settings.frameworks.flatMap((framework) =>
        settings.depths.flatMap((depth) =>
          settings.hops.flatMap((hop) =>
            (settings.logs ?? ['none']).flatMap((log) => settings.strategies.map((strategy) => ({ framework, strategy, depth, hop, ...(log !== 'none' && { log }) }))),
          ),
        ),
      );
  return nodeTargets.flatMap((target) =>
    points.map((p) => {
      const config = {
        id: configId({ ...p, nodeLabel: target.label }),
        framework: p.framework,
        strategy: p.strategy,
        depth: p.depth,
        hop: p.hop,
        node: target.version,
        nodeLabel: target.label,
        acf: null,
        expectAcf: target.expectAcf ?? null,
        target: null,
        ...(p.burnUs !== undefined && { burnUs: p.burnUs }),
        ...(p.stores !== undefined && { stores: p.stores }),
        ...(p.log !== undefined && { log: p.log }),
        ...(p.variant !== undefined && { variant: p.variant }),
        control: Boolean(strategies.info(p.strategy).control),
        ...(strategies.info(p.strategy).userSupplied && { userSupplied: true, strategyFile: strategies.info(p.strategy).file }),
        processes: [],
        status: 'ok',
        samples: [],
        summary: null,
        error: null,
      };
      Object.defineProperty(config, 'launch', { value: { nodePath: target.path, nodeArgs: target.args || [] }, enumerable: false });
      return config;
    }),
  );
}

// The A/A arm of a run: per group, a second process of the baseline (same strategy, arm
// 'aa') measured against it exactly as every other arm is. Nothing differs between the
// two, so its interval must cover 100%; when it does not, the method has a bias.
const AA_ARM = 'aa';

function withAaTwins(configs, baselineArm) {
  const out = [];
  for (const group of groupConfigs(configs).values()) {
    out.push(...group);
    const base = group.find((c) => (c.arm ?? c.strategy) === baselineArm);
    if (!base) continue;
    const twin = { ...base, id: `${base.id}/aa`, arm: AA_ARM, processes: [], samples: [] };
    if (base.launch) Object.defineProperty(twin, 'launch', { value: base.launch, enumerable: false });
    out.push(twin);
  }
  return out;
}

// One round's bursts: [{ config, partner }], partner = the index (in this list) of the
// baseline burst a non-baseline burst is paired with, null otherwise.
//
// Within a group (analysis/comparable.js) the non-baseline configs are rotated, then laid
// out in triples around a baseline burst: X1 B X2 X3 B X4 …, so every non-baseline burst
// sits right next to a baseline burst, with ceil(k/2) baseline bursts for k others.
// Rotating by one shifts the triple boundaries, so the config that shares a baseline
// burst with X changes from round to round (for k >= 3); odd rounds run the group
// backwards, so a config alternates between just before and just after its baseline.
function measurementOrder(configs, round, baselineArm) {
  const bursts = [];
  for (const group of groupConfigs(configs).values()) {
    const base = group.find((c) => group.some((o) => baselineFor(o, group, baselineArm) === c)) ?? null;
    const others = roundOrder(group.filter((c) => c !== base), round);
    let local = [];
    if (!base) {
      local = others.map((config) => ({ config, partner: null }));
    } else if (others.length === 0) {
      local = [{ config: base, partner: null }];
    } else {
      for (let i = 0; i < others.length; i += 2) {
        local.push({ config: others[i], partner: 'next' });
        local.push({ config: base, partner: null });
        if (others[i + 1]) local.push({ config: others[i + 1], partner: 'previous' });
      }
      if (round % 2 === 1) {
        local.reverse();
        for (const b of local) if (b.partner) b.partner = b.partner === 'next' ? 'previous' : 'next';
      }
    }
    const offset = bursts.length;
    local.forEach((b, i) => bursts.push({ config: b.config, partner: b.partner === null ? null : offset + i + (b.partner === 'next' ? 1 : -1) }));
  }
  return bursts;
}

module.exports = { configId, expandConfigs, withAaTwins, AA_ARM, measurementOrder, roundOrder };
