'use strict';
// The Artillery driver: load from an existing engine that also runs distributed
// (run-fargate, run-lambda, run-aci: docs/deploy.md). ctxbench writes the scenario (a
// constant arrival rate of virtual users, one GET each) and its processor
// (load/artillery-processor.js: a trace id per request, every answer checked), runs it
// locally, and reads Artillery's JSON report back into a sample.
//
// Artillery 2.0.34 declares Node >= 22.18 and its install (hundreds of MB, with Playwright
// and the AWS and Azure SDKs: docs/investigations.md, "Figures that code comments
// carried") is far more than ctxbench's own dependencies, so it is not a
// devDependency: it is installed on first use into the cache beside the Node binaries
// (pinned, lib/cache-install.js; its --ignore-scripts skips the Playwright browser download, which
// needs network we may not have and is not used) and run with ctxbench's cached Node 24.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const YAML = require('yaml');
const hdr = require('hdr-histogram-js');
const { normalizeOptions } = require('./autocannon');
const { newHistogram, percentiles, HELD_MIN } = require('../lib/histogram');
const { resolveNode, cacheDirectory } = require('../lib/node-versions');
const { installIntoCache } = require('../lib/cache-install');

const VERSION = '2.0.34';
const NODE_MAJOR = '24';
const PROCESSOR = path.join(__dirname, 'artillery-processor.js');
const INSTALL_TIMEOUT_MS = 10 * 60 * 1000;

function exec(file, args, { timeout, env, cwd } = {}) {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { timeout, env: env || process.env, cwd, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ error, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

function lastLine(text) {
  return (
    String(text)
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !/^npm warn/i.test(l))
      .pop() || ''
  );
}

function binIn(prefix) {
  return path.join(prefix, 'node_modules', 'artillery', 'bin', 'run');
}

// -> path of Artillery's bin/run, installing artillery@VERSION into the cache once.
function ensureArtillery({ cacheDir = cacheDirectory(), log = () => {}, timeoutMs = INSTALL_TIMEOUT_MS } = {}) {
  const prefix = path.join(cacheDir, `artillery-${VERSION}`);
  return installIntoCache({
    specs: [`artillery@${VERSION}`],
    prefix,
    installed: binIn,
    log,
    timeoutMs,
    note: '~460 MB',
  });
}

// The scenario: `rate` new virtual users per second for `duration` s, each one GET of
// `route` through the processor's hooks. Artillery's arrivalRate is whole users per
// second, so the rate is rounded (and recorded as such).
function scenario({ target, route, rate, duration, timeout, run = randomBytes(8).toString('hex') }) {
  return {
    config: {
      target,
      variables: { ctxbenchRun: run },
      phases: [{ duration, arrivalRate: rate, name: 'ctxbench' }],
      processor: './artillery-processor.js',
      http: { timeout },
    },
    scenarios: [
      {
        name: 'ctxbench GET',
        flow: [{ get: { url: route, beforeRequest: 'ctxbenchStamp', afterResponse: 'ctxbenchCheck' } }],
      },
    ],
  };
}

// Writes scenario.yml and artillery-processor.js into dir; returns the scenario's path.
function writeScenario(dir, options) {
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(PROCESSOR, path.join(dir, 'artillery-processor.js'));
  const file = path.join(dir, 'scenario.yml');
  fs.writeFileSync(
    file,
    `# Written by ctxbench (load/artillery.js). Runs as is: artillery run ` +
      `scenario.yml\n${YAML.stringify(scenario(options))}`,
  );
  return file;
}

const sumWhere = (counters, test) =>
  Object.entries(counters)
    .filter(([k]) => test(k))
    .reduce((a, [, v]) => a + v, 0);

// Artillery's JSON report (aggregate) + the per-response latency files -> a sample.
function readReport(report, latencyValues, { rate, duration }) {
  const agg = report.aggregate || {};
  const c = agg.counters || {};
  const scheduled = c['vusers.created'] ?? Math.round(rate * duration);
  const sent = c['http.requests'] || 0;
  const answered = c['http.responses'] || 0;
  const non2xx = sumWhere(c, (k) => /^http\.codes\.\d+$/.test(k) && !/^http\.codes\.2\d\d$/.test(k));
  const errors = sumWhere(c, (k) => k.startsWith('errors.'));
  const h = newHistogram();
  for (const us of latencyValues) h.recordValue(us);
  const planned = Math.round(rate * duration);
  const engine = agg.summaries?.['http.response_time'] || null;
  return {
    rps: Math.round((answered / duration) * 10) / 10,
    latency: percentiles(h),
    requests: answered,
    errors,
    non2xx,
    mismatches: c['ctxbench.mismatches'] || 0,
    lost: c['ctxbench.lost'] || 0,
    rate,
    scheduled: planned,
    sent,
    heldRate: {
      target: rate,
      achieved: Math.round((answered / duration) * 10) / 10,
      sentRatio: planned ? Math.round((sent / planned) * 1e4) / 1e4 : null,
      achievedRatio: planned ? Math.round((answered / planned) * 1e4) / 1e4 : null,
      held: planned > 0 && sent / planned >= HELD_MIN && answered / planned >= HELD_MIN,
    },
    histogram: hdr.encodeIntoCompressedBase64(h),
    engine: {
      name: 'artillery',
      version: VERSION,
      vusersCreated: scheduled,
      vusersFailed: c['vusers.failed'] || 0,
      kept: c['ctxbench.kept'] || 0,
      // Artillery's own summary of the same responses (ms), for comparison.
      responseTime: engine && {
        p50: engine.p50 ?? engine.median,
        p90: engine.p90,
        p99: engine.p99,
        p99_9: engine.p999,
        max: engine.max,
        count: engine.count,
      },
    },
    bytesPerSec: null,
    // The load runs in Artillery's processes, not in ours.
    loadgenCpu: null,
    durationS: duration,
  };
}

// Options: url, path, rate (req/s), duration (s), timeout (s, 10); connections and
// pipelining are ignored (every virtual user opens its own connection, as distributed
// clients do). Resolves to the same fields as load/open-loop.js plus `engine`.
async function measure(options) {
  const { rate: asked, amount, warmup, ...rest } = options;
  // Artillery's virtual users each open their own connection; nothing to pipeline.
  for (const key of ['connections', 'pipelining', 'onProgress']) delete rest[key];
  if (amount !== undefined) throw new Error('the artillery driver runs for a duration; amount is not supported');
  if (!(typeof asked === 'number' && asked > 0 && asked <= 1e6))
    throw new Error(`rate must be a number of requests per second > 0, got ${JSON.stringify(asked)}`);
  const o = normalizeOptions(rest);
  const rate = Math.max(1, Math.round(asked));
  const duration = Math.max(1, Math.round(o.duration));
  const [bin, node] = await Promise.all([ensureArtillery(), resolveNode(NODE_MAJOR)]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-artillery-'));
  try {
    const latencyDir = path.join(dir, 'latency');
    fs.mkdirSync(latencyDir);
    if (warmup > 0) {
      const w = writeScenario(path.join(dir, 'warmup'), {
        target: o.origin,
        route: o.path,
        rate,
        duration: Math.max(1, Math.round(warmup)),
        timeout: o.timeout,
      });
      await runArtillery(node.path, bin, w, path.join(dir, 'warmup', 'report.json'), {});
    }
    const file = writeScenario(dir, { target: o.origin, route: o.path, rate, duration, timeout: o.timeout });
    const reportFile = path.join(dir, 'report.json');
    await runArtillery(node.path, bin, file, reportFile, { CTXBENCH_LATENCY_DIR: latencyDir });
    const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
    const values = fs
      .readdirSync(latencyDir)
      .flatMap((f) => fs.readFileSync(path.join(latencyDir, f), 'utf8').split('\n').filter(Boolean).map(Number));
    const sample = readReport(report, values, { rate, duration });
    if (sample.requests === 0)
      throw new Error(`no response from ${o.target} during the Artillery run (${sample.errors} errors)`);
    return sample;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function runArtillery(nodePath, bin, scenarioFile, reportFile, env) {
  const { error, stdout, stderr } = await exec(
    nodePath,
    [bin, 'run', '--quiet', '--output', reportFile, scenarioFile],
    {
      cwd: path.dirname(scenarioFile),
      env: { ...process.env, ARTILLERY_DISABLE_TELEMETRY: 'true', ARTILLERY_TELEMETRY_DEFAULTS: '{}', ...env },
      timeout: 30 * 60 * 1000,
    },
  );
  if (error || !fs.existsSync(reportFile)) {
    throw new Error(`artillery run failed: ${lastLine(stderr) || lastLine(stdout) || (error && error.message)}`);
  }
}

module.exports = { measure, ensureArtillery, writeScenario, scenario, readReport, VERSION };

// `node load/artillery.js URL --rate R --duration S --out DIR`: writes the scenario and
// its processor for a distributed run (docs/deploy.md) without running anything.
if (require.main === module) {
  const { parse, number, UsageError } = require('../lib/cli');
  try {
    const { values, positionals } = parse(
      process.argv.slice(2),
      { rate: { type: 'string' }, duration: { type: 'string' }, out: { type: 'string' }, timeout: { type: 'string' } },
      { allowPositionals: true },
    );
    if (positionals.length !== 1 || !values.rate || !values.out)
      throw new UsageError('usage: node load/artillery.js URL --rate R [--duration S=60] [--timeout S=10] --out DIR');
    const rate = number('rate', values.rate, { min: 1, max: 1e6, integer: true });
    const duration = number('duration', values.duration ?? '60', { min: 1, max: 86400, integer: true });
    const timeout = number('timeout', values.timeout ?? '10', { min: 1, max: 3600 });
    const o = normalizeOptions({ url: positionals[0], duration, timeout });
    const file = writeScenario(values.out, { target: o.origin, route: o.path, rate, duration, timeout });
    process.stdout.write(`${file}\n`);
  } catch (err) {
    process.stderr.write(`load/artillery.js: ${String(err.message).split('\n')[0]}\n`);
    process.exitCode = 1;
  }
}
