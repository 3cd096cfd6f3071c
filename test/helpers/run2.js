'use strict';
// Synthetic schema-2 runs for the statistics, compare and report tests: blocks of fresh
// processes, adjacent pairs (B X B Y ...) recorded in pairSeq, a known true ratio per
// strategy and a known per-block (process) effect. Seeded, so every run draws the same.
const random = require('./random');

// An empty configuration of the default matrix (express, HOP=immediate, Node 24) to fill.
const syntheticConfig = (strategy, depth) => ({
  id: `express/${strategy}/d${depth}/immediate/node24`,
  framework: 'express',
  strategy,
  depth,
  hop: 'immediate',
  node: 'v24.0.0',
  acf: false,
  status: 'ok',
  error: null,
  processes: [],
  samples: [],
});

// makeRun2({ seed, blocks, rounds, strategies: { name: trueRatio }, blockSd, noiseSd,
//   baseRps, depth, extra: { name: sampleFields } }) -> run JSON (schema 2)
function makeRun2({
  seed = 1,
  blocks = 4,
  rounds = 6,
  strategies = { als: 0.9 },
  blockSd = 0.02,
  noiseSd = 0.03,
  baseRps = 10000,
  depth = 8,
  extra = {},
} = {}) {
  const { normal } = random.rng(seed);
  const mk = (strategy) => syntheticConfig(strategy, depth);
  const base = mk('none');
  const others = Object.keys(strategies).map(mk);
  let seq = 0;
  for (let block = 0; block < blocks; block++) {
    // One process per config per block: its effect is shared by all of its samples.
    const effect = new Map([base, ...others].map((c) => [c.id, blockSd * normal()]));
    for (const c of [base, ...others])
      c.processes.push({ block, pid: 1000 + seq, nonce: `n${block}`, exit: null, dead: false });
    for (let r = 0; r < rounds; r++) {
      const round = block * rounds + r;
      for (const c of others) {
        const drift = 0.05 * normal(); // shared by the adjacent pair
        const bs = {
          block,
          round,
          seq: seq++,
          pairSeq: null,
          windowMs: 1000,
          rps: baseRps * Math.exp(drift + effect.get(base.id) + noiseSd * normal()),
          cpuUsPerRequest: 100,
          loadgenCpu: 0.5,
          mismatches: 0,
          lost: 0,
        };
        bs.cpuUsPerRequest = 1e6 / bs.rps / 1.0;
        base.samples.push(bs);
        const truth = strategies[c.strategy];
        const xs = {
          block,
          round,
          seq: seq++,
          pairSeq: bs.seq,
          windowMs: 1000,
          rps: baseRps * truth * Math.exp(drift + effect.get(c.id) + noiseSd * normal()),
          loadgenCpu: 0.5,
          mismatches: 0,
          lost: 0,
          ...(extra[c.strategy] || {}),
        };
        xs.cpuUsPerRequest = xs.cpuUsPerRequest ?? 1e6 / xs.rps;
        c.samples.push(xs);
      }
    }
  }
  return {
    schema: 2,
    kind: 'run',
    status: 'complete',
    title: 'synthetic schema 2',
    settings: { blocks, rounds, baseline: 'none', minPerConnection: 30, duration: 1 },
    environment: { fingerprint: { cpuUsPerRequest: 50, rps: 20000, what: 'none d1 sync' } },
    configs: [base, ...others],
  };
}

module.exports = { makeRun2, syntheticConfig };
