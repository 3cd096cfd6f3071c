'use strict';
// "What each strategy costs": the table that leads results.md and results/index.html,
// formatted from analysis/index.js strategySummary() (cells: text plus the study page
// each figure comes from). The markdown and the HTML share these cells.
const f = require('./format');
const { cannotServeText, latencyVerdictText } = require('./verdict-text');

// At most this many scenarios are named in a cell; the rest are counted ("+3 more") and
// named on the integrity study's page the cell links to.
const NAMED = 3;
const named = (list, more = 0) => {
  const rest = Math.max(0, list.length - NAMED) + more;
  return `${list.slice(0, NAMED).join(', ')}${rest ? ` (+${rest} more)` : ''}`;
};

// A cell's length budget (issue 62: a headline read in a minute); longer detail is the
// study page's.
const CELL_CHARS = 100;

function idsText(ids) {
  if (ids.verdict === 'control') return '⚠ leaks (control)';
  if (ids.verdict === 'none') return 'n/a (no context)';
  if (ids.verdict === 'unmeasured') return 'not checked';
  const broken = ids.verdict === 'broken';
  const others = (r) => r.failing.filter((sc) => !r.propagation.includes(sc) && !ids.common.includes(sc));
  const one = (r) =>
    broken ? `✗ ${named(r.propagation, others(r).length)}` : r.own.length ? `✓ · ✗ ${named(r.own)}` : '✓';
  // Per runtime already shows the column's own study's differences; the rest are said here.
  const more = (ids.nodeDependent || []).filter(
    (d) => ids.uniform || ids.runtimes.length === 1 || d.source.file !== ids.source?.file,
  );
  const byNode = more.length ? ` · depends on Node: ${named(more.map((d) => d.scenario))}` : '';
  if (ids.uniform || ids.runtimes.length === 1) return one(ids.runtimes[0]) + byNode;
  const perRuntime = ids.runtimes.map((r) => `${r.label}: ${one(r)}`).join('; ') + byNode;
  if (perRuntime.length <= CELL_CHARS) return perRuntime;
  // Too long runtime by runtime: what fails on any of them, the split on the study's page.
  const union = (pick) => [...new Set(ids.runtimes.flatMap(pick))];
  const all = {
    failing: union((r) => r.failing),
    propagation: union((r) => r.propagation),
    own: union((r) => r.own),
  };
  return `${one(all)} · differs by runtime${byNode}`;
}

// The settings two disagreeing cells differ in (analysis/strategy-summary.js disagreements), by name.
const SETTING_LABELS = {
  hop: 'hop',
  method: 'method',
  quantity: 'measures',
  baseline: 'baseline',
  stores: 'live stores',
  node: 'Node',
  acf: 'AsyncContextFrame',
  connections: 'connections',
};

const FAILS_WHERE = {
  async_hooks: 'fails on async_hooks (Node 20; 22, 24 and 26 with AsyncContextFrame off), kept with AsyncContextFrame',
  AsyncContextFrame: 'fails with AsyncContextFrame, kept on async_hooks',
  'some runtimes': 'fails on some runtimes, not split by AsyncContextFrame',
};

function ratioText(cell) {
  if (!cell) return null;
  if (cell.kind === 'baseline') return 'baseline';
  if (cell.cannotServe) return cannotServeText(cell.cannotServe);
  if (!f.isNum(cell.estimate)) return cell.verdict ?? f.DASH;
  return f.withCi(cell.estimate, cell.interval, f.pctOf);
}

function msText(cell) {
  if (!cell) return null;
  if (cell.kind === 'baseline') return 'baseline';
  if (!f.isNum(cell.estimate)) {
    if (cell.broken) return 'context broken';
    if (cell.candidateHeld === false && cell.baselineHeld)
      return (
        `cannot serve ` +
        (cell.settings.load !== null && cell.settings.load !== undefined
          ? `${Math.round(cell.settings.load * 100)}% of ${f.code(cell.settings.baseline)}'s capacity`
          : `${f.int(cell.settings.rate)} req/s`)
      );
    if (cell.generatorBound) return `generator-bound (${f.num(cell.latenessP99)} ms late at p99)`;
    if (cell.fewBlocks)
      return `too few blocks (${cell.fewBlocks.n} of ${cell.fewBlocks.of} with the generator on time)`;
    return cell.rateHeld === false ? 'rate not held' : (latencyVerdictText(cell.judgement) ?? 'no latency figure');
  }
  const sign = (x) => (x > 0 ? '+' : x < 0 ? '−' : '') + f.num(Math.abs(x));
  return cell.interval
    ? `${sign(cell.estimate)} ms [${sign(cell.interval[0])}…${sign(cell.interval[1])}]`
    : `${sign(cell.estimate)} ms`;
}

const costPct = (r) => `${Math.abs((1 - r) * 100).toFixed(1)}%`;

// The id verdict the Reading gives, in the words of the ✓ definition (the everyday
// patterns: analysis/registry.js PROPAGATION), never "every pattern".
const KEEPS = 'keeps the id in everyday code';

// The one-line Reading of a row: analysis/strategy-summary.js findingsOf decided what its
// figures say; this writes it, in a few words: the cost at each depth, then the id verdict.
// marginPct: the equivalence margin the findings were judged at.
function readingText(fd, marginPct = null) {
  if (fd.kind === 'baseline')
    return `The baseline: every figure in this table is measured against it.${fd.carriesContext ? '' : ' No context.'}`;
  if (fd.kind === 'control')
    return (
      `Control: must leak` +
      `${fd.leaks ? ` (it did: ${fd.leaks.toLocaleString('en-US')} answers carried another request's id)` : ''}` +
      `; not an option.`
    );
  if (fd.kind === 'floor') return 'The floor: no context at all; every other row is measured against it.';
  if (fd.kind === 'broken')
    return (
      `Loses or leaks the id in everyday code` +
      `${fd.where.length ? ` (${named(fd.where).replace(/ \(\+(\d+) more\)$/, ' and $1 more')})` : ''}: not safe.`
    );
  const m = `±${fd.costs.find((c) => c.equivalence)?.equivalence.marginPct ?? marginPct}%`;
  const unreproduced = (c) => fd.unreproduced.find((u) => u.depth === c.depth);
  const part = (c) => {
    const outcome = c.equivalence?.outcome;
    const tell = outcome === 'cannot tell' ? ` (cannot tell within ${m})` : '';
    const u = unreproduced(c);
    const held = u ? ` (not reproduced: ${f.pctOf(u.otherEstimate)})` : '';
    if (outcome === 'equivalent') return { within: true, text: `within ${m} at depth ${c.depth}${held}` };
    if (!c.significant) return { text: `no measurable cost at depth ${c.depth}${tell}${held}` };
    return c.estimate < 1
      ? { costs: true, text: `costs ${costPct(c.estimate)} at depth ${c.depth}${tell}${held}` }
      : { text: `${costPct(c.estimate)} cheaper at depth ${c.depth}${held}` };
  };
  const parts = fd.costs.map(part);
  let cost;
  if (parts.length && parts.every((x) => x.within)) {
    const held = fd.unreproduced.map((u) => ` (depth ${u.depth} not reproduced: ${f.pctOf(u.otherEstimate)})`);
    const depths = fd.costs.map((c) => c.depth);
    cost =
      `within ${m} of the baseline at depth${depths.length > 1 ? 's' : ''} ` +
      `${depths.slice(0, -1).join(', ')}${depths.length > 1 ? ' and ' : ''}${depths.at(-1)}${held.join('')}`;
  } else if (parts.length) {
    // "costs 2.1% at depth 8, 2.8% at depth 256": the verb once.
    cost = parts.map((x, i) => (i > 0 && x.costs && parts[i - 1].costs ? x.text.replace(/^costs /, '') : x.text));
    cost = `${fd.expensive ? 'expensive: ' : ''}${cost.join(', ')}${fd.grows ? ', growing with depth' : ''}`;
  } else if (fd.elsewhere.length) {
    cost = 'cost measured on another machine (its study page)';
  }
  const clauses = [cost, fd.keepsId ? KEEPS : null].filter(Boolean);
  if (!clauses.length) return 'Not measured by the studies this summary reads.';
  const text = clauses.join('; ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

const pct = (x) => `${Math.round(x * 100)}%`;
const on = (col) => (col?.machine ? ` Measured on ${col.machine}.` : '');

// The words of each figure column analysis/strategy-summary.js FIGURE_COLUMNS declares, by
// its key: its short title, its cell, its note under the table (what it measures, on which
// machine), and the picture's panel for a % column. A column added there is worded here.
const COLUMN_TEXT = {
  shallow: {
    title: (summary) => `Depth ${summary.depths.shallow}`,
    panel: (summary) => `CPU, depth ${summary.depths.shallow}`,
    note: (summary, col) => {
      const s = summary.settings;
      const method =
        s.method === 'duet'
          ? 'CPU per request in a duet, the strategy and a fresh baseline process under load at once on one CPU'
          : s.method === 'instructions'
            ? 'instructions per request'
            : 'throughput';
      return (
        `Depth ${summary.depths.shallow}: the default run at ${summary.depths.shallow} nested calls, HOP=${s.hop}, ` +
        `Node ${s.node}: ${method}, as % of ${f.code(summary.baseline)} [95% CI]; read it like ` +
        `throughput on one CPU: 95% = about 5% more CPU per request.${on(col)}`
      );
    },
  },
  deep: {
    title: (summary) => `Depth ${summary.depths.deep}`,
    panel: (summary) => `CPU, depth ${summary.depths.deep}`,
    note: (summary, col) =>
      `Depth ${summary.depths.deep}: the same run and measure at ${summary.depths.deep} nested calls.${on(col)}`,
  },
  io: {
    title: () => 'Real I/O',
    panel: (summary) => `Real I/O (${summary.settings.io.hop}), CPU`,
    note: (summary, col) => {
      const io = summary.settings.io;
      return io.method === 'pair'
        ? `Real I/O: every level a real round trip (\`HOP=${io.hop}\`, depth ${io.depth}; the study's page has ` +
            `the other drivers), CPU per request of the strategy and a fresh ${f.code(io.baseline)} process ` +
            `sent the same open-loop schedule at once at ${pct(io.load ?? 0)} of ${f.code(io.baseline)}'s ` +
            `capacity, as % of it, read like the depth columns; "cannot serve": the strategy fell behind a rate ` +
            `${f.code(io.baseline)} kept.${on(col)}`
        : `Real I/O: \`HOP=${io.hop}\` (depth ${io.depth}), throughput of each configuration alone, ` +
            `sequential blocks, as % of ${f.code(io.baseline)}.${on(col)}`;
    },
  },
  latency: {
    title: () => 'p99 added',
    note: (summary, col) => {
      const l = summary.settings.latency;
      return l.method === 'pair'
        ? `p99 added (ms): the strategy's p99 minus a fresh ${f.code(l.baseline)} process's on the same ` +
            `open-loop schedule at once (HOP=${l.hop}, depth ${l.depth}), at ${pct(l.load)} of ` +
            `${f.code(l.baseline)}'s ` +
            (l.knee ? `open-loop knee${l.instance ? ` on ${l.instance} stand-ins` : ''}` : 'capacity in a pair') +
            `, paired by block over the blocks in which the load generator's own lateness p99 was at most 1 ` +
            `ms [95% CI]; "cannot serve": the strategy fell behind a rate ${f.code(l.baseline)} kept, which is ` +
            `the answer; "generator-bound" / "too few blocks": the generator was late, no latency published ` +
            `(docs/method.md).${on(col)}`
        : `p99 added (ms): open-loop load at ${pct(l.load)} of the baseline's capacity (depth ${l.depth}, vs ` +
            `${f.code(l.baseline)}); "rate not held": the server or its baseline fell behind.${on(col)}`;
    },
  },
  deploy: {
    title: ({ settings: { deployment: d } }) => `${d.instance} at its autoscaling target (depth ${d.depth})`,
    panel: (summary) => `${summary.settings.deployment.instance} at its autoscaling target`,
    note: (summary, col) => deploymentNote(summary, col),
  },
  stores: {
    title: (summary) => `${summary.settings.stores.stores} live stores`,
    panel: (summary) => `${summary.settings.stores.stores} live stores`,
    note: (summary, col) =>
      `${summary.settings.stores.stores} live stores: ${summary.settings.stores.stores} other AsyncLocalStorage ` +
      `instances alive, Node ${summary.settings.stores.node}, as % of ${f.code(summary.settings.stores.baseline)}.` +
      `${on(col)}`,
  },
};

function deploymentNote(summary, col) {
  const d = summary.settings.deployment;
  const target = `${Math.round((d.targetCpu ?? 0) * 100)}%`;
  // The tail there is the study page's: pooled over blocks, a p99 under CFS throttling is set
  // by the stalls a block catches or not, and its interval is that wide.
  const widths = summary.rows
    .flatMap((r) => (r.deploy?.p99 ? [[r.deploy.p99.candidate, r.deploy.p99.candidateCi]] : []))
    .filter(([p, ci]) => p > 0 && ci)
    .map(([p, ci]) => Math.max(p - ci[0], ci[1] - p) / p);
  const tail = widths.length
    ? ` The p99 each side's users see there is on the study page, not here: pooled over the blocks its 95% ` +
      `intervals reach ±${Math.round(Math.max(...widths) * 100)}% of the figure (a throttled period stalls a ` +
      'server, and a block catches such stalls or not).'
    : '';
  const moved = summary.rows.filter((r) => r.deploy?.movesWithBase).map((r) => f.code(r.strategy));
  const marked = moved.length
    ? ` ⚠ (${moved.join(', ')}): ${moved.length > 1 ? 'their' : 'its'} blocks' figures followed ` +
      `${f.code(d.baseline)}'s CPU per request there from block to block, so ${moved.length > 1 ? 'their' : 'its'} ` +
      "interval holds for this run's mix of machine states, not for every run on this machine (the study page " +
      'gives the slope).'
    : '';
  const unheld = summary.rows.some((r) => r.deploy?.repro && !r.deploy.repro.consistent)
    ? ' "not reproduced": the study\'s second run on the same machine read the figure given, a difference ' +
      "beyond what both runs' noise explains (the study's repro page)."
    : '';
  return (
    `${d.instance} at its autoscaling target (depth ${d.depth}): each strategy and a fresh ${f.code(d.baseline)} ` +
    `process on ${d.instance} stand-ins (${(d.periodUs / 1000).toLocaleString('en-US')}-ms CFS period; ` +
    `docs/deploy.md) sent open-loop load at once, ${f.code(d.baseline)} at the rate at which it uses ${target} of ` +
    `its quota (App Engine's default CPU target) and the strategy there or, where it cannot keep that one, at ` +
    `its own: ${f.code(d.baseline)}'s CPU per request ÷ the strategy's in the same windows, its throughput per ` +
    `instance at the same target, read like the depth columns [95% CI]. It is not their figure: there a ` +
    `stand-in serves a few hundred requests a second on a quarter of a CPU and spends several times the CPU a ` +
    `request it spends at saturation, so a strategy's extra CPU is another share of it (docs/deploy.md). That ` +
    'share depends on the machine too: what a lightly loaded request costs differs between machines and, on ' +
    "some, from block to block, and the dearer strategies' figures move with it (the study page marks where), " +
    'so the figure holds on the machine named here, not on every one (docs/deploy.md).' +
    `${marked}${unheld}${tail}${on(col)}`
  );
}

// Throughput per instance at the target (its tail is the study page's: deploymentNote).
function deployText(cell) {
  if (!cell) return null;
  if (cell.kind === 'baseline') return 'baseline';
  if (!f.isNum(cell.estimate)) return cell.verdict ?? f.DASH;
  const held = cell.repro && !cell.repro.consistent ? ` (not reproduced: ${f.pctOf(cell.repro.otherEstimate)})` : '';
  return `${f.withCi(cell.estimate, cell.interval, f.pctOf)}${cell.movesWithBase ? ' ⚠' : ''}${held}`;
}

const CELL_TEXT = { latency: msText, deploy: deployText };

// The figure columns the headline shows, in their declared order.
const shownColumns = (summary) => (summary.columns || []).filter((c) => c.shown);

// columns(summary) -> [{ key, title, align, cell(row) -> { text, source?, sort? } }]: the
// headline's columns, Strategy and Keeps the id? first, the Reading last.
function columns(summary) {
  const cols = [
    {
      key: 'strategy',
      title: 'Strategy',
      align: 'l',
      cell: (r) => ({
        text: f.code(r.strategy) + (r.control ? ' (control)' : '') + (r.userSupplied ? ' (user-supplied)' : ''),
        sort: r.strategy,
      }),
    },
    {
      key: 'ids',
      title: 'Keeps the id?',
      align: 'l',
      cell: (r) => ({
        text: idsText(r.ids),
        source: r.ids.source,
        sort: { kept: 0, none: 1, unmeasured: 2, broken: 3, control: 4 }[r.ids.verdict],
      }),
    },
  ];
  for (const col of shownColumns(summary)) {
    const text = CELL_TEXT[col.key] ?? ratioText;
    cols.push({
      key: col.key,
      title: COLUMN_TEXT[col.key].title(summary),
      align: 'r',
      cell: (r) =>
        r[col.key]
          ? { text: text(r[col.key]), source: r[col.key].source, sort: r[col.key].estimate ?? 1 }
          : { text: null },
    });
  }
  cols.push({
    key: 'reading',
    title: 'Reading',
    align: 'l',
    cell: (r) => ({ text: readingText(r.findings, summary.settings.marginPct) }),
  });
  return cols;
}

// The opening picture's points (criterion's way: the change and its interval before the
// table): every figure of a % column the headline shows, as [{ strategy, panel, estimate,
// lo, hi }], one panel per such column, the strategies in the table's order. Cells without
// a figure ("cannot serve", the baseline) are not points.
function picturePoints(summary) {
  const panels = shownColumns(summary)
    .filter((c) => c.unit === '%' && COLUMN_TEXT[c.key].panel)
    .map((c) => [c.key, COLUMN_TEXT[c.key].panel(summary)]);
  const points = [];
  for (const r of summary.rows) {
    for (const [key, panel] of panels) {
      const cell = r[key];
      // A capacity that lay beyond the rates tried ("<", "≥") is a bound, not a point.
      if (
        !cell ||
        cell.kind === 'baseline' ||
        !f.isNum(cell.estimate) ||
        cell.intervalKind === 'window range' ||
        cell.bound
      )
        continue;
      const [lo, hi] = Array.isArray(cell.interval) ? cell.interval : [null, null];
      const p = (x) => (f.isNum(x) ? Math.round(x * 1000) / 10 : null);
      points.push({ strategy: r.strategy, panel, estimate: p(cell.estimate), lo: p(lo), hi: p(hi) });
    }
  }
  return {
    points,
    panels: panels.map(([, title]) => title).filter((t) => points.some((p) => p.panel === t)),
    strategies: summary.rows.map((r) => r.strategy).filter((x) => points.some((p) => p.strategy === x)),
    baseline: summary.baseline ?? 'baseline',
  };
}

// The notes below the table: one per column (what it measures, on which machine), the
// columns that left for their pages, the rows measured elsewhere, and where two studies
// seem to disagree (with the settings that differ). link(sourceName) -> a study page's href.
function notes(summary, { link = (name) => `${name}.md` } = {}) {
  const s = summary.settings;
  const out = [];
  const page = (name) => (name ? `[${name}](${link(name)})` : 'its study page');
  const ids = [...new Set(summary.rows.map((r) => r.ids.source?.name).filter(Boolean))];
  const idMachines = [...new Set(summary.idsMachines || [])];
  out.push(
    `Keeps the id?: the integrity stud${ids.length === 1 ? 'y' : 'ies'} (${ids.map(page).join(', ')}): many ` +
      `concurrent requests with distinct ids through real code patterns, each echo checked. ✓: the id is kept ` +
      `in the everyday patterns (call chains, fan-out, thenables, emitters, batches, nesting, keep-alive, ` +
      `soak); ✗ after ✓: patterns where it is lost or leaked without a remedy (\`AsyncResource.bind\`, ` +
      `\`*-bound\` scenarios); ✗ alone: lost in an everyday pattern.` +
      (summary.commonFailures.length
        ? ` ${summary.commonFailures.map(f.code).join(', ')} fail for every context strategy and are not ` +
          `repeated in the rows.`
        : '') +
      (idMachines.length ? ` Measured on ${idMachines.join(' and ')}.` : ''),
  );
  for (const col of shownColumns(summary)) out.push(COLUMN_TEXT[col.key].note(summary, col));
  if (Number.isFinite(s.marginPct)) {
    out.push(
      `Reading: written by rules from the depth figures and the id check (analysis/strategy-summary.js), never ` +
        `by hand: the cost at each depth and the id verdict. "within ±${s.marginPct}%": two one-sided tests at ` +
        `5% put the 90% interval of the ratio inside 100% ± ${s.marginPct}% (\`--margin\`); "cannot tell": ` +
        `it straddles an edge (more blocks would decide); "not reproduced": a second run's figure was ` +
        `inconsistent; "not safe": it loses or leaks the id in everyday code, whatever it costs. CPU profiles, ` +
        `instruction counts and the other columns' detail are on the study pages.`,
    );
  }
  // The columns that left the headline, each for its study's page.
  const left = shownColumns({ columns: (summary.columns || []).map((c) => ({ ...c, shown: c.present && c.leaves })) });
  for (const col of left) {
    out.push(
      `${COLUMN_TEXT[col.key].title(summary)}: on its study page, ${page(col.leaves.page)}` +
        (col.leaves.why === 'wide'
          ? ` (its 95% intervals reach ±${col.halfWidthPp.toFixed(0)} pp; a % column stays only within ` +
            `±${summary.widestPp} pp).`
          : '.'),
    );
  }
  // Rows whose figures were measured on another machine than their column's: "—", and where.
  const away = new Map();
  for (const r of summary.rows) {
    for (const [key, x] of Object.entries(r.offMachine || {})) {
      const col = (summary.columns || []).find((c) => c.key === key);
      if (!col?.shown) continue;
      const k = `${x.machine}|${x.source.name}|${col.machine}`;
      if (!away.has(k)) away.set(k, { ...x, column: col.machine, strategies: new Set(), keys: new Set() });
      away.get(k).strategies.add(r.strategy);
      away.get(k).keys.add(COLUMN_TEXT[key].title(summary));
    }
  }
  for (const g of away.values()) {
    out.push(
      `${[...g.strategies].map(f.code).join(', ')}: "—" in ${[...g.keys].join(', ')}: measured on ${g.machine}, ` +
        `not on the column's ${g.column}; their figures are on their study page, ${page(g.source.name)}.`,
    );
  }
  const fromPopular = (summary.popularRows || []).filter((st) =>
    summary.rows.some((r) => r.strategy === st && (r.shallow || r.deep)),
  );
  if (fromPopular.length) {
    out.push(
      `${fromPopular.map(f.code).join(', ')}: their depth figures come from the popular study ` +
        `(${summary.sources.popular.title}), measured as the default run is (same method, baseline, hop, ` +
        `depths and precision target) against its own \`none\` processes; each figure links to it.`,
    );
  }
  if (summary.nodeDependent?.length) {
    const scenarios = summary.nodeDependent.map(
      (g) => `${f.code(g.scenario)} ${FAILS_WHERE[g.fails]} for ${g.strategies.map(f.code).join(', ')}`,
    );
    out.push(
      `"depends on Node": the answer differs between the runtimes an integrity study ran (each study's page ` +
        `has the table per runtime): ${scenarios.join('; ')}.`,
    );
  }
  const missing = Object.entries(summary.sources)
    .filter(([k, v]) => (k === 'integrity' ? !v.length : !v) && !['default', 'depth-sweep'].includes(k))
    .map(([k]) =>
      k === 'integrity'
        ? '`ctxbench integrity`'
        : f.code(`ctxbench run --preset ${k === 'deployment' ? 'deployment-f1' : k}`),
    );
  if (missing.length) out.push(`Not in these results: ${missing.join(', ')} fill the empty columns.`);
  // Where two studies seem to disagree: one line per pair of studies and settings.
  const groups = new Map();
  for (const r of summary.rows) {
    for (const d of r.disagreements) {
      const differs = d.differs.map((x) => `${SETTING_LABELS[x.setting]} ${x.a} → ${x.b}`);
      const key = `${d.a}|${d.b}|${differs.join(', ')}`;
      if (!groups.has(key)) groups.set(key, { ...d, differs, cases: [] });
      groups
        .get(key)
        .cases.push(`${f.code(r.strategy)} at depth ${d.depth} (${f.pctOf(d.aEstimate)} vs ${f.pctOf(d.bEstimate)})`);
    }
  }
  for (const g of groups.values()) {
    out.push(
      `The ${g.a} and ${g.b} disagree (intervals apart) for ${g.cases.join(', ')}; both can hold, the ` +
        `settings differ: ${g.differs.join(', ') || 'none recorded'}.`,
    );
  }
  return out;
}

// markdown(summary, { link(sourceName) -> href }) -> the section.
// picture: the opening picture's path from the page (report/charts.js costPicture), shown
// above the table.
function markdown(summary, { link = () => null, picture = null } = {}) {
  const cols = columns(summary);
  const rows = summary.rows.map((r) =>
    cols.map((c) => {
      const cell = c.cell(r);
      if (cell.text === null || cell.text === undefined) return f.DASH;
      const href = cell.source && link(cell.source.name);
      return href ? `[${cell.text}](${href})` : cell.text;
    }),
  );
  const lines = [
    '## What each strategy costs',
    '',
    ...(picture
      ? [`![Each strategy's cost as a point with its 95% interval, per headline column](${encodeURI(picture)})`, '']
      : []),
    f.table(
      cols.map((c) => c.title),
      rows,
      cols.map((c) => c.align),
    ),
    '',
  ];
  for (const n of notes(summary, { link: (name) => link(name) ?? `${name}.md` })) lines.push(`- ${n}`);
  return lines.join('\n');
}

module.exports = { picturePoints, markdown, columns, notes, idsText, readingText };
