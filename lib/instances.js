'use strict';
// The cloud instance classes a server can be held to locally (`--instance CLASS`): what
// each class gives an instance (CPU, memory, requests at once) as its platform documents
// it, and the CPU share ctxbench's stand-in (bench/processes/cgroup.js) turns that into.
//
// App Engine standard (app.yaml reference, second-generation runtimes): F1 384 MB / 600 MHz,
// F2 768 MB / 1.2 GHz, F4 1536 MB / 2.4 GHz, F4_1G 3072 MB / 2.4 GHz; B1, B2, B4, B4_1G as
// F1…F4_1G, B8 3072 MB / 4.8 GHz. Google says the MHz are not fixed clock speeds. THE
// ASSUMPTION: a class's MHz ÷ 2,400 is its share of one CPU (Cloud Functions 1st gen
// equates 1 vCPU with 2.4 GHz), so F1 ≈ 0.25, F2 ≈ 0.5, F4 ≈ 1, B8 ≈ 2 CPUs. Every page
// that uses it says so, with the machine's own clock beside it.
// Requests at once: automatic scaling's `max_concurrent_requests` (default 10); basic and
// manual scaling (the B classes) have no such setting, so their stand-in is limited by the
// connections alone.
// Cloud Run: `cloudrun:cpu=1,memory=512Mi,concurrency=80` (those are its defaults); CPU
// from 0.08 in steps of 0.001, below 1 CPU concurrency must be 1.
const { UsageError } = require('./cli');

const MHZ_PER_CPU = 2400;
const MiB = 2 ** 20;
const APP_ENGINE = {
  F1: { memoryMiB: 384, mhz: 600 },
  F2: { memoryMiB: 768, mhz: 1200 },
  F4: { memoryMiB: 1536, mhz: 2400 },
  F4_1G: { memoryMiB: 3072, mhz: 2400 },
  B1: { memoryMiB: 384, mhz: 600 },
  B2: { memoryMiB: 768, mhz: 1200 },
  B4: { memoryMiB: 1536, mhz: 2400 },
  B4_1G: { memoryMiB: 3072, mhz: 2400 },
  B8: { memoryMiB: 3072, mhz: 4800 },
};
const APP_ENGINE_MAX_CONCURRENT = 10;
// The autoscalers' other target: requests in flight per instance held at this share of the
// request limit (App Engine's target_throughput_utilization, default 0.6; Cloud Run's
// concurrency target, default 60%: its "Configure custom scaling controls" page).
const CONCURRENCY_TARGET = 0.6;
const CLOUD_RUN = { cpu: 1, memory: '512Mi', concurrency: 80 };
const DEFAULT_PERIOD_US = 100000;

const ASSUMPTION =
  `an App Engine class's MHz ÷ ${MHZ_PER_CPU.toLocaleString('en-US')} is its share of one CPU (Cloud Functions ` +
  `1st gen equates 1 vCPU with 2.4 GHz; Google says the MHz are not fixed clock speeds)`;

// '512Mi', '1Gi', '768M', '2G' -> bytes (Kubernetes-style units, as Cloud Run takes them).
function memoryBytes(text) {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)$/.exec(String(text));
  if (!m) return null;
  const unit = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, K: 1e3, M: 1e6, G: 1e9 }[m[2]];
  return Math.round(Number(m[1]) * unit);
}

function bad(text, why) {
  return new UsageError(`--instance ${text} is not valid; ${why}`);
}

// parseInstance('F1' | 'cloudrun:cpu=1,memory=512Mi,concurrency=80' | 'none', { periodUs })
// -> null for 'none', else { name, platform, cpus, memoryBytes, requestLimit, periodUs,
// quotaUs, mhz?, assumption? }. One clear line on anything else.
function parseInstance(text, { periodUs = DEFAULT_PERIOD_US, burstUs = 0 } = {}) {
  if (text === undefined || text === null || text === 'none') return null;
  const value = String(text).trim();
  const ae = APP_ENGINE[value.toUpperCase()];
  if (ae && /^[A-Za-z0-9_]+$/.test(value)) {
    const name = value.toUpperCase();
    const cpus = ae.mhz / MHZ_PER_CPU;
    return withQuota(
      {
        name,
        platform: 'App Engine standard',
        cpus,
        mhz: ae.mhz,
        memoryBytes: ae.memoryMiB * MiB,
        requestLimit: name.startsWith('F') ? APP_ENGINE_MAX_CONCURRENT : null,
        requestLimitSource: name.startsWith('F')
          ? `max_concurrent_requests (default ${APP_ENGINE_MAX_CONCURRENT})`
          : 'basic and manual scaling have no max_concurrent_requests',
        ...(name.startsWith('F') && {
          concurrencyTarget: CONCURRENCY_TARGET,
          concurrencyTargetSource: `target_throughput_utilization (default ${CONCURRENCY_TARGET})`,
        }),
        assumption: ASSUMPTION,
      },
      periodUs,
      burstUs,
    );
  }
  const cr = /^cloudrun(?::(.*))?$/i.exec(value);
  if (cr) {
    const given = {};
    for (const part of (cr[1] ?? '').split(',').filter(Boolean)) {
      const [k, v] = part.split('=');
      if (!['cpu', 'memory', 'concurrency'].includes(k) || v === undefined || v === '')
        throw bad(value, `expected cloudrun:cpu=N,memory=SIZE,concurrency=N (got '${part}')`);
      if (Object.hasOwn(given, k)) throw bad(value, `${k} given twice`);
      given[k] = v;
    }
    const cpus = given.cpu === undefined ? CLOUD_RUN.cpu : Number(given.cpu);
    if (!(Number.isFinite(cpus) && cpus >= 0.08 && cpus <= 8 && Math.abs(cpus * 1000 - Math.round(cpus * 1000)) < 1e-9))
      throw bad(value, 'cpu is from 0.08 to 8 in steps of 0.001 (Cloud Run)');
    const mem = memoryBytes(given.memory ?? CLOUD_RUN.memory);
    if (!(mem >= 128 * MiB && mem <= 32 * 2 ** 30))
      throw bad(value, 'memory is from 128Mi to 32Gi, such as 512Mi or 2Gi');
    const concurrency =
      given.concurrency === undefined ? (cpus < 1 ? 1 : CLOUD_RUN.concurrency) : Number(given.concurrency);
    if (!(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 1000))
      throw bad(value, 'concurrency is an integer from 1 to 1000');
    if (cpus < 1 && concurrency > 1)
      throw bad(value, 'below 1 CPU Cloud Run serves one request at a time: concurrency must be 1');
    return withQuota(
      {
        name: `cloudrun:cpu=${cpus},memory=${given.memory ?? CLOUD_RUN.memory},concurrency=${concurrency}`,
        platform: 'Cloud Run',
        cpus,
        memoryBytes: mem,
        requestLimit: concurrency,
        requestLimitSource:
          `concurrency` +
          `${given.concurrency === undefined ? ` (default ${cpus < 1 ? 1 : CLOUD_RUN.concurrency})` : ''}`,
        concurrencyTarget: CONCURRENCY_TARGET,
        concurrencyTargetSource: `the concurrency target (default ${CONCURRENCY_TARGET * 100}%)`,
      },
      periodUs,
      burstUs,
    );
  }
  throw bad(
    value,
    `expected one of ${Object.keys(APP_ENGINE).join(', ')}, cloudrun[:cpu=N,memory=SIZE,concurrency=N] or none`,
  );
}

function withQuota(instance, periodUs, burstUs = 0) {
  if (!(Number.isInteger(periodUs) && periodUs >= 1000 && periodUs <= 1000000))
    throw new UsageError(
      `--cfs-period ${periodUs} is not valid; expected microseconds from 1000 to 1000000 (the kernel's ` +
        `default, and Kubernetes', is 100000)`,
    );
  const quotaUs = Math.round(instance.cpus * periodUs);
  // The kernel takes a burst of at most the quota itself.
  if (!(Number.isInteger(burstUs) && burstUs >= 0 && burstUs <= quotaUs))
    throw new UsageError(
      `--cfs-burst ${burstUs} is not valid; expected microseconds from 0 to the quota, ${quotaUs} ` +
        `(${instance.name}'s ${instance.cpus} CPU of a ${periodUs}-µs period)`,
    );
  return { ...instance, periodUs, quotaUs, ...(burstUs > 0 && { burstUs }) };
}

// One line of what a stand-in is, for logs and pages.
function describeInstance(i) {
  if (!i) return "no instance limits (a whole CPU, the machine's memory)";
  return (
    `${i.name}: ${i.cpus} CPU (CFS quota ${i.quotaUs.toLocaleString('en-US')} µs per ` +
    `${i.periodUs.toLocaleString('en-US')} µs${i.burstUs ? `, burst ${i.burstUs.toLocaleString('en-US')} µs` : ''}), ` +
    `${Math.round(i.memoryBytes / MiB)} MiB, ` +
    (i.requestLimit
      ? `${i.requestLimit} request${i.requestLimit === 1 ? '' : 's'} at once`
      : `no request limit${i.requestLimitSource ? ` (${i.requestLimitSource})` : ''}`)
  );
}

// The request limit × the concurrency target: the requests in flight an autoscaler lets an
// instance hold (null without a request limit: no such target).
function concurrencyAllowed(instance) {
  const limit = instance?.requestLimit;
  return limit ? limit * (instance.concurrencyTarget ?? CONCURRENCY_TARGET) : null;
}

// instanceUsPerRequest({ cpuUs, busyUs }, instance, targetCpu) -> { us, bound } | null: µs of
// an instance at the autoscaler's targets one request takes, at whichever target binds first
// (it adds instances until neither is passed): its CPU µs ÷ (the instance's CPUs × the CPU
// target), or the µs it held a connection ÷ the requests in flight allowed (concurrencyAllowed).
// bound: 'cpu' or 'concurrency'. Instances per request/s = us ÷ 1e6. No CPU reading: null; no
// busy time (runs before 2026-12-05) or no request limit: the CPU's.
function instanceUsPerRequest({ cpuUs, busyUs }, instance, targetCpu) {
  if (!(cpuUs > 0 && instance?.cpus > 0 && targetCpu > 0)) return null;
  const cpu = cpuUs / (instance.cpus * targetCpu);
  const allowed = concurrencyAllowed(instance);
  const held = allowed && busyUs > 0 ? busyUs / allowed : 0;
  return held > cpu ? { us: held, bound: 'concurrency' } : { us: cpu, bound: 'cpu' };
}

module.exports = {
  parseInstance,
  concurrencyAllowed,
  instanceUsPerRequest,
  describeInstance,
  memoryBytes,
  APP_ENGINE,
  CLOUD_RUN,
  MHZ_PER_CPU,
  DEFAULT_PERIOD_US,
  ASSUMPTION,
  APP_ENGINE_MAX_CONCURRENT,
  CONCURRENCY_TARGET,
};
