'use strict';
// Settings -> the list of configurations to measure, and the order they are measured in.
const strategies = require('../context');

function configId({ framework, strategy, depth, hop, nodeLabel, burnUs, stores, variant }) {
  const extra = (burnUs ? `/burn${burnUs}` : '') + (stores !== undefined ? `/stores${stores}` : '') + (variant ? `/${variant}` : '');
  return `${framework}/${strategy}/d${depth}/${hop}/${nodeLabel}${extra}`;
}

// One config per point of the matrix (or per explicit preset entry) per Node target.
function expandConfigs(settings, nodeTargets) {
  const points = settings.configs
    ? settings.configs.map((c) => ({ depth: settings.depths[0], hop: settings.hops[0], ...c }))
    : settings.frameworks.flatMap((framework) =>
        settings.depths.flatMap((depth) =>
          settings.hops.flatMap((hop) => settings.strategies.map((strategy) => ({ framework, strategy, depth, hop }))),
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
        ...(p.variant !== undefined && { variant: p.variant }),
        control: Boolean(strategies.info(p.strategy).control),
        samples: [],
        summary: null,
        error: null,
      };
      Object.defineProperty(config, 'launch', { value: { nodePath: target.path, nodeArgs: target.args || [] }, enumerable: false });
      return config;
    }),
  );
}

// Configs that share everything but the strategy are compared with each other, so they
// are measured back to back within a round; the order inside the group rotates every
// round so no strategy always goes first (or always follows a given neighbour).
function measurementOrder(configs, round) {
  const groups = new Map();
  for (const c of configs) {
    // Deployed targets are grouped by depth alone: each is a different service.
    const key = c.target ? `remote/${c.depth}` : `${c.framework}/${c.depth}/${c.hop}/${c.nodeLabel}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(c);
  }
  return [...groups.values()].flatMap((group) => {
    const shift = round % group.length;
    return [...group.slice(shift), ...group.slice(0, shift)];
  });
}

module.exports = { configId, expandConfigs, measurementOrder };
