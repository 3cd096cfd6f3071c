'use strict';
// `ctxbench micro --method instructions`: instructions per operation of every micro
// scenario, counted by Valgrind (callgrind) in one process per strategy, so the micro
// table no longer depends on the machine's mood (issue: instruction counts).
//
// Per strategy: micro/worker.js in count mode under callgrind, with the node flags of
// bench/measure/callgrind.js (NODE_ARGS, which says why: the count then repeats from process to
// process). Per scenario, windows cut by the counter (zero, iterate, dump):
//   1. overhead: 3 windows of no iteration — the IPC that starts and ends a window —
//      taken out of every warm-up window below;
//   2. sizing: two windows of SIZING_ITERATIONS (the first runs cold code), to choose n so
//      a window holds ~WINDOW_IR instructions (at least MIN_ITERATIONS);
//   3. warm-up: windows of n until instructions per iteration are steady (the rule of
//      bench/measure/instruction-windows.js: the last 6 within ±2% of their median), at most maxWarmup;
//   4. the overhead again, now that the IPC path is warm, and n again from the warm
//      per-iteration count. Measured at the start only, both are read on cold code: the
//      overhead differed from run to run and the windows came out far smaller than
//      WINDOW_IR, enough to move none's current() by several percent (docs/micro.md,
//      "Instruction counts", Once warm, the window's cost and n again);
//   5. measurement: `windows` windows of the warm n. The figure is their median: a window in which
//      V8 collected garbage or compiled reads higher (docs/investigations.md, "Figures that
//      code comments carried"), and the spread (half the interquartile range) says how often.
// Instructions per operation = per iteration ÷ the scenario's operations per iteration
// (100 reads, 100 hops, 1,000 run() or current() calls; 1 for the request scenarios).
// A count sees no cache misses or memory stalls: it is work, not time.
const path = require('node:path');
const fs = require('node:fs');
const { fork } = require('node:child_process');
const { SCENARIOS } = require('../../micro/scenarios');
const { identityEnv, outDir, wrapper, counter, NODE_ARGS } = require('./callgrind');
const { warmedUp } = require('./instruction-windows');
const { median, quantile } = require('../../analysis/stats');

const WORKER = path.join(__dirname, '..', '..', 'micro', 'worker.js');
const SIZING_ITERATIONS = 20;
const OVERHEAD_WINDOWS = 3;
const WINDOW_IR = 3e7;
const MIN_ITERATIONS = 10;
const MAX_ITERATIONS = 100000;
const DEFAULTS = { maxWarmup: 20, windows: 5 };
// The warm per-iteration count that sizes the measured windows: the last warm-up windows.
const STEADY_TAIL = 3;

const opsOf = (key) => SCENARIOS.find((s) => s.key === key)?.ops ?? 1;

// Starts micro/worker.js for `name` under callgrind; resolves once it is ready to count.
function startCounting(target, name, scenarios, { env = process.env } = {}) {
  const dir = outDir();
  const idEnv = identityEnv(env);
  const [valgrind, ...tool] = wrapper(dir);
  const child = fork(WORKER, [name, JSON.stringify({ count: true, scenarios })], {
    execPath: valgrind,
    execArgv: [...tool, target.path, ...NODE_ARGS, ...(target.args || [])],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...env, ...idEnv },
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const waiters = [];
  let hello = null;
  let checks = null;
  let exit = null;
  const fail = (why) => {
    for (const w of waiters.splice(0))
      w.reject(new Error(`${name}: ${why}${lastLine(stderr) ? `: ${lastLine(stderr)}` : ''}`));
  };
  child.on('message', (msg) => {
    if (msg.type === 'hello') hello = msg;
    if (msg.type === 'counts-done') checks = msg.checks;
    const i = waiters.findIndex((w) => w.type === msg.type);
    if (i >= 0) waiters.splice(i, 1)[0].resolve(msg);
  });
  child.on('exit', (code, signal) => {
    exit = { code, signal };
    fail(`the counting process exited (${signal || `code ${code}`})`);
  });
  child.on('error', (err) => fail(err.message));
  const next = (type) =>
    new Promise((resolve, reject) =>
      exit ? reject(new Error(`${name}: the counting process is gone`)) : waiters.push({ type, resolve, reject }),
    );
  const count = counter(child.pid, dir, idEnv);
  const stop = async () => {
    if (!exit) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return next('counting').then(() => ({
    hello: () => hello,
    checks: () => checks,
    // One window: the counter zeroed, `iterations` iterations of `key`, the counter dumped.
    async window(key, iterations) {
      await count.zero();
      const done = next('iterated');
      child.send({ type: 'iterate', key, iterations });
      await done;
      return count.dump();
    },
    async end() {
      const done = next('counts-done');
      child.send({ type: 'end' });
      await done;
    },
    stop,
  }));
}

const lastLine = (text) =>
  text
    .trim()
    .split('\n')
    .filter((l) => !/^==\d+==/.test(l))
    .at(-1) ?? '';

// One scenario in one counting process -> { iterations, overhead, warmup: [per iteration],
// settled, windows: [{ instructions, perIteration }], perIteration, perOp, spreadPct }.
async function countScenario(proc, key, { maxWarmup = DEFAULTS.maxWarmup, windows = DEFAULTS.windows, signal } = {}) {
  // What a window costs with no iteration in it (the IPC that starts and ends it).
  const empty = [];
  for (let i = 0; i < OVERHEAD_WINDOWS; i++) empty.push(await proc.window(key, 0));
  const overhead = median(empty);
  const net = (instructions, n) => (instructions - overhead) / n;
  // Sized on the second of two small windows: the first runs cold code (10x dearer).
  await proc.window(key, SIZING_ITERATIONS);
  const sized = net(await proc.window(key, SIZING_ITERATIONS), SIZING_ITERATIONS);
  const n = Math.min(MAX_ITERATIONS, Math.max(MIN_ITERATIONS, Math.round(WINDOW_IR / Math.max(1, sized))));
  const warmup = [];
  let verdict = { more: maxWarmup > 0, reason: maxWarmup > 0 ? null : 'no warm-up asked for' };
  while (verdict.more && !signal?.aborted) {
    warmup.push(net(await proc.window(key, n), n));
    verdict = warmedUp(warmup, { maxWindows: maxWarmup });
  }
  const warmEmpty = [];
  for (let i = 0; i < OVERHEAD_WINDOWS && !signal?.aborted; i++) warmEmpty.push(await proc.window(key, 0));
  const warmOverhead = warmEmpty.length ? median(warmEmpty) : overhead;
  const warmPer = warmup.length ? median(warmup.slice(-STEADY_TAIL)) : sized;
  const m = Math.min(MAX_ITERATIONS, Math.max(n, Math.round(WINDOW_IR / Math.max(1, warmPer))));
  const measured = [];
  for (let i = 0; i < windows && !signal?.aborted; i++) {
    const instructions = await proc.window(key, m);
    measured.push({ instructions, perIteration: (instructions - warmOverhead) / m });
  }
  const per = measured.map((w) => w.perIteration);
  const perIteration = per.length ? median(per) : null;
  const iqr = per.length >= 2 ? quantile(per, 0.75) - quantile(per, 0.25) : null;
  return {
    iterations: m,
    warmupIterations: n,
    overhead: warmOverhead,
    coldOverhead: overhead,
    warmup,
    settled: verdict.reason === 'steady',
    windows: measured,
    perIteration,
    perOp: perIteration === null ? null : perIteration / opsOf(key),
    spreadPct: iqr !== null && perIteration > 0 ? (iqr / 2 / perIteration) * 100 : null,
  };
}

// Every scenario of one strategy in one process -> { strategy, node, acf, pid, scenarios:
// { key: countScenario result | { error } }, checks, error }.
async function countStrategy(target, name, scenarios, { env, signal, onScenario = () => {}, ...opts } = {}) {
  const entry = {
    target: target.label,
    strategy: name,
    node: null,
    acf: null,
    pid: null,
    scenarios: {},
    checks: null,
    error: null,
  };
  let proc;
  try {
    proc = await startCounting(target, name, scenarios, { env });
    const hello = proc.hello();
    Object.assign(entry, {
      node: hello?.node ?? null,
      acf: hello?.acf ?? null,
      pid: hello?.pid ?? null,
      carriesContext: hello?.carriesContext ?? null,
    });
    for (const key of scenarios) {
      if (signal?.aborted) break;
      entry.scenarios[key] = await countScenario(proc, key, { ...opts, signal });
      onScenario(entry, key);
    }
    if (!signal?.aborted) {
      await proc.end();
      entry.checks = proc.checks();
    }
  } catch (err) {
    entry.error = { message: err.message.split('\n')[0] };
  } finally {
    await proc?.stop();
  }
  return entry;
}

module.exports = { countStrategy, countScenario, startCounting, DEFAULTS, WINDOW_IR };
