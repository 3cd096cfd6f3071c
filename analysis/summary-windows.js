'use strict';
// The ratios of windows measured side by side, for analysis/summary.js: a duet's or a pair's
// CPU per request (bench/measure/duet-windows.js) and an instruction count's (callgrind), each with
// its method in words.

const { median, twoLevel, positive } = require('./stats');

// duetRatios(windows) -> the ratios of a duet-measured config to its partner, from the
// windows that counted, with the group (one pair of fresh processes per block) as the
// unit: log ratios averaged per block, t-interval over blocks (twoLevel).
//   ratio:  partner's CPU µs per request ÷ this one's, read like throughput (93% = costs
//           7% more CPU per request): summary.ratio, the figure the verdict is on;
//   shared: this one's requests ÷ the partner's in the same windows (throughput on the
//           shared CPU; equal to the ratio only when both got the same CPU share).
function duetRatios(windows) {
  const counted = (windows || []).filter(
    (w) => w && w.counted && positive(w.cpuUsPerRequest) && positive(w.partnerCpuUsPerRequest),
  );
  const ratio = twoLevel(
    counted.map((w) => ({ block: w.block, d: Math.log(w.partnerCpuUsPerRequest) - Math.log(w.cpuUsPerRequest) })),
  );
  const shared = twoLevel(
    counted
      .filter((w) => positive(w.requests) && positive(w.partnerRequests))
      .map((w) => ({ block: w.block, d: Math.log(w.requests) - Math.log(w.partnerRequests) })),
  );
  return { ratio, shared, counted: counted.length, dropped: (windows || []).filter((w) => w && !w.counted).length };
}

// Instruction-count windows (bench/measure/instruction-windows.js) are samples of kind 'instructions':
// per window, the requests served and the instructions executed (callgrind, Ir).
const isInstructionWindow = (s) => Boolean(s) && s.kind === 'instructions' && positive(s.perRequest);

// Instructions per request of each process (block) of a config: its windows' instructions
// over their requests. -> Map(block -> { perRequest, windows: Map(index -> perRequest) }).
function instructionProcesses(samples) {
  const byBlock = new Map();
  for (const s of (samples || []).filter(isInstructionWindow)) {
    if (!byBlock.has(s.block)) byBlock.set(s.block, { instructions: 0, requests: 0, windows: new Map() });
    const b = byBlock.get(s.block);
    b.instructions += s.instructions;
    b.requests += s.requests;
    b.windows.set(s.window, s.perRequest);
  }
  return new Map([...byBlock].map(([k, b]) => [k, { perRequest: b.instructions / b.requests, windows: b.windows }]));
}

// The instruction level of a config: the median over processes of each one's instructions
// per request, with the spread between processes ((max - min) / median, in percent).
function instructionLevel(samples) {
  const per = [...instructionProcesses(samples).values()].map((p) => p.perRequest);
  if (!per.length) return null;
  const mid = median(per);
  return { median: mid, processes: per.length, spreadPct: ((Math.max(...per) - Math.min(...per)) / mid) * 100 };
}

// A spread below this (in percent of the ratio) is the instruction count's own
// repeatability from process to process (docs/investigations.md, "A bound instead of 24
// windows"): a ratio whose windows all
// fall within it needs no interval to be read.
const INSTRUCTION_SPREAD_OK = 0.5;

// A config's warm-up length per block (its process records): windows of the same index
// are at the same request index only in processes with the same warm-up.
function warmupSchedule(config) {
  return new Map(
    (config?.processes || []).filter((p) => Array.isArray(p.warmup)).map((p) => [p.block, p.warmup.length]),
  );
}

// instructionRatio(cfgSamples, baseSamples, { cfgSchedule, baseSchedule }) -> the ratio
// read like throughput (baseline instructions per request ÷ this config's: 95% = executes
// 5.3% more instructions). In a block whose two processes warmed up for the same number
// of windows, window i is compared with window i (the same request index: comparable even
// where the count had not settled); where one process settled earlier, the two processes'
// means are compared and the range spans every pair of their windows (sameSchedule false).
// range = [lowest, highest] window ratio, spreadPct = half the range in percent of the estimate.
function instructionRatio(cfgSamples, baseSamples, { cfgSchedule = new Map(), baseSchedule = new Map() } = {}) {
  const cfg = instructionProcesses(cfgSamples);
  const base = instructionProcesses(baseSamples);
  const ps = [];
  const ratios = [];
  let sameSchedule = true;
  for (const [block, p] of cfg) {
    const b = base.get(block);
    if (!b) continue;
    if (cfgSchedule.get(block) === baseSchedule.get(block)) {
      for (const [index, perRequest] of p.windows) {
        if (!b.windows.has(index)) continue;
        ps.push({ block, d: Math.log(b.windows.get(index)) - Math.log(perRequest) });
        ratios.push(b.windows.get(index) / perRequest);
      }
    } else {
      sameSchedule = false;
      ps.push({ block, d: Math.log(b.perRequest) - Math.log(p.perRequest) });
      for (const x of b.windows.values()) for (const y of p.windows.values()) ratios.push(x / y);
    }
  }
  const r = twoLevel(ps);
  if (r.estimate === null) return { ...r, range: null, spreadPct: null, sameSchedule };
  const range = [Math.min(...ratios), Math.max(...ratios)];
  return { ...r, range, spreadPct: ((range[1] - range[0]) / 2 / r.estimate) * 100, sameSchedule };
}

module.exports = {
  duetRatios,
  instructionProcesses,
  instructionLevel,
  INSTRUCTION_SPREAD_OK,
  warmupSchedule,
  instructionRatio,
};
