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
// The tables measured are report/sections/frameworks-tables.js; the scenarios, groups and
// cells they share, frameworks-common.js.

const { medianCpuPerRequest } = require('../../analysis');
const f = require('../format');
const { SCENARIOS, PUBLISHED_GAIN, uniq, majorOf, missing, nodeGroups, groupTitle, acfStatus, primaryGroups } =
  require('./frameworks-common');
const { versionTable, comparisonSection, acfSection } = require('./frameworks-tables');

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
