#!/usr/bin/env node
'use strict';
// npm run check:method: the timing claims of the method, as benchmarks. Run alone, on an
// otherwise idle machine (no npm test, no other benchmark beside it): each check measures
// time, so it is a report, never a gate on landing. In order, one at a time:
//
//   1. a planted CPU cost is found in duet: `ctxbench calibrate` at depth 8 (HOP=immediate,
//      the default run's point), the server burning 200 µs of CPU per request beside a
//      fresh burn-0 process; pass when the 95% interval of the extra CPU per request seen ÷
//      the burn the server measured lies at or above 50% (calibrate's own verdict, within
//      1 ± its tolerance, is printed beside it);
//   2. A/A covers 100%: `ctxbench aa`, one trial of fresh pairs of identical `none`
//      servers in duet; pass when the ratio's 95% interval holds 100%;
//   3. a stall shows in p99: a server that blocks its event loop 300 ms every second,
//      driven open loop at 200 req/s (timed from the intended send) and closed loop with
//      two connections; pass when open-loop p99 >= 150 ms and closed-loop p97.5 < 75 ms;
//   4. the pair at a fixed rate (--pair, or alone with --only-pair): an A/A of identical
//      `none` servers at HOP=pg, HOP=http and HOP=mixed (`ctxbench aa --method pair`, its
//      trials each a comparison; pass when no more are "significant" than chance allows,
//      the aa command's own binomial rule, and the added p99 of the twin holds 0); a
//      planted cost (BURN_US 200) recovered at HOP=pg (`ctxbench calibrate --method pair`,
//      pass when the seen ÷ burned interval lies at or above 50%); a stall planted in the
//      candidate (scripts/fixtures/stall.js: 50 ms every second) shows in its added p99
//      and not in its baseline's (pass when its added p99 interval lies above 10 ms and the
//      baseline's p99 is within 5 ms of the A/A twin's beside it).
//
// Writes results/method-check/{calibrate,aa}.json (the runs), summary.json and summary.md
// (--only-pair: the pair's runs and summary-pair.json, summary-pair.md)
// (when, where, each figure and verdict); exit 0 when every check passed, 1 when one
// failed, 2 when one could not tell.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { parseArgs } = require('node:util');
const { captureEnvironment } = require('../bench/run/environment');
const openLoop = require('../load/open-loop');
const autocannon = require('../load/autocannon');
const { startScript } = require('../test/helpers/child');

const ROOT = path.join(__dirname, '..');
const CLI = path.join(ROOT, 'bin', 'ctxbench.js');
const STALL_SERVER = path.join(ROOT, 'test', 'helpers', 'stall-server.js');
const STALL_MS = 300;

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    blocks: { type: 'string' },
    pair: { type: 'boolean' },
    'only-pair': { type: 'boolean' },
  },
});
const outDir = path.resolve(values.out ?? path.join('results', 'method-check'));
const blocks = values.blocks ?? '5';
if (!/^\d+$/.test(blocks) || Number(blocks) < 3) {
  process.stderr.write(`check:method: --blocks ${blocks} is not valid; expected an integer of at least 3\n`);
  process.exit(1);
}

function ctxbench(args) {
  return new Promise((resolve) => {
    process.stderr.write(`check:method: ctxbench ${args.join(' ')}\n`);
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('exit', (code) => resolve(code));
  });
}

// Runs a ctxbench command that writes its run JSON to `out` (no report) and reads it back.
async function measured(out, args) {
  await ctxbench([...args, '--out', out, '--report', 'none']);
  return JSON.parse(fs.readFileSync(out, 'utf8'));
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const interval = (ci) => (ci ? `[${pct(ci[0])}–${pct(ci[1])}]` : '(no interval)');

async function plantedCost() {
  const out = path.join(outDir, 'calibrate.json');
  const run = await measured(out, [
    'calibrate',
    '--at',
    '8/immediate',
    '--burns',
    '200',
    '--blocks',
    blocks,
  ]);
  const level = run.calibrate?.points?.[0]?.levels?.find((l) => l.burnUs === 200);
  if (!level)
    return {
      name: 'planted 200 µs found in duet',
      verdict: 'inconclusive',
      figure: `no result (status ${run.status})`,
    };
  // Found: the extra CPU per request is significant and at least half what was planted.
  // How close it comes is calibrate's own verdict (1 ± its tolerance), shown beside it: at
  // depth 8 a burn costs the server more than the burn itself (docs/investigations.md).
  const lo = level.seenRatio.ci95?.[0];
  return {
    name: 'planted 200 µs found in duet',
    verdict: lo === undefined ? 'inconclusive' : lo >= 0.5 ? 'pass' : 'fail',
    figure:
      `extra CPU per request seen ÷ burned: ${pct(level.seenRatio.mean)} ${interval(level.seenRatio.ci95)} (at ` +
      `least 50% wanted; calibrate's accuracy verdict, within 1 ± its tolerance: ${level.verdict})`,
    file: 'calibrate.json',
  };
}

async function aaCovers() {
  const out = path.join(outDir, 'aa.json');
  const run = await measured(out, [
    'aa',
    '--depth',
    '8',
    '--hop',
    'immediate',
    '--trials',
    '1',
    '--blocks-per-trial',
    blocks,
  ]);
  const r = run.aa?.overall;
  if (!r?.ci95)
    return {
      name: 'A/A covers 100%',
      verdict: 'inconclusive',
      figure: `no interval (status ${run.status})`,
      file: 'aa.json',
    };
  return {
    name: 'A/A covers 100%',
    verdict: r.ci95[0] <= 1 && 1 <= r.ci95[1] ? 'pass' : 'fail',
    figure: `a second none process against the first: ${pct(r.estimate)} ${interval(r.ci95)}`,
    file: 'aa.json',
  };
}

async function stallShows() {
  const server = await startScript(STALL_SERVER, { STALL_MS: String(STALL_MS), STALL_EVERY_MS: '1000' });
  try {
    process.stderr.write(
      'check:method: a 300 ms stall every second, open loop at 200 req/s and closed loop, 2 s each\n',
    );
    const open = await openLoop.measure({ url: server.url, rate: 200, duration: 2, connections: 2 });
    const closed = await autocannon.measure({ url: server.url, connections: 2, duration: 2 });
    const shows = open.latency.p99 >= STALL_MS / 2;
    const hidden = closed.latency.p97_5 < STALL_MS / 4;
    return {
      name: 'a stall shows in open-loop p99 and hides from closed loop',
      verdict: shows && hidden ? 'pass' : 'fail',
      figure:
        `open-loop p99 ${open.latency.p99.toFixed(1)} ms (>= ${STALL_MS / 2} wanted), closed-loop p97.5 ` +
        `${closed.latency.p97_5.toFixed(1)} ms (< ${STALL_MS / 4} wanted)`,
    };
  } finally {
    await server.stop();
  }
}

// The pair's rates: half of what a server of a pair serves at each hop on this 2-core
// machine (measured with `ctxbench run --method pair --load 50%`, whose capacity probe
// records it), so every server holds its schedule with room to spare.
const PAIR_RATES = { pg: 600, http: 600, mixed: 2000 };
const AA_TRIALS = 10;

async function pairAa(hop) {
  const out = path.join(outDir, `aa-pair-${hop}.json`);
  const run = await measured(out, [
    'aa',
    '--method',
    'pair',
    '--hop',
    hop,
    '--depth',
    '8',
    '--rate',
    String(PAIR_RATES[hop]),
    '--connections',
    '20',
    '--trials',
    String(AA_TRIALS),
    '--blocks-per-trial',
    '3',
  ]);
  const r = run.aa;
  if (!r?.completedTrials)
    return {
      name: `pair A/A at HOP=${hop}`,
      verdict: 'inconclusive',
      figure: `no trial completed (status ${run.status})`,
      file: path.basename(out),
    };
  const added = r.latency?.added?.p99;
  const addedHolds0 = added?.ci95 ? added.ci95[0] <= 0 && 0 <= added.ci95[1] : null;
  return {
    name: `pair A/A at HOP=${hop} (${PAIR_RATES[hop]} req/s each)`,
    verdict: r.pass && addedHolds0 !== false ? (addedHolds0 === null ? 'inconclusive' : 'pass') : 'fail',
    figure:
      `${r.significant} of ${r.completedTrials} trials significant at 5% (P(X ≥ ${r.significant}) = ` +
      `${r.tailP.toFixed(3)}); overall ${pct(r.overall.estimate)} ` +
      `${interval(r.overall.ci95)}; added p99 of the twin ` +
      `${added ? `${added.estimate} ms [${added.ci95?.join(', ') ?? '—'}]` : '—'}`,
    file: path.basename(out),
  };
}

async function pairPlanted() {
  const out = path.join(outDir, 'calibrate-pair-pg.json');
  const run = await measured(out, [
    'calibrate',
    '--method',
    'pair',
    '--at',
    '8/pg',
    '--burns',
    '200',
    '--rate',
    String(PAIR_RATES.pg),
    '--connections',
    '20',
    '--blocks',
    blocks,
  ]);
  const level = run.calibrate?.points?.[0]?.levels?.find((l) => l.burnUs === 200);
  if (!level)
    return {
      name: 'planted 200 µs found in a pair at HOP=pg',
      verdict: 'inconclusive',
      figure: `no result (status ${run.status})`,
      file: path.basename(out),
    };
  const lo = level.seenRatio.ci95?.[0];
  return {
    name: `planted 200 µs found in a pair at HOP=pg (${PAIR_RATES.pg} req/s each)`,
    verdict: lo === undefined ? 'inconclusive' : lo >= 0.5 ? 'pass' : 'fail',
    figure:
      `extra CPU per request seen ÷ burned: ${pct(level.seenRatio.mean)} ${interval(level.seenRatio.ci95)} (at ` +
      `least 50% wanted; calibrate's accuracy verdict: ${level.verdict})`,
    file: path.basename(out),
  };
}

async function pairStall() {
  const out = path.join(outDir, 'stall-pair.json');
  const run = await measured(out, [
    'run',
    '--strategy-file',
    path.join(ROOT, 'scripts', 'fixtures', 'stall.js'),
    '--strategies',
    'none,planted-stall',
    '--aa',
    '--depths',
    '8',
    '--hops',
    'immediate',
    '--method',
    'pair',
    '--rate',
    '500',
    '--connections',
    '20',
    '--blocks',
    blocks,
    '--windows',
    '3',
  ]);
  const { latencySummaries } = require('../analysis');
  const rows = latencySummaries(run);
  const stall = rows.find((r) => r.config.strategy === 'planted-stall')?.s;
  const twin = rows.find((r) => r.config.arm === 'aa')?.s;
  const a = stall?.added?.p99;
  const t = twin?.added?.p99;
  if (!a?.ci95 || !t?.ci95)
    return {
      name: "a stall in one server of a pair shows in its added p99, not its baseline's",
      verdict: 'inconclusive',
      figure: `no interval (status ${run.status})`,
      file: path.basename(out),
    };
  const shows = a.ci95[0] > 10;
  const baselineClean = Math.abs(t.estimate) <= 5;
  return {
    name: "a stall in one server of a pair shows in its added p99, not its baseline's",
    verdict: shows && baselineClean ? 'pass' : 'fail',
    figure:
      `added p99 of the stalling server ${a.estimate} ms [${a.ci95.join(', ')}] (above 10 ms wanted); of the ` +
      `A/A twin beside the same baseline ${t.estimate} ms [${t.ci95.join(', ')}] (within 5 ms wanted)`,
    file: path.basename(out),
  };
}

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  const environment = captureEnvironment();
  const startedAt = new Date().toISOString();
  const loadBefore = os.loadavg();
  const checks = [];
  const pairChecks = [() => pairAa('pg'), () => pairAa('http'), () => pairAa('mixed'), pairPlanted, pairStall];
  const list = values['only-pair']
    ? pairChecks
    : values.pair
      ? [plantedCost, aaCovers, stallShows, ...pairChecks]
      : [plantedCost, aaCovers, stallShows];
  for (const check of list) {
    const result = await check();
    checks.push(result);
    process.stderr.write(`check:method: ${result.name}: ${result.verdict.toUpperCase()} — ${result.figure}\n`);
  }
  const summary = {
    kind: 'method-check',
    startedAt,
    endedAt: new Date().toISOString(),
    environment,
    loadavg: { before: loadBefore, after: os.loadavg() },
    blocks: Number(blocks),
    checks,
  };
  const stem = values['only-pair'] ? 'summary-pair' : 'summary';
  fs.writeFileSync(path.join(outDir, `${stem}.json`), `${JSON.stringify(summary, null, 2)}\n`);
  const md = [
    '# Method check (npm run check:method)',
    '',
    `Run ${startedAt} on ${environment.cpuModel ?? 'an unknown CPU'} (${environment.cores ?? '?'} cores), ` +
      `Node ${environment.node ?? process.version} for the runner, the servers on Node 24, ` +
      `ctxbench ${environment.commit ?? environment.ctxbenchVersion}; load average (1, 5, 15 min) ` +
      `${loadBefore.map((x) => x.toFixed(2)).join(', ')} at the start, ` +
      `${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(', ')} at the end.`,
    'Each check measures time, so it is a benchmark run alone, not a test: the unit suite (npm test) asserts ' +
      'none of these. A single run of each; `npm run check:method` again shows how it repeats.',
    '',
    '| Check | Verdict | Figure | Run |',
    '| --- | --- | --- | --- |',
    ...checks.map((c) => `| ${c.name} | ${c.verdict} | ${c.figure} | ${c.file ? `[${c.file}](${c.file})` : '—'} |`),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(outDir, `${stem}.md`), md);
  process.stderr.write(`check:method: wrote ${path.relative(process.cwd(), path.join(outDir, `${stem}.md`))}\n`);
  const verdicts = checks.map((c) => c.verdict);
  process.exitCode = verdicts.includes('fail') ? 1 : verdicts.includes('inconclusive') ? 2 : 0;
}

main().catch((err) => {
  process.stderr.write(`check:method: ${err.message}\n`);
  process.exitCode = 1;
});
