'use strict';
// results.md: the platformatic study's two tables (seeds 000/001), computed from the
// samples of a `frameworks` preset run and set beside the study's published figures.
//
//   1. per Node version: req/s, p99 and "% of baseline" where the baseline is the plain
//      node:http server without context (http/none) on the same Node version, as the
//      study compared everything with its base.js;
//   2. version comparison: each scenario's throughput on the newer major relative to the
//      older one, per block of fresh processes (analysis/summary.js sameRunRatio; a
//      schema-1 run per round).
//
// Called by report/sections/run.js for runs whose settings.preset is 'frameworks'.
// Over 400 lines, one file on purpose: it is one study's page, and its tables share the
// scenario keys, labels and the published figures they are set beside.

const {
  throughputLevel,
  medianRps,
  medianP99,
  medianCpuPerRequest,
  ratioToBase,
  runtimeGain,
  measuredInBlocks,
} = require('../../analysis');
const f = require('../format');
const references = require('../references');
const { nodeLabel } = require('../../lib/node-versions');
const { PRESETS } = require('../../lib/presets');

// The study's scenarios and ours, in the study's order, then the Express rows ctxbench adds.
// `ref` is the row label in references.platformatic.tables (null: not in the study).
const SCENARIOS = [
  { framework: 'http', strategy: 'none', name: 'Baseline (node:http)', ref: 'Baseline' },
  { framework: 'http', strategy: 'als', name: 'AsyncLocalStorage (node:http)', ref: 'AsyncLocalStorage' },
  { framework: 'fastify', strategy: 'none', name: 'Fastify base', ref: 'Fastify Base' },
  { framework: 'fastify', strategy: 'otel-full', name: 'Fastify + full OTel', ref: 'Fastify + Full OTel' },
  {
    framework: 'fastify',
    strategy: 'otel-selective',
    name: 'Fastify + selective OTel',
    ref: 'Fastify + Selective OTel',
  },
  { framework: 'express', strategy: 'none', name: 'Express base', ref: null },
  { framework: 'express', strategy: 'als', name: 'Express + AsyncLocalStorage', ref: null },
  { framework: 'express', strategy: 'otel-full', name: 'Express + full OTel', ref: null },
  { framework: 'express', strategy: 'otel-selective', name: 'Express + selective OTel', ref: null },
];
const BASELINE = { framework: 'http', strategy: 'none' };

// The study's version-comparison table ("Detailed Performance Gains by Scenario", seed
// 001_ed13693b7bd7bacc.txt), quoted as text: Node.js v22.17.1 -> v24.4.1, one run each.
// NOT our measurements. (The seed escapes the minus as "\-1.0%" for its markdown.)
const PUBLISHED_GAIN = {
  seed: '001_ed13693b7bd7bacc.txt',
  from: 22,
  to: 24,
  rows: {
    Baseline: { v22: '56,446 req/sec', v24: '57,301 req/sec', gain: '+1.5%' },
    AsyncLocalStorage: { v22: '50,913 req/sec', v24: '53,450 req/sec', gain: '+5.0%' },
    'Fastify Base': { v22: '56,737 req/sec', v24: '56,167 req/sec', gain: '-1.0%' },
    'Fastify + Full OTel': { v22: '9,931 req/sec', v24: '10,640 req/sec', gain: '+7.1%' },
    'Fastify + Selective OTel': { v22: '20,051 req/sec', v24: '20,568 req/sec', gain: '+2.6%' },
  },
};

function uniq(xs) {
  return [...new Set(xs)];
}

function majorOf(c) {
  const m = /^v?(\d+)(?:\.|$)/.exec(String(c.node || '')) || /^node(\d+)/.exec(String(c.nodeLabel || ''));
  return m ? Number(m[1]) : null;
}

function scenarioOf(c) {
  return (
    SCENARIOS.find((s) => s.framework === c.framework && s.strategy === c.strategy) || {
      framework: c.framework,
      strategy: c.strategy,
      name: `${c.framework} + ${c.strategy}`,
      ref: null,
      extra: true,
    }
  );
}

function scenarioKey(c) {
  return `${c.framework}/${c.strategy}`;
}

function validSamples(c) {
  return (c.samples || []).filter((s) => s && f.isNum(s.rps) && s.rps > 0);
}

function errorMessage(c) {
  if (!c.error) return null;
  const msg = typeof c.error === 'string' ? c.error : c.error.message || JSON.stringify(c.error);
  return String(msg).split('\n')[0];
}

// 'failed: …' | 'no data' | null (has data).
function missing(c) {
  if (!c) return 'not run';
  if (validSamples(c).length) return null;
  return c.error ? `failed: ${errorMessage(c)}` : 'no data';
}

// Node targets in the order the configs name them: one per nodeLabel (node22,
// node24-noacf, …), or per major when the JSON carries no label.
function nodeGroups(configs) {
  const groups = [];
  for (const c of configs) {
    const major = majorOf(c);
    const key = c.nodeLabel || (major !== null ? `node${major}` : `node ${c.node || '?'}`);
    let g = groups.find((x) => x.key === key);
    if (!g) {
      g = { key, major, configs: [] };
      groups.push(g);
    }
    g.configs.push(c);
  }
  for (const g of groups) {
    g.versions = uniq(g.configs.map((c) => c.node).filter(Boolean));
    g.variant = g.major !== null && g.key !== `node${g.major}` ? g.key.replace(/^node\d+/, '').replace(/^-/, '') : '';
    const order = (c) => {
      const i = SCENARIOS.findIndex((s) => s.framework === c.framework && s.strategy === c.strategy);
      return i < 0 ? SCENARIOS.length : i;
    };
    g.configs = g.configs
      .map((c, i) => ({ c, i }))
      .sort((a, b) => order(a.c) - order(b.c) || a.i - b.i)
      .map((x) => x.c);
    g.baseline = g.configs.find((c) => c.framework === BASELINE.framework && c.strategy === BASELINE.strategy) || null;
  }
  return groups;
}

function groupTitle(g) {
  const major = g.major !== null ? `Node ${g.major}` : `Node ${g.key}`;
  const eol = g.versions.map((v) => /\(end-of-life since [^)]*\)/.exec(nodeLabel(v, g.asOf))).find(Boolean);
  const versions = g.versions.length ? ` (${g.versions.join(', ')}${eol ? `; ${eol[0].slice(1, -1)}` : ''})` : '';
  const variant =
    g.variant === 'acf'
      ? ', AsyncContextFrame forced on'
      : g.variant === 'noacf'
        ? ', AsyncContextFrame forced off'
        : g.variant
          ? `, ${g.variant}`
          : '';
  return `${major}${versions}${variant}`;
}

function acfStatus(g) {
  const seen = uniq(g.configs.map((c) => c.acf).filter((a) => typeof a === 'boolean'));
  if (!seen.length) return 'not reported (no server of this version started)';
  if (seen.length > 1) return 'mixed (AsyncContextFrame in some servers, async_hooks in others)';
  return seen[0] ? 'AsyncContextFrame' : 'async_hooks (no AsyncContextFrame)';
}

function publishedTable(major) {
  if (major === null) return null;
  return (
    references.platformatic.tables.find((t) => {
      const m = /v(\d+)\./.exec(t.node);
      return m && Number(m[1]) === major;
    }) || null
  );
}

function publishedRow(table, scenario) {
  if (!table || !scenario.ref) return null;
  return table.rows.find((r) => r.label === scenario.ref) || null;
}

// The figure and its interval are of the same statistic (geometric mean).
function rpsCell(c) {
  const d = throughputLevel(c);
  const text = f.withCi(d.estimate, d.ci95);
  return validSamples(c).length === 1 ? `${text} (1 round)` : text;
}

function gainCell(r) {
  if (!r || !f.isNum(r.estimate)) return f.DASH;
  const ci = r.ci95 ? ` [${f.change(r.ci95[0])}, ${f.change(r.ci95[1])}]` : '';
  return `${f.change(r.estimate)}${ci}${r.paired === false && r.pValue !== null ? ' (unpaired)' : ''}`;
}

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
        const { paired, ratio: r, verdict } = ratioToBase(c, base);
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

// One group per major for the comparison: the major's default target (label nodeNN) when
// there is one, else its first group.
function primaryGroups(groups) {
  const majors = uniq(groups.map((g) => g.major).filter((m) => m !== null)).sort((a, b) => a - b);
  return majors.map((m) => groups.find((g) => g.major === m && !g.variant) || groups.find((g) => g.major === m));
}

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
      const r = runtimeGain(b, a, { on: newer.major });
      cells.push(gainCell(r), r.verdict);
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
        return [scenarioOf(a).name, med(a), med(b), gainCell(r), r.verdict];
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

// ---------------------------------------------------------------- Express on Node 20/22

// The measured answer to "why is Express ~3x dearer per request before Node 24"
// (docs/frameworks.md has the experiments). This run's own Express figures are set beside it.
function expressSection(groups) {
  const rows = [];
  for (const g of primaryGroups(groups)) {
    const c = g.configs.find((x) => x.framework === 'express' && x.strategy === 'none');
    const h = g.configs.find((x) => x.framework === 'http' && x.strategy === 'none');
    const cpu = (x) => (x && !missing(x) ? medianCpuPerRequest(x) : null);
    if (!c) continue;
    rows.push([groupTitle(g), f.isNum(cpu(h)) ? f.num(cpu(h)) : f.DASH, f.isNum(cpu(c)) ? f.num(cpu(c)) : f.DASH]);
  }
  const lines = [
    f.heading(3, 'Frameworks: why Express costs more per request on Node 20 and 22'),
    '',
    'Express 5 sets the prototype of every request and response object (`Object.setPrototypeOf(req, ' +
      'app.request)` and ' +
      '`(res, app.response)` in `express/lib/application.js`, `app.handle`). On the V8 of Node 20 (11.3) and ' +
      '22 (12.4) that ' +
      "per-request prototype change makes the JavaScript touching `req`/`res` afterwards — Node's own " +
      '`_http_outgoing`/`_http_server` ' +
      "code as much as Express's and `router`'s — several times slower; on Node 24 (V8 13.6) it costs little. " +
      'Evidence (this machine, ' +
      'Express 5.3 hello-world, 3 s bursts at 50 connections, server CPU per request): Node 22 248 µs, but 63 ' +
      'µs when the server ' +
      "creates `req`/`res` with Express's prototypes already in place (`http.createServer({ IncomingMessage, " +
      'ServerResponse })`, so ' +
      'the per-request `setPrototypeOf` changes nothing); Node 20 187 → 46 µs; Node 24 60 → 69 µs (no gain). ' +
      'A plain `node:http` ' +
      'server that only adds the two `setPrototypeOf` calls goes from 30 to 75 µs on Node 22 and from 23 to ' +
      '31 µs on Node 24. ' +
      'The CPU profiles agree: on Node 22 no single function stands out — `writeHead`, `_storeHeader`, ' +
      "`router`'s `handle`/`next`, " +
      "Express's `send` each take 10–40× more self time per request than on Node 24, the signature of slow " +
      'property access ' +
      'rather than of one expensive call. Every Express row on Node 20/22 carries this cost in its baseline, ' +
      'which shrinks ' +
      "each strategy's relative cost there. Details: `docs/frameworks.md`.",
  ];
  if (rows.length) {
    lines.push('', "This run's servers (CPU µs per request, median of rounds):", '');
    lines.push(f.table(['Node', 'node:http (no context)', 'Express (no context)'], rows, ['l', 'r', 'r']));
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------- differences

// The span-exporter clause: the run JSON records OTEL_EXPORTER only when a runner passes
// it on (settings or per config); otherwise the servers' default, `memory`, applied.
function exporterClause(run) {
  const s = run.settings || {};
  const recorded = uniq(
    [
      s.otelExporter,
      s.env && s.env.OTEL_EXPORTER,
      s.serverEnv && s.serverEnv.OTEL_EXPORTER,
      ...(run.configs || []).map((c) => c.otelExporter),
    ].filter((x) => typeof x === 'string' && x),
  );
  if (!recorded.length) {
    return (
      'the two OpenTelemetry scenarios trace every request into an explicit in-memory span exporter ' +
      '(`OTEL_EXPORTER`, default `memory`; this run JSON records no override)'
    );
  }
  if (recorded.length === 1 && recorded[0] === 'memory') {
    return (
      'the two OpenTelemetry scenarios trace every request into an explicit in-memory span exporter ' +
      '(`OTEL_EXPORTER=memory`)'
    );
  }
  return (
    `the two OpenTelemetry scenarios trace every request with \`OTEL_EXPORTER=${recorded.join('`/`')}\` ` +
    "(ctxbench's default is an explicit in-memory span exporter, `memory`)"
  );
}

function differencesSection(run, groups) {
  const s = run.settings || {};
  const load = [
    f.isNum(s.connections) ? `${s.connections} connections` : null,
    f.isNum(s.pipelining) ? `pipelining ${s.pipelining}` : null,
    f.isNum(s.duration) ? `${s.duration} s bursts` : null,
    f.isNum(s.warmup) ? `${s.warmup} s warm-up` : null,
  ]
    .filter(Boolean)
    .join(', ');
  const rounds = f.isNum(s.rounds) ? `${s.rounds} interleaved rounds` : 'interleaved rounds';
  const acf = groups.map((g) => `${groupTitle(g)}: ${acfStatus(g)}`).join('; ');
  const configs = run.configs || [];
  const depths = uniq(configs.map((c) => c.depth).filter(f.isNum));
  const hops = uniq(configs.map((c) => c.hop).filter(Boolean));
  const chain =
    `${depths.length === 1 && depths[0] === 1 ? 'a one-level' : 'the'} call chain (depth ${depths.join('/') || '?'}, ` +
    `hop ${hops.map((h) => f.code(h)).join('/') || '?'})`;
  const text =
    "What differs from the study: every scenario here — the study's five and the Express rows — answers with " +
    'the same body, ' +
    `the request's id read back at the end of ${chain}, and every response is checked for it; ` +
    `${exporterClause(run)}, where the study's spans went to an OTLP endpoint nobody listened on; ` +
    `the load (${load || 'as in the run settings'}) is repeated over ` +
    `${rounds}, every configuration (all Node versions included) measured once in each round, ` +
    'where the study ran each server once for 10 s after a 5 s warm-up (100 connections, pipelining 10); ' +
    "req/s is the geometric mean of rounds with a 95% CI of the same rather than one run's per-second " +
    'average; and the machine is the one described above, ' +
    `not the study's i7-7700. AsyncLocalStorage implementation per version (reported by each server): ` +
    `${acf || 'not reported'}.`;
  return [f.heading(3, 'Frameworks: what differs from the study'), '', text].join('\n');
}

// ---------------------------------------------------------------- section

// frameworksSection(run) -> markdown ('' when the run has no configurations).
function frameworksSection(run) {
  const configs = ((run && run.configs) || []).filter((c) => c && !c.target);
  if (!configs.length) return '';
  const groups = nodeGroups(configs);
  const asOf = (run.environment && run.environment.date) || new Date();
  for (const g of groups) g.asOf = asOf;
  const out = [
    "### Frameworks: per Node version (the study's first table)",
    '',
    'The study\'s five scenarios, then the Express rows ctxbench adds (not in the study). "% of baseline" is ' +
      'throughput relative to ' +
      '**Baseline (node:http)** — the plain `http` server without context (`http/none`) on the same Node ' +
      'version, as the study ' +
      'compared every server with its `base.js` — computed round by round. p99 ms: median across rounds of ' +
      "each round's p99.",
    '',
  ];
  for (const g of groups) out.push(versionTable(g), '');
  out.push(
    comparisonSection(groups),
    '',
    differencesSection(run, groups),
    '',
    acfSection(groups),
    '',
    expressSection(groups),
  );
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd();
}

module.exports = { frameworksSection, majorOf, SCENARIOS, PUBLISHED_GAIN };
