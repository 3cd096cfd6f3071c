'use strict';
// `node scripts/check-pages.js [--dir DIR]`: the small untruths of the rendered pages that the
// other checks miss (issue 76, items 4 and 6), over DIR/results.md and DIR/results/*.md (DIR:
// default the repository; a report rendered elsewhere, `ctxbench report --out /tmp/p/results.md`,
// is checked with --dir /tmp/p). One line per failure, naming page and line; exit 1.
// - a page that sends the reader to itself (a link to its own file, or its path named on it);
// - an absolute path of the measuring machine (report/pages.js MACHINE_ROOTS: /home/, /tmp/, …);
// - a Settings line that says one setting twice, or blocks other than the blocks the page's
//   precision record says were measured ("after N blocks");
// - a repro verdict line that contradicts its page: a bar verdict under "neither run
//   reproduces the other" or "Settings differ", or one its own "K of N consistent" contradicts.
// .ci/run runs it over the committed pages, which tests never read; test/check-pages.test.js
// runs it over the planted pages of test/fixtures/pages/.
const fs = require('node:fs');
const path = require('node:path');
const { MACHINE_ROOTS } = require('../report/pages');

const esc = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const MACHINE_PATH = new RegExp(String.raw`(?<![\w.~:/-])/(?:${MACHINE_ROOTS.join('|')})/[\w.@+/-]+`);
// The bar a repro is held to (analysis/repro.js BAR), read back from the page's verdict line.
const BAR = 0.9;

// The page's lines, each with its number and whether it stands in a fenced block.
function linesOf(text) {
  let fenced = false;
  return text.split('\n').map((line, i) => {
    const fence = /^```/.test(line);
    if (fence) fenced = !fenced;
    return { n: i + 1, line, fenced: fenced || fence };
  });
}

// Links to the page itself (`x.md`, `./x.md`, `../results/x.md`, with or without an anchor)
// and, on a study page, its path as results.md writes it (`results/x.md`) outside a fence.
function selfLinks(rel, lines) {
  const name = path.basename(rel);
  const link = new RegExp(String.raw`\]\((?:\./|\.\./)*(?:${esc(rel)}|${esc(name)})(?:#[^)]*)?\)`);
  const named = rel.includes('/') ? new RegExp(String.raw`(?<![\w/.-])${esc(rel)}(?![\w/-]|\.\w)`) : null;
  return lines
    .filter(({ line, fenced }) => link.test(line) || (named && !fenced && named.test(line)))
    .map(({ n }) => `${rel}:${n}: sends the reader to itself (${rel})`);
}

function machinePaths(rel, lines) {
  return lines
    .filter(({ line }) => MACHINE_PATH.test(line))
    .map(({ n, line }) => `${rel}:${n}: an absolute path of the measuring machine (${line.match(MACHINE_PATH)[0]})`);
}

// The Settings line: each setting once, and the blocks it names (the first number: "blocks 8
// measured (at least 6 asked)") the blocks the page's precision record counted.
function settingsLines(rel, lines) {
  const out = [];
  const measured = lines.map(({ line }) => line.match(/Target ±[\d.]+ pp.* after (\d+) blocks/)).find(Boolean);
  for (const { n, line } of lines.filter((x) => x.line.startsWith('**Settings:** '))) {
    const items = line.slice('**Settings:** '.length).split(' · ');
    const keys = items.map((x) => x.split(' ')[0]);
    const twice = [...new Set(keys.filter((k, i) => keys.indexOf(k) !== i))];
    for (const k of twice) out.push(`${rel}:${n}: the Settings line says ${k} twice`);
    const blocks = items.find((x) => /^blocks \d+/.test(x));
    if (blocks && measured && Number(blocks.match(/\d+/)[0]) !== Number(measured[1]))
      out.push(`${rel}:${n}: the Settings line says "${blocks}", the page measured ${measured[1]} blocks`);
  }
  return out;
}

// A repro page's verdict line against its notes and its consistent share.
function reproVerdicts(rel, lines) {
  const text = lines.map((x) => x.line).join('\n');
  const notBar = /neither run reproduces the other|\*\*Settings differ\*\*/.test(text);
  const share = text.match(/\*\*(\d+) of (\d+) ratios are consistent\*\*/);
  const out = [];
  for (const { n, line } of lines) {
    const bar = line.match(/At or above the bar|Below the bar/);
    const none = /\*\*No bar here\*\*/.test(line);
    if (!bar && !none) continue;
    const count = line.match(/\((\d+) of (\d+)(?: consistent)?\)/);
    if (bar && notBar) out.push(`${rel}:${n}: "${bar[0]}" on a page that says it is no second reading`);
    if (none && !notBar) out.push(`${rel}:${n}: "No bar here" on a page that names no other machine or setting`);
    if (count && share && (count[1] !== share[1] || count[2] !== share[2]))
      out.push(`${rel}:${n}: the verdict counts ${count[1]} of ${count[2]}, the page ${share[1]} of ${share[2]}`);
    if (bar && share && (Number(share[1]) / Number(share[2]) >= BAR) !== bar[0].startsWith('At or above'))
      out.push(`${rel}:${n}: "${bar[0]}" with ${share[1]} of ${share[2]} consistent (the bar: ${BAR * 10} in 10)`);
  }
  return out;
}

// check(dir) -> the failures, one line each.
function check(dir) {
  const pagesDir = path.join(dir, 'results');
  const pages = ['results.md'].concat(
    fs.existsSync(pagesDir)
      ? fs
          .readdirSync(pagesDir)
          .filter((x) => x.endsWith('.md'))
          .sort()
          .map((x) => `results/${x}`)
      : [],
  );
  const out = [];
  for (const rel of pages) {
    const file = path.join(dir, rel);
    if (!fs.existsSync(file)) {
      out.push(`${rel}: not found`);
      continue;
    }
    const lines = linesOf(fs.readFileSync(file, 'utf8'));
    out.push(
      ...selfLinks(rel, lines),
      ...machinePaths(rel, lines),
      ...settingsLines(rel, lines),
      ...reproVerdicts(rel, lines),
    );
  }
  return out;
}

if (require.main === module)
  require('./check-main').runCheck('check-pages', check, {
    flag: '--dir',
    ok: 'no self-link, no machine path; Settings and repro verdicts as measured',
  });

module.exports = { check };
