'use strict';
// Micro benchmarks of context operations: every strategy in several separate processes,
// in interleaved rounds.
//
// Library: tinybench (6.x). Why this one rather than mitata or bench-node:
// - the study we widen (seeds/002) used Vitest's bench runner, which is built on
//   tinybench: same sampling (one timed sample per call of the task function), same
//   statistics (mean, p99, rme, sample count), so our tables line up with the study's;
// - it changes nothing in the measured process (bench-node works best with
//   --allow-natives-syntax, flags we would rather not add to the process we measure),
//   has no dependencies and is actively maintained (tinylibs), Node >= 20.
//
// Method (the process is the unit, docs/how-it-measures.md): a round runs every
// strategy once, each in a fresh process (micro/worker.js), `none` included; the order
// rotates every round (round 0: none A B C, round 1: A B C none, …) so that no strategy
// always runs first, or right after the same neighbour. Each process gives one value per
// scenario, its mean time per sample; the overhead vs `none` and its significance come
// from those per-round values paired by round (analysis/micro.js), so n = rounds and the
// differences between processes are part of the noise the test sees.
//
// micro/scenarios.js holds the scenarios; analysis/micro.js turns rounds into overheads
// and target verdicts.
const path = require('node:path');
const { fork } = require('node:child_process');
const { SCENARIOS } = require('./scenarios');
const analyze = require('../analysis/micro');
const strategies = require('./strategies');
// The one round rotation, shared with the run matrix: round r's order is the list rotated
// by r, so each strategy takes each position in turn.
const { roundOrder } = require('../lib/round-order');
const { formatPct, formatUs } = require('../lib/format');

const WORKER = path.join(__dirname, 'worker.js');
const BASELINE = 'none';

// Per-process time budgets (ms), per scenario. tinybench keeps sampling a task until both
// its time budget and its minimum iteration count are met; the budget counts measured
// time, so scenarios with sub-microsecond samples (sync, run, current) take 2-3x longer on
// the wall clock. The default is the single-process version's 1000 ms per scenario cut
// into 5 rounds of 200 ms; the warm-up is per process, so it is shorter (100 ms, which is
// thousands of iterations of the slowest scenario: these functions are small and reach
// their optimised code well within it). How long a default and a --quick (3 rounds of
// 50 ms) run take: docs/micro.md, "Method: rounds of separate processes".
const PROFILES = {
  default: { rounds: 5, time: 200, warmupTime: 100, iterations: 64, warmupIterations: 16 },
  quick: { rounds: 3, time: 50, warmupTime: 20, iterations: 16, warmupIterations: 4 },
};

const tail = (s, n = 2000) => (s.length > n ? s.slice(-n) : s);

// Run one strategy for one round in its own process. Resolves { record, hello,
// interrupted }: record = { round, pid, node, acf, durationMs, error, scenarios: { key:
// tinybench summary | { error } } }; a failed worker resolves with record.error set.
function measureProcess(target, name, round, settings, { signal, env = process.env } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const record = { round, pid: null, node: null, acf: null, durationMs: null, error: null, scenarios: {} };
    let hello = null;
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
        hello = msg;
        record.node = msg.node;
        record.acf = msg.acf;
        record.pid = msg.pid;
      } else if (msg.type === 'scenario') {
        record.scenarios[msg.key] = msg.error ? { error: msg.error } : msg.result;
      } else if (msg.type === 'done') {
        done = true;
      }
    });
    const finish = (code, sig) => {
      if (signal) signal.removeEventListener('abort', onAbort);
      record.durationMs = Date.now() - started;
      if (!done) {
        const why =
          signal && signal.aborted ? 'interrupted' : `worker exited with ${sig ? `signal ${sig}` : `code ${code}`}`;
        record.error = { message: why, stderrTail: stderr.trim() || null };
      }
      resolve({ record, hello, interrupted: Boolean(signal && signal.aborted) });
    };
    child.on('error', (err) => {
      stderr = tail(`${stderr}${err.message}\n`);
    });
    child.on('exit', finish);
  });
}

function newEntry(target, name, env) {
  const meta = strategies.info(name, env);
  return {
    target: target.label,
    strategy: name,
    describe: meta.describe,
    carriesContext: meta.carriesContext !== false,
    control: Boolean(meta.control),
    node: null,
    acf: null,
    expectAcf: target.expectAcf ?? null,
    durationMs: 0,
    rounds: [],
    scenarios: {},
    targets: {},
    error: null,
  };
}

// Recompute an entry's per-scenario summary, overhead vs the baseline entry (null for the
// baseline itself) and targets from all its finished rounds.
function aggregate(entry, base) {
  return analyze.aggregate(entry, base, SCENARIOS, BASELINE);
}

// Put the baseline first, keep the caller's order otherwise, drop duplicates.
function withBaseline(names) {
  return [BASELINE, ...names.filter((n) => n !== BASELINE)].filter((n, i, a) => a.indexOf(n) === i);
}

// measure({ targets, strategies, settings, rounds, signal, env, onProcess })
//   -> { results, interrupted }
// results: one entry per (target, strategy), each with all its finished rounds. Round r
// runs, for each target, every strategy (the baseline included) in roundOrder(…, r).
// onProcess(entry, results, { index, total, round, record }) after every process, with
// every entry already re-aggregated, so the caller can persist and report. An
// interrupted process is dropped; the rounds finished before it are kept.
async function measure({
  targets,
  strategies: names,
  settings,
  rounds = PROFILES.default.rounds,
  signal,
  env = process.env,
  onProcess = () => {},
}) {
  const order = withBaseline(names);
  const results = [];
  const entries = new Map(); // `${target}\0${strategy}` -> entry
  const total = rounds * targets.length * order.length;
  let index = 0;
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) {
      for (const name of roundOrder(order, round)) {
        if (signal && signal.aborted) return { results, interrupted: true };
        const { record, hello, interrupted } = await measureProcess(target, name, round, settings, { signal, env });
        if (interrupted) return { results, interrupted: true };
        const id = `${target.label}\0${name}`;
        if (!entries.has(id)) {
          entries.set(id, newEntry(target, name, env));
          // Keep results in the run order of round 0: per target, baseline first.
          results.push(entries.get(id));
          results.sort(
            (x, y) =>
              targets.findIndex((t) => t.label === x.target) - targets.findIndex((t) => t.label === y.target) ||
              order.indexOf(x.strategy) - order.indexOf(y.strategy),
          );
        }
        const entry = entries.get(id);
        entry.rounds.push(record);
        entry.durationMs += record.durationMs;
        if (hello) {
          entry.node = entry.node ?? hello.node;
          entry.acf = entry.acf ?? hello.acf;
          entry.carriesContext = hello.carriesContext;
        }
        const base = entries.get(`${target.label}\0${BASELINE}`) || null;
        for (const e of results) if (e.target === target.label) aggregate(e, base);
        index++;
        await onProcess(entry, results, { index, total, round, rounds, record });
      }
    }
  }
  return { results, interrupted: false };
}

// This round's ratio of mean times vs the baseline's process in the same round, if it ran.
function roundPct(entry, results, round, key) {
  const base = results.find((e) => e.target === entry.target && e.strategy === BASELINE);
  if (!base || base === entry) return null;
  const b = base.rounds.find((r) => r.round === round);
  const m = entry.rounds.find((r) => r.round === round);
  const bs = b && b.scenarios[key];
  const ms = m && m.scenarios[key];
  if (!bs || !ms || bs.error || ms.error || !(bs.meanUs > 0)) return null;
  return (ms.meanUs / bs.meanUs - 1) * 100;
}

// One line per finished process, for stderr: this process's means, and its ratio to the
// baseline's process of the same round (when that already ran). One round is noise; the
// report's verdicts use all of them.
function progressLine(entry, results, { index, total, round, rounds, record }) {
  const head = `micro [${index}/${total}] round ${round + 1}/${rounds} ${entry.target} ${entry.strategy}`;
  const secs = `${(record.durationMs / 1000).toFixed(1)} s`;
  if (record.error) return `${head}: FAILED after ${secs}: ${record.error.message}`;
  const sc = record.scenarios;
  const pct = (k) => {
    const p = roundPct(entry, results, round, k);
    return p === null ? '' : ` (${formatPct(p, { sign: true })}%)`;
  };
  const us = (k) => (sc[k] && sc[k].meanUs != null ? formatUs(sc[k].meanUs) : 'error');
  const failed = Object.values(sc)
    .filter((s) => s && s.checked)
    .reduce((a, s) => a + (s.failures || 0), 0);
  const errs = Object.values(sc).filter((s) => s && s.error).length;
  const parts = [
    `sync ${us('sync')}${pct('sync')}`,
    `async ${us('async')}${pct('async')}`,
    `real-world ${us('realworld')}${pct('realworld')}`,
    entry.carriesContext ? `failed reads ${failed}` : 'reads unchecked',
    errs ? `${errs} scenario error(s)` : null,
  ].filter(Boolean);
  return `${head} (${record.node}${record.acf ? ', ACF' : ''}) ${secs}: ${parts.join(', ')}`;
}

module.exports = {
  BASELINE,
  PROFILES,
  SCENARIOS,
  TARGETS: analyze.TARGETS,
  measure,
  measureProcess,
  aggregate,
  roundOrder,
  withBaseline,
  progressLine,
};
