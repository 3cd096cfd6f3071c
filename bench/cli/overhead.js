'use strict';
// `ctxbench overhead`: does the server's request path add anything but the strategy?
// `STRATEGY=none DEPTH=1` (trace-id parsing, the context middleware, a one-level chain)
// against a 10-line Express hello-world, side by side in alternating bursts. ctxbench's
// floor must reach at least 90% of the hello-world's throughput.
const path = require('node:path');
const { spawn } = require('node:child_process');
const { parse, number, writeJsonAtomic } = require('../../lib/cli');
const { startServer } = require('../server-process');
const { getDriver } = require('../drivers');
const { ratio, verdict, describe } = require('../stats');
const { captureEnvironment } = require('../environment');
const { pinSelf, writeReport } = require('../session');
const { createProgress, onInterrupt } = require('../progress');
const { SERVER_CPU } = require('../runner');

const REQUIRED = 0.9;
const HELLO = path.resolve(__dirname, '..', 'hello-world.js');

const HELP = `usage: ctxbench overhead [options]

  --rounds N        alternating bursts per server (default 12)
  --duration S      seconds per burst (default 2)
  --connections N   (default 100)   --pipelining N (default 10)
  --out FILE        JSON (default results/overhead.json)
  --report FILE     results.md to regenerate (default results.md; "none" to skip)
`;

function startHello(cpu) {
  const [cmd, args] = cpu === null ? [process.execPath, [HELLO]] : ['taskset', ['-c', String(cpu), process.execPath, HELLO]];
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, PORT: '0' } });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve({ url: `http://127.0.0.1:${m[1]}`, stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`hello-world exited with ${code}`)));
  });
}

async function main(args) {
  const { values } = parse(args, {
    rounds: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string' },
    pipelining: { type: 'string' },
    out: { type: 'string' },
    report: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const settings = {
    rounds: number('rounds', values.rounds, { min: 2, max: 1000, integer: true }) ?? 12,
    duration: number('duration', values.duration, { min: 0.5, max: 600 }) ?? 2,
    connections: number('connections', values.connections, { min: 1, max: 10000, integer: true }) ?? 100,
    pipelining: number('pipelining', values.pipelining, { min: 1, max: 100, integer: true }) ?? 10,
    warmup: 2,
  };
  const out = values.out ?? path.join('results', 'overhead.json');
  const environment = captureEnvironment();
  const pinned = environment.taskset && pinSelf();
  environment.taskset = pinned;
  const cpu = pinned ? SERVER_CPU : null;
  const measure = getDriver('autocannon');
  const floor = await startServer({ strategy: 'none', depth: 1, hop: 'sync', framework: 'express' }, { cpu });
  const hello = await startHello(cpu).catch(async (err) => {
    await floor.stop();
    throw err;
  });
  const sides = { 'ctxbench none depth 1': { url: floor.url, samples: [] }, 'express hello-world': { url: hello.url, samples: [] } };
  const run = { schema: 1, kind: 'overhead', title: 'Request-path overhead: STRATEGY=none DEPTH=1 vs an Express hello-world', command: ['ctxbench', 'overhead', ...args].join(' '), status: 'running', environment, settings, overhead: null };
  const progress = createProgress({ total: settings.rounds * 2 + 2, label: 'ctxbench overhead' });
  const stop = onInterrupt(progress);
  try {
    const load = { connections: settings.connections, pipelining: settings.pipelining };
    for (const side of Object.values(sides)) {
      await measure({ url: side.url, ...load, duration: settings.warmup });
      progress.tick('warm');
    }
    for (let round = 0; round < settings.rounds && !stop.requested; round++) {
      const order = round % 2 ? Object.entries(sides).reverse() : Object.entries(sides);
      for (const [name, side] of order) {
        const m = await measure({ url: side.url, ...load, duration: settings.duration });
        side.samples.push({ round, rps: m.rps, p99: m.latency.p99, loadgenCpu: m.loadgenCpu });
        progress.tick(`${name} ${m.rps.toFixed(0)} req/s`);
      }
      const [floorSide, helloSide] = Object.values(sides);
      const r = ratio(floorSide.samples, helloSide.samples, { paired: true });
      run.overhead = {
        required: REQUIRED,
        sides: Object.fromEntries(Object.entries(sides).map(([k, v]) => [k, { samples: v.samples, rps: describe(v.samples.map((s) => s.rps)) }])),
        ratio: { ...r, verdict: verdict(r) },
        pass: r.estimate !== null && r.estimate >= REQUIRED,
      };
      writeJsonAtomic(out, run);
    }
  } finally {
    progress.stop();
    stop.release();
    hello.stop();
    await floor.stop();
  }
  run.status = stop.requested ? 'interrupted' : 'complete';
  writeJsonAtomic(out, run);
  const r = run.overhead.ratio;
  process.stderr.write(
    `ctxbench: STRATEGY=none DEPTH=1 reaches ${(100 * r.estimate).toFixed(1)}% [95% CI ${(100 * r.ci95[0]).toFixed(1)}–${(100 * r.ci95[1]).toFixed(1)}%] of the hello-world's throughput (required ≥ ${REQUIRED * 100}%): ${run.overhead.pass ? 'ok' : 'NOT MET'}\n`,
  );
  await writeReport(out, values.report ?? 'results.md');
  return run.status === 'interrupted' ? 130 : 0;
}

module.exports = { main };
