'use strict';
// A run page's shared helpers: the order of its rows and how a row is named.
const f = require('../../format');
const { armOf } = require('../../../analysis/comparable');
const { isControl } = require('../../../analysis');

// The baseline's own row (an A/A twin has the baseline's strategy but its own arm).
const isBaselineRow = (config, baseline) => armOf(config) === baseline;

const isAaTwin = (config) => config.arm === 'aa';

const strategyCell = (c) =>
  f.code(c.strategy) +
  (isControl(c.strategy) ? ' (control)' : '') +
  (isAaTwin(c) ? ' (A/A twin)' : '') +
  (c.userSupplied ? ' (user-supplied)' : '');

function uniq(xs) {
  return [...new Set(xs)];
}

function validSamples(config) {
  return (config.samples || []).filter((s) => s && f.isNum(s.rps));
}

function strategyOrder(run) {
  const s = run.settings || {};
  const listed = Array.isArray(s.strategies) ? s.strategies : [];
  const all = uniq([...(s.baseline ? [s.baseline] : []), ...listed, ...(run.configs || []).map((c) => c.strategy)]);
  return (name) => {
    const i = all.indexOf(name);
    return i < 0 ? all.length : i;
  };
}

function orderBy(settingsList) {
  const order = Array.isArray(settingsList) ? settingsList.map(String) : [];
  return (v) => {
    const i = order.indexOf(String(v));
    return i < 0 ? order.length : i;
  };
}

function sortConfigs(run) {
  const s = run.settings || {};
  const strat = strategyOrder(run);
  const fw = orderBy(s.frameworks);
  const hop = orderBy(s.hops);
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  return [...(run.configs || [])].sort(
    (a, b) =>
      fw(a.framework) - fw(b.framework) ||
      cmp(String(a.framework), String(b.framework)) ||
      hop(a.hop) - hop(b.hop) ||
      cmp(String(a.hop), String(b.hop)) ||
      cmp(String(a.node), String(b.node)) ||
      cmp(Boolean(a.acf), Boolean(b.acf)) ||
      cmp(logOf(a), logOf(b)) ||
      (a.depth || 0) - (b.depth || 0) ||
      strat(a.strategy) - strat(b.strategy) ||
      cmp(String(a.id), String(b.id)),
  );
}

function nodeLabel(c) {
  return `${c.node || '?'}${c.acf ? ' (ACF)' : ''}`;
}

const logOf = (c) => c.log || 'none';

function groupKey(c) {
  return [c.framework, c.hop, c.node, Boolean(c.acf), logOf(c)].join('|');
}

function groupLabel(c) {
  return `${c.framework}, hop \`${c.hop}\`, Node ${nodeLabel(c)}${logOf(c) === 'none' ? '' : `, \`LOG=${logOf(c)}\``}`;
}

module.exports = {
  isBaselineRow,
  isAaTwin,
  strategyCell,
  uniq,
  validSamples,
  strategyOrder,
  sortConfigs,
  nodeLabel,
  logOf,
  groupKey,
  groupLabel,
};
