'use strict';
// Published figures users will compare ctxbench against. NOT our measurements.
// Every value is copied exactly, as text, from the seed write-up named in `seed`
// (the documents in ../shared/seeds/ the project grew from). Each was a single run per
// configuration, without repetition or confidence intervals.

const appEngineDepth = {
  key: 'appEngineDepth',
  title: 'Async-Hooks & Continuation Local-Storage (CLS) Performance Analysis (Google App Engine)',
  seed: '004_a422c839f9f49e0c.txt',
  setup:
    'Node.js v16 on Google App Engine; 100 batches of 100 concurrent requests (10,000 in all) with ' +
    '`xargs -I % -P 100 curl -X GET $URL`; average latency per call depth.',
  mapping:
    '"Baseline" = parameter passing (our `param`); "Async Hooks" = the `cls-hooked` library (our `cls-hooked`). ' +
    'Reproduce with the `depth-sweep` preset, on its instance with the `appengine-f1` preset (its own method on ' +
    'F1 stand-ins), or deployed: `load/curl.sh URL 10000 100`.',
  depths: [8, 16, 32, 256, 1024],
  columns: [
    'Latency (Call Depth 8)',
    'Latency (Call Depth 16)',
    'Latency (Call Depth 32)',
    'Latency (Call Depth 256)',
    'Latency (Call Depth 1024)',
  ],
  rows: [
    { label: 'Baseline', cells: ['3.4 ms', '7.4 ms', '7.6 ms', '8.3 ms', '13.7 ms'] },
    { label: 'Async Hooks', cells: ['6.5 ms', '7.7 ms', '7.9 ms', '10.5 ms', '17.1 ms'] },
    // `reads` is ours, not the seed's: the row's direction in words, shown beside its label.
    {
      label: 'Impact (-)',
      cells: ['91.2%', '3.4%', '3.9%', '26.5%', '24.8%'],
      reads: "latency added, as % of Baseline's; above 0% costs more",
    },
  ],
};

const alsContext = {
  key: 'alsContext',
  title: 'Simple Benchmark for als-context, cls-hooked & AsyncLocalStorage',
  seed: '003_eb52547452683725.txt',
  setup: "autocannon, 10 connections, 10 s test, one run per server on the author's machine (not stated).",
  mapping:
    '`request` = our `param`; `AsyncLocalStorage` = `als`; `alscontext` (CLS part) = `alscontext`; ' +
    '`cls-hooked` = `cls-hooked`. Reproduce with the `libraries` preset.',
  columns: ['Req/Sec Avg', 'Req/Sec 50%', 'Latency Avg', 'Latency 99%', 'Total'],
  rows: [
    {
      label: 'Using `request` to pass context',
      strategy: 'param',
      cells: ['6514.64', '6855', '1.13ms', '3ms', '72k requests in 11.03s, 18.8 MB read'],
    },
    {
      label: 'Using `AsyncLocalStorage` to pass context',
      strategy: 'als',
      cells: ['6815.73', '7211', '1.1ms', '3ms', '75k requests in 11.02s, 19.6 MB read'],
    },
    {
      label: 'Using `alscontext` (CLS part) to pass context',
      strategy: 'alscontext',
      cells: ['5991.10', '6455', '1.2ms', '4ms', '60k requests in 10.02s, 15.7 MB read'],
    },
    {
      label: 'Using `cls-hooked` to pass context',
      strategy: 'cls-hooked',
      cells: ['3893.82', '4171', '2.22ms', '6ms', '43k requests in 11.03s, 11.2 MB read'],
    },
  ],
};

const platformatic = {
  key: 'platformatic',
  title: 'The Hidden Cost of Context (Platformatic; github.com/platformatic/async-local-storage-perf-node-24)',
  seed: '001_ed13693b7bd7bacc.txt',
  alsoSeed: '000_b75dbca66edf891e.txt',
  setup:
    'Intel(R) Core(TM) i7-7700 CPU @ 3.60GHz (4 cores, 8 threads), 62 GB RAM, Linux 5.15.0-140-generic; ' +
    '`npx autocannon -c 100 -p 10 -d 10 -W [ -c 100 -d 5]`: 100 connections, pipelining 10, 10 s after a 5 s warmup.',
  mapping:
    'Baseline = plain `http` server (our `http` framework, `none`); AsyncLocalStorage = `http` + `als`; ' +
    'Fastify Base = `fastify` + `none`; Fastify + Full OTel = `fastify` + `otel-full`; Fastify + Selective OTel = ' +
    '`fastify` + `otel-selective`. Those two rows traced every request (their spans went to an OTLP endpoint ' +
    'where nothing ' +
    "listened); ctxbench's plain `otel` strategy uses only the OpenTelemetry context API. Reproduce with the " +
    '`frameworks` preset.',
  columns: ['Requests/sec (Avg)', 'Latency (P99)', 'Performance vs Baseline'],
  tables: [
    {
      node: 'Node.js v24.4.1',
      rows: [
        { label: 'Baseline', cells: ['57,301', '26ms', '100%'] },
        { label: 'AsyncLocalStorage', cells: ['53,450', '30ms', '93.3%'] },
        { label: 'Fastify Base', cells: ['56,167', '25ms', '98.0%'] },
        { label: 'Fastify + Full OTel', cells: ['10,640', '104ms', '18.6%'] },
        { label: 'Fastify + Selective OTel', cells: ['20,568', '87ms', '35.9%'] },
      ],
    },
    {
      node: 'Node.js v22.17.1',
      rows: [
        { label: 'Baseline', cells: ['56,446', '30ms', '100%'] },
        { label: 'AsyncLocalStorage', cells: ['50,913', '30ms', '90.2%'] },
        { label: 'Fastify Base', cells: ['56,737', '26ms', '100.5%'] },
        { label: 'Fastify + Full OTel', cells: ['9,931', '136ms', '17.6%'] },
        { label: 'Fastify + Selective OTel', cells: ['20,051', '92ms', '35.5%'] },
      ],
    },
  ],
};

// Which published study a preset reproduces.
const byPreset = {
  'depth-sweep': ['appEngineDepth'],
  'appengine-f1': ['appEngineDepth'],
  libraries: ['alsContext'],
  frameworks: ['platformatic'],
  default: [],
};

module.exports = {
  appEngineDepth,
  alsContext,
  platformatic,
  byPreset,
  all: [appEngineDepth, alsContext, platformatic],
};
