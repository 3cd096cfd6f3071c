'use strict';
// The headline's "Keeps the id?" column (analysis/strategy-summary.js): per strategy, what
// the widest integrity study that ran it says, by runtime, and the scenarios whose answer
// depends on the Node version or that every context strategy fails.
const { PROPAGATION, strategyInfo: info } = require('./registry');

// The integrity scenarios that are plain propagation (a call chain, fan-out, an emitter the
// request owns…): a strategy that fails one of these loses the id in everyday code. The
// other scenarios are patterns (pools, batching, workers) that need a remedy for everyone.
const FAILED = new Set(['lost', 'leaked']);

// The integrity study a strategy's column reads: of those that ran it, the widest (most
// strategy × scenario pairs: its "fails for every strategy" patterns are judged across the
// most; a study of a few scenarios for every strategy, as the Node upgrade's, is narrower
// than the full matrix).
const strategiesIn = (x) => new Set((x.run.integrity?.cells || []).map((c) => c.strategy));
const pairsIn = (x) => new Set((x.run.integrity?.cells || []).map((c) => `${c.strategy}|${c.scenario}`)).size;
const widestFirst = (studies) => [...studies].sort((a, b) => pairsIn(b) - pairsIn(a));
const integritySourceOf = (strategy, studies) =>
  widestFirst(studies).find((x) => strategiesIn(x).has(strategy)) || null;

const runtimeLabel = (c) => `${c.node}${c.acf === false && !/^node(1|20)/.test(c.node) ? ' (async_hooks)' : ''}`;

// The scenarios whose verdict for this strategy is not the same on every runtime, from
// every integrity study that ran it on more than one: [{ scenario, source, verdicts:
// [{ runtime, verdict }] }]. A runtime its package does not support ("n/a") is no answer.
function nodeDependent(strategy, studies) {
  const found = [];
  for (const study of studies) {
    const mine = (study.run.integrity?.cells || []).filter(
      (c) => c.strategy === strategy && c.verdict !== 'n/a' && c.requests > 0,
    );
    for (const scenario of [...new Set(mine.map((c) => c.scenario))]) {
      const here = mine.filter((c) => c.scenario === scenario);
      if (new Set(here.map((c) => c.verdict)).size < 2 || found.some((x) => x.scenario === scenario)) continue;
      found.push({
        scenario,
        source: { name: study.name, file: study.file },
        verdicts: here.map((c) => ({ runtime: runtimeLabel(c), acf: c.acf ?? null, verdict: c.verdict })),
        fails: failsWhere(here),
      });
    }
  }
  return found;
}

// Where a node-dependent answer fails, when the runtimes split by implementation:
// 'async_hooks' (fails on every runtime without AsyncContextFrame, kept on every one with
// it), 'AsyncContextFrame' (the reverse), else 'some runtimes'.
function failsWhere(cells) {
  const failing = (c) => FAILED.has(c.verdict);
  if (cells.every((c) => failing(c) === (c.acf === false))) return 'async_hooks';
  if (cells.every((c) => failing(c) === (c.acf === true))) return 'AsyncContextFrame';
  return 'some runtimes';
}

function idsOf(strategy, studies) {
  const ids = idsFromWidest(strategy, studies);
  if (['kept', 'broken'].includes(ids.verdict)) ids.nodeDependent = nodeDependent(strategy, widestFirst(studies));
  return ids;
}

function gatherNodeDependent(rows) {
  const groups = new Map();
  for (const r of rows) {
    for (const d of r.ids.nodeDependent || []) {
      const key = `${d.scenario}|${d.fails}`;
      if (!groups.has(key)) groups.set(key, { scenario: d.scenario, fails: d.fails, strategies: [], source: d.source });
      groups.get(key).strategies.push(r.strategy);
    }
  }
  return [...groups.values()];
}

function idsFromWidest(strategy, studies) {
  const integrity = integritySourceOf(strategy, studies);
  const i = info(strategy);
  if (i.control) return { verdict: 'control', runtimes: [], everyday: [], common: [] };
  if (i.carriesContext === false) return { verdict: 'none', runtimes: [], everyday: [], common: [] };
  const cells = integrity?.run?.integrity?.cells || [];
  const mine = cells.filter((c) => c.strategy === strategy && c.verdict !== 'n/a');
  if (!mine.length) return { verdict: 'unmeasured', runtimes: [], everyday: [], common: [] };
  // Patterns every context strategy (other than param and the control) fails: a property of
  // the pattern, not of this strategy; the summary names them once, not in every row.
  const judged = [...new Set(cells.map((c) => c.strategy))].filter(
    (st) => !info(st).control && info(st).carriesContext !== false && st !== 'param',
  );
  const scenarios = [...new Set(cells.map((c) => c.scenario))];
  const common = scenarios.filter(
    (sc) =>
      judged.length > 1 &&
      judged.every((st) => cells.some((c) => c.strategy === st && c.scenario === sc && FAILED.has(c.verdict))),
  );
  const runtimes = [];
  for (const key of [...new Set(mine.map((c) => `${c.node}|${c.acf}`))]) {
    const here = mine.filter((c) => `${c.node}|${c.acf}` === key);
    const failing = here.filter((c) => FAILED.has(c.verdict)).map((c) => c.scenario);
    runtimes.push({
      label: runtimeLabel(here[0]),
      failing,
      propagation: failing.filter((sc) => PROPAGATION.test(sc)),
      own: failing.filter((sc) => !common.includes(sc)),
      scenarios: here.length,
    });
  }
  const uniform = runtimes.every((r) => r.failing.join() === runtimes[0].failing.join());
  // The everyday patterns it fails on any runtime: the one list its ✗-alone cell and its
  // Reading both name and count (issue 76).
  const everyday = [...new Set(runtimes.flatMap((r) => r.propagation))];
  return {
    verdict: everyday.length ? 'broken' : 'kept',
    runtimes,
    everyday,
    uniform,
    common,
    source: { name: integrity.name, file: integrity.file },
  };
}

// Scenarios every context strategy fails: named once below the table, from the widest
// integrity study; a row read from a narrower one does not repeat them either (each row's
// runtimes lose them from `own`).
function commonFailures(rows, studies) {
  const widest = widestFirst(studies)[0];
  const common =
    rows.find((r) => r.ids.common?.length && r.ids.source?.file === widest?.file)?.ids.common ??
    rows.find((r) => r.ids.common?.length)?.ids.common ??
    [];
  for (const r of rows) for (const rt of r.ids.runtimes || []) rt.own = rt.own.filter((sc) => !common.includes(sc));
  return common;
}

module.exports = { FAILED, widestFirst, integritySourceOf, nodeDependent, idsOf, gatherNodeDependent, commonFailures };
