'use strict';
// The run record's field declarations below the top level: a configuration, its processes,
// its samples and its summary, the machine. Each field once, with its type and what it
// means; lib/run-schema.js closes every object declared here (a field not named is refused)
// and docs/run-json.md is generated from these descriptions (scripts/docs-run-json.js).
// Nested objects whose shape varies by method or tool (latency, schedule, instance, …)
// stay open: their declaration says where they are written. In an open object, a field
// declared by `note` only is described, never checked (it accepts what it accepted before).

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
// A field of an open object, described only: { name: description } -> properties with no type.
const notes = (table) => Object.fromEntries(Object.entries(table).map(([k, doc]) => [k, { description: doc }]));

const SAMPLE = closed(
  'one measured sample: a burst, a duet or pair window or load, or a count window',
  fields({
    kind: [
      'str',
      'solo (a duet\'s solo burst), window (a duet or pair window, on the non-baseline member only), duet or pair ' +
        '(the whole load of a group, per member: the id check), instructions (a count window); absent: a ' +
        'sequential burst',
    ],
    method: ['str', "pair windows: 'pair'"],
    block: ['int', 'the block (server process) it came from'],
    round: ['int', 'sequential, solo: the round, 0-based, counted across the whole run'],
    seq: ['int', 'sequential, solo: the burst number across the run, increasing in time'],
    pairSeq: ['int', 'sequential: seq of the adjacent baseline burst it is paired with (null for a baseline)'],
    group: ['int', "duet, pair: the group's sequence number across the run"],
    position: ['int', 'duet, pair loads: the position in start, load and poll order'],
    members: ['arr', 'duet, pair loads: the configurations loaded together'],
    window: ['int', 'windows: 0-based within the group (duet, pair) or the measured windows of the process'],
    partner: ['str', 'windows: the baseline it ran beside'],
    phase: [
      'str',
      "at the operating point (--target-cpu): 'base' (both at the baseline's rate) or 'own' (the candidate at its own)",
    ],
    ladder: ['bool', 'pair loads of an SLO ladder: the pair was sent every rate lowest first'],
    rps: ['num', 'requests ÷ (windowMs ÷ 1000); rate mode: answered ÷ window; none on windows and duet loads'],
    windowMs: ['num', 'the exact measured window, ms'],
    wallMs: ['num', "windows: the window's wall time, ms"],
    durationS: ['num', "duet loads: the whole load's seconds"],
    latency: [
      'obj',
      'ms: closed loop { p2_5, p50, p97_5, p99, avg, stdev, max }; open loop (rate mode, pair windows) timed from ' +
        "each request's intended send time, { p50, p90, p99, p99_9, count } (rate mode adds avg, stdev, max)",
    ],
    requests: ['int', "requests answered in the sample (instructions: between the counter's zero and its dump)"],
    kept: ['int', 'responses whose id was checked and kept'],
    unchecked: ['int', 'responses whose id could not be checked'],
    errors: ['int', 'failed requests'],
    non2xx: ['int', 'responses that were not 2xx'],
    mismatches: ['int', "responses carrying another request's id"],
    lost: ['int', 'responses carrying no id of ours'],
    cpuUsPerRequest: ['num', 'server CPU µs per request, from /__stats deltas (app: the process tree\'s, from /proc)'],
    burnUsPerRequest: ['num', 'BURN_US servers: the burn the server timed, µs per request'],
    rssMB: ['num', "the server's resident memory, MB"],
    elu: ['num', 'event-loop utilisation over the sample, from /__stats eluActiveMs and eluIdleMs deltas'],
    bytesPerSec: ['num', 'bytes read per second'],
    loadgenCpu: ['num', "the load generator's own CPU in the sample, share of one core"],
    loadCpu: [
      'num',
      "pair windows: the generator's CPU plus the services' (PostgreSQL, MariaDB, Redis, the downstream), share of " +
        'one CPU',
    ],
    share: ['num', "duet windows: this server's share of the server CPU(s)"],
    partnerRequests: ['int', "windows: the partner's requests in the window"],
    partnerCpuUsPerRequest: ['num', "windows: the partner's CPU µs per request"],
    partnerShare: ['num', "duet windows: the partner's share of the server CPU(s)"],
    wakeupsPerRequest: [
      'num',
      "windows: voluntary context switches of the server's main thread (the event loop going to sleep and being " +
        'woken) per request served, from /proc/<pid>/status; null where the process cannot be read. At saturation ' +
        'one wake-up serves many requests, at a fixed rate nearly one each, and its CPU is then part of every ' +
        "request's: why a strategy's CPU per request differs between duet and pair (docs/model.md)",
    ],
    partnerWakeupsPerRequest: ['num', "the partner's, likewise"],
    busyUsPerRequest: ['num', 'pair windows: µs an answer held its connection, send to answer (queue wait apart)'],
    partnerBusyUsPerRequest: ['num', "the partner's, likewise"],
    instanceUsPerRequest: [
      'num',
      "at the operating point: µs of an instance per request at whichever of the autoscaler's targets binds first " +
        '(lib/instances.js instanceUsPerRequest); analysis/operating-point.js reads the figure from it',
    ],
    partnerInstanceUsPerRequest: ['num', "the partner's, likewise"],
    bound: ['str', "at the operating point: the target that bound first, 'cpu' or 'concurrency'"],
    partnerBound: ['str', "the partner's, likewise"],
    counted: ['bool', 'windows: false: left out of every ratio'],
    dropped: ['str', 'why a window was not counted (a server not busy throughout, one behind its schedule, …)'],
    countedWindows: ['int', 'pair loads: the windows counted of the whole pair'],
    rate: ['num', 'rate mode, pair: requests per second sent (to each server of a pair)'],
    partnerRate: ['num', 'at the operating point: the rate the partner was sent'],
    due: ['int', 'pair loads: requests due over the whole pair'],
    sent: ['int', 'rate mode, pair loads: of the requests due, those that got onto a connection'],
    scheduled: ['int', 'rate mode: requests due in the window (rate × duration)'],
    heldRate: [
      'obj',
      'rate mode: { target, achieved, sentRatio (sent ÷ scheduled), achievedRatio (answered ÷ scheduled), held ' +
        '(both ≥ 0.99) }',
    ],
    schedule: ['obj', 'pair windows: { due, sent, answered, errors, backlog, inFlight }'],
    partnerSchedule: ['obj', "the partner's, likewise"],
    histogram: [
      'str',
      'rate mode, pair windows: every latency (µs) from its intended send time, HDR histogram (hdr-histogram-js ' +
        'encodeIntoCompressedBase64)',
    ],
    partnerHistogram: ['str', "the partner's, likewise"],
    partnerLatency: ['obj', "the partner's latency, ms"],
    lateness: ['obj', "pair windows: the generator's own lateness, ms ({ p50, p99, max })"],
    latenessHistogram: ['str', "the generator's lateness, HDR compressed base64"],
    sendLag: ['obj', 'rate mode: ms between intended and actual send ({ p50, p99, max })'],
    clientLag: ['obj', "rate mode: ms of the client's own lateness alone, part of every latency ({ p50, p99, max })"],
    engine: [
      'obj',
      "--driver artillery: Artillery's own counters and summary ({ name, version, vusersCreated, vusersFailed, kept, " +
        'responseTime })',
    ],
    instance: [
      'obj',
      "--instance: the cgroup's accounting in the window ({ cpuUsPerRequest, periods, throttled, throttledShare, " +
        'throttledMs, memoryPeakMB, oomKills })',
    ],
    partnerInstance: ['obj', "the partner's, likewise"],
    instructions: ['int', "instructions: callgrind's Ir in the window (all threads of the process)"],
    perRequest: ['num', 'instructions: instructions ÷ requests'],
    warnings: ['arr', 'lines about this sample (a server still busy after the burst, …), only when there is one'],
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
    exit: [
      'obj',
      '{ code, signal }; null for a deployed target; oom: { kills, peakBytes, limitBytes } when the memory limit ' +
        'killed it',
    ],
    dead: ['bool', 'true: it died mid-block (exit says how)'],
    warmup: [
      'arr',
      'the unmeasured warm-up, in order (bench/measure/warmup.js): sequential, bursts { rps, cpuUsPerRequest } until ' +
        'one is no more than 5% cheaper than the cheapest before it (3 to 10 bursts); duet, the half-windows of its ' +
        "group's warm-up { cpuUsPerRequest, requests }; instructions, one { requests, perRequest } per warm-up window",
    ],
    closedLoopWarmup: [
      'arr',
      'pair: req/s per 1-s closed-loop burst until it stopped rising (every pair of fresh processes, ladder or not; ' +
        'absent in older runs)',
    ],
    cgroup: ['str', "--instance: its stand-in's cgroup (ctxbench-<pid>-…)"],
    memoryPeakMB: ['num', "--instance: the cgroup's peak memory"],
    windowRequests: ['int', 'instructions: requests per window'],
    settled: [
      'bool',
      'instructions: false when the warm-up reached its limit before the last 6 windows were within ±2% of their ' +
        'median',
    ],
    windowStepPct: [
      'num',
      'instructions, a process held to settings.unsettledBound: (max − min) ÷ N of its measured windows, % of their ' +
        'mean',
    ],
  }),
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
    noise: ['obj', '{ before, after }: /proc/stat steal and idle, load average, CPU MHz'],
    fingerprint: [
      'obj',
      "machine speed from a short unmeasured burst at the start (null when remote, or with CTXBENCH_FINGERPRINT=0): " +
        '{ cpuUsPerRequest (server CPU µs per request of STRATEGY=none DEPTH=1 HOP=sync), rps, what (how, in words) }',
    ],
  }),
);

module.exports = { SAMPLE, PROCESS, ENVIRONMENT, closed, fields, notes, T };
