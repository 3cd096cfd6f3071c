'use strict';
// Settings -> the list of configurations to measure, and the order they are measured in.
const strategies = require('../../context');
const { groupConfigs, baselineFor } = require('../../analysis/comparable');
const { roundOrder } = require('../../lib/round-order');

function configId({ framework, strategy, depth, hop, nodeLabel, burnUs, stores, log, variant }) {
  const extra =
    (burnUs ? `/burn${burnUs}` : '') +
    (stores !== undefined ? `/stores${stores}` : '') +
    (log && log !== 'none' ? `/log-${log}` : '') +
    (variant ? `/${variant}` : '');
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
            (settings.logs ?? ['none']).flatMap((log) =>
              settings.strategies.map((strategy) => ({
                framework,
                strategy,
                depth,
                hop,
                ...(log !== 'none' && { log }),
              })),
            ),
          ),
        ),
      );
  return nodeTargets.flatMap((target) => points.map((p) => localConfig(p, target)));
}

// The one config factory: a point of the matrix (framework, strategy, depth, hop and the
// optional fields below) on one Node target. A point may name its own id, group and arm
// (aa, calibrate, overhead), the script to start instead of app.js (overhead's
// hello-world, strategy null) and whether ACF is expected (null: not checked).
function localConfig(p, target) {
  const info = p.strategy ? strategies.info(p.strategy) : {};
  const config = {
    id: p.id ?? configId({ ...p, nodeLabel: target.label }),
    ...(p.group !== undefined && { group: p.group }),
    ...(p.arm !== undefined && { arm: p.arm }),
    framework: p.framework,
    strategy: p.strategy,
    depth: p.depth,
    hop: p.hop,
    node: target.version,
    nodeLabel: target.label,
    acf: null,
    expectAcf: p.expectAcf !== undefined ? p.expectAcf : (target.expectAcf ?? null),
    target: null,
    ...(p.burnUs !== undefined && { burnUs: p.burnUs }),
    ...(p.stores !== undefined && { stores: p.stores }),
    ...(p.log !== undefined && { log: p.log }),
    ...(p.variant !== undefined && { variant: p.variant }),
    // The cost model's split (lib/presets.js): 'fit' or 'held-out', recorded before the fit.
    ...(p.role !== undefined && { role: p.role }),
    control: Boolean(info.control),
    ...(info.userSupplied && { userSupplied: true, strategyFile: info.file }),
    processes: [],
    status: 'ok',
    samples: [],
    summary: null,
    error: null,
  };
  Object.defineProperty(config, 'launch', {
    value: { nodePath: target.path, nodeArgs: target.args || [], ...(p.script && { script: p.script }) },
    enumerable: false,
  });
  return config;
}

// Deployed servers (--target): one config per target, or per target and depth when depths
// are given (GET /depth/N runs the chain to N whatever the deployment's DEPTH).
function remoteConfigs(targets, depths) {
  return targets.flatMap(({ name, url }) =>
    (depths || [null]).map((depth) => ({
      id: depth ? `target/${name}/d${depth}` : `target/${name}`,
      framework: null,
      strategy: strategies.names.includes(name) ? name : null,
      depth,
      hop: null,
      node: null,
      nodeLabel: 'remote',
      acf: null,
      expectAcf: null,
      target: url,
      path: depth ? `/depth/${depth}` : '/',
      control: name === 'global',
      processes: [],
      status: 'ok',
      samples: [],
      summary: null,
      error: null,
    })),
  );
}

// A config measured again under other conditions (an A/A twin, a rate of rate mode): a
// copy with its own id and arm or variant, nothing measured yet, the same launch.
function deriveConfig(config, extra) {
  const copy = { ...config, ...extra, processes: [], samples: [], summary: null, error: null };
  if (config.launch) Object.defineProperty(copy, 'launch', { value: config.launch, enumerable: false });
  return copy;
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
    out.push(deriveConfig(base, { id: `${base.id}/aa`, arm: AA_ARM }));
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
    const others = roundOrder(
      group.filter((c) => c !== base),
      round,
    );
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
    local.forEach((b, i) =>
      bursts.push({
        config: b.config,
        partner: b.partner === null ? null : offset + i + (b.partner === 'next' ? 1 : -1),
      }),
    );
  }
  return bursts;
}

module.exports = {
  configId,
  expandConfigs,
  localConfig,
  remoteConfigs,
  deriveConfig,
  withAaTwins,
  AA_ARM,
  measurementOrder,
};
