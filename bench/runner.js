'use strict';
// The measuring loop. Every config gets its own server process, started once and kept
// warm; rounds then alternate short bursts between configs (A B C A B C …) so slow
// drift of a noisy machine hits every config alike, and each round's samples can be
// paired. The run JSON is rewritten atomically after every sample.
const { startServer } = require('./server-process');
const { getJson } = require('./http-client');
const { measurementOrder } = require('./matrix');
const { summarize, baselineFor } = require('./stats');
const noise = require('./noise');
const { writeJsonAtomic } = require('../lib/cli');

const SERVER_CPU = 1;
const RATE_FIELDS = ['rate', 'scheduled', 'sent', 'heldRate', 'histogram', 'sendLag', 'clientLag', 'engine'];
const LOADGEN_SATURATED = 0.9;
// A server counts as idle when, over SETTLE_STEP_MS, it started no request and used
// less than SETTLE_CPU of a core.
const SETTLE_STEP_MS = 100;
const SETTLE_CPU = 0.2;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// When a burst ends, the requests still in flight are not dropped by the server: it
// runs them to the end. Every server shares the server CPU, so the next burst must not
// start until the last one's server has drained, or it would measure two servers at
// once. Returns false when the server was still busy at the deadline.
async function settle(url, { timeoutMs = 30000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let previous = await getJson(`${url}/__stats`);
  while (Date.now() < deadline) {
    await sleep(SETTLE_STEP_MS);
    const current = await getJson(`${url}/__stats`);
    const cpu = (current.cpuUs - previous.cpuUs) / 1000 / SETTLE_STEP_MS;
    if (current.requests === previous.requests && cpu < SETTLE_CPU) return true;
    previous = current;
  }
  return false;
}

// Takes one measured burst against a running (or remote) server.
async function takeSample({ config, url, driver, settings, round }) {
  const before = await getJson(`${url}/__stats`);
  const m = await driver({
    url,
    path: config.path || '/',
    connections: settings.connections,
    pipelining: settings.pipelining,
    duration: settings.duration,
    amount: settings.amount ?? undefined,
    // Rate mode (issue 14): the driver sends open-loop at this many requests per second.
    rate: config.rate ?? undefined,
  });
  const after = await getJson(`${url}/__stats`);
  await settle(url);
  if (after.nonce !== before.nonce) throw new Error(`${url} restarted during the sample (its nonce changed)`);
  if (after.strategy !== config.strategy) throw new Error(`${url} now reports strategy ${after.strategy}`);
  const served = after.requests - before.requests;
  return {
    round,
    rps: m.rps,
    latency: m.latency,
    requests: m.requests,
    errors: m.errors,
    non2xx: m.non2xx,
    mismatches: m.mismatches,
    lost: m.lost,
    cpuUsPerRequest: served > 0 ? (after.cpuUs - before.cpuUs) / served : null,
    burnUsPerRequest: served > 0 ? (after.burnUs - before.burnUs) / served : null,
    rssMB: after.rssBytes / 2 ** 20,
    bytesPerSec: m.bytesPerSec,
    loadgenCpu: m.loadgenCpu,
    // Rate mode only: the held-rate check and the exact histogram (bench/latency.js).
    ...Object.fromEntries(RATE_FIELDS.filter((k) => m[k] !== undefined).map((k) => [k, m[k]])),
  };
}

function refreshSummaries(run) {
  for (const config of run.configs) {
    const base = baselineFor(config, run.configs, run.settings.baseline);
    config.summary = config.samples.length ? summarize(config, base) : null;
  }
}

function warnOnce(run, text, progress) {
  if (run.warnings.includes(text)) return;
  run.warnings.push(text);
  progress?.log(`warning: ${text}`);
}

// run: the run JSON skeleton (settings, environment, configs …); mutated and saved.
async function runMatrix(run, { out, driver, progress, stop = { requested: false }, pinned = false, serverEnv = {} }) {
  const save = () => writeJsonAtomic(out, run);
  const servers = new Map();
  const noiseBefore = noise.snapshot();
  run.status = 'running';
  save();

  try {
    // Start every server first: a config that cannot start is reported and skipped,
    // the rest of the run goes on.
    for (const config of run.configs) {
      if (stop.requested) break;
      progress?.status(`starting ${config.id}`);
      if (config.target) {
        try {
          const stats = await getJson(`${config.target}/__stats`);
          if (config.strategy && stats.strategy !== config.strategy) {
            throw new Error(`target ${config.target} reports strategy ${stats.strategy}, expected ${config.strategy}`);
          }
          Object.assign(config, { strategy: stats.strategy, depth: config.depth ?? stats.depth, hop: stats.hop, framework: stats.framework, node: stats.node, acf: stats.acf });
          servers.set(config, { url: config.target, alive: () => true, stderrTail: () => '', stop: async () => {} });
        } catch (err) {
          config.error = { message: err.message, stderrTail: '' };
          progress?.log(`FAILED ${config.id}: ${err.message}`);
        }
        save();
        continue;
      }
      try {
        const server = await startServer(config, {
          nodePath: config.launch.nodePath,
          nodeArgs: config.launch.nodeArgs,
          cpu: pinned ? SERVER_CPU : null,
          env: serverEnv,
        });
        config.acf = server.first.acf;
        config.node = server.first.node;
        if (config.expectAcf !== null && config.acf !== config.expectAcf) {
          await server.stop();
          throw Object.assign(new Error(`asked for AsyncContextFrame ${config.expectAcf ? 'on' : 'off'} but the server reports it ${config.acf ? 'on' : 'off'}`), { stderrTail: '' });
        }
        servers.set(config, server);
      } catch (err) {
        config.error = { message: err.message, stderrTail: err.stderrTail || '' };
        progress?.log(`FAILED ${config.id}: ${err.message}${err.stderrTail ? `\n${indent(err.stderrTail)}` : ''}`);
      }
      save();
    }

    const live = () => run.configs.filter((c) => servers.has(c) && !c.error);

    // Warm-up: JIT, connection pools and caches settle before anything is recorded.
    if (run.settings.warmup > 0) {
      for (const config of measurementOrder(live(), 0)) {
        if (stop.requested) break;
        progress?.status(`warming ${config.id}`);
        const server = servers.get(config);
        try {
          await driver({ url: server.url, path: config.path || '/', connections: run.settings.connections, pipelining: run.settings.pipelining, duration: run.settings.warmup, rate: config.rate ?? undefined });
        } catch (err) {
          // A warm-up that saw no answer is not a failure while the server lives: its
          // requests may simply take longer than the warm-up. The samples will tell.
          if (!server.alive()) fail(config, server, err, progress);
          else warnOnce(run, `${config.id}: warm-up: ${err.message}`, progress);
        }
        if (server.alive() && !(await settle(server.url).catch(() => false))) {
          warnOnce(run, `${config.id} was still busy 30 s after its warm-up ended`, progress);
        }
        progress?.tick(`warmed ${config.id}`);
      }
    }

    // Fixed rounds first; with settings.precision, more rounds until every ratio's 95% CI
    // half-width is within it or settings.maxTime seconds of measuring have passed.
    const measuringSince = Date.now();
    const wantMore = (round) => {
      if (round < run.settings.rounds) return true;
      if (!run.settings.precision) return false;
      if ((Date.now() - measuringSince) / 1000 >= run.settings.maxTime) return false;
      return live().some((c) => c.summary?.ratio && !(c.summary.ratio.halfWidthPct <= run.settings.precision));
    };
    for (let round = 0; wantMore(round) && !stop.requested; round++) {
      for (const config of measurementOrder(live(), round)) {
        if (stop.requested) break;
        const server = servers.get(config);
        progress?.status(`round ${round + 1}/${run.settings.rounds} ${config.id}`);
        try {
          if (!server.alive()) throw new Error('server process died');
          const sample = await takeSample({ config, url: server.url, driver, settings: run.settings, round });
          config.samples.push(sample);
          if (sample.loadgenCpu > LOADGEN_SATURATED) {
            warnOnce(run, `load generator CPU reached ${Math.round(sample.loadgenCpu * 100)}% of a core on ${config.id}: that config's throughput may be the client's limit, not the server's (README: Load beyond one machine)`, progress);
          }
          if (sample.errors > 0 || sample.non2xx > 0) {
            warnOnce(run, `${config.id} had errors or non-2xx responses (round ${round + 1})`, progress);
          }
          refreshSummaries(run);
          save();
        } catch (err) {
          fail(config, server, err, progress);
          save();
        }
        progress?.tick(`${config.id} ${config.samples.at(-1)?.rps?.toFixed(0) ?? '-'} req/s`);
      }
      progress?.log(`round ${round + 1}${round < run.settings.rounds ? `/${run.settings.rounds}` : ' (extra, for precision)'} done`);
    }
    run.measuringSeconds = (Date.now() - measuringSince) / 1000;
  } finally {
    await Promise.all([...servers.values()].map((s) => s.stop().catch(() => {})));
    run.environment.noise = noise.assess(noiseBefore, noise.snapshot());
    for (const flag of run.environment.noise.flags) warnOnce(run, `noisy machine: ${flag}`, progress);
    run.status = stop.requested ? 'interrupted' : 'complete';
    refreshSummaries(run);
    save();
  }
  return run;
}

function fail(config, server, err, progress) {
  const stderrTail = server?.stderrTail?.() || '';
  config.error = { message: err.message, stderrTail };
  progress?.log(`FAILED ${config.id}: ${err.message}${stderrTail ? `\n${indent(stderrTail)}` : ''}`);
}

function indent(text) {
  return text
    .split('\n')
    .slice(-10)
    .map((l) => `    ${l}`)
    .join('\n');
}

module.exports = { runMatrix, takeSample, SERVER_CPU };
