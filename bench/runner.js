'use strict';
// The measuring loop, in blocks. A block starts a fresh server process for every
// configuration, warms each one up (unmeasured), takes `settings.rounds` rounds of bursts
// in the adjacent-pairing order of bench/matrix.js, and stops the processes. Blocks are
// added until the stopping rule (bench/stopping.js) says enough: at least
// settings.blocks, then, with settings.precision, until every ratio is that precise or
// the next block would not end before settings.maxTime. So whatever one process got by
// luck (JIT decisions, heap layout) is a level of variation inside every interval.
// The run JSON is rewritten atomically after every sample.
const { startServer, describeExit } = require('./server-process');
const { getJson } = require('./http-client');
const { measurementOrder } = require('./matrix');
const { takeSample, settle } = require('./sample');
const { decide } = require('./stopping');
const { warmMore, burstCost } = require('./warmup');
const { fingerprint } = require('./fingerprint');
const { baselineFor } = require('./comparable');
const { summarize } = require('./stats');
const noise = require('./noise');
const { writeJsonAtomic } = require('../lib/cli');

const SERVER_CPU = 1;
const LOADGEN_SATURATED = 0.9;
const DEFAULT_BLOCKS = 3;
const DEFAULT_MIN_PER_CONNECTION = 30;
const DEATH_GRACE_MS = 1000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

function indent(text) {
  return text
    .split('\n')
    .slice(-10)
    .map((l) => `    ${l}`)
    .join('\n');
}

// A config failed (in this block): recorded on the config, named in the log. The config
// is measured again in the next block's fresh process unless `final`.
function fail(ctx, config, message, { stderrTail = '', exit, final = false } = {}) {
  config.status = 'failed';
  config.error = { message, stderrTail, ...(exit && { exit }) };
  if (final) ctx.excluded.add(config);
  ctx.progress?.log(`FAILED ${config.id}: ${message}${stderrTail ? `\n${indent(stderrTail)}` : ''}`);
}

// What an error during a sample means: when the process has exited, it died, and is
// named as dead with its exit code or signal (not as the ECONNREFUSED the load
// generator saw).
async function explain(err, server) {
  if (!server.exited) return { message: err.message };
  const exit = await Promise.race([server.exited, sleep(DEATH_GRACE_MS).then(() => null)]);
  if (!exit) return { message: err.message };
  return { message: `server process ${server.pid} died (${describeExit(exit)})`, exit };
}

// Starts (or, for a deployed target, re-confirms) one server per config.
// -> Map(config -> server).
async function startBlock(ctx, block) {
  const { run, progress, stop } = ctx;
  const servers = new Map();
  for (const config of run.configs) {
    if (stop.requested) break;
    if (ctx.excluded.has(config)) continue;
    progress?.status(`block ${block + 1}: starting ${config.id}`);
    const startedAt = new Date().toISOString();
    try {
      let server;
      if (config.target) {
        const stats = await getJson(`${config.target}/__stats`);
        if (config.strategy && stats.strategy !== config.strategy) {
          throw new Error(`target ${config.target} reports strategy ${stats.strategy}, expected ${config.strategy}`);
        }
        Object.assign(config, { strategy: stats.strategy, depth: config.depth ?? stats.depth, hop: stats.hop, framework: stats.framework, node: stats.node, acf: stats.acf });
        server = { url: config.target, pid: null, nonce: stats.nonce, stats: true, stderrTail: () => '', stop: async () => {} };
      } else {
        server = await startServer(config, {
          nodePath: config.launch?.nodePath,
          nodeArgs: config.launch?.nodeArgs,
          script: config.launch?.script ?? null,
          cpu: ctx.pinned ? SERVER_CPU : null,
          env: ctx.serverEnv,
        });
        if (server.first) {
          config.acf = server.first.acf;
          config.node = server.first.node;
        }
        if (config.expectAcf != null && config.acf !== config.expectAcf) {
          await server.stop();
          throw new Error(`asked for AsyncContextFrame ${config.expectAcf ? 'on' : 'off'} but the server reports it ${config.acf ? 'on' : 'off'}`);
        }
      }
      server.record = { block, pid: server.first?.pid ?? server.pid, nonce: server.nonce, startedAt, endedAt: null, exit: null, dead: false };
      config.processes.push(server.record);
      servers.set(config, server);
    } catch (err) {
      // A config that cannot start (or a target that cannot be reached) would fail the
      // same way in every block: it is reported once and left out of the rest.
      fail(ctx, config, err.message, { stderrTail: err.stderrTail || '', final: true });
    }
    ctx.save();
  }
  return servers;
}

// Unmeasured load on every fresh process, in bursts of settings.warmup seconds until its
// cost per request stops falling (bench/warmup.js): JIT, connection pools and caches
// settle before anything is recorded. The last burst's rate sizes the first measured one
// (bench/sample.js). Each burst's rate and cost go on the process record.
async function warmOne(ctx, config, server) {
  const s = ctx.run.settings;
  const load = { url: server.url, path: config.path || '/', connections: s.connections, pipelining: s.pipelining, duration: s.warmup, rate: config.rate ?? undefined };
  const bursts = [];
  server.record.warmup = bursts;
  for (;;) {
    const before = server.stats ? await getJson(`${server.url}/__stats`) : null;
    const m = await ctx.driver(load);
    const after = server.stats ? await getJson(`${server.url}/__stats`) : null;
    const served = after ? after.requests - before.requests : 0;
    const cpuUsPerRequest = served > 0 ? (after.cpuUs - before.cpuUs) / served : null;
    bursts.push({ rps: m.rps, cpuUsPerRequest });
    server.rate = m.rps;
    if (server.stats && !(await settle(server.url).catch(() => false))) {
      warnOnce(ctx.run, `${config.id} was still busy 30 s after a warm-up burst (block ${server.record.block + 1})`, ctx.progress);
    }
    const next = warmMore(bursts.map(burstCost));
    if (!next.more || ctx.stop.requested) {
      if (next.reason.startsWith('still')) warnOnce(ctx.run, `${config.id}: still getting faster after ${bursts.length} warm-up bursts (block ${server.record.block + 1}); its first samples may be slow`, ctx.progress);
      return;
    }
    ctx.progress?.status(`block ${server.record.block + 1}: warming ${config.id} (burst ${bursts.length + 1})`);
  }
}

async function warmBlock(ctx, servers, block) {
  const { run, progress, stop } = ctx;
  const s = run.settings;
  for (const [config, server] of servers) {
    if (stop.requested) break;
    if (!(s.warmup > 0)) continue;
    progress?.status(`block ${block + 1}: warming ${config.id}`);
    try {
      await warmOne(ctx, config, server);
    } catch (err) {
      // A warm-up that saw no answer is not a failure while the server lives: its
      // requests may simply take longer than the warm-up. The samples will tell.
      warnOnce(run, `${config.id}: warm-up: ${err.message}`, progress);
    }
    progress?.tick(`warmed ${config.id}`);
  }
}

// settings.rounds rounds of bursts. counters { round, seq } run across the whole run.
async function measureBlock(ctx, servers, block, counters) {
  const { run, progress, stop } = ctx;
  const s = run.settings;
  for (let r = 0; r < s.rounds && !stop.requested; r++) {
    const round = counters.round++;
    const live = run.configs.filter((c) => servers.has(c) && !servers.get(c).failed);
    const bursts = measurementOrder(live, round, s.baseline);
    const taken = [];
    const seqs = [];
    for (let i = 0; i < bursts.length && !stop.requested; i++) {
      const { config, partner } = bursts[i];
      const server = servers.get(config);
      const seq = counters.seq++;
      seqs[i] = seq;
      if (server.failed) continue;
      progress?.status(`block ${block + 1} round ${r + 1}/${s.rounds} ${config.id}`);
      try {
        const sample = await takeSample({ config, server, driver: ctx.driver, settings: s, rate: server.rate, signal: stop.signal });
        server.rate = sample.rps;
        const record = { block, round, seq, pairSeq: partner !== null && partner < i && taken[partner] ? seqs[partner] : null, ...sample };
        taken[i] = record;
        // The earlier bursts paired with this (baseline) burst learn its seq now.
        bursts.forEach((b, j) => {
          if (b.partner === i && taken[j]) taken[j].pairSeq = seq;
        });
        config.samples.push(record);
        if (sample.loadgenCpu > LOADGEN_SATURATED) {
          warnOnce(run, `load generator CPU reached ${Math.round(sample.loadgenCpu * 100)}% of a core on ${config.id}: that config's throughput may be the client's limit, not the server's`, progress);
        }
        if (sample.errors > 0 || sample.non2xx > 0) warnOnce(run, `${config.id} had errors or non-2xx responses (block ${block + 1})`, progress);
        for (const w of sample.warnings || []) warnOnce(run, `${config.id}: ${w}`, progress);
        refreshSummaries(run);
      } catch (err) {
        const { message, exit } = await explain(err, server);
        server.failed = true;
        if (exit) Object.assign(server.record, { exit, dead: true, endedAt: new Date().toISOString() });
        fail(ctx, config, `${message} (block ${block + 1})`, { stderrTail: server.stderrTail?.() || '', exit, final: Boolean(config.target) });
      }
      ctx.save();
      progress?.tick(`${config.id} ${config.samples.at(-1)?.rps?.toFixed(0) ?? '-'} req/s`);
    }
    progress?.log(`block ${block + 1} round ${r + 1}/${s.rounds} done`);
  }
}

async function stopBlock(servers) {
  await Promise.all(
    [...servers.values()].map(async (server) => {
      await server.stop().catch(() => {});
      if (server.record.dead) return;
      server.record.endedAt = new Date().toISOString();
      if (server.exited) server.record.exit = await server.exited;
    }),
  );
}

// Inputs of the stopping rule from the run as it stands. A strategy that lost or leaked
// ids gets no cost verdict (summary.broken), so its precision buys nothing.
function ratiosOf(run, excluded) {
  return run.configs
    .filter((c) => c.summary?.ratio && !c.summary.broken && !excluded.has(c))
    .map((c) => ({ id: c.id, halfWidthPct: c.summary.ratio.halfWidthPct, blocks: new Set(c.samples.map((x) => x.block)).size }));
}

// run: the run JSON skeleton (settings, environment, configs …); mutated and saved.
// startedAt: when the command began (settings.maxTime is a deadline for the whole run).
async function runMatrix(run, { out, driver, progress, stop = { requested: false }, pinned = false, serverEnv = {}, startedAt = Date.now() }) {
  const s = run.settings;
  s.blocks ??= DEFAULT_BLOCKS;
  s.minPerConnection ??= DEFAULT_MIN_PER_CONNECTION;
  for (const c of run.configs) {
    c.processes ??= [];
    c.status ??= 'ok';
  }
  const ctx = { run, driver, progress, stop, pinned, serverEnv, excluded: new Set(), save: () => writeJsonAtomic(out, run) };
  const noiseBefore = noise.snapshot();
  const counters = { round: 0, seq: 0 };
  const blockSeconds = [];
  run.status = 'running';
  ctx.save();
  try {
    const local = run.configs.find((c) => !c.target);
    run.environment.fingerprint = null;
    if (local && !stop.requested) {
      progress?.status('machine fingerprint');
      run.environment.fingerprint = await fingerprint({ cpu: pinned ? SERVER_CPU : null, env: serverEnv, launch: local.launch }).catch((err) => {
        warnOnce(run, `no machine fingerprint: ${err.message}`, progress);
        return null;
      });
      ctx.save();
    }
    for (let block = 0; !stop.requested; block++) {
      const elapsedS = (Date.now() - startedAt) / 1000;
      const decision = decide({
        elapsedS,
        maxTimeS: s.precision ? s.maxTime : null,
        nextBlockS: Math.max(0, ...blockSeconds),
        precision: s.precision,
        ratios: ratiosOf(run, ctx.excluded),
        blocks: block,
        minBlocks: s.blocks,
      });
      if (s.precision) {
        run.precision = { target: s.precision, reached: decision.reached, elapsedS: Math.round(elapsedS), maxTimeS: s.maxTime, blocks: block, missing: decision.missing };
      }
      if (block > 0) progress?.log(`block ${block} done: ${decision.more ? 'another block' : 'stopping'} (${decision.reason})`);
      if (!decision.more || run.configs.every((c) => ctx.excluded.has(c))) break;
      progress?.plan?.({ block, minBlocks: s.blocks, precision: s.precision, missing: decision.missing, elapsedS, maxTimeS: s.precision ? s.maxTime : null });
      const t0 = Date.now();
      const servers = await startBlock(ctx, block);
      try {
        await warmBlock(ctx, servers, block);
        await measureBlock(ctx, servers, block, counters);
      } finally {
        await stopBlock(servers);
        ctx.save();
      }
      blockSeconds.push((Date.now() - t0) / 1000);
    }
    run.measuringSeconds = (Date.now() - startedAt) / 1000;
  } finally {
    run.environment.noise = noise.assess(noiseBefore, noise.snapshot());
    for (const flag of run.environment.noise.flags) warnOnce(run, `noisy machine: ${flag}`, progress);
    if (stop.requested) run.status = 'interrupted';
    else run.status = run.configs.some((c) => c.status === 'failed') ? 'failed' : 'complete';
    refreshSummaries(run);
    ctx.save();
  }
  return run;
}

module.exports = { runMatrix, startBlock, warmBlock, measureBlock, stopBlock, SERVER_CPU, DEFAULT_BLOCKS, DEFAULT_MIN_PER_CONNECTION };
