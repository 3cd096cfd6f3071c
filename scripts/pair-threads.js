#!/usr/bin/env node
'use strict';
// Where a strategy's extra CPU per request goes at a fixed rate (docs/model.md, "The method
// check": the first check read OpenTelemetry far dearer at a fixed rate than at saturation;
// this script showed it was V8 still compiling, which is why the pair now warms its
// processes closed loop first). A second method beside the pair's own figure: a baseline and a
// candidate process, fresh, pinned together to the server CPU, sent one open-loop schedule
// at the rate (bench/measure/pair-windows.js measurePair, as the pair method runs them), and at every
// window each process's CPU split by thread (/proc/<pid>/task/<tid>/schedstat, named by
// comm: the event loop's `node` thread or V8's and libuv's helpers), over a long run, so
// that a cost that is still falling (compilation, a heap still growing) shows as a trend.
// Prints one line per window and writes every window as JSON. Nothing else may run.
//   node scripts/pair-threads.js [--strategies otel,datadog] [--rates 1000,3000]
//     [--windows 30] [--window 2] [--node PATH] [--out FILE]
const fs = require('node:fs');
const { parseArgs } = require('node:util');
const { startServer } = require('../bench/processes/server-process');
const { measurePair } = require('../bench/measure/pair-windows');
const { startServices } = require('../bench/services/services');
const { pinSelf } = require('../bench/run/session');
const { threadTimes } = require('../bench/processes/proc-cpu');
const { cpus } = require('../lib/cpus');
const strategies = require('../context');

const { values } = parseArgs({
  options: {
    strategies: { type: 'string', default: 'otel,datadog' },
    rates: { type: 'string', default: '1000,3000' },
    windows: { type: 'string', default: '30' },
    window: { type: 'string', default: '2' },
    node: { type: 'string', default: process.execPath },
    out: { type: 'string', default: 'pair-threads.json' },
  },
});

// pid -> Map(thread name -> CPU µs so far): the event loop (the thread that is the
// process's own) apart, the rest by comm (V8's and libuv's helpers).
function threadsUs(pid) {
  const out = new Map();
  for (const { tid, ns } of threadTimes(pid)) {
    let name = 'event loop';
    if (tid !== String(pid)) {
      try {
        name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim().replace(/\d+$/, '');
      } catch {
        continue; // a thread that ended between the listing and the read
      }
    }
    out.set(name, (out.get(name) ?? 0) + ns / 1000);
  }
  return out;
}

const minus = (a, b) => new Map([...a].map(([k, v]) => [k, v - (b.get(k) ?? 0)]));
const perRequest = (m, requests) =>
  Object.fromEntries([...m].map(([k, v]) => [k, Math.round((v / requests) * 10) / 10]));

async function one(strategy, rate, serverEnv) {
  const configs = ['none', strategy].map((s) => ({
    id: s,
    strategy: s,
    depth: 8,
    hop: 'immediate',
    framework: 'express',
    stores: 0,
    log: 'none',
  }));
  const servers = [];
  try {
    for (const c of configs)
      servers.push(await startServer(c, { nodePath: values.node, cpu: cpus()?.server ?? null, env: serverEnv }));
    const pids = servers.map((s) => s.first.pid);
    // The first reading is taken at the first window's end (the pair's warm-up is before
    // it): that window is left out of the split, the rest are each one window.
    let before = null;
    const windows = [];
    await measurePair({
      servers,
      configs,
      rate,
      load: { connections: 10, timeout: 10 },
      windowS: Number(values.window),
      windows: Number(values.windows) + 1,
      maxWindows: Number(values.windows) + 1,
      onWindow: (w) => {
        const now = pids.map(threadsUs);
        if (!before) {
          before = now;
          return;
        }
        const [base, cand] = w.members;
        const split = now.map((m, i) => perRequest(minus(m, before[i]), w.members[i].requests));
        before = now;
        const row = {
          window: windows.length,
          counted: w.counted,
          rate,
          strategy,
          cpuUsPerRequest: [base.cpuUsPerRequest, cand.cpuUsPerRequest],
          wakeupsPerRequest: [base.wakeupsPerRequest, cand.wakeupsPerRequest],
          threads: split,
        };
        windows.push(row);
        const loop = split.map((s) => s['event loop'] ?? 0);
        const rest = split.map((s, i) => Math.round(((i ? cand : base).cpuUsPerRequest - loop[i]) * 10) / 10);
        process.stdout.write(
          `${strategy} ${rate}/s w${row.window}${w.counted ? '' : ' (dropped)'}: extra ` +
            `${(cand.cpuUsPerRequest - base.cpuUsPerRequest).toFixed(1)} µs/req = event loop ` +
            `${(loop[1] - loop[0]).toFixed(1)} + other threads ${(rest[1] - rest[0]).toFixed(1)}; none ` +
            `${base.cpuUsPerRequest.toFixed(1)} (${JSON.stringify(split[0])}), ${strategy} ` +
            `${cand.cpuUsPerRequest.toFixed(1)} (${JSON.stringify(split[1])})\n`,
        );
      },
    });
    return windows;
  } finally {
    await Promise.all(servers.map((s) => s.stop().catch(() => {})));
  }
}

async function main() {
  pinSelf();
  const names = values.strategies.split(',');
  const unknown = names.find((s) => !strategies.names.includes(s));
  if (unknown) throw new Error(`unknown strategy ${unknown}`);
  const needsSink = names.some((s) => strategies.info(s).sink);
  const services = needsSink ? await startServices({ need: { sink: true }, pinned: Boolean(cpus()) }) : null;
  const all = [];
  try {
    for (const rate of values.rates.split(',').map(Number)) {
      for (const strategy of names) all.push(...(await one(strategy, rate, services?.env ?? {})));
    }
  } finally {
    await services?.stop();
  }
  fs.writeFileSync(values.out, JSON.stringify({ node: values.node, windows: all }, null, 1));
}

main().catch((err) => {
  process.stderr.write(`pair-threads: ${err.message}\n`);
  process.exit(1);
});
