'use strict';
// Every command a page suggests is one the CLI accepts: each `ctxbench …` line in README.md
// and docs/*.md (fenced code blocks and inline code), or in the pages named, goes through
// the command's own parser (bench/cli checkArgs: the command exists, each option exists for
// it, a --preset names one of its presets) without running anything.
// test/docs-commands.test.js checks README, docs/ and a report rendered from the fixtures;
// .ci/run runs this with --results, which checks the committed results.md and results/*.md.
//
// What counts as a command: `ctxbench`, `npx ctxbench` or `node bin/ctxbench.js` as the
// first word of a code line or inline code span (after `$ `, VAR=value assignments, or a
// `&&`, `;` or ` | ` that starts a new command), followed by a command word: lowercase
// letters and dashes, or a placeholder (`ctxbench: …`, `ctxbench default: complete, …` and
// `ctxbench app), …` are output or prose, not commands).
// Placeholders are tolerated by these rules:
//   - `[…]` is an optional part of a usage line: it is dropped, brackets and all;
//   - `…` and `...` stand for a value or for "and so on": the line passes when it is
//     accepted with them read either way;
//   - inline code may end with an option without its value: it names the option
//     (`ctxbench run --resume`), which must exist;
//   - a command written as a placeholder (`<command>`, `CMD`, any word in capitals or in
//     `<…>`) leaves the line unchecked;
//   - values and positionals are never checked, so FILE, N, NAME, <dir> stand anywhere one
//     goes; only --preset's value is, unless it is a placeholder (capitals or `<…>`), and
//     `a|b` there names alternatives, each checked;
//   - option names are always checked: a page never writes a placeholder for one;
//   - the line stops at a `#` comment or a redirection (`>`, `2>&1`).
const fs = require('node:fs');
const path = require('node:path');
const { checkArgs } = require('../bench/cli');
const { displayPath } = require('../lib/cli');

const ROOT = path.join(__dirname, '..');
const docsPages = () => [
  path.join(ROOT, 'README.md'),
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join(ROOT, 'docs', f)),
];
function resultsPages() {
  const dir = path.join(ROOT, 'results');
  const pages = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.md')) : [];
  return [path.join(ROOT, 'results.md'), ...pages.map((f) => path.join(dir, f))].filter((f) => fs.existsSync(f));
}

const isPlaceholder = (word) => /^<.*>$/.test(word) || /^[A-Z][A-Z0-9_]*(\.[a-z]+)?$/.test(word);

// Words of a shell line, quotes kept together (and removed), as sh would split them.
function words(line) {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map(
    (m) => m[1]?.replace(/\\(.)/g, '$1') ?? m[2] ?? m[3],
  );
}

// The ctxbench invocations on one line of code: [{ command, args }] (command null when it is
// a placeholder).
function invocations(line) {
  const text = line
    .replace(/^\s*\$\s+/, '')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/(\s|^)#.*$/, '')
    .replace(/\s(\d?>>?|&>)\s*\S+/g, ' ')
    .replace(/2>&1/g, ' ');
  const found = [];
  for (const part of text.split(/&&|\|\||;|\s\|\s/)) {
    let ws = words(part);
    while (ws.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(ws[0])) ws = ws.slice(1);
    if (ws[0] === 'npx') ws = ws.slice(1);
    if (ws[0] === 'node' && /(^|\/)ctxbench(\.js)?$/.test(ws[1] ?? '')) ws = ws.slice(1);
    if (!/^(\S*\/)?ctxbench(\.js)?$/.test(ws[0] ?? '') || ws.length < 2) continue;
    const [, command, ...args] = ws;
    if (isPlaceholder(command)) found.push({ command: null, args });
    // `--flag…` in prose: the ellipsis is not part of the flag.
    else if (/^[a-z][a-z-]*$/.test(command))
      found.push({ command, args: args.map((a) => a.replace(/(\S)(…|\.\.\.)$/, '$1')) });
  }
  return found;
}

// Every suggested command of a markdown text: [{ line (1-based), text, command, args }].
function commandsIn(markdown) {
  const out = [];
  const lines = markdown.split('\n');
  let fence = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const opens = /^\s*(```|~~~)/.exec(line);
    if (opens) {
      fence = fence === null ? opens[1] : line.trim().startsWith(fence) ? null : fence;
      continue;
    }
    if (fence !== null) {
      // A line continued with `\` is one command.
      let joined = line;
      const first = i;
      while (/\\\s*$/.test(joined) && i + 1 < lines.length) joined = joined.replace(/\\\s*$/, ' ') + lines[++i];
      for (const inv of invocations(joined)) out.push({ line: first + 1, text: joined.trim(), ...inv });
      continue;
    }
    for (const m of line.matchAll(/(`+)([^`]+?)\1/g)) {
      for (const inv of invocations(m[2])) out.push({ line: i + 1, text: m[2].trim(), inline: true, ...inv });
    }
  }
  return out;
}

// Why the CLI would refuse a suggested command, or null when it accepts it.
function refusal({ command, args, inline = false }) {
  if (command === null) return null;
  const etc = (a) => a === '…' || a === '...';
  // Each reading of the line's `…` (a value, or nothing), and of a trailing option in inline code.
  const readings = [args.map((a) => (etc(a) ? 'X' : a)), args.filter((a) => !etc(a))];
  if (inline && /^--?[a-z]/.test(args.at(-1) ?? '')) readings.push([...args, 'X']);
  let first = null;
  for (const reading of readings) {
    const why = refusalOf(command, reading);
    if (why === null) return null;
    first ??= why;
  }
  return first;
}

function refusalOf(command, args) {
  // A placeholder preset is left out; each of `a|b` is tried on its own.
  let presets = [null];
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    const m = /^--preset(?:=(.*))?$/.exec(args[i]);
    if (!m) rest.push(args[i]);
    else {
      const value = m[1] ?? args[++i];
      if (value === undefined) rest.push('--preset');
      else if (!isPlaceholder(value)) presets = value.split('|');
    }
  }
  for (const preset of presets) {
    try {
      checkArgs(command, preset === null ? rest : [...rest, '--preset', preset]);
    } catch (err) {
      if (err.exitCode === undefined) throw err;
      return err.message;
    }
  }
  return null;
}

// -> ['page:line: `ctxbench …`: why', …] for every refused command of the pages.
function refusedCommands(pages) {
  const refused = [];
  for (const page of pages) {
    for (const c of commandsIn(fs.readFileSync(page, 'utf8'))) {
      const why = refusal(c);
      if (why) refused.push(`${displayPath(page)}:${c.line}: \`${c.text}\`: ${why}`);
    }
  }
  return refused;
}

if (require.main === module) {
  const results = process.argv.includes('--results');
  const refused = refusedCommands(results ? resultsPages() : docsPages());
  for (const line of refused) process.stderr.write(`docs-commands: ${line}\n`);
  process.stdout.write(
    `docs-commands: ${refused.length ? `${refused.length} refused` : 'the CLI accepts every suggested command'}\n`,
  );
  process.exitCode = refused.length ? 1 : 0;
}

module.exports = { commandsIn, refusal, refusedCommands, docsPages, resultsPages };
