'use strict';
// results.md: the `stores` preset (STORES=N extra live AsyncLocalStorage instances per
// request, handlers/stores.js). For each runtime and strategy: server CPU per request
// and throughput at each N, and how they change from N=0, so the report can say whether
// the cost grows with N under async_hooks and under AsyncContextFrame.
const f = require('../format');
const stats = require('../../bench/stats');
const { nodeLabel } = require('../../bench/node-versions');
const { majorOf } = require('./frameworks');

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

// AsyncContextFrame against async_hooks on the same major (`--acf both`), side by side:
// per strategy and N, server CPU per request under each and async_hooks ÷ ACF. Both
// configurations ran in every block (fresh processes, same minutes), but not as adjacent
// bursts, so the unit is the block: per block the difference of the two configurations'
// mean log CPU per request, and the t-interval over blocks (stats.twoLevel).
function implementationRatio(hooks, frame) {
  const a = stats.blockLogMeans(hooks.samples, 'cpuUsPerRequest');
  const b = stats.blockLogMeans(frame.samples, 'cpuUsPerRequest');
  return stats.twoLevel([...a].filter(([block]) => b.has(block)).map(([block, m]) => ({ block, d: m - b.get(block) })));
}

function implementationsSection(configs) {
  const out = [];
  let acfDearer = false;
  const majors = [...new Set(configs.map(majorOf).filter(Boolean))];
  for (const major of majors) {
    const mine = configs.filter((c) => majorOf(c) === major);
    const frame = mine.filter((c) => c.acf === true);
    const hooks = mine.filter((c) => c.acf === false);
    const rows = [];
    for (const h of hooks) {
      const a = frame.find((c) => c.strategy === h.strategy && c.stores === h.stores);
      if (!a) continue;
      const r = implementationRatio(h, a);
      const ratioCell = f.isNum(r.estimate) ? `×${f.withCi(r.estimate, r.ci95, (x) => x.toFixed(2))}` : f.DASH;
      const frameDearer = Boolean(r.ci95) && r.ci95[1] < 1;
      acfDearer ||= frameDearer;
      const verdict = !r.ci95 ? 'not enough blocks' : r.ci95[0] > 1 ? 'async_hooks dearer' : frameDearer ? 'AsyncContextFrame dearer' : 'no clear difference';
      rows.push([h.strategy, String(h.stores), f.num(perConfig(a).cpu), f.num(perConfig(h).cpu), ratioCell, verdict]);
    }
    if (!rows.length) continue;
    const labels = [...new Set(frame.concat(hooks).map((c) => c.nodeLabel).filter(Boolean))].map(f.code).join(', ');
    out.push(f.heading(4, `Node ${major}: AsyncContextFrame vs async_hooks${labels ? ` (${labels})` : ''}`), '');
    out.push(f.table(['strategy', 'N', 'CPU µs/req, ACF', 'CPU µs/req, async_hooks', 'async_hooks ÷ ACF [95% CI]', 'verdict'], rows, ['l', 'r', 'r', 'r', 'r', 'l']), '');
  }
  if (!out.length) return '';
  return [
    f.heading(3, 'Live stores: AsyncContextFrame and async_hooks side by side'),
    '',
    'The same runtime with AsyncContextFrame (its default) and with `--no-async-context-frame` (AsyncLocalStorage on ' +
      'async_hooks), so the implementation is separated from the runtime version. CPU per request are medians across ' +
      "rounds; the ratio's interval has the block (a fresh pair of processes measured in the same minutes) as its unit: " +
      'per block the ratio of the two geometric means, t-interval over blocks.',
    '',
    ...out,
    ...(acfDearer
      ? [
          'Where AsyncContextFrame is dearer: its `run()` copies the whole frame (every store entered so far) on entry and ' +
            'again on exit, so entering N nested stores per request copies ~N² entries, while async_hooks pays per async ' +
            'resource instead. Timed without a server and the source read: docs/investigations.md, "Live stores: ' +
            'AsyncContextFrame costs more than async_hooks at 100 stores".',
          '',
        ]
      : []),
  ].join('\n');
}

// run -> markdown ('' for runs without configs carrying `stores`).
function storesSection(run) {
  const configs = (run.configs || []).filter((c) => c.stores !== undefined && c.stores !== null);
  if (!configs.length) return '';
  const asOf = (run.environment && run.environment.date) || new Date();
  const lines = [
    f.heading(3, 'Live stores: does the cost grow with N?'),
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
    lines.push(f.heading(4, `${nodeLabel(mine[0].node, asOf)}, ${implOf(mine)} (${f.code(runtime)})`), '');
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
  const sideBySide = implementationsSection(configs);
  if (sideBySide) lines.push(sideBySide, '');
  return lines.join('\n') + '\n';
}

module.exports = { storesSection };
