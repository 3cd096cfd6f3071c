'use strict';
// Tier: quick (reads the README and docs/: nothing started)
// Every relative link in README.md and docs/*.md names a file that exists, and every
// #anchor one of its headings (as GitHub makes them, github-slugger). A page that moves or
// a heading that is renamed turns this red instead of leaving a reader at a dead link.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const GithubSlugger = require('github-slugger');

const ROOT = path.join(__dirname, '..');
const PAGES = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

// Markdown outside fenced code blocks (and, for links, outside inline code spans).
const unfenced = (text) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
const prose = (text) => unfenced(text).replace(/`[^`\n]*`/g, '');

function anchorsOf(file) {
  const slugger = new GithubSlugger();
  const text = unfenced(fs.readFileSync(file, 'utf8'));
  const headings = [...text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((m) => slugger.slug(m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')));
  const named = [...text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)].map((m) => m[1]);
  return new Set([...headings, ...named]);
}

function linksOf(page) {
  const text = prose(fs.readFileSync(path.join(ROOT, page), 'utf8'));
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]).filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href));
}

test('every relative link and anchor in README.md and docs/ resolves', () => {
  const dead = [];
  for (const page of PAGES) {
    for (const href of linksOf(page)) {
      const [target, anchor] = href.split('#');
      const file = target ? path.resolve(path.dirname(path.join(ROOT, page)), decodeURI(target)) : path.join(ROOT, page);
      if (!fs.existsSync(file)) dead.push(`${page}: ${href} (no such file)`);
      else if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor)) dead.push(`${page}: ${href} (no such heading)`);
    }
  }
  assert.deepStrictEqual(dead, []);
});

test('the check sees a dead file and a dead anchor (planted)', () => {
  const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'ctxbench-links-'));
  fs.writeFileSync(path.join(dir, 'a.md'), '# A page\n\n## Real I/O (HOP=pg)\n\n## `ctxbench app`: yours\n');
  fs.writeFileSync(path.join(dir, 'b.md'), '# B\n');
  assert.ok(anchorsOf(path.join(dir, 'a.md')).has('real-io-hoppg') && anchorsOf(path.join(dir, 'a.md')).has('ctxbench-app-yours'));
  assert.ok(!anchorsOf(path.join(dir, 'b.md')).has('real-io-hoppg'));
  fs.rmSync(dir, { recursive: true, force: true });
});
