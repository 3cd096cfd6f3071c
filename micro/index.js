'use strict';
// Micro benchmarks of context operations, one child process per strategy.
//
// Library: tinybench (6.x). Why this one rather than mitata or bench-node:
// - the study we widen (seeds/002) used Vitest's bench runner, which is built on
//   tinybench: same sampling (one timed sample per call of the task function), same
//   statistics (mean, p99, rme, sample count), so our tables line up with the study's;
// - it hands back the raw samples (retainSamples), which the Welch test vs `none` needs;
//   mitata's and bench-node's outputs are built around their own summaries;
// - it changes nothing in the measured process (bench-node works best with
//   --allow-natives-syntax, flags we would rather not add to the process we measure),
//   has no dependencies and is actively maintained (tinylibs), Node >= 20.
//
// micro/worker.js measures one strategy; micro/scenarios.js holds the scenarios;
// micro/analyze.js turns samples into overheads and target verdicts.
const path = require('node:path');
const { fork } = require('node:child_process');
const { SCENARIOS } = require('./scenarios');
const analyze = require('./analyze');
const strategies = require('./strategies');

const WORKER = path.join(__dirname, 'worker.js');
const BASELINE = 'none';

// Per-task time budgets (ms). tinybench keeps sampling a task until both its time budget
// and its minimum iteration count are met; the budget counts measured time, so scenarios
// with sub-microsecond samples (sync, run, current) take 2-3x longer on the wall clock
// (tinybench's own bookkeeping per sample). The default keeps the 10 registry strategies
// x 7 scenarios near 2.5 minutes on a loaded 2-core machine; --quick is a smoke test.
const PROFILES = {
  default: { time: 1000, warmupTime: 200, iterations: 64, warmupIterations: 16 },
  quick: { time: 100, warmupTime: 25, iterations: 16, warmupIterations: 4 },
};

const tail = (s, n = 2000) => (s.length > n ? s.slice(-n) : s);

// Run one strategy in its own process. Resolves { entry, samples } (samples: key ->
// Float64Array of µs); a failed worker resolves with entry.error set.
function measureStrategy(target, name, settings, { signal, env = process.env } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const meta = strategies.info(name, env);
    const entry = {
      target: target.label,
      strategy: name,
      describe: meta.describe,
      carriesContext: meta.carriesContext !== false,
      control: Boolean(meta.control),
      node: null,
      acf: null,
      expectAcf: target.expectAcf ?? null,
      pid: null,
      durationMs: null,
      scenarios: {},
      targets: {},
      error: null,
    };
    const samples = {};
    let stderr = '';
    let done = false;
    const child = fork(WORKER, [name, JSON.stringify(settings)], {
      execPath: target.path,
      execArgv: target.args || [],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env,
    });
    child.stderr.on('data', (d) => {
      stderr = tail(stderr + d);
    });
    const onAbort = () => child.kill('SIGTERM');
    if (signal) {
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    child.on('message', (msg) => {
      if (msg.type === 'hello') {
        entry.node = msg.node;
        entry.acf = msg.acf;
        entry.pid = msg.pid;
      } else if (msg.type === 'scenario') {
        if (msg.error) entry.scenarios[msg.key] = { error: msg.error };
        else {
          entry.scenarios[msg.key] = msg.result;
          samples[msg.key] = msg.samplesUs;
        }
      } else if (msg.type === 'done') {
        done = true;
      }
    });
    const finish = (code, sig) => {
      if (signal) signal.removeEventListener('abort', onAbort);
      entry.durationMs = Date.now() - started;
      if (!done) {
        const why = signal && signal.aborted ? 'interrupted' : `worker exited with ${sig ? `signal ${sig}` : `code ${code}`}`;
        entry.error = { message: why, stderrTail: stderr.trim() || null };
      }
      resolve({ entry, samples, interrupted: Boolean(signal && signal.aborted) });
    };
    child.on('error', (err) => {
      stderr = tail(`${stderr}${err.message}\n`);
    });
    child.on('exit', finish);
  });
}

// Fill overhead (vs the baseline) into each scenario of `entry`, then its targets.
function compareToBaseline(entry, samples, base) {
  for (const s of SCENARIOS) {
    const r = entry.scenarios[s.key];
    if (!r || r.error) continue;
    if (entry.strategy === BASELINE || !base) {
      r.overhead = null;
      if (s.ops && !s.perCall) r.perOpOverheadUs = null;
      continue;
    }
    const b = base.entry.scenarios[s.key];
    r.overhead = b && !b.error ? analyze.overhead(r, samples[s.key], b, base.samples[s.key]) : null;
    if (s.ops && !s.perCall) r.perOpOverheadUs = analyze.perOp(r.overhead, s.ops);
  }
  entry.targets = analyze.targets(entry, { baseline: BASELINE });
}

// Put the baseline first, keep the caller's order otherwise, drop duplicates.
function withBaseline(names) {
  return [BASELINE, ...names.filter((n) => n !== BASELINE)].filter((n, i, a) => a.indexOf(n) === i);
}

// measure({ targets, strategies, settings, signal, env, onEntry }) -> { results, interrupted }
// Targets in order; within a target, the baseline first, then each strategy. onEntry(entry,
// results, { index, total }) after every strategy, so the caller can persist and report.
async function measure({ targets, strategies: names, settings, signal, env = process.env, onEntry = () => {} }) {
  const order = withBaseline(names);
  const results = [];
  const total = targets.length * order.length;
  let index = 0;
  for (const target of targets) {
    let base = null;
    for (const name of order) {
      if (signal && signal.aborted) return { results, interrupted: true };
      const { entry, samples, interrupted } = await measureStrategy(target, name, settings, { signal, env });
      if (interrupted) return { results, interrupted: true };
      if (name === BASELINE && !entry.error) base = { entry, samples };
      compareToBaseline(entry, samples, base);
      results.push(entry);
      index++;
      await onEntry(entry, results, { index, total });
    }
  }
  return { results, interrupted: false };
}

// One line per finished strategy, for stderr.
function progressLine(entry, { index, total }) {
  const head = `micro [${index}/${total}] ${entry.target} ${entry.strategy}`;
  const secs = `${(entry.durationMs / 1000).toFixed(1)} s`;
  if (entry.error) return `${head}: FAILED after ${secs}: ${entry.error.message}`;
  const sc = entry.scenarios;
  const pct = (k) => (sc[k] && sc[k].overhead ? `${sc[k].overhead.pct >= 0 ? '+' : ''}${sc[k].overhead.pct.toFixed(1)}%` : '-');
  const us = (k) => (sc[k] && sc[k].meanUs != null ? analyze.fmtUs(sc[k].meanUs) : 'error');
  const failed = Object.values(sc).filter((s) => s && s.checked).reduce((a, s) => a + (s.failures || 0), 0);
  const errs = Object.values(sc).filter((s) => s && s.error).length;
  const verdicts = Object.values(entry.targets).filter((t) => t.status !== 'n/a');
  const passed = verdicts.filter((t) => t.status === 'PASS').length;
  const parts = [
    `sync ${us('sync')} (${pct('sync')})`,
    `async ${us('async')} (${pct('async')})`,
    `real-world ${us('realworld')} (${pct('realworld')})`,
    entry.carriesContext ? `failed reads ${failed}` : 'reads unchecked',
    verdicts.length ? `targets ${passed}/${verdicts.length} pass` : null,
    errs ? `${errs} scenario error(s)` : null,
  ].filter(Boolean);
  return `${head} (${entry.node}${entry.acf ? ', ACF' : ''}) ${secs}: ${parts.join(', ')}`;
}

module.exports = { BASELINE, PROFILES, SCENARIOS, TARGETS: analyze.TARGETS, measure, measureStrategy, compareToBaseline, withBaseline, progressLine };
