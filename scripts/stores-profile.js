#!/usr/bin/env node
'use strict';
// Where does OpenTelemetry's extra cost with ten live stores go (issue 48: the model's
// `otel` line misses DEPTH=64 HOP=immediate STORES=10 by +2.8 pp)? V8 CPU profiles (100 µs
// sampling) of ctxbench's server as none and otel, STORES=0 and 10, DEPTH=64 HOP=immediate,
// one after another in rounds (a profile, not a measurement of cost: the ratios are the
// model study's). Per function, the self time per request otel adds over none at STORES=10
// beside what it adds at STORES=0. The server pinned to the server CPU, this script (the
// load) to the load CPU; nothing else may run. Writes the per-round figures as JSON.
//   node scripts/stores-profile.js [--node PATH] [--rounds 2] [--seconds 8] [--out FILE]
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const autocannon = require('autocannon');
const { summarizeProfile } = require('../bench/probes/profile');
const { freePort } = require('../lib/free-port');
const { cpus } = require('../lib/cpus');

const ROOT = path.join(__dirname, '..');
const { values } = parseArgs({
  options: {
    node: { type: 'string', default: process.execPath },
    rounds: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '8' },
    out: { type: 'string', default: 'stores-profile.json' },
  },
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function profileOne(strategy, stores, pinned) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-stores-prof-'));
  const port = await freePort();
  const argv = [
    ...(pinned ? ['taskset', '-c', String(pinned.server)] : []),
    values.node,
    '--cpu-prof',
    '--cpu-prof-interval',
    '100',
    `--cpu-prof-dir=${dir}`,
    path.join(ROOT, 'app.js'),
  ];
  const child = spawn(argv[0], argv.slice(1), {
    env: {
      ...process.env,
      STRATEGY: strategy,
      DEPTH: '64',
      HOP: 'immediate',
      STORES: String(stores),
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: 'ignore',
  });
  try {
    for (let i = 0; ; i++) {
      if (i > 100) throw new Error(`${strategy} STORES=${stores} never answered /healthz`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await sleep(100);
    }
    await autocannon({ url: `http://127.0.0.1:${port}/`, connections: 10, duration: 3 }); // warm-up, left out below
    const fromUs = Number(process.hrtime.bigint() / 1000n);
    const load = await autocannon({
      url: `http://127.0.0.1:${port}/`,
      connections: 10,
      duration: Number(values.seconds),
    });
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    const s = summarizeProfile(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')), { fromUs, top: 60 });
    const perRequest = (ms) => (ms * 1000) / load.requests.total;
    return {
      strategy,
      stores,
      requests: load.requests.total,
      busyUsPerRequest: perRequest(s.busyMs),
      functions: Object.fromEntries(s.functions.map((x) => [x.name, perRequest(x.selfMs)])),
    };
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

(async () => {
  const pinned = cpus();
  if (pinned)
    execFileSync('taskset', ['-a', '-p', '-c', String(pinned.loadgen), String(process.pid)], { stdio: 'ignore' });
  const rounds = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [strategy, stores] of [
      ['none', 0],
      ['otel', 0],
      ['none', 10],
      ['otel', 10],
    ]) {
      const x = await profileOne(strategy, stores, pinned);
      rounds.push({ round, ...x });
      process.stderr.write(
        `round ${round + 1}: ${strategy} STORES=${stores}: ${x.requests} requests, ` +
          `${x.busyUsPerRequest.toFixed(1)} µs busy per request\n`,
      );
    }
  }
  fs.writeFileSync(values.out, `${JSON.stringify(rounds, null, 1)}\n`);
  // What otel adds over none, per function, at 10 stores beside 0 (mean of the rounds).
  const mean = (strategy, stores, name) => {
    const xs = rounds.filter((x) => x.strategy === strategy && x.stores === stores);
    return xs.reduce((sum, x) => sum + (x.functions[name] || 0), 0) / xs.length;
  };
  const names = new Set(rounds.flatMap((x) => Object.keys(x.functions)));
  const rows = [...names]
    .map((name) => {
      const at0 = mean('otel', 0, name) - mean('none', 0, name);
      const at10 = mean('otel', 10, name) - mean('none', 10, name);
      return { name, at0, at10, growth: at10 - at0 };
    })
    .sort((a, b) => Math.abs(b.growth) - Math.abs(a.growth));
  process.stdout.write('µs per request otel adds over none: at STORES=0, at STORES=10, the growth\n');
  for (const r of rows.slice(0, 12))
    process.stdout.write(
      `${r.at0.toFixed(2).padStart(7)} ${r.at10.toFixed(2).padStart(7)} ` +
        `${(r.growth >= 0 ? '+' : '') + r.growth.toFixed(2)}  ${r.name}\n`,
    );
})().catch((err) => {
  process.stderr.write(`stores-profile: ${err.message}\n`);
  process.exit(1);
});
