'use strict';
// A markdown document's headings and their GitHub anchors (a drivers page takes its title
// from its first heading).

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

module.exports = { headings };
