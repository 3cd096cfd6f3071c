'use strict';
// The notes under "What each strategy costs" (report/strategy-summary.js): what each column
// measures, and where the table's figures come from or seem to disagree.
const f = require('./format');
const { COLUMN_TEXT, shownColumns } = require('./headline-columns');

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

// The notes below the table: one per column (what it measures, on which machine), the
// columns that left for their pages, the rows measured elsewhere, and where two studies
// seem to disagree (with the settings that differ). link(sourceName) -> a study page's href.
function notes(summary, { link = (name) => `${name}.md` } = {}) {
  const page = (name) => (name ? `[${name}](${link(name)})` : 'its study page');
  return [
    ...idsNote(summary, page),
    ...shownColumns(summary).map((col) => COLUMN_TEXT[col.key].note(summary, col)),
    ...readingNote(summary.settings),
    ...leftNotes(summary, page),
    ...awayNotes(summary, page),
    ...popularNote(summary),
    ...nodeNote(summary),
    ...missingNote(summary),
    ...disagreementNotes(summary),
  ];
}

// Keeps the id?: the integrity studies, what its marks mean, where they were measured.
function idsNote(summary, page) {
  const ids = [...new Set(summary.rows.map((r) => r.ids.source?.name).filter(Boolean))];
  const idMachines = [...new Set(summary.idsMachines || [])];
  return [
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
  ];
}

function readingNote(s) {
  if (!Number.isFinite(s.marginPct)) return [];
  return [
    `Reading: written by rules from the depth figures and the id check (analysis/strategy-summary.js), never ` +
      `by hand: the cost at each depth and the id verdict. "within ±${s.marginPct}%": two one-sided tests at ` +
      `5% put the 90% interval of the ratio inside 100% ± ${s.marginPct}% (\`--margin\`); "cannot tell": ` +
      `it straddles an edge (more blocks would decide); "not reproduced": a second run's figure was ` +
      `inconsistent; "not safe": it loses or leaks the id in everyday code, whatever it costs. CPU profiles, ` +
      `instruction counts and the other columns' detail are on the study pages.`,
  ];
}

// The columns that left the headline, each for its study's page.
function leftNotes(summary, page) {
  const left = shownColumns({ columns: (summary.columns || []).map((c) => ({ ...c, shown: c.present && c.leaves })) });
  return left.map(
    (col) =>
      `${COLUMN_TEXT[col.key].title(summary)}: on its study page, ${page(col.leaves.page)}` +
        (col.leaves.why === 'wide'
          ? ` (its 95% intervals reach ±${col.halfWidthPp.toFixed(0)} pp; a % column stays only within ` +
            `±${summary.widestPp} pp).`
          : '.'),
  );
}

// Rows whose figures were measured on another machine than their column's: "—", and where.
function awayNotes(summary, page) {
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
  return [...away.values()].map(
    (g) =>
      `${[...g.strategies].map(f.code).join(', ')}: "—" in ${[...g.keys].join(', ')}: measured on ${g.machine}, ` +
        `not on the column's ${g.column}; their figures are on their study page, ${page(g.source.name)}.`,
  );
}

function popularNote(summary) {
  const fromPopular = (summary.popularRows || []).filter((st) =>
    summary.rows.some((r) => r.strategy === st && (r.shallow || r.deep)),
  );
  if (!fromPopular.length) return [];
  return [
    `${fromPopular.map(f.code).join(', ')}: their depth figures come from the popular study ` +
      `(${summary.sources.popular.title}), measured as the default run is (same method, baseline, hop, ` +
      `depths and precision target) against its own \`none\` processes; each figure links to it.`,
  ];
}

function nodeNote(summary) {
  if (!summary.nodeDependent?.length) return [];
  const scenarios = summary.nodeDependent.map(
    (g) => `${f.code(g.scenario)} ${FAILS_WHERE[g.fails]} for ${g.strategies.map(f.code).join(', ')}`,
  );
  return [
    `"depends on Node": the answer differs between the runtimes an integrity study ran (each study's page ` +
      `has the table per runtime): ${scenarios.join('; ')}.`,
  ];
}

function missingNote(summary) {
  const missing = Object.entries(summary.sources)
    .filter(([k, v]) => (k === 'integrity' ? !v.length : !v) && !['default', 'depth-sweep'].includes(k))
    .map(([k]) =>
      k === 'integrity'
        ? '`ctxbench integrity`'
        : f.code(`ctxbench run --preset ${k === 'deployment' ? 'deployment-f1' : k}`),
    );
  return missing.length ? [`Not in these results: ${missing.join(', ')} fill the empty columns.`] : [];
}

function disagreementNotes(summary) {
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
  return [...groups.values()].map(
    (g) =>
      `The ${g.a} and ${g.b} disagree (intervals apart) for ${g.cases.join(', ')}; both can hold, the ` +
        `settings differ: ${g.differs.join(', ') || 'none recorded'}.`,
  );
}

module.exports = { notes };
