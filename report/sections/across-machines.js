'use strict';
// results/across-machines.md: how far a headline figure moves between machines (issue 75).
// The figures are analysis/across-machines.js's; the words and the table are here.
const f = require('../format');

const NAME = 'across-machines';
const TITLE = 'How far a figure moves between machines';
const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F'];

// Why a kept run of the default preset is not a column (analysis/across-machines.js codes).
const WHY = {
  method: (x) =>
    `measured ${!x.method || x.method === 'sequential' ? 'one after the other (sequential)' : `in ${x.method}`}, ` +
    'not in duet: another quantity than the headline’s',
  matrix: () => 'a custom matrix (strategies, depths, hops, frameworks, baseline, Node or connections differ)',
  surplus: () => 'beyond the four columns: an older run of a CPU model already shown',
};

const letter = (i) => LETTERS[i] ?? String(i + 1);
const mark = (m, i) => `${letter(i)}${m.sameModel ? '*' : ''}`;
const pp = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} pp` : f.DASH);
const speed = (m) => {
  const us = m.fingerprint.cpuUsPerRequest;
  return Number.isFinite(us) ? `${us.toFixed(1)} µs/req` : 'no fingerprint';
};

// A column's head: its letter, CPU model and fingerprint (the machine named once).
const columnHead = (m, i) => `${mark(m, i)}: ${m.cpuModel ?? 'CPU not recorded'}, ${speed(m)}`;

function machineLine(m, i, fromOut) {
  const fp = m.fingerprint;
  const rps = Number.isFinite(fp.rps) ? ` (${f.int(fp.rps)} req/s)` : '';
  return (
    `- **${mark(m, i)}**: ${f.code(fromOut(m.file))}${m.headline ? ' (the headline’s)' : ''} — ` +
    `${m.cpuModel ?? 'CPU model not recorded'} × ${m.cores ?? '?'}, fingerprint ${speed(m)}${rps}, ` +
    `commit ${m.commit ?? '?'}, ${String(m.date ?? '').slice(0, 10) || 'undated'}` +
    `${m.groupSize > 2 ? `, duet groups of ${m.groupSize}` : ''}`
  );
}

// The table: a row per strategy and depth, a column per machine, the spread and the widest
// half-width within one machine.
// With two CPU models or more and two runs of one: the spread within one model beside it.
function table(result) {
  const heads = result.machines.map(columnHead);
  const within = withinShown(result);
  const rows = result.rows.map((r) => [
    f.code(r.strategy),
    r.depth,
    ...r.cells.map((c) => (c ? f.withCi(c.estimate, c.interval, f.pctOf) : f.DASH)),
    `${pp(r.spreadPp)}${r.apart ? ' (apart)' : ''}`,
    ...(within ? [pp(r.withinModelPp)] : []),
    Number.isFinite(r.widestHalfPp) ? `±${r.widestHalfPp.toFixed(1)} pp` : f.DASH,
  ]);
  return f.table(
    [
      'Strategy',
      'Depth',
      ...heads,
      'Spread (lowest–highest)',
      ...(within ? ['Spread within one CPU model'] : []),
      'Widest ± within one',
    ],
    rows,
    ['l', 'r', ...heads.map(() => 'r'), 'r', ...(within ? ['r'] : []), 'r'],
  );
}

const withinShown = (result) => result.models > 1 && result.machines.some((m) => m.sameModel);

function verdict(result) {
  if (result.machines.length < 2) {
    return 'Only the headline’s run counts: there is no other machine to set it against yet.';
  }
  if (result.models < 2) {
    return (
      'Every column was measured on the same CPU model: these are readings on one kind of machine, not ' +
      'across machines. The spread says how far a figure moves between runs there; another CPU model is ' +
      'still to be measured in duet.'
    );
  }
  const shared = withinShown(result)
    ? ' Columns marked * share a CPU model with another: readings on one kind of machine. Spread within ' +
      'one CPU model: the widest spread among such columns, runs on one kind of machine; where the spread ' +
      'over every column is wider, the figure moves with the machine by more than between runs.'
    : '';
  return `${result.models} CPU models.${shared}`;
}

// render(result, { fromOut }) -> the page's markdown (result: analysis/across-machines.js).
function render(result, { fromOut = (x) => x } = {}) {
  const base = f.code(result.baseline ?? 'none');
  const lines = [
    `## ${TITLE}`,
    '',
    table(result),
    '',
    `Each figure: ${base}'s CPU per request ÷ the strategy's, as % of ${base} [95% interval over blocks], ` +
      'as in the headline’s depth columns. Spread: the highest figure minus the lowest; "(apart)": their ' +
      'intervals do not meet, so the runs differ by more than either one’s noise. Widest ±: the widest ' +
      'half-width of one machine’s interval in the row. *: shares its CPU model with another column.',
    '',
    verdict(result),
    '',
    '### The machines',
    '',
    'The default preset’s runs from other machines are kept beside the headline’s (results/runs/), not ' +
      'replaced; the columns are those below.',
    '',
    ...result.machines.map((m, i) => machineLine(m, i, fromOut)),
    '',
    '### Files taken and left out',
    '',
    `Taken: ${result.machines.map((m) => f.code(fromOut(m.file))).join(', ')} — the default preset (or a run ` +
      'based on it with its matrix), measured in duet.',
  ];
  if (result.left.length) {
    lines.push('', 'Left out:', '');
    for (const x of result.left) {
      const cpu = x.cpuModel ? ` (${x.cpuModel})` : '';
      lines.push(`- ${f.code(fromOut(x.file))}${cpu}: ${(WHY[x.why] ?? (() => x.why))(x)}.`);
    }
  }
  lines.push('', 'Other files under results/runs/ are other studies, not the default preset.');
  return `${lines.join('\n')}\n`;
}

module.exports = { render, NAME, TITLE };
