'use strict';
// What every measuring method (bench/methods/) does with the server processes of a block:
// start them (fresh, pinned, checked), name a failure or a death, stop and record them,
// keep each config's summary current, and warn once per kind of trouble.
const { startServer, describeExit } = require('./server-process');
const { getJson } = require('../measure/http-client');
const { baselineFor } = require('../../analysis/comparable');
const { summarize } = require('../../analysis/summary');
const { ratioPct } = require('../../lib/format');
const { cpus } = require('../../lib/cpus');
const { setTimeout: sleep } = require('node:timers/promises');
const { Cgroup, oomOf, oomText } = require('./cgroup');

const DEATH_GRACE_MS = 1000;

function refreshSummaries(run) {
  for (const config of run.configs) {
    const base = baselineFor(config, run.configs, run.settings.baseline);
    config.summary = config.samples.length ? summarize(config, base, { marginPct: run.settings.margin }) : null;
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
  // Held to an instance's memory limit, a SIGKILL is the kernel's OOM killer: said so.
  const oom = server.cgroup ? oomOf(server.cgroup) : null;
  if (oom)
    return {
      message: `server process ${server.pid} was ${oomText(oom)} (${describeExit(exit)})`,
      exit: { ...exit, oom },
    };
  return { message: `server process ${server.pid} died (${describeExit(exit)})`, exit };
}

// A block that threw: whose process died is whose failure (with its exit, and the OOM
// kill named); otherwise the measured arms' (`measured`), with the error. A failure to
// start was recorded where it happened (StartFailed).
async function blockFailed(ctx, err, { servers, measured, block }) {
  if (err instanceof StartFailed) return;
  let blamed = false;
  for (const [config, server] of servers) {
    const { message, exit } = await explain(err, server);
    if (!exit) continue;
    Object.assign(server.record, { exit, dead: true, endedAt: new Date().toISOString() });
    fail(ctx, config, `${message} (block ${block + 1})`, { stderrTail: server.stderrTail?.() || '', exit });
    blamed = true;
  }
  if (!blamed)
    for (const config of measured)
      fail(ctx, config, `${err.message} (block ${block + 1})`, {
        stderrTail: servers.get(config)?.stderrTail?.() || '',
      });
}

const mib = (bytes) => Math.round(bytes / 2 ** 20);

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
        Object.assign(config, {
          strategy: stats.strategy,
          depth: config.depth ?? stats.depth,
          hop: stats.hop,
          framework: stats.framework,
          node: stats.node,
          acf: stats.acf,
        });
        server = {
          url: config.target,
          pid: null,
          nonce: stats.nonce,
          stats: true,
          stderrTail: () => '',
          stop: async () => {},
        };
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

// under: { wrap, nodeArgs, env, timeoutMs } to start the server under a tool (Valgrind).
// With ctx.instance (--instance), the server runs in a cgroup of its own with the
// instance's CPU quota and memory limit (bench/processes/cgroup.js), removed when it stops.
async function startOne(ctx, config, block, under = {}) {
  const startedAt = new Date().toISOString();
  const cgroup = ctx.instance ? new Cgroup(ctx.cgroups, `b${block}-${config.strategy}`).create(ctx.instance) : null;
  let server;
  try {
    server = await startServer(config, {
      cgroup,
      nodePath: config.launch?.nodePath,
      nodeArgs: [...(config.launch?.nodeArgs ?? []), ...(under.nodeArgs ?? [])],
      script: config.launch?.script ?? null,
      cpu: ctx.pinned ? cpus().server : null,
      env: { ...ctx.serverEnv, ...under.env },
      wrap: under.wrap,
      timeoutMs: under.timeoutMs,
    });
  } catch (err) {
    cgroup?.remove();
    throw err;
  }
  if (cgroup) {
    server.cgroup = cgroup;
    const stop = server.stop;
    server.stop = async () => {
      await stop();
      if (server.record) server.record.memoryPeakMB = mib(cgroup.read().memoryPeakBytes ?? 0);
      cgroup.remove();
    };
  }
  if (server.first) {
    config.acf = server.first.acf;
    config.node = server.first.node;
  }
  if (config.expectAcf != null && config.acf !== config.expectAcf) {
    await server.stop();
    throw new Error(
      `asked for AsyncContextFrame ${config.expectAcf ? 'on' : 'off'} but the server reports it ` +
        `${config.acf ? 'on' : 'off'}`,
    );
  }
  server.record = {
    block,
    pid: server.first?.pid ?? server.pid,
    nonce: server.nonce,
    startedAt,
    endedAt: null,
    exit: null,
    dead: false,
    ...(cgroup && { cgroup: cgroup.name }),
  };
  config.processes.push(server.record);
  return server;
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

// A start that failed inside a group: already recorded on its config.
class StartFailed extends Error {}

// A group's members started one after the other in this block's order (the start order is
// a position), each into `servers` (Map config -> server) as it starts, so the caller stops
// whatever did start; a member that cannot start fails its configuration for good, and
// StartFailed ends the group.
async function startMembers(ctx, members, block, servers) {
  for (const config of members) {
    try {
      servers.set(config, await startOne(ctx, config, block));
    } catch (err) {
      fail(ctx, config, err.message, { stderrTail: err.stderrTail || '', final: true });
      throw new StartFailed();
    }
  }
}

function fmtRatio(summary) {
  const r = summary?.ratio;
  return r?.estimate ? `${ratioPct(r.estimate)}${r.ci95 ? ` ±${r.halfWidthPct.toFixed(1)}` : ''}` : '';
}

module.exports = {
  refreshSummaries,
  warnOnce,
  fail,
  explain,
  blockFailed,
  startBlock,
  startOne,
  startMembers,
  stopBlock,
  fmtRatio,
  StartFailed,
};
