'use strict';
// `ctxbench report`: assembles results.md from every results/*.json.
//
// Each JSON file (docs/run-json.md) becomes one study page (report/pages.js); results.md
// leads with what each strategy costs (report/strategy-summary.js), then how it was
// measured, the lead run (briefly) and the index of studies (report/study-index.js).

const fs = require('node:fs');
const path = require('node:path');
// What is wrong with the files a user named is bad input (one line, exit 1), not an
// internal error.
const { UsageError } = require('../lib/cli');
const { strategySummary } = require('../analysis');
const { companionsOf } = require('./companions');
const { markdown: summaryMarkdown, picturePoints: summaryPicturePoints } = require('./strategy-summary');
const { costPicture } = require('./charts');
const { contradictions } = require('./headline-check');
const answer = require('./answer');
const { renderHtml } = require('./html');
const { readResults, orderResults } = require('./results-files');
const { modelFit, modelPointer } = require('./model-fit');
const { headings } = require('./headings');
const { studyIndex, studyLabels, everyStudy } = require('./study-index');
const { pagesDirFor, placesOf, writeAtomic, posix, readmeOf, answerFor } = require('./paths');
const { genericSection, moduleFor, renderSection, tidy, renderSections, writePages, shownPaths } = require('./pages');

const INTRO =
  'What request-context propagation (AsyncLocalStorage, cls-hooked, OpenTelemetry, …) costs a Node.js HTTP service, ' +
  'and whether the context stays correct under load — measured on the machine described in each study.';

// buildReport({ resultsDir = 'results', out = 'results.md', files, html = true })
//   -> Promise<{ out, pages, html, sections, charts }>
// results.md: the summary ("What each strategy costs"), how it was measured, the lead run
// (briefly) and an index; every study is its own page (results/<name>.md), and
// results/index.html has all of it with charts and sortable tables.
// files: optional explicit list of JSON paths (default: every resultsDir/*.json).
async function buildReport({ resultsDir = 'results', out = 'results.md', files, html = true } = {}) {
  const results = orderResults(readResults(resultsDir, files)).map((r) => ({
    ...r,
    name: path.basename(r.file, '.json'),
  }));
  if (!results.length) throw new UsageError(`${resultsDir}: no *.json results to report; run \`ctxbench run\` first`);
  const places = placesOf({ resultsDir, out });
  const written = [];
  const sections = await renderSections(results, { resultsDir, places, written });
  const summary = checkedSummary(results, places.outFile);
  // The headline links the page of how far its figures move between machines, where there is one.
  const across = sections.find((s) => s.across);
  if (summary && across) summary.acrossMachines = { page: across.name, machines: across.across.machines.length };
  const pageFiles = writePages(sections, results, { places, html, files });
  const markdown = await resultsMarkdown(results, sections, summary, { resultsDir, places, html, written });
  writeAtomic(places.outFile, markdown);
  // The committed report (results.md beside results/) also writes README.md's answer block.
  const readme = files ? null : readmeOf({ resultsDir, out });
  if (summary && readme && fs.existsSync(readme)) {
    const text = answer.withAnswer(fs.readFileSync(readme, 'utf8'), answerFor(summary, { resultsDir, out, html }));
    if (text !== null) writeAtomic(readme, text);
  }
  const htmlFile = html ? writeHtml(results, sections, summary, places) : null;
  return {
    out,
    pages: pageFiles,
    html: htmlFile,
    summary,
    sections: sections.filter((s) => s.file).map(({ file, kind }) => ({ file, kind })),
    charts: written,
  };
}

// The summary that leads results.md. A headline that contradicts itself is not written
// (issue 62): one line per contradiction.
function checkedSummary(results, outFile) {
  const summary = strategySummary(results);
  const wrong = summary ? contradictions(summary) : [];
  if (wrong.length) {
    throw Object.assign(
      new Error(
        `the headline contradicts itself, ${path.basename(outFile)} not written:\n` +
          wrong.map((x) => `  ${x}`).join('\n'),
      ),
      { oneLine: true },
    );
  }
  return summary;
}

// results.md, in its order: the title and where it came from, what each strategy costs, the
// cost model, how these were measured, the lead run and every study.
async function resultsMarkdown(results, sections, summary, { resultsDir, places, html, written }) {
  const { fromOut, pageOf } = places;
  const parts = resultsHead(results, { resultsDir, places, html });
  if (summary) parts.push('', await summaryPart(summary, { places, written }));
  const model = modelPointer(results, (name) => fromOut(pageOf(name)));
  if (model) parts.push('', model);
  parts.push(...howMeasured(fromOut(pageOf('how-to-read'))));
  const lead = leadOf(results);
  if (lead) parts.push('', await leadPart(lead, sections, { resultsDir, places }));
  parts.push(...everyStudy(sections, { fromOut, pageOf }));
  return `${parts.join('\n').replace(/\n{3,}/g, '\n\n')}\n`;
}

function resultsHead(results, { resultsDir, places, html }) {
  const { fromOut, pagesDir } = places;
  return [
    '# ctxbench results',
    '',
    INTRO,
    '',
    `> Generated by \`ctxbench report\` from \`${fromOut(resultsDir) || '.'}/*.json\` (${results.length} ` +
      `file${results.length === 1 ? '' : 's'}). ` +
      `**Do not edit by hand:** re-run \`ctxbench ` +
      `report\`.` +
      (html
        ? ` The same report with charts and sortable tables: ` +
          `[${fromOut(path.join(pagesDir, 'index.html'))}](` +
          `${fromOut(path.join(pagesDir, 'index.html'))}) (open it in a browser; it needs no network).`
        : ''),
  ];
}

// What each strategy costs, with its picture (charts/summary-costs.svg) above the table.
async function summaryPart(summary, { places, written }) {
  const { chartsDir, fromOut, pageOf } = places;
  const picture = costPicture(summaryPicturePoints(summary));
  let pictureFile = null;
  if (picture) {
    pictureFile = path.join(chartsDir, 'summary-costs.svg');
    fs.mkdirSync(chartsDir, { recursive: true });
    fs.writeFileSync(pictureFile, await picture.svg());
    written.push(pictureFile);
  }
  return summaryMarkdown(summary, {
    link: (name) => fromOut(pageOf(name)),
    linkFile: (file) => fromOut(file),
    picture: pictureFile && fromOut(pictureFile),
  });
}

function howMeasured(howPage) {
  return [
    '',
    '## How these were measured',
    '',
    '- **Cost** columns are ratios to the baseline with a 95% confidence interval over blocks of fresh server ' +
      'processes (the process is the unit); ' +
      'the default run measures each strategy and a fresh baseline **at the same time on one CPU** (duet), so ' +
      'both see the same slow seconds of the machine.',
    '- **Keeps the id?** comes from the integrity matrix: many concurrent requests with distinct ids through ' +
      'real code patterns, each echo checked.',
    `- Every study has its own page with its environment, command, precision and references; [how to read the ` +
      `tables](${howPage}); ` +
      'the method and its measured justification: [docs/method.md](docs/method.md), ' +
      '[docs/investigations.md](docs/investigations.md).',
  ];
}

// The lead: the run results.md shows below the summary (the default preset's), or the only
// file when one is reported.
function leadOf(results) {
  return (
    results.find(({ run }) => run.kind === 'run' && run.settings?.preset === 'default') ||
    (results.length === 1 ? results[0] : null)
  );
}

// The lead run, briefly where it is the default preset's, with a link to its full page.
async function leadPart(lead, sections, { resultsDir, places }) {
  const { fromOut, pageOf } = places;
  const s = sections.find((x) => x.file === lead.file);
  const md = await renderSection(
    moduleFor(lead.run),
    lead.run,
    {
      file: fromOut(lead.file),
      name: lead.name,
      resultsDir,
      companions: companionsOf(lead.run, resultsDir, lead.name),
      brief: lead.run.settings?.preset === 'default',
      fullPage: fromOut(pageOf(lead.name)),
      relativeChartPath: fromOut,
    },
    lead.file,
  );
  if (!s) throw new Error(`${lead.file}: lead section missing`);
  return tidy(md, lead.run).replace(/^## (.*)/, (_, t) => `## ${t}`);
}

// results/index.html: every study with its charts and sortable tables.
function writeHtml(results, sections, summary, places) {
  const { pagesDir, outFile, fromOut } = places;
  const htmlFile = path.join(pagesDir, 'index.html');
  // Its tables come from the blocks the sections recorded, before the pages' path rule: the
  // same rule (report/pages.js shownPaths) over the whole page.
  writeAtomic(
    htmlFile,
    shownPaths(renderHtml({
      title: 'ctxbench results',
      intro:
        `<p>${INTRO}</p><p class="meta">Generated by <code>ctxbench report</code> from ${results.length} ` +
        `result file${results.length === 1 ? '' : 's'}; ` +
        `the markdown version: <a ` +
        `href="${posix(path.relative(pagesDir, outFile))}">${path.basename(outFile)}</a>.</p>`,
      summary,
      linkFile: (file) => posix(path.relative(pagesDir, path.resolve(file))),
      sections: sections.map((s) => ({
        id: s.name,
        title: s.title,
        file: s.file ? fromOut(s.file) : null,
        page: `${s.name}.md`,
        blocks: s.blocks,
      })),
    })),
  );
  return htmlFile;
}

module.exports = {
  buildReport,
  modelFit,
  modelPointer,
  studyIndex,
  studyLabels,
  readmeOf,
  answerFor,
  readResults,
  orderResults,
  headings,
  genericSection,
  pagesDirFor,
};
