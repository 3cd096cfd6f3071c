'use strict';
// The one definition of which configurations may be compared. A config is one "arm" of
// a comparison; configs of one group differ in their arm alone. In `run` the arm is the
// strategy; commands that compare something else (calibrate: BURN_US levels, aa: two
// identical copies, overhead: ctxbench against a hello-world) set `group` and `arm` on
// their configs explicitly. The matrix orders bursts by it (an arm's sample sits next
// to its baseline's), the statistics pair samples by it and the report puts configs in
// one table by it; none of them may decide it on its own.

function armOf(config) {
  return config.arm ?? config.strategy;
}

// Everything but the arm. Deployed targets are different services reached by URL, so
// they are compared by the depth they were driven at alone.
function groupKey(config) {
  if (config.group !== undefined && config.group !== null) return String(config.group);
  if (config.target) return `remote/${config.depth ?? ''}`;
  const nodeKey = config.nodeLabel ?? config.node ?? '';
  const acfKey = config.expectAcf ?? config.acf ?? '';
  // LOG=stdout (a log line per level) is part of the work compared, like the depth.
  const log = config.log && config.log !== 'none' ? `/log-${config.log}` : '';
  return (
    [
      config.framework,
      config.depth,
      config.hop,
      nodeKey,
      acfKey,
      config.burnUs ?? 0,
      config.stores ?? 0,
      config.variant ?? '',
    ].join('/') + log
  );
}

function comparable(a, b) {
  return Boolean(a && b) && groupKey(a) === groupKey(b);
}

// The config of `config`'s group whose arm is `baselineArm` (a strategy name in `run`);
// null when there is none. A config is never its own baseline.
function baselineFor(config, configs, baselineArm) {
  if (!config || !baselineArm || armOf(config) === baselineArm) return null;
  return (
    (configs || []).find(
      (c) =>
        c &&
        c !== config &&
        (c.id === undefined || c.id !== config.id) &&
        armOf(c) === baselineArm &&
        comparable(c, config),
    ) || null
  );
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

module.exports = { armOf, groupKey, comparable, baselineFor, groupConfigs };
