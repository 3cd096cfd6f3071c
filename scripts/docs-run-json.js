'use strict';
// Writes docs/run-json.md whole from the run JSON's declarations: the top level and each
// kind (lib/run-kinds.js), a configuration and how each method fills it (lib/run-config.js),
// its processes and samples (lib/run-fields.js), the plan (lib/plan.js), what checking and
// migration do (lib/run-schema.js) and the summary table's columns (report/summary-table.js),
// as docs-options.js writes options.md from --help. test/run-schema.test.js fails when the
// page is stale. `npm run docs:run-json` to refresh.
const fs = require('node:fs');
const path = require('node:path');
const { VERSIONS, ABOUT, CONTRACT, CHECKING, MIGRATION, KINDS, PLAN, LEARNED } = require('../lib/run-schema');
const { COMMON, MEASURED } = require('../lib/run-kinds');
const { CONFIG, METHODS } = require('../lib/run-config');
const { COLUMN_DOCS, TABLE_DOC } = require('../report/summary-table');
const { rows, table, cell } = require('./docs-run-json-rows');

const FILE = path.join(__dirname, '..', 'docs', 'run-json.md');
const HEADER =
  '<!-- This page is generated whole by `npm run docs:run-json` (scripts/docs-run-json.js) from the run ' +
  "JSON's declarations: lib/run-kinds.js, lib/run-config.js, lib/run-fields.js, lib/plan.js, lib/run-schema.js " +
  'and report/summary-table.js. Edit those, not this page. -->';

const codes = (names) => names.map((n) => `\`${n}\``);
const code = (names) => codes(names).join(', ');
const list = (names) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]);
// The fields every measured kind shares, as `run` declares them (a configuration apart).
const SHARED = Object.fromEntries(
  Object.entries(KINDS.run.properties).filter(([k]) => !['configs', 'settings', 'learned'].includes(k)),
);

function reading() {
  return [
    '## Reading a run file',
    '',
    CHECKING,
    '',
    '| `schema` | the version that |',
    '|---|---|',
    ...Object.entries(VERSIONS).map(([v, what]) => `| ${v} | ${cell(what)} |`),
    '',
    MIGRATION,
    '',
    `Fields marked (D) (${code(CONTRACT)}) are the fixed contract: every run has had them since schema 1, and ` +
      'tools may rely on them; the rest may grow.',
  ];
}

function everyKind() {
  const first = Object.keys(COMMON);
  const unmeasured = Object.keys(KINDS).filter((k) => !KINDS[k].properties.environment);
  const full = unmeasured.filter((k) => first.every((f) => Object.hasOwn(KINDS[k].properties, f)));
  const bare = unmeasured
    .filter((k) => !full.includes(k))
    .map((k) => `, \`${k}\` only ${code(first.filter((f) => Object.hasOwn(KINDS[k].properties, f)))}`);
  return [
    '## Every kind',
    '',
    `Every measured kind has these, and ${list(codes(['settings', 'learned']))} (below); ` +
      `${list(codes(full))} only the first ${first.length}${bare.join('')}, each with the fields listed under it.`,
    '',
    ...table(rows(SHARED, { required: ['schema', 'kind'], contract: CONTRACT })),
  ];
}

// A kind's own fields (those every measured kind shares are above), with its paragraph;
// a configuration's fields once, under `run`.
function kind(name) {
  const k = KINDS[name];
  const own = Object.fromEntries(
    Object.entries(k.properties).filter(([f]) => !Object.hasOwn(MEASURED, f) || f === 'configs'),
  );
  const shallow = name === 'run' ? [] : [CONFIG];
  const configs = name !== 'run' && own.configs ? ' Its configurations are as in `run`.' : '';
  return [
    `## \`${name}\`: ${k.doc}`,
    '',
    `${k.description}${configs} Required: ${code(k.required)}.`,
    '',
    ...table(rows(own, { required: k.required, contract: CONTRACT, shallow })),
  ];
}

function byMethod() {
  return ['### By method', ...METHODS.flatMap((m) => ['', `#### ${m.title}`, '', m.doc])];
}

// The summary table's columns, in order; neighbours that mean the same share a row.
function columnRows() {
  const groups = [];
  for (const [column, doc] of COLUMN_DOCS) {
    if (groups.at(-1)?.doc === doc) groups.at(-1).columns.push(column);
    else groups.push({ doc, columns: [column] });
  }
  return groups.map((g) => `| ${code(g.columns)} | ${cell(g.doc)} |`);
}

// The whole page, as the declarations say it today.
function runJsonPage() {
  const [run, ...others] = Object.keys(KINDS);
  return [
    HEADER,
    '',
    '# Run JSON (results/*.json)',
    '',
    ABOUT,
    '',
    ...reading(),
    '',
    ...everyKind(),
    '',
    ...kind(run),
    '',
    ...byMethod(),
    ...others.flatMap((name) => ['', ...kind(name)]),
    '',
    '## `settings`: the plan',
    '',
    `${CONTRACT.includes('settings') ? '(D) ' : ''}${PLAN.description[0].toUpperCase()}${PLAN.description.slice(1)}.`,
    '',
    ...table(rows(PLAN.properties)),
    '',
    '## `learned`: what measuring learned',
    '',
    `${LEARNED.description[0].toUpperCase()}${LEARNED.description.slice(1)}.`,
    '',
    ...table(rows(LEARNED.properties)),
    '',
    '## The summary table (`ctxbench report --csv FILE`, `--json FILE`)',
    '',
    TABLE_DOC,
    '',
    '| column | meaning |',
    '|---|---|',
    ...columnRows(),
    '',
  ].join('\n');
}

if (require.main === module) {
  fs.writeFileSync(FILE, runJsonPage());
  process.stdout.write(`wrote ${path.relative(process.cwd(), FILE)}\n`);
}

module.exports = { runJsonPage, FILE };
