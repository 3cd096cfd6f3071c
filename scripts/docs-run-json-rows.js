'use strict';
// The tables of docs/run-json.md (scripts/docs-run-json.js): one row per declared field, a
// nested object's or array's fields under it by path (`configs[].samples[].rps`).

// Markdown outside code spans: a pipe would end the cell, and <id> would read as HTML.
const cell = (text) =>
  String(text ?? '')
    .split('`')
    .map((part, i) => (i % 2 ? part : part.replace(/</g, '&lt;')))
    .join('`')
    .replace(/\|/g, '\\|');

// A field with no type is described, not checked (an open object's, lib/run-fields.js notes).
const typesOf = (t) => [t].flat().join(' or ');
const typeOf = (s) => (s.type ? typesOf(s.type) + (s.items?.type ? ` of ${typesOf(s.items.type)}` : '') : '—');

// Rows for an object's fields, nested fields indented by path. contract: the paths marked
// (D); shallow: schemas whose fields are listed elsewhere (a configuration, outside `run`).
function rows(properties, { required = [], prefix = '', contract = [], shallow = [] } = {}) {
  return Object.entries(properties).flatMap(([name, s]) => {
    const at = `${prefix}${name}`;
    // An array's items described but not listed field by field: what each is, beside it.
    const listed = Object.keys(s.items?.properties ?? {}).length;
    const each = s.items?.description && !listed ? `; each: ${s.items.description}` : '';
    const meaning = `${contract.includes(at) ? '(D) ' : ''}${s.description ?? ''}${each}`;
    const here = `| \`${at}\` | ${typeOf(s)} | ${required.includes(name) ? 'yes' : ''} | ${cell(meaning)} |`;
    const inner = shallow.includes(s) || shallow.includes(s.items)
      ? []
      : s.items?.properties
        ? rows(s.items.properties, { required: s.items.required, prefix: `${at}[].`, contract, shallow })
        : s.properties && Object.keys(s.properties).length
          ? rows(s.properties, { required: s.required, prefix: `${at}.`, contract, shallow })
          : [];
    return [here, ...inner];
  });
}

const table = (body) => ['| field | type | required | meaning |', '|---|---|---|---|', ...body];

module.exports = { rows, table, cell };
