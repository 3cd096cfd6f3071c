'use strict';
// The frameworks page's measured tables (report/sections/frameworks.js): per Node version
// beside the study's first table, the version comparison beside its second, and
// AsyncContextFrame on vs off.
const { medianRps, medianP99, ratioToBase, runtimeGain, measuredInBlocks } = require('../../analysis');
const f = require('../format');
const { verdictText } = require('../verdict-text');
const references = require('../references');
const { PRESETS } = require('../../lib/presets');
const {
  publishedTable,
  missing,
  scenarioOf,
  validSamples,
  rpsCell,
  errorMessage,
  publishedRow,
  groupTitle,
  acfStatus,
  PUBLISHED_GAIN,
  uniq,
  scenarioKey,
  gainCell,
  primaryGroups,
} = require('./frameworks-common');

// ---------------------------------------------------------------- per version

function versionTable(g) {
  const table = publishedTable(g.major);
  const header = ['Scenario', 'req/s geo. mean [95% CI]', 'p99 ms', '% of baseline [95% CI]', 'Verdict'];
  const align = ['l', 'r', 'r', 'r', 'l'];
  if (table) {
    header.push('Study req/s avg (published)', 'Study p99 (published)', 'Study vs baseline (published)');
    align.push('r', 'r', 'r');
  }
  const base = g.baseline;
  const baseMissing = missing(base);
  const body = g.configs.map((c) => {
    const sc = scenarioOf(c);
    const isBase = c === base;
    const cells = [sc.name];
    const gone = missing(c);
    if (gone) {
      cells.push(gone, f.DASH, f.DASH, f.DASH);
    } else {
      const valid = validSamples(c);
      cells.push(rpsCell(c), f.wholeMs(medianP99(c)));
      if (isBase) {
        cells.push('100% (baseline)', 'baseline');
      } else if (baseMissing) {
        cells.push(
          f.DASH,
          `no baseline (http/none ${baseMissing === 'not run' ? 'not run' : baseMissing.split(':')[0]})`,
        );
      } else {
        const { paired, ratio: r, judgement } = ratioToBase(c, base);
        const verdict = judgement && verdictText(judgement, { quantity: r.quantity });
        if (paired) cells.push(f.withCi(r.estimate, r.ci95, f.pctOf), verdict);
        // Another framework is not measured in adjacent pairs with http/none: the figure
        // is per block (both measured in each block of fresh processes), and says so.
        else if (!f.isNum(r.estimate)) cells.push(f.DASH, 'never measured in the same block as http/none: no ratio');
        else if (!r.ci95)
          cells.push(`${f.pctOf(r.estimate)} (1 block)`, 'one block in common with http/none: no interval, no verdict');
        else cells.push(`${f.withCi(r.estimate, r.ci95, f.pctOf)} ‡`, verdict);
      }
      const err = errorMessage(c);
      if (err) cells[cells.length - 1] += `; failed after ${valid.length} round(s): ${err}`;
    }
    if (table) {
      const p = publishedRow(table, sc);
      cells.push(...(p ? p.cells : [f.DASH, f.DASH, f.DASH]));
    }
    return cells;
  });
  const out = [f.heading(4, groupTitle(g)), ''];
  out.push(f.table(header, body, align), '');
  const notes = [`AsyncLocalStorage implementation: ${acfStatus(g)}.`];
  if (body.some((cells) => cells.some((x) => String(x).endsWith(' ‡')))) {
    notes.push(
      "‡ Not measured beside http/none in adjacent pairs (another framework): the ratio of the two configurations' " +
        'geometric means within each block of fresh processes, t-interval over blocks — wider than a paired ' +
        'ratio, since the machine drifts within a block.',
    );
  }
  if (table) {
    notes.push(
      `"Study … (published)" columns: the study's single run on ${table.node} (seed ` +
        `\`${references.platformatic.seed}\`), ` +
        "quoted verbatim — not our measurements; its req/s is autocannon's per-second average, ours the " +
        'geometric mean of rounds.',
    );
  } else {
    notes.push(
      `The study did not measure Node ${g.major !== null ? g.major : g.key} (it ran ` +
        `${references.platformatic.tables.map((t) => t.node).join(' and ')}): no published figures to set ` +
        `beside these.`,
    );
  }
  out.push(notes.join(' '));
  return out.join('\n');
}

// ---------------------------------------------------------------- version comparison

// Blocks of fresh processes (schema 2) or rounds of one warm process (schema 1)?
const isSchema2Group = (g) => measuredInBlocks(g.configs);

function comparisonTable(older, newer) {
  const published = older.major === PUBLISHED_GAIN.from && newer.major === PUBLISHED_GAIN.to;
  const header = [
    'Scenario',
    `Node ${older.major} req/s median`,
    `Node ${newer.major} req/s median`,
    `Gain, Node ${newer.major} vs ${older.major} [95% CI]`,
    'Verdict',
  ];
  const align = ['l', 'r', 'r', 'r', 'l'];
  if (published) {
    header.push(
      `Study Node ${older.major} (published)`,
      `Study Node ${newer.major} (published)`,
      'Study gain (published)',
    );
    align.push('r', 'r', 'r');
  }
  const keys = uniq(older.configs.map(scenarioKey)).filter((k) => newer.configs.some((c) => scenarioKey(c) === k));
  const body = keys.map((k) => {
    const a = older.configs.find((c) => scenarioKey(c) === k);
    const b = newer.configs.find((c) => scenarioKey(c) === k);
    const sc = scenarioOf(a);
    const med = (c) => missing(c) || f.int(medianRps(c));
    const cells = [sc.name, med(a), med(b)];
    if (missing(a) || missing(b)) {
      cells.push(f.DASH, 'not compared');
    } else {
      const r = runtimeGain(b, a);
      cells.push(gainCell(r), verdictText(r.judgement, { on: newer.major }));
    }
    if (published) {
      const p = sc.ref && PUBLISHED_GAIN.rows[sc.ref];
      cells.push(...(p ? [p.v22, p.v24, p.gain] : [f.DASH, f.DASH, f.DASH]));
    }
    return cells;
  });
  const out = [f.heading(4, `Node ${older.major} → Node ${newer.major}`), ''];
  if (!body.length) {
    out.push(`No scenario was run on both Node ${older.major} and Node ${newer.major}.`);
    return out.join('\n');
  }
  out.push(f.table(header, body, align), '');
  const lines = [
    isSchema2Group(older)
      ? 'Gain = throughput on the newer major relative to the older, per block (both versions ran in fresh ' +
        'processes in every block; the process is the unit), ' +
        'combined on a log scale with a t-interval over blocks.'
      : 'Gain = throughput on the newer major relative to the older, computed round by round ' +
        '(rounds interleave every configuration of the run, so round *i* of both versions ran side by side) ' +
        'and combined on a log scale.',
  ];
  if (published) {
    lines.push(
      `"Study … (published)" columns: the study's version table (seed \`` +
        `${PUBLISHED_GAIN.seed}\`, v22.17.1 vs v24.4.1, ` +
        'one run each, no interval), quoted verbatim — not our measurements.',
    );
  } else {
    lines.push(
      `The study compared only Node ${PUBLISHED_GAIN.from} and ${PUBLISHED_GAIN.to}: no published gain for this pair.`,
    );
  }
  out.push(lines.join(' '));
  return out.join('\n');
}

function comparisonSection(groups) {
  const primary = primaryGroups(groups);
  const out = ["### Frameworks: version comparison (the study's second table)", ''];
  if (primary.length < 2) {
    const only = primary.length ? `Node ${primary[0].major}` : 'no identifiable Node version';
    out.push(
      `This run measured ${only} only, so there is no version comparison; run the preset with its default ` +
        `\`--node ${PRESETS.frameworks.node.join(',')}\` (the study compared ${PUBLISHED_GAIN.from} and ` +
        `${PUBLISHED_GAIN.to}) to compare versions.`,
    );
    return out.join('\n');
  }
  for (let i = 1; i < primary.length; i++) out.push(comparisonTable(primary[i - 1], primary[i]), '');
  const skipped = groups.filter((g) => !primary.includes(g));
  if (skipped.length) {
    out.push(
      `Only each major's default target is compared; ${skipped.map((g) => f.code(g.key)).join(', ')} ` +
        'appear in the per-version tables above.',
    );
  }
  return out.join('\n').trimEnd();
}

// ---------------------------------------------------------------- AsyncContextFrame on vs off

// Per major measured both ways (--acf both): each scenario's throughput with the flag
// flipped relative to the major's default, per block (per round in a schema-1 run).
function acfSection(groups) {
  const out = [];
  const majors = uniq(groups.map((g) => g.major).filter((m) => m !== null));
  for (const major of majors) {
    const def = groups.find((g) => g.major === major && !g.variant);
    const flipped = groups.find((g) => g.major === major && (g.variant === 'acf' || g.variant === 'noacf'));
    if (!def || !flipped) continue;
    const flippedName =
      flipped.variant === 'acf' ? 'AsyncContextFrame on (flag)' : 'AsyncContextFrame off (--no-async-context-frame)';
    const rows = uniq(def.configs.map(scenarioKey))
      .filter((k) => flipped.configs.some((c) => scenarioKey(c) === k))
      .map((k) => {
        const a = def.configs.find((c) => scenarioKey(c) === k);
        const b = flipped.configs.find((c) => scenarioKey(c) === k);
        const med = (c) => missing(c) || f.int(medianRps(c));
        if (missing(a) || missing(b)) return [scenarioOf(a).name, med(a), med(b), f.DASH, 'not compared'];
        const r = runtimeGain(b, a);
        return [scenarioOf(a).name, med(a), med(b), gainCell(r), verdictText(r.judgement)];
      });
    if (!rows.length) continue;
    out.push(f.heading(4, `Node ${major}: ${acfStatus(def)} (default) vs ${flippedName}`), '');
    out.push(
      f.table(
        ['Scenario', 'default req/s median', 'flipped req/s median', 'Flipped vs default [95% CI]', 'Verdict'],
        rows,
        ['l', 'r', 'r', 'r', 'l'],
      ),
      '',
    );
  }
  if (!out.length) return '';
  return [f.heading(3, 'Frameworks: AsyncContextFrame on vs off, side by side'), '', ...out].join('\n').trimEnd();
}

module.exports = { versionTable, comparisonSection, acfSection };
