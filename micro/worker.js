'use strict';
// One strategy, one process, one round: `node micro/worker.js <strategy> '<settings json>'`,
// forked by micro/index.js with an IPC channel, once per strategy per round. Loading two
// strategies in one process would let one's async hooks (cls-hooked, alscontext's CLS)
// slow the other's promises.
//
// Messages to the parent:
//   { type: 'hello', strategy, carriesContext, node, acf, pid, execArgv }
//   { type: 'scenario', key, result }   (one per scenario: tinybench's summary, no samples)
//   { type: 'scenario', key, error }
//   { type: 'done' }
const { detectAsyncContextFrame } = require('../lib/runtime');
const { SCENARIOS, build } = require('./scenarios');
const strategies = require('./strategies');
const { performance } = require('node:perf_hooks');

function send(msg) {
  return new Promise((resolve, reject) => process.send(msg, (err) => (err ? reject(err) : resolve())));
}

function toUs(ms) {
  return typeof ms === 'number' && Number.isFinite(ms) ? ms * 1000 : null;
}

// The shortest time this process's timer tells from zero, in µs: the median delta of two
// back-to-back reads (tinybench's own calibration). A timer too coarse for that (the
// calibration then returns 0) is measured by its tick: the smallest change it shows.
function timerResolutionUs(tb) {
  const read = tb.calibrateTimerOverhead(tb.hrtimeNowTimestampProvider, { estimator: 'median' });
  if (read > 0) return read * 1000;
  let tick = Infinity;
  for (let i = 0; i < 32; i++) {
    const a = tb.hrtimeNow();
    let b = a;
    while (b === a) b = tb.hrtimeNow();
    tick = Math.min(tick, b - a);
  }
  return tick * 1000;
}

async function main() {
  const [name, rawSettings] = process.argv.slice(2);
  const settings = JSON.parse(rawSettings || '{}');
  const keys = settings.scenarios || SCENARIOS.map((s) => s.key);

  // Probe before the strategy is loaded (the probe leaves no hook behind).
  const acf = detectAsyncContextFrame();
  const strategy = strategies.load(name);
  await send({
    type: 'hello',
    strategy: name,
    carriesContext: strategy.carriesContext !== false,
    node: process.version,
    acf,
    pid: process.pid,
    execArgv: process.execArgv,
  });

  if (settings.count) return countLoop(strategy, keys);

  const tb = await import('tinybench');
  const { Bench } = tb;
  const resolutionUs = timerResolutionUs(tb);
  const benchOptions = {
    time: settings.time,
    warmupTime: settings.warmupTime,
    iterations: settings.iterations,
    warmupIterations: settings.warmupIterations,
    // The parent uses one value per process (the mean), so the samples are not kept.
    retainSamples: false,
    throws: true,
    timestampProvider: 'hrtimeNow',
  };
  const clock = new Bench(benchOptions);
  const { counters, tasks } = build(strategy, clock.now);

  for (const key of keys) {
    const meta = SCENARIOS.find((s) => s.key === key);
    // A fresh Bench per scenario: its warm-up runs right before its measurement.
    const bench = new Bench(benchOptions);
    bench.add(key, tasks[key], { async: meta.async });
    try {
      await bench.run();
      const task = bench.getTask(key);
      const r = task.result;
      if (r.state !== 'completed') throw r.error || new Error(`task ended ${r.state}`);
      const lat = r.latency;
      const meanUs = toUs(lat.mean);
      const result = {
        opsPerSec: meanUs > 0 ? 1e6 / meanUs : null,
        meanUs,
        p50Us: toUs(lat.p50),
        p99Us: toUs(lat.p99),
        minUs: toUs(lat.min),
        maxUs: toUs(lat.max),
        sdUs: toUs(lat.sd),
        semUs: toUs(lat.sem),
        rme: lat.rme,
        samples: lat.samplesCount,
        // What the timer timed per sample (a whole batch for the per-call scenarios),
        // beside what it can resolve: analysis/micro.js flags samples too short to time.
        timedUs: meta.perCall ? meanUs * meta.ops : meanUs,
        timerResolutionUs: resolutionUs,
        reads: counters[key].reads,
        failures: counters[key].failures,
        checked: strategy.carriesContext !== false,
      };
      await send({ type: 'scenario', key, result });
    } catch (err) {
      await send({ type: 'scenario', key, error: String(err && err.message ? err.message : err) });
    }
  }
  await send({ type: 'done' });
}

// Instruction counts (bench/measure/micro-counts.js runs this process under callgrind): the
// parent zeroes the counter, sends { type: 'iterate', key, iterations }, and dumps it
// when this process answers { type: 'iterated' }; { type: 'next' } moves to the next
// scenario, { type: 'end' } ends. Nothing else runs here between the two, so a window
// holds the iterations and the same small IPC cost every time (the parent takes it out by
// differencing windows of n and 2n iterations).
function countLoop(strategy, keys) {
  const { counters, tasks } = build(strategy, () => performance.now());
  return new Promise((resolve, reject) => {
    process.on('message', async (msg) => {
      try {
        if (msg.type === 'end') {
          await send({ type: 'counts-done', checks: Object.fromEntries(keys.map((k) => [k, counters[k]])) });
          resolve();
          return;
        }
        if (msg.type !== 'iterate') return;
        const meta = SCENARIOS.find((x) => x.key === msg.key);
        const task = tasks[msg.key];
        if (meta.async) for (let i = 0; i < msg.iterations; i++) await task();
        else for (let i = 0; i < msg.iterations; i++) task();
        process.send({ type: 'iterated', key: msg.key, iterations: msg.iterations });
      } catch (err) {
        reject(err);
      }
    });
    process.send({ type: 'counting', scenarios: keys });
  });
}

// The parent went away (interrupted): nothing left to report to.
process.on('disconnect', () => process.exit(0));

main().then(
  () => process.disconnect(),
  (err) => {
    process.stderr.write(`micro worker: ${err && err.stack ? err.stack : err}\n`);
    process.exit(1);
  },
);
