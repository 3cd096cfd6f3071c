'use strict';
// results.md's "Every study": one row per study, its label, and the pages that reproduce
// it linked beside it rather than listed as studies of their own.
const f = require('./format');

// The settings that tell studies of one title apart (the page's distinguishing setting).
const DISTINGUISHING = [
  (run) => run?.settings?.preset && `preset ${run.settings.preset}`,
  (run) => (run?.settings?.strategies?.length <= 3 ? run.settings.strategies.join(', ') : null),
  (run) => run?.settings?.driver && `driver ${run.settings.driver}`,
  (run) => (run?.settings?.paths?.length ? `path ${run.settings.paths.join(', ')}` : null),
];

// studyLabels(sections) -> Map(section -> label): its title, and where several studies share
// a title, the settings that differ between them (or, where none does, its file's name).
function studyLabels(sections) {
  const labels = new Map();
  const byTitle = new Map();
  for (const s of sections) byTitle.set(s.title, [...(byTitle.get(s.title) ?? []), s]);
  for (const [title, group] of byTitle) {
    if (group.length === 1) {
      labels.set(group[0], title);
      continue;
    }
    const differ = DISTINGUISHING.filter((fn) => new Set(group.map((s) => fn(s.run) || '')).size > 1);
    const said = group.map((s) => differ.map((fn) => fn(s.run)).filter(Boolean).join('; '));
    const unique = new Set(said).size === group.length && said.every(Boolean);
    group.forEach((s, i) => labels.set(s, `${title} (${unique ? said[i] : s.name})`));
  }
  return labels;
}

// The reproducibility pages (kind repro) hang under the study they reproduce: the study
// whose page name theirs extends (repro-<name> is its second run; repro-<name>-<what> a
// named rerun or pair), the longest such name. A repro page that matches no study stays
// a study row of its own. -> { studies: [section], reproducedBy: Map(study -> [{ section, label }]) }
function studyIndex(sections) {
  const reproducedBy = new Map();
  const studies = [];
  const candidates = sections.filter((s) => s.kind !== 'repro');
  for (const s of sections) {
    if (s.kind !== 'repro' || !s.name.startsWith('repro-')) continue;
    const rest = s.name.slice('repro-'.length);
    const study = candidates
      .filter((c) => rest === c.name || rest.startsWith(`${c.name}-`))
      .sort((a, b) => b.name.length - a.name.length)[0];
    if (!study) continue;
    const label = rest === study.name ? 'second run' : rest.slice(study.name.length + 1);
    if (!reproducedBy.has(study)) reproducedBy.set(study, []);
    reproducedBy.get(study).push({ section: s, label });
  }
  const attached = new Set([...reproducedBy.values()].flat().map((r) => r.section));
  for (const s of sections) if (!attached.has(s)) studies.push(s);
  return { studies, reproducedBy };
}

// everyStudy(sections, { fromOut, pageOf }) -> the lines of results.md's index: the studies,
// each with the pages that reproduce it (a second run, a rerun, a pair of count runs) beside it.
function everyStudy(sections, { fromOut, pageOf }) {
  const { studies, reproducedBy } = studyIndex(sections);
  const labels = studyLabels(studies);
  const indexRows = studies.map((s) => {
    const run = s.run || {};
    const date = run.environment?.date ? String(run.environment.date).slice(0, 10) : '';
    const repros = (reproducedBy.get(s) ?? [])
      .map((r) => `[${r.label}](${fromOut(pageOf(r.section.name))})`)
      .join(', ');
    return [
      `[${labels.get(s).replace(/[[\]]/g, '')}](${fromOut(pageOf(s.name))})`,
      s.file ? f.code(fromOut(s.file)) : '',
      s.kind,
      run.status ?? '',
      date,
      repros || f.DASH,
    ];
  });
  return [
    '',
    '## Every study',
    '',
    'One page per results file, each readable alone (environment, command, results, precision, references); ' +
      'the pages that reproduce a study are linked beside it.',
    '',
    f.table(['Study', 'From', 'Kind', 'Status', 'Measured', 'Reproduced by'], indexRows),
    '',
  ];
}

module.exports = { studyLabels, studyIndex, everyStudy };
