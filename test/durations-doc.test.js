'use strict';
// Tier: quick (reads README.md and docs/: nothing started)
// How long `npm test`, `npm run test:all` and `npm run bench` take is stated in one place,
// docs/testing.md's "How long they take" table; README quotes its bounds and every other
// page links there. A sentence, table row or code line that names one of the three
// commands and a duration anywhere else fails, and so does a README bound that is not
// the table's.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const HOME = 'docs/testing.md';
const SECTION = '## How long they take';

// `npm run bench:micro` and the like are other commands.
const COMMANDS = [
  { name: 'npm test', re: /\bnpm test\b/ },
  { name: 'npm run test:all', re: /\b(?:npm run )?test:all\b/ },
  { name: 'npm run bench', re: /\bnpm run bench\b(?!:)/ },
];
const UNIT = String.raw`(?:s|sec|seconds?|min|minutes?|h|hours?)\b`;
const DIGITS = String.raw`\d+(?:[.,]\d+)?(?:\s*[–-]\s*\d+(?:[.,]\d+)?)?[\s-]*${UNIT}`;
const WORDS =
  String.raw`\b(?:a|an|one|two|three|four|five|six|seven|eight|` +
  String.raw`nine|ten)[\s-]+(?:seconds?|minutes?|hours?)\b`;
const DURATION = new RegExp(String.raw`(?:^|[^\w.])${DIGITS}|${WORDS}`, 'i');

// Text -> units a statement lives in: each line of a code block or a table row, else a
// sentence of a paragraph. The home section (from SECTION to the next "## ") is left out.
function units(text, { skipHome = false } = {}) {
  const out = [];
  let fenced = false;
  let home = false;
  let paragraph = [];
  const flush = () => {
    const joined = paragraph.join(' ');
    paragraph = [];
    for (const sentence of joined.split(/(?<=[.!?])\s+(?=[A-Z`*[(])/)) if (sentence.trim()) out.push(sentence);
  };
  for (const line of text.split('\n')) {
    if (/^(```|~~~)/.test(line)) {
      flush();
      fenced = !fenced;
      continue;
    }
    if (!fenced && /^## /.test(line)) {
      flush();
      home = skipHome && line.trim() === SECTION;
    }
    if (home) continue;
    if (fenced || /^\s*\|/.test(line)) {
      flush();
      out.push(line);
    } else if (!line.trim()) flush();
    else paragraph.push(line.trim());
  }
  flush();
  return out;
}

// -> [{ command, unit }] for every unit that names a command and a duration.
function durationStatements(text, opts) {
  const found = [];
  for (const unit of units(text, opts)) {
    if (!DURATION.test(unit)) continue;
    for (const c of COMMANDS) if (c.re.test(unit)) found.push({ command: c.name, unit: unit.trim() });
  }
  return found;
}

// The home table's bound per command: { 'npm test': 'under 2 minutes', … }.
function bounds(text) {
  const start = text.indexOf(`\n${SECTION}\n`);
  assert.ok(start >= 0, `${HOME} has the section "${SECTION}"`);
  // Its first table: the history below it has tables of its own.
  const table = text
    .slice(start + 1)
    .split(/\n#{2,3} /)[0]
    .split(/\n\n(?=\|)/)[1]
    .split('\n\n')[0];
  const out = {};
  for (const row of table.split('\n').filter((l) => /^\| `npm /.test(l))) {
    const cells = row.split('|').map((c) => c.trim());
    out[cells[1].replace(/`/g, '')] = cells[3];
  }
  return out;
}

const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const docPages = () =>
  fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);

test('the home table bounds each of the three commands', () => {
  const b = bounds(read(HOME));
  assert.deepStrictEqual(Object.keys(b).sort(), COMMANDS.map((c) => c.name).sort());
  for (const [command, bound] of Object.entries(b)) assert.match(bound, /^under \d+ minutes$/, command);
});

test('no page but the home section states how long the tiers or npm run bench take', () => {
  const stray = [];
  for (const page of docPages()) {
    for (const s of durationStatements(read(page), { skipHome: page === HOME })) {
      stray.push(`${page}: ${s.command}: ${s.unit.slice(0, 160)}`);
    }
  }
  assert.deepStrictEqual(stray, [], `state it once, in ${HOME} ("${SECTION}"), and link there`);
});

test("README states only the home table's bounds", () => {
  const b = bounds(read(HOME));
  const wrong = durationStatements(read('README.md')).filter((s) => !b[s.command] || !s.unit.includes(b[s.command]));
  assert.deepStrictEqual(
    wrong.map((s) => `${s.command}: ${s.unit}`),
    [],
  );
});

test('the check sees a duration in prose, a table row and a code line, and not another command', () => {
  const page = [
    'Intro. The whole `npm run bench` takes about 9 min 20 s here. Then more.',
    '',
    '| `npm test` | 4 min 45 s |',
    '',
    '```sh',
    'npm run test:all   # at most 7 minutes',
    'npm run bench:micro   # ~3 min',
    '```',
    '',
    "beyond `npm run bench`'s 10-minute budget",
    '',
    'A duet block takes 107 s. `npm test` checks structure.',
  ].join('\n');
  assert.deepStrictEqual(
    durationStatements(page).map((s) => s.command),
    ['npm run bench', 'npm test', 'npm run test:all', 'npm run bench'],
  );
  const home = `# T\n\n${SECTION}\n\n| \`npm test\` | x | under 2 minutes | 116 s |\n\n## Next\n`;
  assert.deepStrictEqual(durationStatements(home, { skipHome: true }), []);
  assert.deepStrictEqual(bounds(home), { 'npm test': 'under 2 minutes' });
});
