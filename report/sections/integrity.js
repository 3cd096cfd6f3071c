'use strict';
// results.md section for one `kind: "integrity"` JSON (bench/integrity/integrity.js, docs/integrity.md):
// the scenario × strategy matrix, why each failing cell fails, the remedies used, the
// memory soak, and a short guide for choosing a strategy.
const f = require('../format');
const { nodeLabel } = require('../../lib/node-versions');
const { PROPAGATION, REMEDY_PAIRS } = require('../../analysis');

const CONTROL = 'global';

function uniq(xs) {
  return [...new Set(xs)];
}

// "kept 2000" / "LEAKED 1999/2000" / "lost 2000/2000" / "n/a"
function cellText(c) {
  if (!c) return f.DASH;
  const n = c.requests;
  const extra = [];
  let text;
  switch (c.verdict) {
    case 'n/a':
      return 'n/a';
    case 'kept':
      text = `kept ${c.kept}`;
      break;
    case 'leaked':
      text = `LEAKED ${c.leaked}/${n}`;
      if (c.lost) extra.push(`lost ${c.lost}`);
      break;
    case 'lost':
      text = `lost ${c.lost}/${n}`;
      break;
    case 'errors':
      text = `errors ${c.errors}/${n}`;
      break;
    default:
      text = String(c.verdict || f.DASH);
  }
  if (c.errors && c.verdict !== 'errors') extra.push(`${c.errors} errors`);
  // OpenTelemetry SDK strategies: client spans found in another request's trace / in none.
  if (c.spans?.foreignTrace) extra.push(`${c.spans.foreignTrace}/${c.spans.checked} spans in another request's trace`);
  if (c.spans?.detached) extra.push(`${c.spans.detached}/${c.spans.checked} spans in no request's trace`);
  if (c.interrupted) extra.push('partial');
  return extra.length ? `${text} (${extra.join(', ')})` : text;
}

function strategyHeader(name) {
  return name === CONTROL ? `${name} ⚠ control` : name;
}

function implOf(acf) {
  return acf === true ? 'AsyncContextFrame' : acf === false ? 'async_hooks' : 'ALS implementation unknown';
}

// 'Node 20.20.2 (end-of-life since 2026-04-30), async_hooks' — as true on the run's date.
function targetLabel(cells, asOf) {
  const c = cells[0];
  return `${nodeLabel(c.nodeVersion || c.node, asOf)}, ${implOf(c.acf)}`;
}

// Cells whose verdict is not the same on every runtime of the run: one row per scenario
// and strategy, one column per runtime. null when the run has a single runtime.
function disagreements(cells, scenarios, strats, targets, asOf) {
  if (targets.length < 2) return null;
  const key = (c) => `${c.node}|${c.acf}`;
  const at = new Map(cells.map((c) => [`${key(c)}|${c.scenario}|${c.strategy}`, c]));
  const rows = [];
  for (const scenario of scenarios) {
    for (const strategy of strats) {
      const row = targets.map((t) => at.get(`${t}|${scenario}|${strategy}`));
      // A runtime the strategy's package does not support gave no answer to differ from.
      const seen = row.filter((c) => c && !c.unsupported);
      if (seen.length < 2 || new Set(seen.map((c) => c.verdict)).size < 2) continue;
      rows.push([f.code(scenario), strategy, ...row.map(cellText)]);
    }
  }
  const header = targets.map((t) =>
    targetLabel(
      cells.filter((c) => key(c) === t),
      asOf,
    ).replace(/ \(end-of-life since [^)]*\)/, ' (EOL)'),
  );
  if (!rows.length)
    return `All ${targets.length} runtimes give the same verdict in every cell measured on more than one of them.`;
  return [
    `${rows.length} cell` +
      `${rows.length === 1 ? '' : 's'} where the runtimes disagree (every other cell has the same verdict on ` +
      `all of them):`,
    '',
    f.table(['scenario', 'strategy', ...header], rows, ['l', 'l', ...targets.map(() => 'r')]),
  ].join('\n');
}

function matrix(cells, scenarios, strats) {
  const at = new Map(cells.map((c) => [`${c.scenario}|${c.strategy}`, c]));
  const rows = scenarios
    .filter((s) => strats.some((st) => at.has(`${s}|${st}`)))
    .map((s) => [f.code(s), ...strats.map((st) => cellText(at.get(`${s}|${st}`)))]);
  return f.table(['scenario', ...strats.map(strategyHeader)], rows, ['l', ...strats.map(() => 'r')]);
}

// One bullet per explanation, naming every failing cell it covers; the control's last.
function explanations(cells, scenarioOrder, strats) {
  const rank = (c) => [c.strategy === CONTROL ? 1 : 0, scenarioOrder.indexOf(c.scenario), strats.indexOf(c.strategy)];
  // A runtime the strategy's package does not support: one line per strategy and runtime,
  // not one entry per scenario.
  const runtimeOf = (c) => `${c.node}${c.acf === false ? ' (async_hooks)' : c.acf === true ? ' (ACF)' : ''}`;
  const notRun = new Map();
  for (const c of cells.filter((x) => x.unsupported)) {
    const key = `${c.strategy}|${c.explanation}`;
    if (!notRun.has(key)) notRun.set(key, { strategy: c.strategy, explanation: c.explanation, runtimes: new Set() });
    notRun.get(key).runtimes.add(runtimeOf(c));
  }
  const unsupported = [...notRun.values()].map(
    (g) => `- ${g.strategy}: n/a on ${[...g.runtimes].join(', ')}, every scenario (not run): ${g.explanation}.`,
  );
  const sorted = cells
    .filter((c) => c.explanation && !c.unsupported)
    .sort((a, b) => {
      const ra = rank(a);
      const rb = rank(b);
      return ra[0] - rb[0] || ra[1] - rb[1] || ra[2] - rb[2];
    });
  const groups = new Map();
  for (const c of sorted) {
    if (!groups.has(c.explanation)) groups.set(c.explanation, []);
    groups.get(c.explanation).push(c);
  }
  const runtimes = new Set(cells.map((c) => runtimeOf(c))).size;
  return [
    ...unsupported,
    ...[...groups].map(([explanation, list]) => {
      // With several runtimes, one entry per scenario × strategy naming the runtimes it failed on.
      const byCell = new Map();
      for (const c of list) {
        const key = `${c.scenario}|${c.strategy}`;
        if (!byCell.has(key)) byCell.set(key, []);
        byCell.get(key).push(c);
      }
      const who = [...byCell.values()]
        .map((same) => {
          const on =
            runtimes > 1
              ? same.length === runtimes
                ? ' on every runtime'
                : ` on ${same.map(runtimeOf).join(', ')}`
              : '';
          return `${f.code(same[0].scenario)} × ${same[0].strategy} (${cellText(same[0])}${on})`;
        })
        .join(', ');
      return `- ${who}: ${explanation}.`;
    }),
  ];
}

function remedies(cells, strats) {
  const kinds = [
    ['body-bound', 'on the data and end listeners'],
    ['emitter-bound', 'on the start-up listener'],
    ['pool-bound', 'on the callback, at acquire'],
  ].filter(([s]) => cells.some((c) => c.scenario === s));
  if (!kinds.length) return null;
  const rows = strats
    .filter((st) => cells.some((c) => c.strategy === st && c.remedy))
    .map((st) => [
      st,
      ...kinds.map(([s]) => cells.find((c) => c.strategy === st && c.scenario === s)?.remedy || f.DASH),
    ]);
  if (!rows.length) return null;
  return f.table(['strategy', ...kinds.map(([s, where]) => `${f.code(s)} (${where})`)], rows);
}

const pct = f.signedPct;

function soakFlag(s, limitPct) {
  if (!s.flagged) return `ok (≤ ${limitPct}%)`;
  const heapFlat = f.isNum(s.growth?.heapUsedPct) && s.growth.heapUsedPct <= limitPct;
  // Heap growth under the limit is not "flat" (otel-selective grew well within it:
  // docs/investigations.md, "Figures that code comments carried"): say the figure.
  return heapFlat
    ? `RSS only (${s.flags.join(', ')}); heap ${pct(s.growth.heapUsedPct)}, within ${limitPct}%`
    : `⚠ ${s.flags.join(', ')}`;
}

function soakTable(soak, limitPct) {
  const rows = soak.map((s) => [
    s.strategy + (s.strategy === CONTROL ? ' ⚠' : ''),
    s.node,
    f.int(s.requests) + (s.interrupted ? ' (partial)' : ''),
    `${f.bytes(s.before?.heapUsedBytes)} → ${f.bytes(s.after?.heapUsedBytes)}`,
    pct(s.growth?.heapUsedPct),
    `${f.bytes(s.before?.rssBytes)} → ${f.bytes(s.after?.rssBytes)}`,
    pct(s.growth?.rssPct),
    soakFlag(s, limitPct),
  ]);
  return f.table(
    ['strategy', 'node', 'requests', 'heap used (after GC)', 'growth', 'RSS (after GC)', 'growth', 'flag'],
    rows,
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
}

const READING = `### Reading the matrix

- **kept N** — every request read its own id. **LEAKED x/N** — x requests read *another request's* id (or their own
  child context's id after it ended): the worst outcome, logs and traces get attributed to the wrong request.
  **lost x/N** — x requests read no id at all. **n/a** — the strategy carries no context (\`none\`, the floor).
- One wrong read anywhere in a request fails it: a scenario reads at several points and the request reports the first
  wrong one (the JSON's \`failedReads\` says where).
- \`global\` ⚠ is a deliberately broken control, a module-level variable. It must come out LEAKED wherever requests
  interleave; it "keeps" only on \`chain-await\` and \`chain-nexttick\`, whose hops never leave the microtask queue, so
  each request finishes before the next one is parsed. That is why those two rows prove nothing on their own.
- \`*-bound\` rows apply the strategy's documented remedy (table below). A cell that is wrong without the remedy and
  right with it is a pattern your code must handle; one that is wrong in both cannot be fixed by binding.

### Choosing a strategy

- A strategy that loses or leaks the id in a **propagation** row (chains, fanout, thenable, emitter, batch,
  nested, keepalive, soak: patterns where the context should simply follow the code) is not safe for request
  context, whatever it costs.
- Rows that are wrong for every context strategy (typically the body listeners, a shared pool's callbacks and a
  shared batch function) follow the code that *fires* the callback, not the request. Bind such callbacks where the
  request's context is active (the \`*-bound\` rows); never bind a listener registered at start-up
  (\`emitter-bound\`): that pins the start-up context. A batch function shared by several requests cannot have one
  right id at all: pass what each key needs with the key.
- \`param\` (the id passed explicitly) is immune to everything but the shared batch function, by construction — at
  the price of threading the id through every call.
- Check the **soak**: heap used after a forced GC should not grow with the number of requests served.`;

// What this run says, strategy by strategy (context strategies other than the control).
function verdicts(cells, strats) {
  const lines = [];
  const bad = (c) => c && ['lost', 'leaked'].includes(c.verdict);
  const at = (st, sc) => cells.find((c) => c.strategy === st && c.scenario === sc);
  const judged = strats.filter((st) => st !== CONTROL && cells.some((c) => c.strategy === st && c.verdict !== 'n/a'));
  const clean = [];
  for (const st of judged) {
    const failures = cells.filter((c) => c.strategy === st && PROPAGATION.test(c.scenario) && bad(c));
    if (failures.length)
      lines.push(
        `- **${st}** lost or leaked the id in propagation rows: ` +
          `${failures.map((c) => `${f.code(c.scenario)} (${cellText(c)})`).join(', ')}.`,
      );
    else if (cells.some((c) => c.strategy === st && PROPAGATION.test(c.scenario))) clean.push(st);
  }
  if (clean.length)
    lines.unshift(`- Kept the id in every propagation row measured: ${clean.map((st) => `**${st}**`).join(', ')}.`);
  for (const [plain, bound] of REMEDY_PAIRS) {
    const fixed = judged.filter((st) => bad(at(st, plain)) && at(st, bound)?.verdict === 'kept');
    const broken = judged.filter((st) => !bad(at(st, plain)) && at(st, plain) && bad(at(st, bound)));
    if (fixed.length)
      lines.push(
        `- ${f.code(plain)} is wrong and ${f.code(bound)} right for ${fixed.join(', ')}: the remedy is ` +
          `needed, and works.`,
      );
    if (broken.length)
      lines.push(
        `- ${f.code(plain)} is right and ${f.code(bound)} wrong for ${broken.join(', ')}: here the remedy does harm.`,
      );
  }
  const everyone = judged.filter((st) => st !== 'param');
  const allBad = uniq(cells.map((c) => c.scenario)).filter(
    (sc) => everyone.length > 1 && everyone.every((st) => bad(at(st, sc))),
  );
  if (allBad.length) lines.push(`- Wrong for every context strategy: ${allBad.map(f.code).join(', ')}.`);
  return lines;
}

// The section's heading, where the run came from, what each cell is and the machine.
function headerLines(run, ctx) {
  const s = run.settings || {};
  const lines = [f.heading(2, run.title || 'Context integrity'), ''];
  const meta = ['kind `integrity`'];
  if (ctx.file) meta.push(`from ${f.code(ctx.file)}`);
  if (run.status) meta.push(`status ${run.status}`);
  // The servers the I/O scenarios ran against, by version.
  for (const server of [run.learned?.mysql, run.learned?.redis])
    if (server?.server) meta.push(`against ${server.server}`);
  lines.push(`*${meta.join(' · ')}*`, '');
  if (run.command) lines.push(f.fence(run.command, 'sh'), '');
  const e = run.environment || {};
  lines.push(
    `Each cell: ${f.int(s.requests)} requests with distinct trace ids, ${f.int(s.concurrency)} in flight, ` +
      `against a fresh ` +
      `${s.framework || 'express'} server per strategy (the real app, behind its real context middleware). ` +
      `Machine: ${e.cpuModel || '?'}, ${e.cores ?? '?'} cores, ${e.os || e.platform || '?'}` +
      `${e.commit ? `; ctxbench ${f.code(e.commit)}${e.dirty ? ' (uncommitted changes)' : ''}` : ''}. ` +
      // A verdict is a count of answers, not an interval; a second run is the same command again.
      'A single run: its verdicts are counts of answers in this run (the same command again is a second run).',
    '',
  );
  if (run.status === 'interrupted')
    lines.push('> ⚠ This run was interrupted: the cells below are what it measured before it stopped.', '');
  return lines;
}

// The memory soak: what was run, and its table.
function soakLines(s, soak) {
  const limit = s.soakGrowthLimitPct ?? 20;
  return [
    f.heading(3, 'Memory soak'),
    '',
    `${f.int(s.soakRequests)} requests of the mixed chain per strategy (` +
      `${f.int(s.concurrency)} in flight), in a fresh server ` +
      `started with \`--expose-gc\`; memory read after a forced GC following a warm-up, and again at the ` +
      `end. Growth ` +
      `over ${limit}% is flagged. Heap used is the leak signal; RSS also moves with how much heap V8 keeps ` +
      `reserved ` +
      'after a busy spell, so an RSS flag alone, with heap growth within the limit, is not a leak.',
    '',
    soakTable(soak, limit),
    '',
  ];
}

function render(run, ctx = {}) {
  const data = run.integrity || {};
  const cells = Array.isArray(data.cells) ? data.cells : [];
  const s = run.settings || {};
  const lines = headerLines(run, ctx);
  const e = run.environment || {};

  const scenarioOrder = uniq([...(data.scenarios || []).map((x) => x.name), ...cells.map((c) => c.scenario)]).filter(
    (n) => n !== 'soak' || cells.some((c) => c.scenario === 'soak'),
  );
  const strats = uniq([...(s.strategies || []), ...cells.map((c) => c.strategy)]).filter((st) =>
    cells.some((c) => c.strategy === st),
  );
  const targets = uniq(cells.map((c) => `${c.node}|${c.acf}`));
  if (!cells.length) lines.push('No cell was measured.', '');
  const asOf = e.date || new Date();
  for (const t of targets) {
    const tc = cells.filter((c) => `${c.node}|${c.acf}` === t);
    lines.push(f.heading(3, `Matrix — ${targetLabel(tc, asOf)}`), '', matrix(tc, scenarioOrder, strats), '');
  }
  const differ = disagreements(cells, scenarioOrder, strats, targets, asOf);
  if (differ) lines.push(f.heading(3, 'Where the runtimes disagree'), '', differ, '');

  const why = explanations(cells, scenarioOrder, strats);
  if (why.length) lines.push(f.heading(3, 'Why the failing cells fail'), '', ...why, '');

  const rem = remedies(cells, strats);
  if (rem) lines.push(f.heading(3, 'Remedies used by the `*-bound` scenarios'), '', rem, '');

  const soak = Array.isArray(data.soak) ? data.soak : [];
  if (soak.length) lines.push(...soakLines(s, soak));

  const scen = (data.scenarios || []).filter((x) => x.describe);
  if (scen.length)
    lines.push(f.heading(3, 'Scenarios'), '', ...scen.map((x) => `- ${f.code(x.name)} — ${x.describe}`), '');

  const errors = Array.isArray(data.errors) ? data.errors : [];
  if (errors.length) {
    lines.push(
      f.heading(3, 'Servers that failed'),
      '',
      ...errors.map((x) => `- ${x.node} ${x.strategy} (${x.purpose}): ${f.cell(x.message)}`),
      '',
    );
  }
  const warnings = Array.isArray(run.warnings) ? run.warnings : [];
  if (warnings.length) lines.push(...warnings.map((w) => `> ⚠ ${w}`), '');

  const summary = verdicts(cells, strats);
  if (summary.length) lines.push(f.heading(3, 'What this run says'), '', ...summary, '');

  lines.push(READING);
  return lines.join('\n') + '\n';
}

module.exports = { render, cellText, disagreements };
