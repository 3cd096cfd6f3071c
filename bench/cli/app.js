'use strict';
// `ctxbench app --baseline CMD --candidate CMD`: what a change costs the user's own
// service (bench/app.js). Writes the run JSON (kind "app") and its report section.
const path = require('node:path');
const { UsageError, parse, flags, number } = require('../../lib/cli');
const { session } = require('../session');
const { supported } = require('../proc-cpu');
const { measureApp } = require('../app');
const { analyzeApp } = require('../../analysis');
const fs = require('node:fs');
const { AppStartError, startApp } = require('../app-process');
const { probeEnv, countResources, makeDir } = require('../probe');
const { writeJsonAtomic } = require('../../lib/cli');
const { writeReport } = require('./write-report');
const { probeText } = require('../../report/sections/app');
const { DEFAULTS: RUN_DEFAULTS } = require('../../lib/presets');
const { equivalenceText } = require('../../analysis');

const PROBE = { requests: 2000, warmup: 500 };
const DEFAULTS = { names: 'baseline,candidate', health: '/', connections: 10, blocks: 5, windows: 3, window: 1, warmup: 3, startupTimeout: 30, margin: RUN_DEFAULTS.margin };

const HELP = `usage: ctxbench app --baseline CMD --candidate CMD [options]

Measures two start commands of your own service side by side, in duet: per block a
fresh process of each, both on one CPU and loaded at the same time from the other; per
window each side's CPU per request, read from /proc (the process and its children), so
the service needs no ctxbench endpoint. Each command runs through \`sh -c\` with PORT
set to a free port; it is ready when its --health path answers 2xx.

  --baseline CMD        the service as it is (e.g. "node server.js")
  --candidate CMD       the service with the change (e.g. "TRACING=1 node server.js")
  --names A,B           names for the two (default ${DEFAULTS.names})
  --health PATH         readiness path, must answer 2xx (default ${DEFAULTS.health})
  --path PATH           a path to load (repeatable; default /); GET, in turn
  --id-header NAME      send a distinct id per request in this header and check that
                        every answer echoes it (mismatched: another request's id; lost: none)
  --connections N       concurrent connections per side (default ${DEFAULTS.connections})
  --blocks N            blocks of fresh processes, >= 3 (default ${DEFAULTS.blocks})
  --windows N           measured windows per block (default ${DEFAULTS.windows})
  --window S            seconds per window (default ${DEFAULTS.window})
  --warmup S            unmeasured seconds of load per block first (default ${DEFAULTS.warmup})
  --startup-timeout S   how long a command may take to answer --health (default ${DEFAULTS.startupTimeout})
  --margin PCT          equivalence margin M: the candidate is "equivalent" when the 90%
                        interval of its ratio lies within 100% ± M (default ${DEFAULTS.margin})
  --probe               after measuring, count each side's async resources per request in a
                        probe process of its own (an async_hooks init counter preloaded
                        through NODE_OPTIONS; never in a measured process): on the first
                        --path, at --connections, ${PROBE.requests} requests after ${PROBE.warmup}
  --out FILE            run JSON (default results/app.json)
  --report FILE         results.md to regenerate ("none" to skip; default results.md when
                        --out is in results/, else none)
Exit 0 measured, 1 a command failed to start or bad input, 130 interrupted.
`;

const OPTIONS = flags(['baseline', 'candidate', 'names', 'health', 'path', 'id-header', 'connections', 'blocks', 'windows', 'window', 'warmup', 'startup-timeout', 'margin', 'out', 'report'], { multiple: ['path'], booleans: ['probe'] });

function urlPath(flag, value) {
  if (!/^\/[^\s]*$/.test(value)) throw new UsageError(`--${flag} ${value} is not a path (it starts with / and has no spaces)`);
  return value;
}

function settingsOf(values) {
  for (const k of ['baseline', 'candidate']) {
    if (!values[k] || !values[k].trim()) throw new UsageError(`--${k} CMD is required: the start command of the service ${k === 'baseline' ? 'as it is' : 'with the change'}`);
  }
  const names = (values.names ?? DEFAULTS.names).split(',').map((s) => s.trim());
  if (names.length !== 2 || names.some((n) => !/^[a-z0-9][a-z0-9._-]*$/i.test(n)) || names[0] === names[1]) {
    throw new UsageError(`--names ${values.names}: two different names (letters, digits, . _ -), comma-separated`);
  }
  if (values['id-header'] !== undefined && !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(values['id-header'])) throw new UsageError(`--id-header ${values['id-header']} is not an HTTP header name`);
  return {
    names,
    health: urlPath('health', values.health ?? DEFAULTS.health),
    paths: (values.path ?? ['/']).map((p) => urlPath('path', p)),
    idHeader: values['id-header'] ?? null,
    connections: number('connections', values.connections, { min: 1, max: 1000, integer: true }) ?? DEFAULTS.connections,
    blocks: number('blocks', values.blocks, { min: 3, max: 1000, integer: true }) ?? DEFAULTS.blocks,
    windows: number('windows', values.windows, { min: 1, max: 100, integer: true }) ?? DEFAULTS.windows,
    window: number('window', values.window, { min: 0.2, max: 60 }) ?? DEFAULTS.window,
    warmup: number('warmup', values.warmup, { min: 0, max: 600 }) ?? DEFAULTS.warmup,
    startupTimeout: number('startup-timeout', values['startup-timeout'], { min: 1, max: 600 }) ?? DEFAULTS.startupTimeout,
    margin: number('margin', values.margin, { min: 0.1, max: 50 }) ?? DEFAULTS.margin,
    method: 'duet',
    baseline: 'baseline',
  };
}

function summaryLine(run) {
  const a = run.app;
  const r = a?.ratio;
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  const [base, cand] = run.configs;
  const lines = ['', `ctxbench app: ${run.status}, duet, ${a?.blocks ?? 0} block(s)`];
  if (r && Number.isFinite(r.estimate)) {
    const eq = a.broken ? null : r.judgement?.equivalence;
    lines.push(`${cand.name} at ${pct(r.estimate)}${r.ci95 ? ` [${pct(r.ci95[0])}–${pct(r.ci95[1])}]` : ''} of ${base.name}'s throughput on one CPU (CPU per request in duet): ${r.verdict}${eq ? `; ${equivalenceText(eq)}` : ''}`);
  } else lines.push('no ratio: too few windows measured');
  for (const c of run.configs) {
    const ids = a?.ids?.[c.arm];
    lines.push(`  ${c.name}: ${ids ? (ids.checked ? `${ids.kept.toLocaleString('en-US')} ids kept, ${ids.mismatches} mismatched, ${ids.lost} lost` : 'ids not checked (no --id-header)') : ''}`);
  }
  if (a?.probe) lines.push(probeText(a.probe));
  return `${lines.join('\n')}\n`;
}

async function main(args) {
  const { values } = parse(args, OPTIONS);
  const settings = settingsOf(values);
  if (!supported()) throw new UsageError('ctxbench app reads CPU time from /proc/<pid>/task/*/schedstat: it needs Linux');
  const out = values.out ?? path.join('results', 'app.json');
  const sides = settings.names.map((name, i) => ({ name, command: i === 0 ? values.baseline : values.candidate }));
  const run = await session({
    kind: 'app',
    title: `Your service: ${settings.names[1]} against ${settings.names[0]}`,
    command: ['ctxbench', 'app', ...args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a))].join(' '),
    settings: { ...settings, names: undefined },
    out,
    part: { configs: [] },
    pin: true,
    progress: { total: settings.blocks * settings.windows, step: 'window' },
    analyze: analyzeApp,
    async measure(r, { save, progress, stop, pinned }) {
      try {
        r.configs = await measureApp({
          sides,
          settings,
          pinned,
          stop,
          onBlock: (configs) => {
            r.configs = configs;
            r.app = analyzeApp(r);
            save();
          },
          onProgress: (p) => {
            const what = `block ${p.block + 1}/${settings.blocks} window ${p.window + 1}`;
            if (p.dropped) progress.log(`${what} dropped: ${p.dropped}`);
            else progress.tick(`${what}${p.ratio ? ` · ${sides[1].name} ${(100 * p.ratio).toFixed(1)}% of ${sides[0].name}` : ''}`);
          },
        });
      } catch (err) {
        // Nothing measured is lost: the run JSON keeps every window taken before a failure.
        if (err instanceof AppStartError) {
          r.configs = err.configs;
          r.status = 'failed';
          r.app = analyzeApp(r);
        }
        throw err;
      }
    },
  }).catch((err) => {
    throw err instanceof AppStartError ? new UsageError(`${err.message} (run JSON with what was measured: ${out})`) : err;
  });
  if (values.probe && run.status === 'complete') await probeSides(run, sides, settings, out);
  process.stdout.write(summaryLine(run));
  await writeReport(out, values.report);
  return run.status === 'interrupted' ? 130 : 0;
}

// --probe: each side once more, in a probe process, for its async resources per request.
async function probeSides(run, sides, settings, out) {
  const probes = [];
  for (const side of sides) {
    const dir = makeDir();
    process.stderr.write(`ctxbench: probing ${side.name}: async resources per request (${PROBE.requests} requests at ${settings.connections} in flight, a probe process)\n`);
    const app = await startApp({ name: side.name, command: side.command, health: settings.health, timeoutMs: settings.startupTimeout * 1000, env: probeEnv(dir) });
    try {
      const counted = await countResources({ url: `${app.url}${settings.paths[0]}`, dir, requests: PROBE.requests, concurrency: settings.connections, warmup: PROBE.warmup });
      probes.push({ name: side.name, command: side.command, path: settings.paths[0], ...counted });
    } finally {
      await app.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  run.probe = { sides: probes };
  run.app = analyzeApp(run);
  writeJsonAtomic(out, run);
}

module.exports = { main, help: HELP, settingsOf };
