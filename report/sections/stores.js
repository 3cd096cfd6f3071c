'use strict';
// results.md: the `stores` preset (STORES=N extra live AsyncLocalStorage instances per
// request, handlers/stores.js). For each runtime and strategy: server CPU per request
// and throughput at each N, and how they change from N=0, so the report can say whether
// the cost grows with N under async_hooks and under AsyncContextFrame.
const f = require('../format');
const stats = require('../../bench/stats');
const { nodeLabel } = require('../../bench/node-versions');

function median(xs) {
  return stats.median(xs.filter(f.isNum));
}

function perConfig(c) {
  const samples = (c.samples || []).filter((s) => s && f.isNum(s.rps) && s.rps > 0);
  return { rps: median(samples.map((s) => s.rps)), cpu: median(samples.map((s) => s.cpuUsPerRequest)), n: samples.length };
}

function implOf(configs) {
  const acf = configs.map((c) => c.acf ?? c.expectAcf).find((a) => a === true || a === false);
  return acf === true ? 'AsyncContextFrame' : acf === false ? 'async_hooks' : 'ALS implementation unknown';
}

// CPU at the largest N relative to N=0, and whether the change is beyond the round-to-round
// spread of either end (a rough, stated test: the two medians' ranges do not overlap).
function growth(byN) {
  const ns = [...byN.keys()].sort((a, b) => a - b);
  const lo = byN.get(ns[0]);
  const hi = byN.get(ns[ns.length - 1]);
  if (!lo || !hi || !f.isNum(lo.cpu) || !f.isNum(hi.cpu) || lo.cpu <= 0) return null;
  const range = (x) => [Math.min(...x.cpus), Math.max(...x.cpus)];
  const [loMin, loMax] = range(lo);
  const [hiMin, hiMax] = range(hi);
  const direction = hiMin > loMax ? 'grows' : hiMax < loMin ? 'shrinks' : null;
  return { from: ns[0], to: ns[ns.length - 1], ratio: hi.cpu / lo.cpu, direction };
}

// run -> markdown ('' for runs without configs carrying `stores`).
function storesSection(run) {
  const configs = (run.configs || []).filter((c) => c.stores !== undefined && c.stores !== null);
  if (!configs.length) return '';
  const asOf = (run.environment && run.environment.date) || new Date();
  const lines = [
    '### Live stores: does the cost grow with N?',
    '',
    'Each server kept N extra AsyncLocalStorage instances live for every request (`STORES=N`, each entered with the ' +
      "request's own value, as Node core's `benchmark/async_hooks/async-local-storage-propagate-*` do). CPU µs per request " +
      'and req/s are medians across rounds; "× N=0" compares the same strategy without extra stores. A change is called ' +
      'clear only when every round at the largest N is beyond every round at N=0.',
    '',
  ];
  const verdicts = [];
  const runtimes = [...new Set(configs.map((c) => c.nodeLabel || c.node))];
  for (const runtime of runtimes) {
    const mine = configs.filter((c) => (c.nodeLabel || c.node) === runtime);
    const ns = [...new Set(mine.map((c) => c.stores))].sort((a, b) => a - b);
    const strategies = [...new Set(mine.map((c) => c.strategy))];
    lines.push(`#### ${nodeLabel(mine[0].node, asOf)}, ${implOf(mine)} (${f.code(runtime)})`, '');
    const rows = [];
    for (const strategy of strategies) {
      const byN = new Map();
      for (const n of ns) {
        const c = mine.find((x) => x.strategy === strategy && x.stores === n);
        if (!c) continue;
        const m = perConfig(c);
        byN.set(n, { ...m, cpus: (c.samples || []).map((s) => s && s.cpuUsPerRequest).filter(f.isNum) });
      }
      const base = byN.get(ns[0]);
      const cells = ns.map((n) => {
        const m = byN.get(n);
        if (!m || !f.isNum(m.cpu)) return f.DASH;
        const times = base && f.isNum(base.cpu) && base.cpu > 0 && n !== ns[0] ? ` (×${(m.cpu / base.cpu).toFixed(2)})` : '';
        return `${m.cpu.toFixed(0)} µs, ${f.int(m.rps)}/s${times}`;
      });
      rows.push([strategy, ...cells]);
      const g = growth(byN);
      if (g) {
        verdicts.push(
          `- ${f.code(runtime)} ${strategy}: CPU per request ×${g.ratio.toFixed(2)} from N=${g.from} to N=${g.to}` +
            (g.direction ? ` — ${g.direction}, clearly beyond the round-to-round spread` : ' — no change clearly beyond the round-to-round spread'),
        );
      }
    }
    lines.push(f.table(['strategy', ...ns.map((n) => `N=${n} (CPU/req, req/s)`)], rows, ['l', ...ns.map(() => 'r')]), '');
  }
  if (verdicts.length) lines.push('What this run says:', '', ...verdicts, '');
  return lines.join('\n') + '\n';
}

module.exports = { storesSection };
