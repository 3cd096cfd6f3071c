'use strict';
// `ctxbench report`: assembles results.md from every results/*.json.
//
// Each JSON file (docs/run-json.md) becomes one section, rendered by
// report/sections/<kind>.js `render(run, ctx)` -> markdown (or a promise of it). A kind
// without a section module gets a short generic section instead of failing the report.

const { readJson } = require('../lib/run-file');
const { checkRun } = require('../lib/run-schema');
const fs = require('node:fs');
const path = require('node:path');
const f = require('./format');
// What is wrong with the files a user named is bad input (one line, exit 1), not an
// internal error.
const { UsageError } = require('../lib/cli');
const latencySection = require('./sections/latency');
const driversSection = require('./sections/drivers');
const instructionsSection = require('./sections/instructions');
const { strategySummary } = require('../analysis');
const { companionsOf } = require('./companions');
const { markdown: summaryMarkdown, picturePoints: summaryPicturePoints } = require('./strategy-summary');
const { costPicture } = require('./charts');
const { contradictions } = require('./headline-check');
const answer = require('./answer');
const { renderHtml } = require('./html');
const { analyzeModel, tally, wordTally, fitsByRuntime } = require('../analysis/model');

const KIND_ORDER = ['run', 'repro', 'integrity', 'micro', 'overhead', 'calibrate', 'aa'];

// Reads and parses every *.json in dir (not *.tmp). Throws one clear line naming the file.
function readResults(resultsDir, files) {
  let list = files;
  if (!list) {
    let names;
    try {
      names = fs.readdirSync(resultsDir);
    } catch (err) {
      throw new UsageError(
        `${resultsDir}: cannot read the results directory (${err.code || err.message}); run \`ctxbench run\` first`,
        { cause: err },
      );
    }
    list = names
      .filter((n) => n.endsWith('.json'))
      .sort()
      .map((n) => path.join(resultsDir, n));
  }
  return list
    .map((file) => {
      let run;
      try {
        run = readJson(file, 'the file');
        // The shipped model fit is not a run; everything else is checked (and migrated) on read.
        if (run?.kind !== MODEL_FIT_KIND) run = checkRun(run, { file, unknown: true });
      } catch (err) {
        throw new UsageError(err.message, { cause: err });
      }
      return { file, run };
    })
    .filter(({ run }) => run.kind !== MODEL_FIT_KIND);
}

// The cost model's fits, written beside the pages (model-fit.json) from the model studies:
// what `ctxbench app --predict` applies, shipped in the package instead of the studies'
// run files (megabytes of windows). Generated like the pages, never edited; not a study.
const MODEL_FIT_KIND = 'model-fit';
const MODEL_FIT_FILE = 'model-fit.json';
function modelFit(results, relative) {
  const studies = results
    .filter(({ run }) => run.kind === 'run' && /^model/.test(run.settings?.preset ?? ''))
    .sort((a, b) => (a.run.settings.preset === 'model' ? -1 : b.run.settings.preset === 'model' ? 1 : 0));
  const fits = fitsByRuntime(studies.map(({ file, run }) => ({ file: relative(file), run })));
  if (!fits.size) return null;
  return {
    kind: MODEL_FIT_KIND,
    generated: 'ctxbench report, from the model studies (analysis/model.js exportFit); do not edit by hand',
    runtimes: Object.fromEntries(fits),
  };
}

function kindRank(kind) {
  const i = KIND_ORDER.indexOf(kind);
  return i < 0 ? KIND_ORDER.length : i;
}

// run files first (the `default` preset first, then other presets alphabetically, then
// runs without a preset), then integrity, micro, calibrate, aa, then unknown kinds.
function orderResults(results) {
  const presetKey = (r) => {
    const p = r.run.settings && r.run.settings.preset;
    if (p === 'default') return [0, ''];
    return p ? [1, String(p)] : [2, ''];
  };
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  return [...results].sort((a, b) => {
    const k = kindRank(a.run.kind) - kindRank(b.run.kind) || cmp(a.run.kind, b.run.kind);
    if (k) return k;
    if (a.run.kind === 'run') {
      const [pa, na] = presetKey(a);
      const [pb, nb] = presetKey(b);
      if (pa !== pb) return pa - pb;
      if (na !== nb) return cmp(na, nb);
    }
    return cmp(a.file, b.file);
  });
}

// The page of each kind of results file (run.kind), named here so that the layering lint
// reads every dependency; a kind not listed gets the generic section.
const SECTIONS = {
  run: require('./sections/run'),
  repro: require('./sections/repro'),
  integrity: require('./sections/integrity'),
  micro: require('./sections/micro'),
  overhead: require('./sections/overhead'),
  calibrate: require('./sections/calibrate'),
  aa: require('./sections/aa'),
  app: require('./sections/app'),
  compare: require('./sections/compare'),
};

function sectionModule(kind) {
  return Object.hasOwn(SECTIONS, kind) ? SECTIONS[kind] : null;
}

function genericSection(run, ctx) {
  const lines = [`## ${run.title || `${run.kind} results`}`, ''];
  const meta = [`kind \`${run.kind}\``];
  if (ctx.file) meta.push(`from ${f.code(ctx.file)}`);
  if (run.status) meta.push(`status ${run.status}`);
  lines.push(`*${meta.join(' · ')}*`, '');
  if (run.command) lines.push(f.fence(run.command, 'sh'), '');
  lines.push(
    `This report has no renderer for \`${run.kind}\` results yet; the measurements are in ` +
      `${f.code(ctx.file || 'the JSON file')}.`,
  );
  return lines.join('\n') + '\n';
}

// GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, and
// -1, -2 … appended to repeats in document order.
function slugger() {
  const seen = new Map();
  return (text) => {
    const plain = text
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-');
    const n = seen.get(plain) || 0;
    seen.set(plain, n + 1);
    return n ? `${plain}-${n}` : plain;
  };
}

// Headings of a markdown document outside fenced code, with their anchors.
function headings(markdown) {
  const slug = slugger();
  const out = [];
  let fenceMark = null;
  for (const line of markdown.split('\n')) {
    const fm = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fm) {
      if (!fenceMark) fenceMark = fm[1];
      else if (fm[1][0] === fenceMark[0] && fm[1].length >= fenceMark.length) fenceMark = null;
      continue;
    }
    if (fenceMark) continue;
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) out.push({ level: h[1].length, text: h[2], anchor: slug(h[2]) });
  }
  return out;
}

const HOW_TO_READ = `## How to read this

- **What each strategy costs** (the table that opens results.md). One row per strategy of the default run; every figure
  is a link to the study it comes from, and its column says which setting it was measured at. The *Reading* is derived
  from those figures by rules in code (analysis/index.js), not written by hand: a cost is named only where its interval
  excludes the baseline, "did not hold in a second run" where a \`repro --compare\` of the default run found the two
  estimates inconsistent, and "not safe" for a strategy that lost ids whatever it costs. Where two studies seem to
  disagree, the notes under the table name the settings that differ.
- **Duet** (runs whose table says *CPU/req in duet*, the default run among them). Each strategy ran at the same time
  as a fresh baseline process, both on one CPU, the load generator on the other; per 1-s window, the baseline's server
  CPU µs per request ÷ the strategy's. Both servers live through the same slow seconds of the machine, so the ratio
  barely moves from window to window. A window counts only when both servers were busy throughout and the load generator
  was under 85% of a core. The log ratios are averaged per block (a pair of fresh processes) and the interval is over
  blocks. *solo* req/s and p99 come from a short burst of each configuration alone and never feed the ratio. The
  \`none (A/A twin)\` row is a second \`none\` process measured exactly like a strategy: its interval must cover 100%.
- **Blocks and adjacent pairs** (sequential runs). A run is measured in blocks: in each block every configuration \
runs in a freshly started,
  server process, warmed up in unmeasured bursts until its cost per request stops falling, then several rounds of short
  bursts are taken. Bursts are ordered so that every strategy's
  sample sits right before or after a baseline sample, and the neighbours change from round to round.
- **[lo–hi]** is a **95% confidence interval**, always of the figure it stands beside. *req/s* is the geometric mean
  over blocks of each block's geometric mean, with a t-interval over the block means.
- **% of baseline [95% CI]** is throughput relative to the baseline configuration that differs only in strategy. Each
  sample is divided by the baseline sample it was paired with; the log ratios are averaged per block, and the \
interval is
  a t-interval over the block means with (blocks − 1) degrees of freedom, so the **server process is the unit**: what a
  restart changes (JIT decisions, heap layout) is inside the interval (two-level design, Kalibera & Jones 2013; Georges
  et al. 2007). It is not the quotient of the two req/s figures, which still carry drift the pairing removes.
- **Variance components** (one-way ANOVA of the pair log ratios by block) split the noise into *between blocks* (what a
  fresh process changes) and *within blocks* (burst to burst); F and p say whether the process effect is above the \
noise.
- **CPU/req vs baseline** is the same paired ratio of server CPU µs per request, a second estimate less exposed to a
  busy machine. "Disagree" = it and the throughput ratio tell different stories (their intervals do not overlap).
- **Verdict.** "7.0% slower, significant" means the difference is unlikely to be noise (p < 0.05). "No significant
  difference" means this run cannot tell the two apart — not that they are equal. A strategy that lost or mixed up ids
  (other than the \`global\` control) gets **"context broken, cost not comparable"** instead of a cost; a configuration
  whose load generator used ≥ 85% of a core gets **no verdict**, only a warning (it measured the client).
- **Regime shifts.** When a baseline's series shifts level during a run (best single split, Welch test, Bonferroni over
  the splits tried, shift ≥ 10%), the report flags it and shows each ratio per regime.
- **Earlier design.** Runs marked *measured with the earlier design* (schema 1) kept one warm process per configuration
  and paired samples by round; their intervals do not include restarts.
- **Mismatches** = responses carrying *another* request's id: the context leaked between requests. **Lost** = responses
  carrying no id of ours. Both must be 0. \`global\` is a deliberately broken control (⚠) that must leak whenever
  requests interleave; it shows the check works. A ❌ on any other strategy is a real bug.
- **CPU µs/req** is the server's own CPU time (user + system, from its \`/__stats\`) per request served.
- **p99 ms** is the 99th-percentile latency reported by the load generator, median across samples; autocannon records
  latency in whole milliseconds, so "< 1" means under a millisecond.
- **\`ctxbench compare\`** is a gate that fails closed: exit 0 = every configuration shown not slower than the threshold
  (default 5%), 1 = a significant slowdown beyond it (Holm-corrected), 2 = inconclusive (with the blocks it would need).
- Numbers from other people's write-ups appear only under **Published references (not our measurements)**.`;

// Where the study pages, their charts and index.html go: results/ itself when the report
// is results.md beside results/; a report written anywhere else takes them with it
// (<name>/ beside it), so rendering a scratch report never rewrites the committed pages.
function pagesDirFor({ resultsDir = 'results', out = 'results.md' } = {}) {
  const outDir = path.dirname(path.resolve(out));
  return outDir === path.resolve(resultsDir, '..')
    ? path.resolve(resultsDir)
    : path.join(outDir, path.basename(out, '.md'));
}

function writeAtomic(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

const posix = (p) => p.split(path.sep).join('/');

// The lead: the run results.md shows below the summary (the default preset's), or the only
// file when one is reported.
function leadOf(results) {
  return (
    results.find(({ run }) => run.kind === 'run' && run.settings?.preset === 'default') ||
    (results.length === 1 ? results[0] : null)
  );
}

async function renderSection(mod, run, ctx, file) {
  try {
    return mod && typeof mod.render === 'function' ? await mod.render(run, ctx) : genericSection(run, ctx);
  } catch (err) {
    throw new Error(`${file}: cannot render the ${run.kind} section (${String(err && err.message).split('\n')[0]})`, {
      cause: err,
    });
  }
}

function tidy(md, run) {
  const text = String(md || '').trim();
  return /^##\s/.test(text) ? text : `## ${run.title || run.kind}\n\n${text}`;
}

const GENERATED = '> Generated by `ctxbench report`';
const INTRO =
  'What request-context propagation (AsyncLocalStorage, cls-hooked, OpenTelemetry, …) costs a Node.js HTTP service, ' +
  'and whether the context stays correct under load — measured on the machine described in each study.';

// results.md's pointer to the cost model: where it is, what it says of validation, and the
// command that applies it to a team's service. null without a model study.
function modelPointer(results, link) {
  const studies = results
    .filter(({ run }) => run.kind === 'run' && /^model/.test(run.settings?.preset ?? ''))
    .map((r) => ({ ...r, model: analyzeModel(r.run) }))
    .filter((r) => r.model);
  if (!studies.length) return null;
  const tallies = studies.map((r) => ({
    r,
    t: tally(r.model.runtimes.flatMap((rt) => rt.strategies.flatMap((x) => x.points))),
  }));
  // The three words counted (analysis/model.js wordTally); what each means is the page's to say.
  const said = tallies.map(({ r, t }) => {
    const w = wordTally(r.model);
    return (
      `[${r.run.title.replace(/[[\]]/g, '')}](${link(r.name)}): of ${t.total} held-out predictions, ` +
      `${t.within} within their margin, ${t.beyond} beyond it, ${t.cannotTell} cannot tell` +
      `${t.unjudged ? `, ${t.unjudged} not measured` : ''}; the model is claimed for ${w.claimed} of ` +
      `${w.pairs} strategy–runtime pairs, not validated ${w.notValidated}, not modelled ${w.notModelled}`
    );
  });
  return [
    '## What it will cost your service: the cost model',
    '',
    "Each strategy's extra CPU per request written as a cost per request plus a cost per async resource the " +
      'request creates, fitted per runtime with 95% intervals ' +
      "([docs/model.md](docs/model.md)); `ctxbench app --baseline CMD --predict` counts your service's async " +
      "resources per request and predicts each strategy's share of its throughput.",
    '',
    ...said.map((x) => `- ${x}`),
  ].join('\n');
}

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
  const outFile = path.resolve(out);
  const outDir = path.dirname(outFile);
  const pagesDir = pagesDirFor({ resultsDir, out });
  const chartsDir = path.join(pagesDir, 'charts');
  const written = [];
  const sections = [];
  const fromOut = (p) => posix(path.relative(outDir, path.resolve(p)));
  const fromPages = (p) => posix(path.relative(pagesDir, path.resolve(p)));
  const pageOf = (name) => path.join(pagesDir, `${name}.md`);
  const moduleFor = (run) =>
    latencySection.isRateRun(run)
      ? latencySection
      : run.kind === 'run' && instructionsSection.isInstructionRun(run)
        ? instructionsSection
        : sectionModule(run.kind);
  for (const { file, run, name } of results) {
    // Rate-mode runs (issue 14) measure latency at a given load, not throughput at
    // saturation: their own section replaces the run section.
    const ctx = {
      file: fromOut(file),
      name,
      resultsDir,
      companions: companionsOf(run, resultsDir, name),
      chartsDir,
      written,
      relativeChartPath: fromPages,
    };
    const { value, blocks } = await f.capture(() => renderSection(moduleFor(run), run, ctx, file));
    sections.push({
      file,
      name,
      kind: run.kind,
      run,
      title: run.title || run.kind,
      markdown: tidy(value, run),
      blocks,
    });
  }

  // Two rate runs of one matrix by different drivers get a side-by-side page after the
  // later of the two.
  for (const pair of driversSection.driverPairs(results)) {
    const at = Math.max(...pair.map((x) => sections.findIndex((s) => s.file === x.file)));
    const name = `drivers-${pair.map((x) => path.basename(x.file, '.json')).join('-')}`;
    const { value, blocks } = await f.capture(() => driversSection.render(pair, { relative: fromOut }));
    const markdown = String(value).trim();
    sections.splice(at + 1, 0, {
      file: null,
      name,
      kind: 'drivers',
      title: headings(markdown)[0]?.text ?? name,
      markdown,
      blocks,
    });
  }

  const summary = strategySummary(results);
  // A headline that contradicts itself is not written (issue 62): one line per contradiction.
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
  const lead = leadOf(results);
  const backLink = fromPages(outFile);
  const howPage = pageOf('how-to-read');
  const pageFiles = [];
  for (const s of sections) {
    const source = s.file ? `\`${fromOut(s.file)}\`` : 'the run files it names';
    const body = s.markdown.replace(/^## /, '# ');
    const page = [
      body.split('\n')[0],
      '',
      `[← ${path.basename(outFile)}: what each strategy costs](${backLink}) · [every ` +
        `study](${backLink}#every-study) · [how to read these tables](how-to-read.md)` +
        `${html ? ' · [HTML report](index.html)' : ''}`,
      '',
      `${GENERATED} from ${source}. **Do not edit by hand.**`,
      '',
      body.split('\n').slice(1).join('\n').trim(),
      '',
    ].join('\n');
    writeAtomic(pageOf(s.name), page);
    pageFiles.push(pageOf(s.name));
  }
  const fit = modelFit(results, (file) => posix(path.relative(path.dirname(pagesDir), path.resolve(file))));
  if (fit) writeAtomic(path.join(pagesDir, MODEL_FIT_FILE), `${JSON.stringify(fit, null, 1)}\n`);
  writeAtomic(
    howPage,
    `# How to read these results\n\n[← ${path.basename(outFile)}](${backLink})\n\n` +
      `${GENERATED}. **Do not edit by hand.**\n\n${HOW_TO_READ.replace(/^## How to read this\n\n/, '')}\n`,
  );
  pageFiles.push(howPage);

  // A page whose results file is gone would still read as current: when the report covers
  // the whole results folder, generated pages of files no longer there are removed.
  if (!files) {
    for (const name of fs.readdirSync(pagesDir).filter((n) => n.endsWith('.md'))) {
      const file = path.join(pagesDir, name);
      if (!pageFiles.includes(file) && fs.readFileSync(file, 'utf8').includes(GENERATED)) fs.rmSync(file);
    }
  }

  const parts = [
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
  if (summary) {
    const picture = costPicture(summaryPicturePoints(summary));
    let pictureFile = null;
    if (picture) {
      pictureFile = path.join(chartsDir, 'summary-costs.svg');
      fs.mkdirSync(chartsDir, { recursive: true });
      fs.writeFileSync(pictureFile, await picture.svg());
      written.push(pictureFile);
    }
    parts.push(
      '',
      summaryMarkdown(summary, {
        link: (name) => fromOut(pageOf(name)),
        linkFile: (file) => fromOut(file),
        picture: pictureFile && fromOut(pictureFile),
      }),
    );
  }
  const model = modelPointer(results, (name) => fromOut(pageOf(name)));
  if (model) parts.push('', model);
  parts.push(
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
      `tables](${fromOut(howPage)}); ` +
      'the method and its measured justification: [docs/method.md](docs/method.md), ' +
      '[docs/investigations.md](docs/investigations.md).',
  );
  if (lead) {
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
    parts.push(
      '',
      tidy(md, lead.run).replace(/^## (.*)/, (_, t) => `## ${t}`),
    );
    if (!s) throw new Error(`${lead.file}: lead section missing`);
  }
  // The studies, each with the pages that reproduce it beside it (a second run, a rerun, a
  // pair of count runs), rather than those pages listed as studies of their own.
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
  parts.push(
    '',
    '## Every study',
    '',
    'One page per results file, each readable alone (environment, command, results, precision, references); ' +
      'the pages that reproduce a study are linked beside it.',
    '',
    f.table(['Study', 'From', 'Kind', 'Status', 'Measured', 'Reproduced by'], indexRows),
    '',
  );
  writeAtomic(outFile, `${parts.join('\n').replace(/\n{3,}/g, '\n\n')}\n`);
  // The committed report (results.md beside results/) also writes README.md's answer block.
  const readme = files ? null : readmeOf({ resultsDir, out });
  if (summary && readme && fs.existsSync(readme)) {
    const text = answer.withAnswer(fs.readFileSync(readme, 'utf8'), answerFor(summary, { resultsDir, out, html }));
    if (text !== null) writeAtomic(readme, text);
  }

  let htmlFile = null;
  if (html) {
    htmlFile = path.join(pagesDir, 'index.html');
    writeAtomic(
      htmlFile,
      renderHtml({
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
      }),
    );
  }
  return {
    out,
    pages: pageFiles,
    html: htmlFile,
    summary,
    sections: sections.filter((s) => s.file).map(({ file, kind }) => ({ file, kind })),
    charts: written,
  };
}

// README.md beside the committed report: results.md written beside a results/ folder; null
// for a report written anywhere else.
function readmeOf({ resultsDir = 'results', out = 'results.md' } = {}) {
  const dir = path.resolve(resultsDir, '..');
  const committed =
    path.basename(path.resolve(resultsDir)) === 'results' && path.resolve(out) === path.join(dir, 'results.md');
  return committed ? path.join(dir, 'README.md') : null;
}

// README's answer block for a summary, its links relative to README.md.
function answerFor(summary, { resultsDir = 'results', out = 'results.md', html = true } = {}) {
  const dir = path.resolve(resultsDir, '..');
  const rel = (p) => posix(path.relative(dir, p));
  return answer.answerBlock(summary, {
    resultsMd: rel(path.resolve(out)),
    html: html ? rel(path.join(pagesDirFor({ resultsDir, out }), 'index.html')) : null,
  });
}

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
