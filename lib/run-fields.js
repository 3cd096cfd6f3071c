'use strict';
// The run record's field declarations below the top level: a configuration, its processes,
// its samples and its summary, the machine, a resume. Each field once, with its type and
// what it means; lib/run-schema.js closes every object declared here (a field not named is
// refused) and docs/run-json.md's reference is generated from these descriptions.
// Nested objects whose shape varies by method or tool (latency, schedule, instance, …)
// stay open: their declaration says where they are written.

const T = {
  num: ['number', 'null'],
  int: ['integer', 'null'],
  str: ['string', 'null'],
  bool: ['boolean', 'null'],
  obj: ['object', 'null'],
  arr: ['array', 'null'],
};
// { name: [type, description] } -> JSON Schema properties.
const fields = (table) =>
  Object.fromEntries(Object.entries(table).map(([k, [type, doc]]) => [k, { type: T[type] ?? type, description: doc }]));
// A closed object: a field not declared is refused (a misspelt field with it).
const closed = (doc, properties, required = []) => ({
  type: 'object',
  description: doc,
  properties,
  required,
  additionalProperties: false,
});

const SAMPLE = closed(
  'one measured sample: a burst, a duet or pair window, or a count window (docs/run-json.md, by method)',
  fields({
    kind: ['str', 'solo, window, duet, pair or instructions (absent: a sequential burst)'],
    method: ['str', 'pair windows: the method that measured them'],
    block: ['int', 'the block of fresh processes it belongs to'],
    round: ['int', 'sequential: the round, 0-based across the run'],
    seq: ['int', 'sequential: the burst number across the run, increasing in time'],
    pairSeq: ['int', 'sequential: seq of the adjacent baseline burst it is paired with (null for a baseline)'],
    group: ['int', 'duet, pair: the group, numbered across the run'],
    position: ['int', 'duet, pair: the position in start, load and poll order'],
    members: ['arr', 'duet, pair: the configurations loaded together'],
    window: ['int', 'duet, pair, instructions: the window within its group or process'],
    partner: ['str', 'duet, pair: the baseline it ran beside'],
    phase: ['str', "at the operating point: 'base' (both at the baseline's rate) or 'own' (its own)"],
    ladder: ['bool', 'an SLO ladder: the pair was sent every rate lowest first'],
    rps: ['num', 'requests per second over the sample'],
    windowMs: ['num', 'the exact measured window, ms'],
    wallMs: ['num', 'the window, ms'],
    durationS: ['num', "duet: the whole load's seconds"],
    latency: ['obj', 'ms: p2_5, p50, p97_5, p99, avg, stdev, max (closed loop) or p50 … p99_9, count (open loop)'],
    requests: ['int', 'requests answered in the sample'],
    kept: ['int', 'responses whose id was checked and kept'],
    unchecked: ['int', 'responses whose id could not be checked'],
    errors: ['int', 'failed requests'],
    non2xx: ['int', 'responses that were not 2xx'],
    mismatches: ['int', "responses whose id was not the request's"],
    lost: ['int', 'responses that carried no id of ours'],
    cpuUsPerRequest: ['num', 'server CPU µs per request (/__stats or /proc deltas)'],
    burnUsPerRequest: ['num', 'BURN_US servers: the burn the server timed, µs per request'],
    rssMB: ['num', "the server's resident memory, MB"],
    elu: ['num', 'event-loop utilisation over the sample'],
    bytesPerSec: ['num', 'bytes read per second'],
    loadgenCpu: ['num', "the load generator's own CPU, share of one core"],
    loadCpu: ['num', "pair: the generator's and the services' CPU, share of one CPU"],
    share: ['num', "duet: this server's share of the server CPU(s)"],
    partnerRequests: ['int', "duet, pair: the partner's requests in the window"],
    partnerCpuUsPerRequest: ['num', "duet, pair: the partner's CPU µs per request"],
    partnerShare: ['num', "duet: the partner's share of the server CPU(s)"],
    wakeupsPerRequest: ['num', "the event loop's voluntary context switches per request"],
    partnerWakeupsPerRequest: ['num', "the partner's, likewise"],
    busyUsPerRequest: ['num', 'pair: µs an answer held its connection, send to answer (queue wait apart)'],
    partnerBusyUsPerRequest: ['num', "the partner's, likewise"],
    instanceUsPerRequest: ['num', "at a target: µs of an instance per request at the target that binds first"],
    partnerInstanceUsPerRequest: ['num', "the partner's, likewise"],
    bound: ['str', "at a target: which target bound first, 'cpu' or 'concurrency'"],
    partnerBound: ['str', "the partner's, likewise"],
    counted: ['bool', 'false: left out of every ratio'],
    dropped: ['str', 'why a window was not counted'],
    countedWindows: ['int', 'pair: the windows counted of the whole pair'],
    rate: ['num', 'rate mode, pair: requests per second sent (to each server of a pair)'],
    partnerRate: ['num', "at the operating point: the rate the partner was sent"],
    due: ['int', 'pair: requests due over the whole pair'],
    sent: ['int', 'requests that got onto a connection'],
    scheduled: ['int', 'rate mode: requests due in the window'],
    heldRate: ['obj', 'rate mode: { target, achieved, sentRatio, achievedRatio, held }'],
    schedule: ['obj', 'pair: { due, sent, answered, errors, backlog, inFlight }'],
    partnerSchedule: ['obj', "the partner's, likewise"],
    histogram: ['str', 'latencies (µs) from intended send times, HDR compressed base64'],
    partnerHistogram: ['str', "the partner's, likewise"],
    partnerLatency: ['obj', "the partner's latency, ms"],
    lateness: ['obj', "the generator's own lateness, ms ({ p50, p99, max })"],
    latenessHistogram: ['str', "the generator's lateness, HDR compressed base64"],
    sendLag: ['obj', 'ms between intended and actual send (open-loop driver)'],
    clientLag: ['obj', "ms of the client's own lateness alone"],
    engine: ['obj', '--driver artillery: its own counters and summary'],
    instance: ['obj', "--instance: the cgroup's accounting (cpuUsPerRequest, periods, throttled, memory)"],
    partnerInstance: ['obj', "the partner's, likewise"],
    instructions: ['int', "instructions: callgrind's Ir in the window"],
    perRequest: ['num', 'instructions: instructions per request'],
    warnings: ['arr', 'lines about this sample (a server still busy after the burst, …)'],
  }),
);

const PROCESS = closed(
  'one server process of one block',
  fields({
    block: ['int', 'the block'],
    pid: ['int', 'its pid'],
    port: ['int', 'the port it listened on'],
    nonce: ['str', 'its per-process nonce (/__stats)'],
    startedAt: ['str', 'when it started (ISO 8601)'],
    endedAt: ['str', 'when it ended'],
    exit: ['obj', '{ code, signal } (oom: { kills, peakBytes, limitBytes } when the memory limit killed it)'],
    dead: ['bool', 'it died mid-block'],
    warmup: ['arr', 'the unmeasured warm-up bursts or windows, in order'],
    closedLoopWarmup: ['arr', 'pair: req/s per 1-s closed-loop burst until it stopped rising'],
    cgroup: ['str', "--instance: its stand-in's cgroup"],
    memoryPeakMB: ['num', "--instance: the cgroup's peak memory"],
    windowRequests: ['int', 'instructions: requests per window'],
    settled: ['bool', 'instructions: the warm-up settled before its limit'],
    windowStepPct: ['num', 'instructions: (max − min) ÷ N of its measured windows, % of their mean'],
  }),
);

const RATIO_FIELDS = {
  estimate: { type: T.num, description: 'the point estimate' },
  ci95: { type: T.arr, description: 'its 95% interval [low, high]', items: { type: T.num } },
  method: {
    type: T.str,
    description:
      "how it was measured, a code (a sentence before issue 77): 'adjacent-pairs' (adjacent bursts, log ratio " +
      "averaged per block, t-interval over blocks), 'rounds' (schema 1: paired by round), 'duet', 'pair' (at a " +
      "fixed rate), 'operating-point' (at the autoscaler's CPU target), 'instructions' (counted windows)",
  },
  judgement: {
    type: T.obj,
    description: 'the verdict as data (analysis/verdict.js judge): { significant, direction, changePct, reason, ' +
      'equivalence }',
  },
  verdict: {
    type: 'string',
    description:
      'files written before schema 4 only: the judgement in words, dropped on read (lib/run-schema.js ' +
      'migrate); readers word the judgement (report/verdict-text.js)',
  },
};
const RATIO = {
  type: T.obj,
  description: 'a ratio to the baseline (1 = same cost; analysis/summary.js)',
  properties: RATIO_FIELDS,
};

const SUMMARY = {
  ...closed(
    "the configuration's figures, written at every save (analysis/summary.js summarize)",
    fields({
      n: ['int', 'samples'],
      blocks: ['int', 'blocks (server processes)'],
      rps: [
        'obj',
        "{ estimate, ci95, statistic, median }: req/s; statistic, a code: 'block-geomeans' (the geometric mean " +
          "over blocks of per-block geometric means) or 'round-geomean' (schema 1)",
      ],
      p99: ['obj', '{ median }: ms'],
      cpuUsPerRequest: ['obj', '{ median }: µs'],
      elu: ['obj', '{ median }'],
      loadgenCpu: ['num', 'median load-generator CPU, share of a core'],
      cpuRatio: ['obj', 'the same of CPU per request (> 1 = costlier)'],
      sharedRatio: ['obj', 'duet: requests ÷ partnerRequests in the same counted windows'],
      instructions: ['obj', 'instructions: { median, processes, spreadPct }'],
      disagree: ['bool', 'the throughput and CPU intervals do not overlap'],
      broken: ['bool', 'lost or mismatched ids on a strategy other than global or none'],
      clientBound: ['bool', 'the load generator reached 85% of a core: no verdict'],
      mismatches: ['int', 'responses with another request id'],
      lost: ['int', 'responses with none'],
      errors: ['int', 'failed requests'],
      non2xx: ['int', 'responses that were not 2xx'],
    }),
  ),
  type: T.obj,
};
SUMMARY.properties.ratio = RATIO;

const CONFIG = closed(
  'one configuration of the matrix',
  {
    ...fields({
      id: ['string', 'unique within the run, e.g. express/als/d8/await/node24'],
      framework: ['str', 'express, http or fastify'],
      strategy: ['str', "the context strategy (null: a command of a team's own)"],
      depth: ['int', 'the call depth'],
      hop: ['str', 'the async hop between levels'],
      node: ['str', 'the Node version the server ran (null: a deployed target)'],
      nodeLabel: ['str', 'the runtime label (node24, node24-noacf, remote)'],
      acf: ['bool', 'AsyncContextFrame as /__stats reported it'],
      expectAcf: ['bool', 'what the runtime should report (null: not checked)'],
      target: ['str', '--target: the URL driven'],
      path: ['str', '--target: the path requested'],
      group: ['str', 'set by commands that compare something other than strategies'],
      arm: ['str', 'the side within its group (baseline, candidate, aa, A, B, …)'],
      variant: ['str', 'part of the group key (load50, r2000, A, …)'],
      control: ['bool', 'the broken control (global) that must leak'],
      userSupplied: ['bool', 'a strategy loaded with --strategy-file'],
      strategyFile: ['str', 'its file'],
      name: ['str', "app: the side's name"],
      command: ['str', "app: the side's start command"],
      burnUs: ['int', 'BURN_US of the server'],
      stores: ['int', 'STORES: extra live AsyncLocalStorage instances'],
      log: ['str', 'LOG of the server'],
      role: ['str', "model presets: 'fit' or 'held-out'"],
      rate: ['num', 'rate mode: requests per second it was driven at'],
      load: ['num', "rate mode: the share of the baseline's capacity (null with --rate)"],
      capacityRps: ['num', 'rate mode: the capacity the rate came from'],
      status: ['string', 'ok, failed, complete or interrupted'],
      joinedBlock: ['integer', 'a configuration a resume added: measured from this block on'],
      restingFrom: ['integer', 'a configuration a held-out resume left out: measured up to this block, never after'],
      error: ['obj', '{ message, stderrTail, exit? } when it failed'],
    }),
    processes: { type: 'array', description: 'one server process per block it ran in', items: PROCESS },
    samples: { type: 'array', description: 'what was measured, in order', items: SAMPLE },
    summary: SUMMARY,
  },
  ['id', 'samples'],
);

const ENVIRONMENT = closed(
  'the machine and the code (bench/run/environment.js)',
  fields({
    node: ['string', 'the Node version of ctxbench itself'],
    ctxbenchVersion: ['string', "ctxbench's package version"],
    os: ['string', 'the OS'],
    platform: ['string', 'the platform'],
    kernel: ['string', 'the kernel release'],
    arch: ['string', 'the CPU architecture'],
    cpuModel: ['string', 'the CPU model'],
    cores: ['integer', 'CPU cores'],
    cpuFrequency: ['num', 'MHz, where the machine says'],
    memoryBytes: ['integer', 'memory'],
    date: ['string', 'when the run began (ISO 8601)'],
    commit: ['str', 'the ctxbench commit'],
    dirty: ['bool', 'the work tree had uncommitted changes'],
    taskset: ['bool', 'server and load generator pinned apart'],
    noise: ['obj', '/proc/stat steal and idle, load average, MHz before and after'],
    fingerprint: ['obj', "machine speed: none's CPU per request from a short unmeasured burst"],
  }),
);

module.exports = { SAMPLE, PROCESS, SUMMARY, RATIO, CONFIG, ENVIRONMENT, closed, fields };
