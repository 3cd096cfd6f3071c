'use strict';
// Every relative link in README.md and docs/*.md names a file that exists, and every #anchor
// one of its headings (as GitHub makes them, github-slugger). test/docs-links.test.js checks
// the links into what the repository ships; .ci/run runs this with --results, which also
// checks the links into the committed results (results/, results.md), which tests never read.
const fs = require('node:fs');
const path = require('node:path');
const GithubSlugger = require('github-slugger');

const ROOT = path.join(__dirname, '..');
const pages = () => [
  'README.md',
  ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
];

// Markdown outside fenced code blocks (and, for links, outside inline code spans).
const unfenced = (text) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
const prose = (text) => unfenced(text).replace(/`[^`\n]*`/g, '');

function anchorsOf(file) {
  const slugger = new GithubSlugger();
  const text = unfenced(fs.readFileSync(file, 'utf8'));
  const headings = [...text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)]
    .map((m) => slugger.slug(m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')));
  const named = [...text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)].map((m) => m[1]);
  return new Set([...headings, ...named]);
}

function linksOf(page) {
  const text = prose(fs.readFileSync(path.join(ROOT, page), 'utf8'));
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1])
    .filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href));
}

const RESULTS = [path.join(ROOT, 'results'), path.join(ROOT, 'results.md')];
const intoResults = (file) => RESULTS.some((r) => file === r || file.startsWith(`${r}${path.sep}`));

// -> ['page: href (why)', …]; results: also the links into the committed results.
function deadLinks({ results = false } = {}) {
  const dead = [];
  for (const page of pages()) {
    for (const href of linksOf(page)) {
      const [target, anchor] = href.split('#');
      const here = path.join(ROOT, page);
      const file = target ? path.resolve(path.dirname(here), decodeURI(target)) : here;
      if (!results && intoResults(file)) continue;
      if (!fs.existsSync(file)) dead.push(`${page}: ${href} (no such file)`);
      else if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor)) {
        dead.push(`${page}: ${href} (no such heading)`);
      }
    }
  }
  return dead;
}

if (require.main === module) {
  const dead = deadLinks({ results: process.argv.includes('--results') });
  for (const line of dead) process.stderr.write(`docs-links: ${line}\n`);
  process.stdout.write(`docs-links: ${dead.length ? `${dead.length} dead` : 'every link resolves'}\n`);
  process.exitCode = dead.length ? 1 : 0;
}

module.exports = { deadLinks, anchorsOf };
