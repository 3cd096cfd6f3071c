'use strict';
// The one definition of which configurations may be compared: two configs are
// comparable when they differ in strategy alone. The matrix orders bursts by it (a
// strategy's sample sits next to its baseline's), the statistics pair samples by it and
// the report puts them in one table by it; none of them may decide it on its own.

// Everything but the strategy. Deployed targets are different services reached by URL,
// so they are compared by the depth they were driven at alone.
function groupKey(config) {
  if (config.target) return `remote/${config.depth ?? ''}/${config.burnUs ?? 0}/${config.stores ?? 0}`;
  const nodeKey = config.nodeLabel ?? config.node ?? '';
  const acfKey = config.expectAcf ?? config.acf ?? '';
  return [config.framework, config.depth, config.hop, nodeKey, acfKey, config.burnUs ?? 0, config.stores ?? 0, config.variant ?? ''].join('/');
}

function comparable(a, b) {
  return Boolean(a && b) && groupKey(a) === groupKey(b);
}

// The config that differs from `config` only in being `baselineStrategy`; null when
// there is none. A config is never its own baseline.
function baselineFor(config, configs, baselineStrategy) {
  if (!config || !baselineStrategy || config.strategy === baselineStrategy) return null;
  return (configs || []).find((c) => c && c !== config && (c.id === undefined || c.id !== config.id) && c.strategy === baselineStrategy && comparable(c, config)) || null;
}

// configs -> Map(groupKey -> configs in their given order).
function groupConfigs(configs) {
  const groups = new Map();
  for (const c of configs) {
    const key = groupKey(c);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(c);
  }
  return groups;
}

module.exports = { groupKey, comparable, baselineFor, groupConfigs };
