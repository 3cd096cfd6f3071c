'use strict';
// results.md: the `stores` preset (STORES=N extra live AsyncLocalStorage instances per
// request, handlers/stores.js). For each runtime and strategy: server CPU per request
// and throughput at each N, and how they change from N=0, so the report can say whether
// the cost grows with N under async_hooks and under AsyncContextFrame. The figures come
// from analysis/index.js analyzeStores; this file formats them.
const f = require('../format');
const { nodeLabel } = require('../../lib/node-versions');
const { analyzeStores } = require('../../analysis');

// Which implementation analyzeStores found clearly dearer, in the table's words.
const dearerText = (d) => (d === null ? 'not enough blocks' : d === 'neither' ? 'no clear difference' : `${d} dearer`);

function implementationsSection(analysis) {
  const out = [];
  for (const { major, labels, rows } of analysis.implementations) {
    const body = rows.map((r) => {
      const ratioCell = f.isNum(r.ratio.estimate)
        ? `×${f.withCi(r.ratio.estimate, r.ratio.ci95, (x) => x.toFixed(2))}`
        : f.DASH;
      return [r.strategy, String(r.stores), f.num(r.cpuFrame), f.num(r.cpuHooks), ratioCell, dearerText(r.dearer)];
    });
    const named = labels.map(f.code).join(', ');
    out.push(f.heading(4, `Node ${major}: AsyncContextFrame vs async_hooks${named ? ` (${named})` : ''}`), '');
    out.push(
      f.table(
        ['strategy', 'N', 'CPU µs/req, ACF', 'CPU µs/req, async_hooks', 'async_hooks ÷ ACF [95% CI]', 'verdict'],
        body,
        ['l', 'r', 'r', 'r', 'r', 'l'],
      ),
      '',
    );
  }
  if (!out.length) return '';
  return [
    f.heading(3, 'Live stores: AsyncContextFrame and async_hooks side by side'),
    '',
    'The same runtime with AsyncContextFrame (its default) and with `--no-async-context-frame` (AsyncLocalStorage on ' +
      'async_hooks), so the implementation is separated from the runtime version. CPU per request are medians across ' +
      "rounds; the ratio's interval has the block (a fresh pair of processes measured in the same minutes) as " +
      'its unit: ' +
      'per block the ratio of the two geometric means, t-interval over blocks.',
    '',
    ...out,
    ...(analysis.acfDearer
      ? [
          'Where AsyncContextFrame is dearer: its `run()` copies the whole frame (every store entered so far) ' +
            'on entry and ' +
            'again on exit, so entering N nested stores per request copies ~N² entries, while async_hooks ' +
            'pays per async ' +
            'resource instead. Timed without a server and the source read: docs/investigations.md, "Live stores: ' +
            'AsyncContextFrame costs more than async_hooks at 100 stores".',
          '',
        ]
      : []),
  ].join('\n');
}

// run -> markdown ('' for runs without configs carrying `stores`).
function storesSection(run) {
  const analysis = analyzeStores(run);
  if (!analysis) return '';
  const asOf = (run.environment && run.environment.date) || new Date();
  const lines = [
    f.heading(3, 'Live stores: does the cost grow with N?'),
    '',
    'Each server kept N extra AsyncLocalStorage instances live for every request (`STORES=N`, each entered with the ' +
      "request's own value, as Node core's `benchmark/async_hooks/async-local-storage-propagate-*` do). CPU " +
      'µs per request ' +
      'and req/s are medians across rounds; "× N=0" compares the same strategy without extra stores. A change ' +
      'is called ' +
      'clear only when every round at the largest N is beyond every round at N=0.',
    '',
  ];
  const verdicts = [];
  for (const { runtime, node, implementation, ns, rows } of analysis.runtimes) {
    const named = implementation ?? 'ALS implementation unknown';
    lines.push(f.heading(4, `${nodeLabel(node, asOf)}, ${named} (${f.code(runtime)})`), '');
    const body = rows.map(({ strategy, levels, growth }) => {
      if (growth) {
        verdicts.push(
          `- ${f.code(runtime)} ${strategy}: CPU per request ×${growth.ratio.toFixed(2)} from ` +
            `N=${growth.from} to N=${growth.to}` +
            (growth.direction
              ? ` — ${growth.direction}, clearly beyond the round-to-round spread`
              : ' — no change clearly beyond the round-to-round spread'),
        );
      }
      return [
        strategy,
        ...levels.map((m) =>
          !f.isNum(m.cpu)
            ? f.DASH
            : `${m.cpu.toFixed(0)} µs, ${f.int(m.rps)}/s${f.isNum(m.times) ? ` (×${m.times.toFixed(2)})` : ''}`,
        ),
      ];
    });
    lines.push(
      f.table(['strategy', ...ns.map((n) => `N=${n} (CPU/req, req/s)`)], body, ['l', ...ns.map(() => 'r')]),
      '',
    );
  }
  if (verdicts.length) lines.push('What this run says:', '', ...verdicts, '');
  const sideBySide = implementationsSection(analysis);
  if (sideBySide) lines.push(sideBySide, '');
  return lines.join('\n') + '\n';
}

module.exports = { storesSection };
