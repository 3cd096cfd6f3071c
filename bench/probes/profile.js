'use strict';
// `ctxbench run --profile`: one V8 CPU profile per configuration, recorded in a burst of
// its own after the measured session (never during it: the profiler costs CPU), and a
// summary of each profile the report can print: where the time goes by package and by
// function (self time), and what a strategy adds over its baseline.
//
// The burst: a fresh server started with --cpu-prof --cpu-prof-dir=<tmp>, driven by the
// run's own load driver for a few seconds, stopped with SIGTERM (app.js then exits
// through process.exit, which is when V8 writes the profile). The file is moved to
// results/profiles/<run>/<config>.cpuprofile, which Chrome DevTools opens as is.
const { saveRun } = require('../../lib/run-file');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startServer } = require('../processes/server-process');
const { baselineFor } = require('../../analysis/comparable');
const { getDriver } = require('../measure/drivers');
const { cpus } = require('../../lib/cpus');
const { onInterrupt } = require('../run/progress');
const { startServices } = require('../services/services');

const DEFAULT_SECONDS = 3;
const TOP = 10;
// Frames V8 names itself rather than a function of some script.
const V8_FRAMES = new Set(['(garbage collector)', '(program)', '(idle)', '(root)']);

// file:///…/node_modules/@scope/pkg/… -> @scope/pkg; node:internal/… -> node; our own
// files -> ctxbench; V8's pseudo-frames -> themselves.
function packageOf(callFrame) {
  const { url, functionName } = callFrame;
  if (!url) return V8_FRAMES.has(functionName) ? functionName : '(native)';
  const text = url.replace(/^file:\/\//, '');
  const at = text.lastIndexOf('/node_modules/');
  if (at >= 0) {
    const parts = text.slice(at + '/node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (/^node:/.test(text) || !text.startsWith('/')) return 'node';
  return 'ctxbench';
}

function shortPlace(callFrame) {
  const { url, lineNumber } = callFrame;
  if (!url) return '';
  const text = url.replace(/^file:\/\//, '');
  const at = text.lastIndexOf('/node_modules/');
  const where =
    at >= 0
      ? text.slice(at + '/node_modules/'.length)
      : text.startsWith('/')
        ? path.relative(path.resolve(__dirname, '..', '..'), text)
        : text;
  return `${where}:${lineNumber + 1}`;
}

function functionKey(callFrame) {
  const name = callFrame.functionName || '(anonymous)';
  const place = shortPlace(callFrame);
  return place ? `${name} ${place}` : name;
}

// A parsed .cpuprofile -> { durationMs, samples, busyMs, skippedMs, packages[], functions[] },
// each entry { name, selfMs, share } with share the fraction of busy (non-idle) time.
// fromUs: V8 timestamp (µs, the monotonic clock: process.hrtime in any process of the
// machine) before which samples are left out, i.e. the server's start-up; ignored when it
// is not inside the profile.
function summarizeProfile(profile, { top = TOP, fromUs = null } = {}) {
  const nodes = new Map((profile.nodes || []).map((n) => [n.id, n]));
  const samples = profile.samples || [];
  const deltas = profile.timeDeltas || [];
  const durationMs = (profile.endTime - profile.startTime) / 1000;
  const from = fromUs !== null && fromUs > profile.startTime && fromUs < profile.endTime ? fromUs : -Infinity;
  // Sample i lasted until sample i+1 (DevTools' attribution); the last until endTime.
  const selfUs = new Map();
  let at = profile.startTime;
  let counted = 0;
  for (let i = 0; i < samples.length; i++) {
    at += deltas[i] || 0;
    if (at < from) continue;
    counted++;
    const us = Math.max(0, i + 1 < deltas.length ? deltas[i + 1] : profile.endTime - at);
    selfUs.set(samples[i], (selfUs.get(samples[i]) || 0) + us);
  }
  const byFunction = new Map();
  const byPackage = new Map();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const node = nodes.get(id);
    if (!node) continue;
    const frame = node.callFrame;
    if (frame.functionName === '(idle)') continue;
    busyUs += us;
    const pkg = packageOf(frame);
    const key = functionKey(frame);
    const entry = byFunction.get(key) || { name: key, package: pkg, us: 0 };
    entry.us += us;
    byFunction.set(key, entry);
    byPackage.set(pkg, (byPackage.get(pkg) || 0) + us);
  }
  const rank = (entries) =>
    entries
      .sort((a, b) => b.us - a.us)
      .map(({ us, ...rest }) => ({ ...rest, selfMs: round(us / 1000), share: busyUs > 0 ? us / busyUs : 0 }));
  return {
    durationMs: round(durationMs),
    samples: counted,
    skippedMs: round(Number.isFinite(from) ? (from - profile.startTime) / 1000 : 0),
    busyMs: round(busyUs / 1000),
    packages: rank([...byPackage].map(([name, us]) => ({ name, us }))),
    functions: rank([...byFunction.values()]).slice(0, Math.max(top * 5, 50)),
  };
}

function round(x) {
  return Math.round(x * 1000) / 1000;
}

// What `summary` spends a larger share of its busy time on than `baseline` does, by
// function and by package, largest growth first (percentage points of busy time).
function growthOver(summary, baseline, { top = 5 } = {}) {
  const diff = (mine, theirs) => {
    const before = new Map(theirs.map((e) => [e.name, e.share]));
    return mine
      .map((e) => ({ name: e.name, share: e.share, baselineShare: before.get(e.name) || 0 }))
      .map((e) => ({ ...e, growthPp: 100 * (e.share - e.baselineShare) }))
      .filter((e) => e.growthPp > 0)
      .sort((a, b) => b.growthPp - a.growthPp)
      .slice(0, top);
  };
  return {
    packages: diff(summary.packages, baseline.packages),
    functions: diff(summary.functions, baseline.functions),
  };
}

function fileNameOf(configId) {
  return `${String(configId).replace(/[^\w.-]+/g, '_')}.cpuprofile`;
}

// Records one profile per config of `run` (skipping remote targets and failed configs),
// writes the .cpuprofile files under dir and puts run.profiles = { dir, seconds,
// configs: { [id]: { file, requests, summary, overBaseline? } }, errors }.
async function recordProfiles(
  run,
  { dir, base = '.', driver, seconds = DEFAULT_SECONDS, stop = { requested: false }, log = () => {}, serverEnv = {} },
) {
  const settings = run.settings || {};
  // Where the session pinned this process (the load generator) to one CPU, the server
  // goes to the other, as in the measured rounds: a child inherits this process's CPU.
  const cpu = run.environment && run.environment.taskset ? (cpus()?.server ?? null) : null;
  const profiles = { dir: path.relative(base, dir), seconds, configs: {}, errors: [] };
  run.profiles = profiles;
  fs.mkdirSync(dir, { recursive: true });
  for (const config of run.configs) {
    if (stop.requested) break;
    if (config.target || !config.launch) continue;
    try {
      profiles.configs[config.id] = await profileConfig(config, {
        dir,
        base,
        driver,
        seconds,
        settings,
        cpu,
        serverEnv,
      });
      log(`profiled ${config.id}`);
    } catch (err) {
      profiles.errors.push(`${config.id}: ${String(err.message).split('\n')[0]}`);
    }
  }
  for (const config of run.configs) {
    const mine = profiles.configs[config.id];
    const base = baselineFor(config, run.configs, settings.baseline);
    const theirs = base && profiles.configs[base.id];
    if (mine && theirs) mine.overBaseline = { baseline: base.id, ...growthOver(mine.summary, theirs.summary) };
  }
  return profiles;
}

async function profileConfig(config, { dir, base, driver, seconds, settings, cpu, serverEnv = {} }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-prof-'));
  try {
    const { nodePath, nodeArgs } = config.launch;
    const env = { ...serverEnv, ...(config.stores ? { STORES: String(config.stores) } : {}) };
    const server = await startServer(config, {
      nodePath,
      nodeArgs: [...nodeArgs, '--cpu-prof', `--cpu-prof-dir=${tmp}`],
      env,
      cpu,
    });
    // From here on the server is serving load: what came before (start-up) is left out.
    const fromUs = Number(process.hrtime.bigint() / 1000n);
    let load;
    try {
      load = await driver({
        url: server.url,
        path: config.path || '/',
        connections: settings.connections || 50,
        pipelining: settings.pipelining || 1,
        duration: seconds,
      });
    } finally {
      await server.stop();
    }
    const written = fs.readdirSync(tmp).filter((f) => f.endsWith('.cpuprofile'));
    if (written.length !== 1)
      throw new Error(`the server wrote ${written.length} profiles, expected 1 (did it exit through SIGTERM?)`);
    const text = fs.readFileSync(path.join(tmp, written[0]), 'utf8');
    const file = path.join(dir, fileNameOf(config.id));
    fs.writeFileSync(file, text);
    return {
      file: path.relative(base, file),
      requests: load ? load.requests : null,
      summary: summarizeProfile(JSON.parse(text), { fromUs }),
    };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

// results/<name>.json -> results/profiles/<name>/
function profileDirFor(out) {
  return path.join(path.dirname(out), 'profiles', path.basename(out, '.json'));
}

// `ctxbench run --profile`, after the measured session: profiles every config, stores
// run.profiles (paths relative to the run JSON's folder) and rewrites the run JSON.
// Ctrl-C stops after the current burst and keeps what was recorded. services: what the
// session started for its servers ({ need, pgUrl }: PostgreSQL, the downstream, the
// agents' sink), started again for the bursts, since the session stopped its own.
async function profileRun(run, out, settings, services = null) {
  const log = (line) => process.stderr.write(`ctxbench: ${line}\n`);
  const stop = onInterrupt({ log }, 'profile burst');
  const started =
    services?.need && Object.values(services.need).some(Boolean)
      ? await startServices({ need: services.need, pgUrl: services.pgUrl ?? null })
      : null;
  try {
    log(`profiling ${run.configs.length} configurations (unmeasured bursts under --cpu-prof)`);
    await recordProfiles(run, {
      dir: profileDirFor(out),
      base: path.dirname(out),
      driver: getDriver(settings.driver),
      seconds: settings.quick ? 1 : DEFAULT_SECONDS,
      stop,
      log,
      serverEnv: started?.env ?? {},
    });
    for (const line of run.profiles.errors) log(`profile failed: ${line}`);
  } finally {
    if (started) await started.stop();
    stop.release();
    saveRun(out, run);
  }
  return run.profiles;
}

module.exports = {
  summarizeProfile,
  growthOver,
  recordProfiles,
  profileRun,
  profileDirFor,
  packageOf,
  fileNameOf,
  DEFAULT_SECONDS,
};
