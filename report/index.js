'use strict';
// `ctxbench report`: assembles results.md from every results/*.json.
//
// Each JSON file (docs/run-json.md) becomes one section, rendered by
// report/sections/<kind>.js `render(run, ctx)` -> markdown (or a promise of it). A kind
// without a section module gets a short generic section instead of failing the report.

const fs = require('node:fs');
const path = require('node:path');
const f = require('./format');
// What is wrong with the files a user named is bad input (one line, exit 1), not an
// internal error.
const { UsageError } = require('../lib/cli');
const latencySection = require('./sections/latency');
const driversSection = require('./sections/drivers');
const instructionsSection = require('./sections/instructions');

const KIND_ORDER = ['run', 'repro', 'integrity', 'micro', 'overhead', 'calibrate', 'aa'];

// Reads and parses every *.json in dir (not *.tmp). Throws one clear line naming the file.
function readResults(resultsDir, files) {
  let list = files;
  if (!list) {
    let names;
    try {
      names = fs.readdirSync(resultsDir);
    } catch (err) {
      throw new UsageError(`${resultsDir}: cannot read the results directory (${err.code || err.message}); run \`ctxbench run\` first`, { cause: err });
    }
    list = names.filter((n) => n.endsWith('.json')).sort().map((n) => path.join(resultsDir, n));
  }
  return list.map((file) => {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`${file}: cannot read (${err.code || err.message})`, { cause: err });
    }
    let run;
    try {
      run = JSON.parse(text);
    } catch (err) {
      throw new UsageError(`${file}: not valid JSON (${String(err.message).split('\n')[0]})`, { cause: err });
    }
    if (!run || typeof run !== 'object' || Array.isArray(run) || typeof run.kind !== 'string' || !run.kind) {
      throw new UsageError(`${file}: not a ctxbench result (expected an object with a "kind" field, see docs/run-json.md)`);
    }
    return { file, run };
  });
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

function sectionModule(kind) {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(kind)) return null;
  const file = path.join(__dirname, 'sections', `${kind}.js`);
  if (!fs.existsSync(file)) return null;
  return require(file);
}

function genericSection(run, ctx) {
  const lines = [`## ${run.title || `${run.kind} results`}`, ''];
  const meta = [`kind \`${run.kind}\``];
  if (ctx.file) meta.push(`from ${f.code(ctx.file)}`);
  if (run.status) meta.push(`status ${run.status}`);
  lines.push(`*${meta.join(' · ')}*`, '');
  if (run.command) lines.push(f.fence(run.command, 'sh'), '');
  lines.push(`This report has no renderer for \`${run.kind}\` results yet; the measurements are in ${f.code(ctx.file || 'the JSON file')}.`);
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

- **Duet** (runs whose table says *CPU/req in duet*, the default run among them). Each strategy ran at the same time
  as a fresh baseline process, both on one CPU, the load generator on the other; per 1-s window, the baseline's server
  CPU µs per request ÷ the strategy's. Both servers live through the same slow seconds of the machine, so the ratio
  barely moves from window to window. A window counts only when both servers were busy throughout and the load generator
  was under 85% of a core. The log ratios are averaged per block (a pair of fresh processes) and the interval is over
  blocks. *solo* req/s and p99 come from a short burst of each configuration alone and never feed the ratio. The
  \`none (A/A twin)\` row is a second \`none\` process measured exactly like a strategy: its interval must cover 100%.
- **Blocks and adjacent pairs** (sequential runs). A run is measured in blocks: in each block every configuration runs in a freshly started,
  server process, warmed up in unmeasured bursts until its cost per request stops falling, then several rounds of short
  bursts are taken. Bursts are ordered so that every strategy's
  sample sits right before or after a baseline sample, and the neighbours change from round to round.
- **[lo–hi]** is a **95% confidence interval**, always of the figure it stands beside. *req/s* is the geometric mean
  over blocks of each block's geometric mean, with a t-interval over the block means.
- **% of baseline [95% CI]** is throughput relative to the baseline configuration that differs only in strategy. Each
  sample is divided by the baseline sample it was paired with; the log ratios are averaged per block, and the interval is
  a t-interval over the block means with (blocks − 1) degrees of freedom, so the **server process is the unit**: what a
  restart changes (JIT decisions, heap layout) is inside the interval (two-level design, Kalibera & Jones 2013; Georges
  et al. 2007). It is not the quotient of the two req/s figures, which still carry drift the pairing removes.
- **Variance components** (one-way ANOVA of the pair log ratios by block) split the noise into *between blocks* (what a
  fresh process changes) and *within blocks* (burst to burst); F and p say whether the process effect is above the noise.
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

// buildReport({ resultsDir = 'results', out = 'results.md', files }) -> Promise<{ out, sections, charts }>
// files: optional explicit list of JSON paths (default: every resultsDir/*.json).
async function buildReport({ resultsDir = 'results', out = 'results.md', files } = {}) {
  const results = orderResults(readResults(resultsDir, files));
  if (!results.length) throw new UsageError(`${resultsDir}: no *.json results to report; run \`ctxbench run\` first`);
  const outDir = path.dirname(path.resolve(out));
  // Charts live in results/charts when the report is results.md beside results/; a report
  // written anywhere else takes its charts with it (<name>-charts/ beside it), so
  // rendering a scratch report never rewrites the committed charts.
  const besideResults = outDir === path.resolve(resultsDir, '..');
  const chartsDir = besideResults ? path.join(resultsDir, 'charts') : path.join(outDir, `${path.basename(out, '.md')}-charts`);
  const written = [];
  const sections = [];
  const relative = (p) => path.relative(outDir, path.resolve(p)).split(path.sep).join('/');
  for (const { file, run } of results) {
    // Rate-mode runs (issue 14) measure latency at a given load, not throughput at
    // saturation: their own section replaces the run section.
    const mod = latencySection.isRateRun(run) ? latencySection : instructionsSection.isInstructionRun(run) ? instructionsSection : sectionModule(run.kind);
    const ctx = {
      file: relative(file),
      name: path.basename(file, '.json'),
      resultsDir,
      chartsDir,
      written,
      relativeChartPath: relative,
    };
    let md;
    try {
      md = mod && typeof mod.render === 'function' ? await mod.render(run, ctx) : genericSection(run, ctx);
    } catch (err) {
      throw new Error(`${file}: cannot render the ${run.kind} section (${String(err && err.message).split('\n')[0]})`, { cause: err });
    }
    md = String(md || '').trim();
    if (!/^##\s/.test(md)) md = `## ${run.title || run.kind}\n\n${md}`;
    sections.push({ file, kind: run.kind, markdown: md });
  }

  // Two rate runs of one matrix by different drivers get a side-by-side section after
  // the later of the two.
  for (const pair of driversSection.driverPairs(results)) {
    const at = Math.max(...pair.map((x) => sections.findIndex((s) => s.file === x.file)));
    sections.splice(at + 1, 0, { file: null, kind: 'drivers', markdown: driversSection.render(pair, { relative }).trim() });
  }
  const body = [HOW_TO_READ, ...sections.map((s) => s.markdown)].join('\n\n');
  const intro = [
    '# ctxbench results',
    '',
    'What request-context propagation (AsyncLocalStorage, cls-hooked, OpenTelemetry, …) costs a Node.js HTTP service, ' +
      'and whether the context stays correct under load — measured on the machine described in each section.',
    '',
    `> Generated by \`ctxbench report\` from \`${relative(resultsDir) || '.'}/*.json\` ` +
      `(${results.length} file${results.length === 1 ? '' : 's'}). **Do not edit by hand:** re-run \`ctxbench report\`.`,
  ].join('\n');
  // Anchors are computed over the whole document so repeated headings get GitHub's -1, -2.
  const all = headings(`${intro}\n\n## Contents\n\n${body}`);
  const toc = all.filter((h) => h.level === 2 && h.text !== 'Contents').map((h) => `- [${h.text.replace(/[[\]]/g, '')}](#${h.anchor})`);
  const doc = `${intro}\n\n## Contents\n\n${toc.join('\n')}\n\n${body}\n`;

  fs.mkdirSync(outDir, { recursive: true });
  const tmp = `${path.resolve(out)}.tmp`;
  fs.writeFileSync(tmp, doc);
  fs.renameSync(tmp, path.resolve(out));
  return { out, sections: sections.filter((s) => s.file).map(({ file, kind }) => ({ file, kind })), charts: written };
}

module.exports = { buildReport, readResults, orderResults, headings, genericSection };
