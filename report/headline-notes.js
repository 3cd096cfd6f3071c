'use strict';
// The notes under "What each strategy costs" (report/strategy-summary.js): what each column
// measures, and where the table's figures come from or seem to disagree.
const f = require('./format');
const { COLUMN_TEXT, shownColumns, movedNote } = require('./headline-columns');

// A note under the table reads in a minute (issue 76): at most about this many characters
// as a reader sees them (link targets and code marks aside); its detail is in docs/reading.md
// and on the study pages.
const NOTE_CHARS = 300;
const visible = (text) => text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');

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

// Where an answer that depends on Node fails (the runtimes each stands for: docs/reading.md).
const FAILS_WHERE = {
  async_hooks: 'without AsyncContextFrame',
  AsyncContextFrame: 'with AsyncContextFrame',
  'some runtimes': 'on some runtimes',
};

// The line above the table (issue 75): the one machine of every timed column, named once, and
// where the id check ran (not a timing, it may be another).
function machineLine(summary) {
  const timed = shownColumns(summary).find((c) => c.machine)?.machine;
  const ids = [...new Set(summary.idsMachines || [])];
  if (!timed && !ids.length) return null;
  return (
    `*${timed ? `Every timed column measured on ${timed}` : 'No timed column'}` +
    `${ids.length ? `; Keeps the id? on ${ids.join(' and ')} (a correctness check, not a timing)` : ''}.*`
  );
}

// The notes below the table: one per column (what it measures, on which machine), the
// columns that left for their pages, the rows measured elsewhere, and where two studies
// seem to disagree (with the settings that differ). link(sourceName) -> a study page's href.
function notes(summary, { link = (name) => `${name}.md` } = {}) {
  const page = (name) => (name ? `[${name}](${link(name)})` : 'its study page');
  return [
    ...idsNote(summary, page),
    ...commonNote(summary),
    ...shownColumns(summary).map((col) => COLUMN_TEXT[col.key].note(summary, col)),
    ...acrossNote(summary, page),
    ...marksNotes(summary),
    ...movedNote(summary),
    ...readingNote(summary.settings, summary.baseline),
    ...leftNotes(summary, page),
    ...awayNotes(summary, page),
    ...popularNote(summary, page),
    ...nodeNote(summary),
    ...missingNote(summary),
    ...disagreementNotes(summary, page),
  ];
}

// Keeps the id?: the integrity studies, what its marks mean, where they were measured (the
// patterns each mark stands for: docs/reading.md).
function idsNote(summary, page) {
  const ids = [...new Set(summary.rows.map((r) => r.ids.source?.name).filter(Boolean))];
  return [
    `Keeps the id?: ${ids.map(page).join(', ')}: concurrent requests with distinct ids through real code ` +
      `patterns, each echo checked. ✓: kept in everyday code; ✗ after ✓: lost or leaked in patterns that need ` +
      `a remedy; ✗ alone: lost in the everyday patterns named and counted.`,
  ];
}

function commonNote(summary) {
  if (!summary.commonFailures.length) return [];
  const common = summary.commonFailures.map(f.code).join(', ');
  return [`${common}: fail for every context strategy; not repeated in the rows.`];
}

// The shown cells' marks: † (short of the promise), "not resolved", "not reproduced".
function marksNotes(summary) {
  const cells = summary.rows.flatMap((r) => shownColumns(summary).map((c) => r[c.key]).filter(Boolean));
  const unreproduced =
    cells.some((c) => c.repro?.consistent === false) ||
    summary.rows.some((r) => r.findings?.unreproduced?.length);
  return [
    cells.some((c) => c.short) &&
      `†: short of what the headline promises: its study did not reach ±${summary.promisedPp ?? 2} pp for this ` +
        `figure (its page's precision), or its second run on the same machine found fewer than 9 in 10 of the ` +
        `figures it compared consistent (its repro page).`,
    cells.some((c) => c.reads === 'unresolved') &&
      '"not resolved (N blocks)": its 95% interval is wider than the figure itself, so the figure is no number ' +
        'here (its study page has it, from N blocks).',
    unreproduced &&
      `"not reproduced": the study's second run on the same machine read the figure given, a difference beyond ` +
        `what both runs' noise explains (its repro page).`,
  ].filter(Boolean);
}

// The page of how far the depth figures move between machines (report/sections/across-machines.js).
function acrossNote(summary, page) {
  const at = summary.acrossMachines;
  return at?.page ? [`How far these figures move between machines: ${page(at.page)}.`] : [];
}

function readingNote(s, baseline = 'none') {
  if (!Number.isFinite(s.marginPct)) return [];
  return [
    `Reading: by rules from the depth figures and the id check (analysis/strategy-summary.js): N× ` +
      `${f.code(baseline)}'s CPU per request is 100 ÷ the figure; "within ±${s.marginPct}%": the 90% ` +
      `interval lies inside 100% ± ${s.marginPct}% (two one-sided tests); "cannot tell": it straddles an edge; ` +
      `"not safe": it loses the id in everyday code.`,
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
          : col.leaves.why === 'machine'
            ? ` (measured on ${col.machine}: every timed column of this table is from one machine).`
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

function popularNote(summary, page) {
  const fromPopular = (summary.popularRows || []).filter((st) =>
    summary.rows.some((r) => r.strategy === st && (r.shallow || r.deep)),
  );
  if (!fromPopular.length) return [];
  return [
    `${fromPopular.map(f.code).join(', ')}: depth figures from the popular study ` +
      `(${page(summary.sources.popular.name)}), measured as the default run is, against its own ` +
      `${f.code(summary.baseline)} processes.`,
  ];
}

// "depends on Node": the scenarios by where they fail and for whom, one clause each.
function nodeNote(summary) {
  if (!summary.nodeDependent?.length) return [];
  const groups = new Map();
  for (const g of summary.nodeDependent) {
    const key = `${g.fails}|${g.strategies.join()}`;
    if (!groups.has(key)) groups.set(key, { fails: g.fails, strategies: g.strategies, scenarios: [] });
    groups.get(key).scenarios.push(g.scenario);
  }
  const clauses = [...groups.values()].map(
    (g) =>
      `${g.scenarios.map(f.code).join(', ')} fail${g.scenarios.length > 1 ? '' : 's'} ${FAILS_WHERE[g.fails]} ` +
      `for ${g.strategies.map(f.code).join(', ')}`,
  );
  const differs = '"depends on Node": the answer differs between runtimes (each study\'s page has them)';
  return [`${differs}: ${clauses.join('; ')}.`];
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

// Where two studies seem to disagree: one line per pair of studies and settings, naming as
// many cases as the note's length allows; the rest are counted, on the second study's page.
function disagreementNotes(summary, page) {
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
  return [...groups.values()].map((g) => {
    const say = (n) => {
      const rest = g.cases.length - n;
      const where = rest ? ` and ${rest} more (${page(g.bSource)})` : '';
      return (
        `The ${g.a} and ${g.b} disagree (intervals apart) for ${g.cases.slice(0, n).join(', ')}${where}; both can ` +
        `hold, the settings differ: ${g.differs.join(', ') || 'none recorded'}.`
      );
    };
    let n = g.cases.length;
    while (n > 1 && visible(say(n)).length > NOTE_CHARS) n -= 1;
    return say(n);
  });
}

module.exports = { machineLine, notes, visible, NOTE_CHARS };
