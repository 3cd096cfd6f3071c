#!/usr/bin/env node
'use strict';
// The open-loop generator's own ceiling on this machine (a benchmark, run alone): how late
// it is, how much of its CPU it uses, and whether it keeps its schedule, against servers
// that answer in constant time (node:http, a fixed body: nothing of theirs to measure), at
// rising rates, with one target and with two (a pair: both schedules from one generator).
// The generator pinned to the load CPU, the servers to the server CPU, as a run pins them.
// Writes results/method-check/generator-ceiling.{json,md}. Usage:
//   node scripts/generator-ceiling.js [--rates 1000,2000,…] [--seconds 5] [--thread worker|main]
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { execFileSync } = require('node:child_process');
const { spawnListening } = require('../bench/processes/server-process');
const { startSchedule } = require('../load/open-loop');
const { percentiles } = require('../lib/histogram');
const { captureEnvironment } = require('../bench/run/environment');
const { cpus } = require('../lib/cpus');

const { values } = parseArgs({
  options: {
    rates: { type: 'string' },
    seconds: { type: 'string' },
    out: { type: 'string' },
    thread: { type: 'string' },
  },
});
// Where the schedule runs: its own thread (as runs use it) or this one (--thread main).
const THREAD = values.thread ?? 'worker';
const RATES = (values.rates ?? '1000,2000,4000,8000,12000,16000,24000').split(',').map(Number);
const SECONDS = Number(values.seconds ?? 5);
const outDir = path.resolve(values.out ?? path.join('results', 'method-check'));
if (RATES.some((r) => !(r > 0)) || !(SECONDS > 0) || !['worker', 'main'].includes(THREAD)) {
  process.stderr.write(
    'generator-ceiling: --rates R,R… (requests/s in all), --seconds S (> 0), --thread worker|main\n',
  );
  process.exit(1);
}

// A server that answers in constant time: every request the same small body.
const CONSTANT =
  "require('node:http').createServer((q, s) => { s.end('ok'); }).listen(0, '127.0.0.1', function () { " +
  "process.stdout.write('listening ' + this.address().port + '\\n'); });";

function mergeCuts(cuts) {
  const [first, ...rest] = cuts;
  for (const c of rest) {
    first.wallMs += c.wallMs;
    first.cpuUs += c.cpuUs;
    first.lateness.add(c.lateness);
    c.targets.forEach((t, i) => {
      const f = first.targets[i];
      f.due += t.due;
      f.sent += t.sent;
      f.latency.add(t.latency);
    });
  }
  return first;
}

async function measure(targets, rate, urls) {
  const schedule = await startSchedule({
    targets: urls.map((url) => ({ url, path: '/' })),
    rate,
    connections: 100,
    timeout: 10,
    thread: THREAD,
  });
  await new Promise((r) => setTimeout(r, 1000));
  await schedule.cut(); // the first second is the schedule's own warm-up
  // Cut every half second, as a pair polls its generator: a cut's own cost lands on the
  // sending thread, so a ceiling measured without it would promise too much.
  const cuts = [];
  for (let i = 0; i < SECONDS * 2; i++) {
    await new Promise((r) => setTimeout(r, 500));
    cuts.push(await schedule.cut());
  }
  const cut = mergeCuts(cuts);
  await schedule.stop();
  await schedule.done;
  await schedule.close();
  const late = percentiles(cut.lateness);
  const due = cut.targets.reduce((a, t) => a + t.due, 0);
  const sent = cut.targets.reduce((a, t) => a + t.sent, 0);
  const latency = percentiles(cut.targets[0].latency);
  return {
    targets,
    rate: rate * targets,
    latenessP50: late.p50,
    latenessP99: late.p99,
    latenessMax: late.max,
    generatorCpu: Math.round((cut.cpuUs / 1000 / cut.wallMs) * 1000) / 1000,
    sentShare: due ? Math.round((sent / due) * 10000) / 10000 : null,
    latencyP50: latency.p50,
    latencyP99: latency.p99,
  };
}

async function main() {
  const cpu = cpus();
  if (cpu) execFileSync('taskset', ['-a', '-p', '-c', String(cpu.loadgen), String(process.pid)], { stdio: 'ignore' });
  const servers = [];
  for (let i = 0; i < 2; i++) {
    const [cmd, args] = cpu
      ? ['taskset', ['-c', String(cpu.server), process.execPath, '-e', CONSTANT]]
      : [process.execPath, ['-e', CONSTANT]];
    servers.push(await spawnListening(cmd, args));
  }
  // Interrupted, it stops its servers first: they are processes of their own.
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, () => Promise.all(servers.map((s) => s.stop())).finally(() => process.exit(130)));
  }
  const rows = [];
  try {
    for (const targets of [1, 2]) {
      const urls = servers.slice(0, targets).map((s) => s.url);
      for (const total of RATES) {
        const row = await measure(targets, total / targets, urls);
        rows.push(row);
        process.stderr.write(
          `generator-ceiling: ${targets} target(s), ${total} req/s in all: late p50 ${row.latenessP50} ms, ` +
            `p99 ${row.latenessP99} ms; generator CPU ${row.generatorCpu}; ` +
            `${(row.sentShare * 100).toFixed(2)}% sent\n`,
        );
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  const environment = captureEnvironment();
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(
    path.join(outDir, 'generator-ceiling.json'),
    `${JSON.stringify({ kind: 'generator-ceiling', environment, seconds: SECONDS, thread: THREAD, rows }, null, 2)}\n`,
  );
  const md = [
    "# The open-loop generator's ceiling on this machine",
    '',
    `Measured ${environment.date} on ${environment.cpuModel} × ${environment.cores} (kernel ` +
      `${environment.kernel}), ctxbench ${environment.commit}, by \`node scripts/generator-ceiling.js\`: the ` +
      `generator pinned to CPU ${cpu?.loadgen ?? '(none)'}, constant-time node:http servers on CPU ` +
      `${cpu?.server ?? '(none)'}, ` +
      `${SECONDS} s per rate after 1 s unmeasured, cut every 0.5 s as a pair polls, 100 connections per target, ` +
      `the schedule in ` +
      `${THREAD === 'worker' ? 'a thread of its own (as runs use it)' : "the script's main thread"}. A single ` +
      `run; its figures move with the machine.`,
    '',
    '| Targets | req/s in all | Lateness p50 ms | Lateness p99 ms | Lateness max ms | Generator CPU (share of ' +
      'a core) | Sent of due | Latency p50 / p99 ms (target 1) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.targets} | ${r.rate.toLocaleString('en-US')} | ${r.latenessP50} | ${r.latenessP99} | ` +
        `${r.latenessMax} | ${r.generatorCpu} | ${(r.sentShare * 100).toFixed(2)}% | ${r.latencyP50} / ` +
        `${r.latencyP99} |`,
    ),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(outDir, 'generator-ceiling.md'), md);
  process.stderr.write(
    `generator-ceiling: wrote ${path.relative(process.cwd(), path.join(outDir, 'generator-ceiling.md'))}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`generator-ceiling: ${err.message}\n`);
  process.exitCode = 1;
});
