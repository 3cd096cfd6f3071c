'use strict';
// The sequential method: every configuration of the block in its own fresh process,
// warmed up (unmeasured), then settings.rounds rounds of bursts one after the other in
// the adjacent-pairing order of bench/run/matrix.js (each burst next to a baseline burst), and
// the processes stopped. A sample is one burst (bench/measure/sample.js).
const { getJson } = require('../measure/http-client');
const { measurementOrder } = require('../run/matrix');
const { takeSample, settle, cpuPerRequest } = require('../measure/sample');
const { warmMore, burstCost } = require('../measure/warmup');
const { refreshSummaries, warnOnce, fail, explain, startBlock, stopBlock } = require('../processes/block');

const LOADGEN_SATURATED = 0.9;

// Unmeasured load on every fresh process, in bursts of settings.warmup seconds until its
// cost per request stops falling (bench/measure/warmup.js): JIT, connection pools and caches
// settle before anything is recorded. The last burst's rate sizes the first measured one
// (bench/measure/sample.js). Each burst's rate and cost go on the process record.
async function warmOne(ctx, config, server) {
  const s = ctx.run.settings;
  const load = {
    url: server.url,
    path: config.path || '/',
    connections: s.connections,
    pipelining: s.pipelining,
    duration: s.warmup,
    rate: config.rate ?? undefined,
  };
  const bursts = [];
  server.record.warmup = bursts;
  for (;;) {
    const before = server.stats ? await getJson(`${server.url}/__stats`) : null;
    const m = await ctx.driver(load);
    const after = server.stats ? await getJson(`${server.url}/__stats`) : null;
    const cpuUsPerRequest = after ? cpuPerRequest(before, after) : null;
    bursts.push({ rps: m.rps, cpuUsPerRequest });
    server.rate = m.rps;
    if (server.stats && !(await settle(server.url).catch(() => false))) {
      warnOnce(
        ctx.run,
        `${config.id} was still busy 30 s after a warm-up burst (block ${server.record.block + 1})`,
        ctx.progress,
      );
    }
    const next = warmMore(bursts.map(burstCost));
    if (!next.more || ctx.stop.requested) {
      if (next.atLimit)
        warnOnce(
          ctx.run,
          `${config.id}: still getting faster after ${bursts.length} warm-up bursts (block ` +
            `${server.record.block + 1}); its first samples may be slow`,
          ctx.progress,
        );
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
        const sample = await takeSample({
          config,
          server,
          driver: ctx.driver,
          settings: s,
          rate: server.rate,
          signal: stop.signal,
        });
        server.rate = sample.rps;
        const record = {
          block,
          round,
          seq,
          pairSeq: partner !== null && partner < i && taken[partner] ? seqs[partner] : null,
          ...sample,
        };
        taken[i] = record;
        // The earlier bursts paired with this (baseline) burst learn its seq now.
        bursts.forEach((b, j) => {
          if (b.partner === i && taken[j]) taken[j].pairSeq = seq;
        });
        config.samples.push(record);
        if (sample.loadgenCpu > LOADGEN_SATURATED) {
          warnOnce(
            run,
            `load generator CPU reached ${Math.round(sample.loadgenCpu * 100)}% of a core on ${config.id}: ` +
              `that config's throughput may be the client's limit, not the server's`,
            progress,
          );
        }
        if (sample.errors > 0 || sample.non2xx > 0)
          warnOnce(run, `${config.id} had errors or non-2xx responses (block ${block + 1})`, progress);
        for (const w of sample.warnings || []) warnOnce(run, `${config.id}: ${w}`, progress);
        refreshSummaries(run);
      } catch (err) {
        const { message, exit } = await explain(err, server);
        server.failed = true;
        if (exit) Object.assign(server.record, { exit, dead: true, endedAt: new Date().toISOString() });
        fail(ctx, config, `${message} (block ${block + 1})`, {
          stderrTail: server.stderrTail?.() || '',
          exit,
          final: Boolean(config.target),
        });
      }
      ctx.save();
      progress?.tick(`${config.id} ${config.samples.at(-1)?.rps?.toFixed(0) ?? '-'} req/s`);
    }
    progress?.log(`block ${block + 1} round ${r + 1}/${s.rounds} done`);
  }
}

// The progress bar's steps per block: a warm-up per process, then every burst.
function stepsPerBlock(configs, settings) {
  return (
    (settings.warmup > 0 ? configs.length : 0) +
    settings.rounds * measurementOrder(configs, 0, settings.baseline).length
  );
}

async function measureSequentialBlock(ctx, block, counters) {
  const servers = await startBlock(ctx, block);
  try {
    await warmBlock(ctx, servers, block);
    await measureBlock(ctx, servers, block, counters);
  } finally {
    await stopBlock(servers);
    ctx.save();
  }
}

module.exports = { name: 'sequential', stepsPerBlock, measureBlock: measureSequentialBlock, warmBlock };
