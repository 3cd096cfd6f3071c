'use strict';
// The frameworks page's shared vocabulary (report/sections/frameworks.js): the study's
// scenarios and ours, its published version gain, the Node groups a run's configurations
// fall in, and the cells every table of the page writes.
const { throughputLevel } = require('../../analysis');
const f = require('../format');
const references = require('../references');
const { nodeLabel } = require('../../lib/node-versions');

// The study's scenarios and ours, in the study's order, then the Express rows ctxbench adds.
// `ref` is the row label in references.platformatic.tables (null: not in the study).
const SCENARIOS = [
  { framework: 'http', strategy: 'none', name: 'Baseline (node:http)', ref: 'Baseline' },
  { framework: 'http', strategy: 'als', name: 'AsyncLocalStorage (node:http)', ref: 'AsyncLocalStorage' },
  { framework: 'fastify', strategy: 'none', name: 'Fastify base', ref: 'Fastify Base' },
  { framework: 'fastify', strategy: 'otel-full', name: 'Fastify + full OTel', ref: 'Fastify + Full OTel' },
  {
    framework: 'fastify',
    strategy: 'otel-selective',
    name: 'Fastify + selective OTel',
    ref: 'Fastify + Selective OTel',
  },
  { framework: 'express', strategy: 'none', name: 'Express base', ref: null },
  { framework: 'express', strategy: 'als', name: 'Express + AsyncLocalStorage', ref: null },
  { framework: 'express', strategy: 'otel-full', name: 'Express + full OTel', ref: null },
  { framework: 'express', strategy: 'otel-selective', name: 'Express + selective OTel', ref: null },
];
const BASELINE = { framework: 'http', strategy: 'none' };

// The study's version-comparison table ("Detailed Performance Gains by Scenario", seed
// 001_ed13693b7bd7bacc.txt), quoted as text: Node.js v22.17.1 -> v24.4.1, one run each.
// NOT our measurements. (The seed escapes the minus as "\-1.0%" for its markdown.)
const PUBLISHED_GAIN = {
  seed: '001_ed13693b7bd7bacc.txt',
  from: 22,
  to: 24,
  rows: {
    Baseline: { v22: '56,446 req/sec', v24: '57,301 req/sec', gain: '+1.5%' },
    AsyncLocalStorage: { v22: '50,913 req/sec', v24: '53,450 req/sec', gain: '+5.0%' },
    'Fastify Base': { v22: '56,737 req/sec', v24: '56,167 req/sec', gain: '-1.0%' },
    'Fastify + Full OTel': { v22: '9,931 req/sec', v24: '10,640 req/sec', gain: '+7.1%' },
    'Fastify + Selective OTel': { v22: '20,051 req/sec', v24: '20,568 req/sec', gain: '+2.6%' },
  },
};

function uniq(xs) {
  return [...new Set(xs)];
}

function majorOf(c) {
  const m = /^v?(\d+)(?:\.|$)/.exec(String(c.node || '')) || /^node(\d+)/.exec(String(c.nodeLabel || ''));
  return m ? Number(m[1]) : null;
}

function scenarioOf(c) {
  return (
    SCENARIOS.find((s) => s.framework === c.framework && s.strategy === c.strategy) || {
      framework: c.framework,
      strategy: c.strategy,
      name: `${c.framework} + ${c.strategy}`,
      ref: null,
      extra: true,
    }
  );
}

function scenarioKey(c) {
  return `${c.framework}/${c.strategy}`;
}

function validSamples(c) {
  return (c.samples || []).filter((s) => s && f.isNum(s.rps) && s.rps > 0);
}

function errorMessage(c) {
  if (!c.error) return null;
  const msg = typeof c.error === 'string' ? c.error : c.error.message || JSON.stringify(c.error);
  return String(msg).split('\n')[0];
}

// 'failed: …' | 'no data' | null (has data).
function missing(c) {
  if (!c) return 'not run';
  if (validSamples(c).length) return null;
  return c.error ? `failed: ${errorMessage(c)}` : 'no data';
}

// Node targets in the order the configs name them: one per nodeLabel (node22,
// node24-noacf, …), or per major when the JSON carries no label.
function nodeGroups(configs) {
  const groups = [];
  for (const c of configs) {
    const major = majorOf(c);
    const key = c.nodeLabel || (major !== null ? `node${major}` : `node ${c.node || '?'}`);
    let g = groups.find((x) => x.key === key);
    if (!g) {
      g = { key, major, configs: [] };
      groups.push(g);
    }
    g.configs.push(c);
  }
  for (const g of groups) {
    g.versions = uniq(g.configs.map((c) => c.node).filter(Boolean));
    g.variant = g.major !== null && g.key !== `node${g.major}` ? g.key.replace(/^node\d+/, '').replace(/^-/, '') : '';
    const order = (c) => {
      const i = SCENARIOS.findIndex((s) => s.framework === c.framework && s.strategy === c.strategy);
      return i < 0 ? SCENARIOS.length : i;
    };
    g.configs = g.configs
      .map((c, i) => ({ c, i }))
      .sort((a, b) => order(a.c) - order(b.c) || a.i - b.i)
      .map((x) => x.c);
    g.baseline = g.configs.find((c) => c.framework === BASELINE.framework && c.strategy === BASELINE.strategy) || null;
  }
  return groups;
}

function groupTitle(g) {
  const major = g.major !== null ? `Node ${g.major}` : `Node ${g.key}`;
  const eol = g.versions.map((v) => /\(end-of-life since [^)]*\)/.exec(nodeLabel(v, g.asOf))).find(Boolean);
  const versions = g.versions.length ? ` (${g.versions.join(', ')}${eol ? `; ${eol[0].slice(1, -1)}` : ''})` : '';
  const variant =
    g.variant === 'acf'
      ? ', AsyncContextFrame forced on'
      : g.variant === 'noacf'
        ? ', AsyncContextFrame forced off'
        : g.variant
          ? `, ${g.variant}`
          : '';
  return `${major}${versions}${variant}`;
}

function acfStatus(g) {
  const seen = uniq(g.configs.map((c) => c.acf).filter((a) => typeof a === 'boolean'));
  if (!seen.length) return 'not reported (no server of this version started)';
  if (seen.length > 1) return 'mixed (AsyncContextFrame in some servers, async_hooks in others)';
  return seen[0] ? 'AsyncContextFrame' : 'async_hooks (no AsyncContextFrame)';
}

function publishedTable(major) {
  if (major === null) return null;
  return (
    references.platformatic.tables.find((t) => {
      const m = /v(\d+)\./.exec(t.node);
      return m && Number(m[1]) === major;
    }) || null
  );
}

function publishedRow(table, scenario) {
  if (!table || !scenario.ref) return null;
  return table.rows.find((r) => r.label === scenario.ref) || null;
}

// The figure and its interval are of the same statistic (geometric mean).
function rpsCell(c) {
  const d = throughputLevel(c);
  const text = f.withCi(d.estimate, d.ci95);
  return validSamples(c).length === 1 ? `${text} (1 round)` : text;
}

function gainCell(r) {
  if (!r || !f.isNum(r.estimate)) return f.DASH;
  const ci = r.ci95 ? ` [${f.change(r.ci95[0])}, ${f.change(r.ci95[1])}]` : '';
  return `${f.change(r.estimate)}${ci}${r.paired === false && r.pValue !== null ? ' (unpaired)' : ''}`;
}

// One group per major for the comparison: the major's default target (label nodeNN) when
// there is one, else its first group.
function primaryGroups(groups) {
  const majors = uniq(groups.map((g) => g.major).filter((m) => m !== null)).sort((a, b) => a - b);
  return majors.map((m) => groups.find((g) => g.major === m && !g.variant) || groups.find((g) => g.major === m));
}

module.exports = {
  SCENARIOS,
  PUBLISHED_GAIN,
  uniq,
  majorOf,
  scenarioOf,
  scenarioKey,
  validSamples,
  errorMessage,
  missing,
  nodeGroups,
  groupTitle,
  acfStatus,
  publishedTable,
  publishedRow,
  rpsCell,
  gainCell,
  primaryGroups,
};
