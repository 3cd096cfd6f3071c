'use strict';
// A run's async resources per request, point by point: for every framework, depth, hop,
// store count and runtime the run measured, one probe process of the baseline's server
// (bench/probes/probe.js: an async_hooks init counter preloaded, never in a measured process),
// loaded at the run's connections. What the cost model (analysis/model.js) calls R: the
// resources a request of the service creates, whatever strategy is then added to it.
const fs = require('node:fs');
const { startServer } = require('../processes/server-process');
const { probeEnv, countResources, makeDir } = require('./probe');
const { pointKey, pointName } = require('../../analysis/model');
const { armOf } = require('../../analysis/comparable');

const PROBE = { requests: 1000, warmup: 300 };

// configs: the run's configurations (each with its launch, bench/run/matrix.js or
// bench/run/resume.js relaunch) -> [{ nodeLabel, node, framework, depth, hop, stores, strategy,
// requests, concurrency, perRequest: { total, byType }, pid }], one per point, in order.
async function probePoints(
  configs,
  { baseline = 'none', concurrency = 10, onPoint = () => {}, stop = { requested: false } } = {},
) {
  const seen = new Set();
  const points = configs.filter(
    (c) => !c.target && armOf(c) === baseline && !seen.has(pointKey(c)) && seen.add(pointKey(c)),
  );
  const out = [];
  for (const [i, c] of points.entries()) {
    if (stop.requested) break;
    onPoint({ index: i, total: points.length, config: c });
    const dir = makeDir();
    const server = await startServer(c, {
      nodePath: c.launch?.nodePath,
      nodeArgs: c.launch?.nodeArgs ?? [],
      env: probeEnv(dir),
    });
    try {
      const counted = await countResources({
        url: `${server.url}/`,
        dir,
        requests: PROBE.requests,
        concurrency,
        warmup: PROBE.warmup,
      });
      out.push({
        nodeLabel: c.nodeLabel,
        node: c.node,
        framework: c.framework,
        depth: c.depth,
        hop: c.hop,
        stores: c.stores ?? 0,
        strategy: c.strategy,
        ...counted,
      });
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

// The run's configurations at points without a count: a study resumed with new points
// (bench/run/resume.js joinNewConfigs) keeps the counts it has and gains theirs.
const unprobed = (run) => {
  const counted = new Set((run.probes || []).map(pointKey));
  return run.configs.filter((c) => !c.target && !counted.has(pointKey(c)));
};

// Counts the points of `run` (its configs carry their launch) without a count, or every
// point with `all` (the count replaces the run's), and stores them on it.
async function probeRun(run, { log = (line) => process.stderr.write(`ctxbench: ${line}\n`), stop, all = false } = {}) {
  const kept = all ? [] : run.probes || [];
  const fresh = await probePoints(all ? run.configs : unprobed(run), {
    baseline: run.settings?.baseline,
    concurrency: run.settings?.connections ?? 10,
    stop,
    onPoint: ({ index, total, config }) =>
      log(`probe ${index + 1}/${total}: ${config.framework} ${pointName(config)} on ${config.nodeLabel}`),
  });
  run.probes = [...kept, ...fresh];
  return run.probes;
}

module.exports = { probePoints, probeRun, unprobed, PROBE };
