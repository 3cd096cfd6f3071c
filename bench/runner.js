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
const { takeSample, settle, cpuPerRequest } = require('./sample');
const { decide } = require('./stopping');
const { warmMore, burstCost } = require('./warmup');
const { fingerprint } = require('./fingerprint');
const { baselineFor } = require('../analysis/comparable');
const { summarize } = require('../analysis/summary');
const { ratioPct } = require('../lib/format');
const { groupConfigs, armOf } = require('../analysis/comparable');
const { AA_ARM } = require('./matrix');
const { roundOrder } = require('../lib/round-order');
const duet = require('./duet');
const callgrind = require('./callgrind');
const { measureProcess, windowRequestsFor, maxWarmupWindowsFor } = require('./instructions');
const noise = require('./noise');
const fs = require('node:fs');
const { writeJsonAtomic } = require('../lib/cli');
const { cpus } = require('../lib/cpus');

const LOADGEN_SATURATED = 0.9;
const DEATH_GRACE_MS = 1000;

const { setTimeout: sleep } = require('node:timers/promises');

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
        server.record = { block, pid: null, nonce: server.nonce, startedAt, endedAt: null, exit: null, dead: false };
        config.processes.push(server.record);
      } else {
        server = await startOne(ctx, config, block);
      }
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
    const cpuUsPerRequest = after ? cpuPerRequest(before, after) : null;
    bursts.push({ rps: m.rps, cpuUsPerRequest });
    server.rate = m.rps;
    if (server.stats && !(await settle(server.url).catch(() => false))) {
      warnOnce(ctx.run, `${config.id} was still busy 30 s after a warm-up burst (block ${server.record.block + 1})`, ctx.progress);
    }
    const next = warmMore(bursts.map(burstCost));
    if (!next.more || ctx.stop.requested) {
      if (next.atLimit) warnOnce(ctx.run, `${config.id}: still getting faster after ${bursts.length} warm-up bursts (block ${server.record.block + 1}); its first samples may be slow`, ctx.progress);
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

// The duet groups of a run: per comparable group, the baseline with `size - 1` other arms
// at a time (size 2: pairs), the arms rotated by block before they are cut into groups,
// so that an arm's companions and its place in the block change from block to block.
function duetGroups(configs, baselineArm, { block = 0, size = 2, excluded = new Set() } = {}) {
  const out = [];
  for (const group of groupConfigs(configs).values()) {
    const base = group.find((c) => armOf(c) === baselineArm);
    if (!base || excluded.has(base)) continue;
    const others = roundOrder(group.filter((c) => c !== base && !excluded.has(c)), block);
    for (let i = 0; i < others.length; i += size - 1) out.push([base, ...others.slice(i, i + size - 1)]);
  }
  return out;
}

// The baseline's own solo burst is taken once per block and comparable group, in the
// group that holds the A/A arm (the baseline's twin) or, without one, in its first group.
function soloMembers(group, groups) {
  const [base, ...others] = group;
  const withBase = groups.find((g) => g[0] === base && g.some((c) => c.arm === AA_ARM)) ?? groups.find((g) => g[0] === base);
  return withBase === group ? group : others;
}

// under: { wrap, nodeArgs, env, timeoutMs } to start the server under a tool (Valgrind).
async function startOne(ctx, config, block, under = {}) {
  const startedAt = new Date().toISOString();
  const server = await startServer(config, {
    nodePath: config.launch?.nodePath,
    nodeArgs: [...(config.launch?.nodeArgs ?? []), ...(under.nodeArgs ?? [])],
    script: config.launch?.script ?? null,
    cpu: ctx.pinned ? cpus().server : null,
    env: { ...ctx.serverEnv, ...under.env },
    wrap: under.wrap,
    timeoutMs: under.timeoutMs,
  });
  if (server.first) {
    config.acf = server.first.acf;
    config.node = server.first.node;
  }
  if (config.expectAcf != null && config.acf !== config.expectAcf) {
    await server.stop();
    throw new Error(`asked for AsyncContextFrame ${config.expectAcf ? 'on' : 'off'} but the server reports it ${config.acf ? 'on' : 'off'}`);
  }
  server.record = { block, pid: server.first?.pid ?? server.pid, nonce: server.nonce, startedAt, endedAt: null, exit: null, dead: false };
  config.processes.push(server.record);
  return server;
}

// One block of duet groups: each pair started fresh (in its block's positions), measured
// under load together (bench/duet.js), each member's own solo burst, stopped.
async function duetBlock(ctx, block, counters) {
  const { run, progress, stop } = ctx;
  const s = run.settings;
  const groups = duetGroups(run.configs, s.baseline, { block, size: s.groupSize, excluded: ctx.excluded });
  for (const group of groups) {
    if (stop.requested) break;
    if (group.some((c) => ctx.excluded.has(c))) continue;
    const [base, ...others] = group;
    const members = duet.positionsFor(block, group);
    const groupSeq = counters.group++;
    progress?.status(`block ${block + 1}: ${others.map((c) => c.id).join(', ')} with ${base.id}`);
    const servers = new Map();
    try {
      // Started one after the other in this block's order (the start order is a position).
      for (const config of members) {
        try {
          servers.set(config, await startOne(ctx, config, block));
        } catch (err) {
          fail(ctx, config, err.message, { stderrTail: err.stderrTail || '', final: true });
          throw new StartFailed();
        }
      }
      ctx.save();
      const baseAt = members.indexOf(base);
      // Each window is kept (and the run saved) as soon as it is judged: a run stopped
      // mid-group, however it is stopped, keeps the windows it took.
      const keepWindow = (w) => {
        members.forEach((config, i) => {
          if (config !== base) config.samples.push(...duet.windowSamples({ windows: [w] }, { of: i, partner: baseAt, partnerId: base.id, block, group: groupSeq }));
        });
        ctx.save();
      };
      const result = await duet.measureGroup({
        servers: members.map((c) => servers.get(c)),
        configs: members,
        driver: ctx.driver,
        load: { connections: s.connections, pipelining: s.pipelining },
        windowS: s.window,
        windows: s.windows,
        signal: stop.signal,
        onWindow: keepWindow,
      });
      members.forEach((config, i) => {
        servers.get(config).record.warmup = result.warmup.map((w) => ({ cpuUsPerRequest: w.members[i].cpuUsPerRequest, requests: w.members[i].requests }));
        const load = result.loads[i];
        config.samples.push({ kind: 'duet', block, group: groupSeq, position: i, members: members.map((c) => c.id), requests: load.requests, errors: load.errors, non2xx: load.non2xx, mismatches: load.mismatches, lost: load.lost, loadgenCpu: load.loadgenCpu, durationS: load.durationS });
      });
      // One warning per kind of reason (the window records keep the exact figures).
      for (const w of result.windows.filter((x) => !x.counted)) warnOnce(run, `duet windows dropped: ${w.dropped.replace(/server \d+/, 'a server').replace(/ \(\d+% [^)]*\)/, '')}`, null);
      if (result.windows.filter((w) => w.counted).length < s.windows && !stop.requested) {
        warnOnce(run, `${others.map((c) => c.id).join(', ')}: fewer than ${s.windows} counted windows in block ${block + 1}`, progress);
      }
      // Solo bursts: each configuration's own req/s and latency, with the CPU to itself,
      // sized from its rate in the group (it had 1/n of the CPU there).
      for (const config of soloMembers(group, groups)) {
        if (stop.requested) break;
        const i = members.indexOf(config);
        const seconds = result.windows.reduce((a, w) => a + w.wallMs, 0) / 1000;
        const rate = seconds > 0 ? (result.windows.reduce((a, w) => a + w.members[i].requests, 0) / seconds) * members.length : null;
        const sample = await takeSample({ config, server: servers.get(config), driver: ctx.driver, settings: { ...s, duration: s.soloDuration }, rate, signal: stop.signal });
        config.samples.push({ kind: 'solo', block, round: counters.round, seq: counters.seq++, pairSeq: null, ...sample });
        if (sample.errors > 0 || sample.non2xx > 0) warnOnce(run, `${config.id} had errors or non-2xx responses (block ${block + 1})`, progress);
      }
      refreshSummaries(run);
    } catch (err) {
      if (!(err instanceof StartFailed)) {
        // Whose process died is whose failure; otherwise the measured arms'.
        let blamed = false;
        for (const [config, server] of servers) {
          const { message, exit } = await explain(err, server);
          if (!exit) continue;
          Object.assign(server.record, { exit, dead: true, endedAt: new Date().toISOString() });
          fail(ctx, config, `${message} (block ${block + 1})`, { stderrTail: server.stderrTail?.() || '', exit });
          blamed = true;
        }
        if (!blamed) for (const config of others) fail(ctx, config, `${err.message} (block ${block + 1})`, { stderrTail: servers.get(config)?.stderrTail?.() || '' });
      }
    } finally {
      await stopBlock(servers);
      ctx.save();
    }
    progress?.tick(others.map((c) => `${c.strategy}${c.arm === AA_ARM ? ' (A/A)' : ''} ${fmtRatio(c.summary)}`).join(', '));
  }
  counters.round++;
}

// Servers start under Valgrind in ~9 s on this machine; a loaded one can take longer.
const VALGRIND_START_MS = 180000;

// One block of instruction counts: each configuration in its own fresh process under
// callgrind (bench/callgrind.js), one at a time on the server CPU; the baselines first,
// then the others, each list in an order rotated by block. Warm-up windows until the
// count is steady, and never fewer than the block's baseline process took (so an arm's
// windows sit at the same request indices as its baseline's, or later where the arm
// needed longer), then settings.windows measured windows (settings.unsettledWindows where
// the count never settled, more for an arm compared on its mean until settings.unsettledBound
// holds; bench/instructions.js), each saved as it is taken.
async function instructionsBlock(ctx, block) {
  const { run, progress, stop } = ctx;
  const s = run.settings;
  const identity = callgrind.identityEnv();
  // The flags the run records are the flags its servers get.
  s.nodeFlags ??= callgrind.NODE_ARGS;
  const live = run.configs.filter((c) => !ctx.excluded.has(c));
  const isBase = (c) => armOf(c) === s.baseline;
  for (const config of [...roundOrder(live.filter(isBase), block), ...roundOrder(live.filter((c) => !isBase(c)), block)]) {
    if (stop.requested) break;
    progress?.status(`block ${block + 1}: starting ${config.id} under Valgrind`);
    const dir = callgrind.outDir();
    let server = null;
    try {
      server = await startOne(ctx, config, block, { wrap: callgrind.wrapper(dir), nodeArgs: s.nodeFlags, env: identity, timeoutMs: VALGRIND_START_MS });
      ctx.save();
      const requests = s.windowRequests ?? windowRequestsFor(config.depth);
      const warmup = [];
      server.record.warmup = warmup;
      server.record.windowRequests = requests;
      const result = await measureProcess({
        config,
        server,
        counter: callgrind.counter(server.pid, dir, identity),
        driver: ctx.driver,
        connections: s.connections,
        requests,
        windows: s.windows,
        ...(s.unsettledWindows != null && { unsettledWindows: s.unsettledWindows }),
        ...(s.unsettledBound !== undefined && { unsettledBound: s.unsettledBound }),
        maxWarmupWindows: s.maxWarmupWindows ?? maxWarmupWindowsFor(requests),
        minWarmupWindows: baselineWarmup(config, run, block),
        signal: stop.signal,
        onWindow(phase, index, w, planned, cap) {
          const perRequest = w.perRequest === null ? '-' : `${Math.round(w.perRequest / 1000)}k`;
          if (phase === 'warmup') {
            warmup.push({ requests: w.requests, perRequest: w.perRequest });
            progress?.status(`block ${block + 1}: warming ${config.id} under Valgrind (window ${index}: ${perRequest} instructions/request)`);
          } else {
            config.samples.push({ kind: 'instructions', block, window: index - 1, ...w });
            progress?.status(`block ${block + 1}: ${config.id} window ${index}/${planned}${cap > planned && index >= planned ? ` (until one window's swing is within ${s.unsettledBound}% of the mean, at most ${cap})` : ''}: ${perRequest} instructions/request`);
            if (w.errors > 0 || w.non2xx > 0) warnOnce(run, `${config.id} had errors or non-2xx responses (block ${block + 1})`, progress);
            refreshSummaries(run);
          }
          ctx.save();
        },
      });
      server.record.settled = result.settled;
      if (result.stepPct !== null) {
        server.record.windowStepPct = result.stepPct;
        if (result.stepPct > s.unsettledBound && !stop.requested) {
          warnOnce(run, `${config.id}: after ${result.windows.length} windows one window's swing is still ${result.stepPct.toFixed(2)}% of the mean (block ${block + 1}; bound ${s.unsettledBound}%): a repro of its ratio may miss by that much`, progress);
        }
      }
      if (!result.settled && !stop.requested) {
        warnOnce(run, `${config.id}: instructions per request still changing after ${result.warmup.length} warm-up windows (block ${block + 1}); its windows are comparable at the same request index only`, progress);
      }
    } catch (err) {
      if (!server) fail(ctx, config, err.message, { stderrTail: err.stderrTail || '', final: true });
      else {
        const { message, exit } = await explain(err, server);
        if (exit) Object.assign(server.record, { exit, dead: true, endedAt: new Date().toISOString() });
        fail(ctx, config, `${message} (block ${block + 1})`, { stderrTail: server.stderrTail?.() || '', exit });
      }
    } finally {
      if (server) await stopBlock(new Map([[config, server]]));
      fs.rmSync(dir, { recursive: true, force: true });
      ctx.save();
    }
    const level = config.summary?.instructions?.median;
    progress?.tick(`${config.id}${level ? ` ${Math.round(level / 1000)}k instructions/request` : ''}`);
  }
  refreshSummaries(run);
}

// Warm-up windows of the block's baseline process for config (0 for a baseline, or when
// the baseline was not measured in this block).
function baselineWarmup(config, run, block) {
  const base = baselineFor(config, run.configs, run.settings.baseline);
  if (!base || base === config) return 0;
  return base.processes.find((p) => p.block === block && Array.isArray(p.warmup))?.warmup.length ?? 0;
}

class StartFailed extends Error {}

function fmtRatio(summary) {
  const r = summary?.ratio;
  return r?.estimate ? `${ratioPct(r.estimate)}${r.ci95 ? ` ±${r.halfWidthPct.toFixed(1)}` : ''}` : '';
}

async function stopBlock(servers) {
  await Promise.all(
    [...servers.values()].map(async (server) => {
      await server.stop().catch(() => {});
      if (!server.record || server.record.dead) return;
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
  for (const c of run.configs) {
    c.processes ??= [];
    c.status ??= 'ok';
  }
  const ctx = { run, driver, progress, stop, pinned, serverEnv, excluded: new Set(), save: () => writeJsonAtomic(out, run) };
  const noiseBefore = noise.snapshot();
  const counters = { round: 0, seq: 0, group: 0 };
  const blockSeconds = [];
  run.status = 'running';
  ctx.save();
  try {
    const local = run.configs.find((c) => !c.target);
    run.environment.fingerprint = null;
    // CTXBENCH_FINGERPRINT=0 skips it (null in the run JSON): the test suite's short
    // structural runs, where a second of load per run adds up and nothing reads it.
    if (local && !stop.requested && process.env.CTXBENCH_FINGERPRINT !== '0') {
      progress?.status('machine fingerprint');
      run.environment.fingerprint = await fingerprint({ cpu: pinned ? cpus().server : null, env: serverEnv, launch: local.launch }).catch((err) => {
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
      if (s.method === 'duet') {
        await duetBlock(ctx, block, counters);
      } else if (s.method === 'instructions') {
        await instructionsBlock(ctx, block);
      } else {
        const servers = await startBlock(ctx, block);
        try {
          await warmBlock(ctx, servers, block);
          await measureBlock(ctx, servers, block, counters);
        } finally {
          await stopBlock(servers);
          ctx.save();
        }
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

module.exports = { runMatrix, startBlock, warmBlock, measureBlock, stopBlock, duetGroups, soloMembers };
