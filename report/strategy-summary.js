'use strict';
// "What each strategy costs": the table that leads results.md and results/index.html,
// formatted from analysis/index.js strategySummary() (cells: text plus the study page
// each figure comes from). The markdown and the HTML share these cells.
const f = require('./format');
const { equivalenceText, cannotServeText, latencyVerdictText } = require('./verdict-text');

function idsText(ids) {
  if (ids.verdict === 'control') return '⚠ leaks (control)';
  if (ids.verdict === 'none') return 'n/a (no context)';
  if (ids.verdict === 'unmeasured') return 'not checked';
  const one = (r) => {
    const shown = ids.verdict === 'broken' ? r.propagation : r.own;
    const more =
      ids.verdict === 'broken'
        ? r.failing.filter((sc) => !r.propagation.includes(sc) && !ids.common.includes(sc)).length
        : 0;
    const list = shown.length ? ` ✗ ${shown.join(', ')}${more ? ` (+${more} more)` : ''}` : '';
    return (
      `${ids.verdict === 'broken' ? '✗' : '✓'}` +
      `${ids.verdict === 'broken' ? list.replace(' ✗', '') : list ? ` ·${list}` : ''}`
    );
  };
  // Per runtime already shows the column's own study's differences; the rest are said here.
  const more = (ids.nodeDependent || []).filter(
    (d) => ids.uniform || ids.runtimes.length === 1 || d.source.file !== ids.source?.file,
  );
  const byNode = more.length ? ` · depends on Node: ${more.map((d) => d.scenario).join(', ')}` : '';
  if (ids.uniform || ids.runtimes.length === 1) return one(ids.runtimes[0]) + byNode;
  return ids.runtimes.map((r) => `${r.label}: ${one(r)}`).join('; ') + byNode;
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

// A capacity ratio: "≥" or "<" where a block's capacity was a bound of the rates tried.
function capText(cell) {
  if (!cell) return null;
  if (cell.kind === 'baseline') return 'baseline';
  if (cell.noCapacity) return 'no capacity within the SLO';
  if (!f.isNum(cell.estimate)) return cell.verdict ?? f.DASH;
  return (
    `${cell.bound === 'below' ? '< ' : cell.bound === 'above' ? '≥ ' : ''}` +
    `${f.withCi(cell.estimate, cell.interval, f.pctOf)}`
  );
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

// " Profile (depth 256): `cls-hooked` 3.1% → 41.0% of busy time." — a link to the .cpuprofile.
function profileText(p, link) {
  if (!p) return '';
  const what = p.grew
    ? `${f.code(p.grew.name)} ${(p.grew.baselineShare * 100).toFixed(1)}% → ` +
      `${(p.grew.share * 100).toFixed(1)}% of busy time`
    : `most time in ${f.code(p.top ?? '?')}`;
  const href = link.file ? link.file(p.file) : null;
  return ` Profile (depth ${p.depth}): ${href ? `[${what}](${href})` : what}.`;
}

const costPct = (r) => `${Math.abs((1 - r) * 100).toFixed(1)}%`;

// The one-line Reading of a row: analysis/index.js findingsOf decided what its figures
// say; this writes it.
function readingText(fd) {
  if (fd.kind === 'baseline')
    return (
      `The baseline: every cost in this table is measured against ` +
      `it.${fd.carriesContext ? '' : ' No context at all.'}`
    );
  if (fd.kind === 'control')
    return (
      `Control: one shared variable, must ` +
      `leak` +
      `${fd.leaks ? ` (it did: ${fd.leaks.toLocaleString('en-US')} answers carried another request's id)` : ''}; ` +
      `proves the id check works. Not an option.`
    );
  if (fd.kind === 'floor') return 'The floor: no context at all; every other row is measured against it.';
  if (fd.kind === 'broken')
    return (
      `Loses or leaks the id in everyday code${fd.where.length ? ` (${fd.where.join(', ')})` : ''}: not safe ` +
      `for request context, whatever it costs.`
    );
  const clauses = [];
  // The equivalence outcome beside each figure, unless the cost is plainly beyond the margin.
  const eq = (c) =>
    c.equivalence && !(c.significant && c.equivalence.outcome === 'beyond')
      ? ` (${equivalenceText(c.equivalence)})`
      : '';
  const cost = fd.costs.map(
    (c) =>
      (!c.significant
        ? `no measurable cost at depth ${c.depth}`
        : c.estimate < 1
          ? `costs ${costPct(c.estimate)} at depth ${c.depth}`
          : `${costPct(c.estimate)} cheaper than the baseline at depth ${c.depth}`) + eq(c),
  );
  if (cost.length)
    clauses.push(
      `${fd.expensive ? 'expensive: ' : ''}${cost.join(', ')}${fd.grows ? ', growing with call depth' : ''}`,
    );
  for (const u of fd.unreproduced)
    clauses.push(`the depth-${u.depth} figure did not hold in a second run (${f.pctOf(u.otherEstimate)} there)`);
  if (fd.sameInstructionsAt !== null)
    clauses.push(
      `same instructions as the baseline at depth ${fd.sameInstructionsAt}: the difference is in what counts ` +
        `do not see (caches, memory)`,
    );
  if (fd.io)
    clauses.push(
      fd.io.significant
        ? `still ${costPct(fd.io.estimate)} ${fd.io.estimate < 1 ? 'slower' : 'faster'} with real I/O (${fd.io.hop})`
        : `within the noise of real I/O (${fd.io.hop})`,
    );
  if (fd.latency)
    clauses.push(`adds ${fd.latency.estimate.toFixed(2)} ms to p99 at ${Math.round(fd.latency.load * 100)}% load`);
  if (fd.stores)
    clauses.push(
      `${costPct(fd.stores.estimate)} ${fd.stores.estimate < 1 ? 'slower' : 'faster'} with ` +
        `${fd.stores.stores} live stores`,
    );
  if (fd.keepsId) clauses.push('keeps the id in every propagation pattern');
  if (!clauses.length) return 'Not measured by the studies this summary reads.';
  const text = clauses.join('; ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

// columns(summary, link) -> [{ key, title, align, cell(row) -> { text, source?, sort? } }]
function columns(summary, link = {}) {
  const s = summary.settings;
  const d = summary.depths;
  const base = f.code(summary.baseline ?? 'baseline');
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
  const ratioCol = (key, title) => ({
    key,
    title,
    align: 'r',
    cell: (r) =>
      r[key] ? { text: ratioText(r[key]), source: r[key].source, sort: r[key].estimate ?? 1 } : { text: null },
  });
  if (d.shallow !== null) cols.push(ratioCol('shallow', `Depth ${d.shallow}: % of ${base} [95% CI]`));
  if (d.deep !== null) cols.push(ratioCol('deep', `Depth ${d.deep}: % of ${base} [95% CI]`));
  if (s.io)
    cols.push(
      ratioCol(
        'io',
        s.io.method === 'pair'
          ? `Real I/O (${s.io.hop}, depth ${s.io.depth}): CPU/req % of ${f.code(s.io.baseline)} at ` +
              `${Math.round((s.io.load ?? 0) * 100)}% of its capacity`
          : `Real I/O (HOP=${s.io.hop}, depth ${s.io.depth}): % of ${f.code(s.io.baseline)}`,
      ),
    );
  if (s.latency) {
    cols.push({
      key: 'latency',
      title:
        s.latency.method === 'pair'
          ? `p99 added at ${Math.round(s.latency.load * 100)}% of ${f.code(s.latency.baseline)}'s ` +
            `${s.latency.knee ? 'knee' : 'capacity'}${s.latency.instance ? ` on ${s.latency.instance}` : ''} ` +
            `(depth ${s.latency.depth}), ms`
          : `p99 added at ${Math.round(s.latency.load * 100)}% load (depth ${s.latency.depth}, vs ` +
            `${f.code(s.latency.baseline)})`,
      align: 'r',
      cell: (r) =>
        r.latency ? { text: msText(r.latency), source: r.latency.source, sort: r.latency.estimate } : { text: null },
    });
  }
  if (s.deployment) {
    const capCol = (key, depth) => ({
      key,
      title:
        `${s.deployment.instance}, depth ${depth}: capacity within ${s.deployment.slo}, % of ` +
        `${f.code(s.deployment.baseline)} [95% CI]`,
      align: 'r',
      cell: (r) =>
        r[key] ? { text: capText(r[key]), source: r[key].source, sort: r[key].estimate ?? 1 } : { text: null },
    });
    if (d.shallow !== null) cols.push(capCol('deployShallow', d.shallow));
    if (d.deep !== null) cols.push(capCol('deployDeep', d.deep));
  }
  if (s.stores) cols.push(ratioCol('stores', `${s.stores.stores} live stores: % of ${f.code(s.stores.baseline)}`));
  cols.push({
    key: 'reading',
    title: 'Reading',
    align: 'l',
    cell: (r) => ({ text: readingText(r.findings) + profileText(r.profile, link) }),
  });
  return cols;
}

// The opening picture's points (criterion's way: the change and its interval before the
// table): every headline figure that is a share of the baseline with an interval, as
// [{ strategy, panel, estimate, lo, hi }], one panel per such column (CPU at the two
// depths, Real I/O, capacity on the instance, live stores), the strategies in the table's
// order. Cells without a figure ("cannot serve", the baseline) are not points.
function picturePoints(summary) {
  const s = summary.settings;
  const d = summary.depths;
  const panels = [
    ['shallow', d.shallow !== null && `CPU, depth ${d.shallow}`],
    ['deep', d.deep !== null && `CPU, depth ${d.deep}`],
    ['io', s.io && `Real I/O (${s.io.hop}), CPU`],
    ['deployShallow', s.deployment && d.shallow !== null && `${s.deployment.instance} capacity, depth ${d.shallow}`],
    ['deployDeep', s.deployment && d.deep !== null && `${s.deployment.instance} capacity, depth ${d.deep}`],
    ['stores', s.stores && `${s.stores.stores} live stores`],
  ].filter(([, title]) => title);
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
      const pct = (x) => (f.isNum(x) ? Math.round(x * 1000) / 10 : null);
      points.push({ strategy: r.strategy, panel, estimate: pct(cell.estimate), lo: pct(lo), hi: pct(hi) });
    }
  }
  return {
    points,
    panels: panels.map(([, title]) => title).filter((t) => points.some((p) => p.panel === t)),
    strategies: summary.rows.map((r) => r.strategy).filter((x) => points.some((p) => p.strategy === x)),
    baseline: summary.baseline ?? 'baseline',
  };
}

// The notes below the table: what the columns measure, the patterns every strategy fails,
// and where two studies seem to disagree (with the settings that differ).
function notes(summary) {
  const s = summary.settings;
  const out = [];
  const method =
    s.method === 'duet'
      ? 'CPU per request in a duet: the strategy and a fresh baseline process under load at once on one CPU'
      : s.method === 'instructions'
        ? 'instructions per request'
        : 'throughput';
  out.push(
    `Depth columns: the default run (${method}; HOP=${s.hop}, Node ${s.node}). Read them like throughput on ` +
      `one CPU: 95% = about 5% more CPU per request.` +
      (s.io
        ? s.io.method === 'pair'
          ? ` Real I/O: every level a real round trip (\`HOP=${s.io.hop}\`; the study's page has the other ` +
            `drivers), CPU per request of the strategy and a fresh ${f.code(s.io.baseline)} process sent the ` +
            `same open-loop schedule at once (the pair at a fixed rate, ${Math.round((s.io.load ?? 0) * 100)}% ` +
            `of ${f.code(s.io.baseline)}'s capacity), read like the depth columns.`
          : ` Real I/O: \`HOP=${s.io.hop}\`, throughput of each configuration alone, sequential blocks.`
        : '') +
      (s.latency
        ? s.latency.method === 'pair'
          ? ` p99 added: the strategy's p99 minus a fresh ${f.code(s.latency.baseline)} process's on the same ` +
            `open-loop schedule at once (HOP=${s.latency.hop}), at ${Math.round(s.latency.load * 100)}% of ` +
            `${f.code(s.latency.baseline)}'s ` +
            (s.latency.knee
              ? `open-loop knee` + (s.latency.instance ? ` on ${s.latency.instance} stand-ins` : '')
              : 'capacity in a pair') +
            `, paired by block over the blocks in which the load generator's own lateness p99 was at most 1 ` +
            `ms; "cannot serve" means the strategy fell behind a rate ${f.code(s.latency.baseline)} kept — ` +
            `that is the answer, and it has no latency there; "generator-bound" means the generator was later ` +
            `than that in every block, "too few blocks" that one block alone passed, so no latency is ` +
            `published (docs/method.md).`
          : ` p99: open-loop load at ` +
            `${Math.round(s.latency.load * 100)}% of the baseline's capacity; "rate not held" means the server ` +
            `(or its baseline) fell behind that rate, so no latency is reported.`
        : '') +
      (s.stores
        ? ` Live stores: ${s.stores.stores} other AsyncLocalStorage instances alive, Node ${s.stores.node}.`
        : '') +
      ` ` +
      `"—": the strategy is not in that study.`,
  );
  if (s.deployment) {
    out.push(
      `${s.deployment.instance} columns: each strategy and a fresh ${f.code(s.deployment.baseline)} process ` +
        `on ${s.deployment.instance} stand-ins (a cgroup each with the instance's CPU quota and memory limit ` +
        `and its request limit; what that does and does not reproduce, and the MHz-to-CPU assumption: ` +
        `docs/deploy.md), sent the same open-loop schedule at once at a ladder of rates around the knee of two ` +
        `${f.code(s.deployment.baseline)} processes; the highest rate each keeps within ${s.deployment.slo}, ` +
        `the strategy's as % of ${f.code(s.deployment.baseline)}'s beside it, paired by block (coarse on a ` +
        `quota: a throttled CFS period stalls a server for most of it, docs/deploy.md); "<" or "≥" where a ` +
        `block's capacity lay beyond the rates tried.`,
    );
    // Only where the capacity ratio's interval leaves 100%: an instance count from a ratio that
    // could be either side of the baseline's would say more than was measured.
    const per100 = (x) =>
      x?.ci95 ? `${x.estimate.toFixed(0)} [${x.ci95.map((v) => v.toFixed(0)).join('–')}] per 100` : null;
    const said = summary.rows
      .filter((r) => r.deployShallow?.instances && r.deployShallow.kind === 'ratio' && r.deployShallow.significant)
      .map(
        (r) =>
          `${r.deployShallow.instances.candidate}` +
          `${per100(r.deployShallow.instances.per100) ? ` (${per100(r.deployShallow.instances.per100)})` : ''} ` +
          `with ${f.code(r.strategy)}${r.deployShallow.bound === 'below' ? ' (at least)' : ''}`,
      );
    const unsaid = summary.rows
      .filter((r) => r.deployShallow?.instances && r.deployShallow.kind === 'ratio' && !r.deployShallow.significant)
      .map((r) => f.code(r.strategy));
    const first = summary.rows.find((r) => r.deployShallow?.instances);
    if (first && said.length)
      out.push(
        `In instances: to serve ${f.int(s.deployment.serve)} req/s within ${s.deployment.slo} at depth ` +
          `${summary.depths.shallow} on ${s.deployment.instance}: ${first.deployShallow.instances.baseline} ` +
          `with ${f.code(s.deployment.baseline)}, ` +
          `${said.join(', ')} (one instance's capacity each, rounded up; autoscaling's target utilisation would ` +
          `add ` +
          `more)` +
          (unsaid.length
            ? `; ${unsaid.join(', ')}: cannot tell from ${f.code(s.deployment.baseline)} (the capacity's ` +
              `interval spans 100%)`
            : '') +
          `.`,
      );
  }
  if (summary.popularRows?.length) {
    out.push(
      `${summary.popularRows.map(f.code).join(', ')}: their depth figures come from the popular study ` +
        `(` +
        `${summary.sources.popular.title}), measured as the default run is (same method, baseline, hop, ` +
        `depths and precision target) against its own \`none\` processes; each figure links to it.`,
    );
  }
  // "No significant difference" is not "free": the Reading says whether a difference is
  // small enough not to matter.
  if (Number.isFinite(s.marginPct)) {
    out.push(
      `Equivalence (in the Reading): two one-sided tests at 5%, the 90% interval of the same ratio against ` +
        `100% ± ${s.marginPct}% (\`--margin\`). ` +
        `"equivalent within ±` +
        `${s.marginPct}%": the whole interval inside; "cannot tell": it straddles an edge (more blocks would ` +
        `decide); a cost beyond the margin is shown by its figure alone.`,
    );
  }
  if (summary.commonFailures.length) {
    out.push(
      `✗ after ✓: patterns where the id is lost or leaked without a remedy (\`AsyncResource.bind\`, ` +
        `\`*-bound\` scenarios); ${summary.commonFailures.map(f.code).join(', ')} fail for every context ` +
        `strategy and are not repeated in the rows.`,
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
  const machines = (summary.machines || []).filter((m) => m.cpuModel);
  if (machines.length) {
    const byCpu = new Map();
    for (const m of machines) {
      const key = `${m.cpuModel} × ${m.cores}`;
      if (!byCpu.has(key)) byCpu.set(key, []);
      byCpu.get(key).push(m.name);
    }
    out.push(
      `Measured on: ` +
        `${[...byCpu].map(([cpu, names]) => `${names.map(f.code).join(', ')} on ${cpu}`).join('; ')}` +
        `${byCpu.size > 1 ? ' — columns from different machines are not comparable to the point' : ''}.`,
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
function markdown(summary, { link = () => null, linkFile = null, picture = null } = {}) {
  const cols = columns(summary, { file: linkFile });
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
  for (const n of notes(summary)) lines.push(`- ${n}`);
  return lines.join('\n');
}

module.exports = { picturePoints, markdown, columns, notes, idsText, readingText };
