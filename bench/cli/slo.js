'use strict';
// The latency bound and CPU target of a stand-in, as `run`, `deploy` and `app` take them
// (--slo, --target-cpu, the SLO ladders): one parser each, so the commands read them alike.
const { UsageError } = require('../../lib/cli');
const { setting } = require('../../lib/settings');

const DEFAULT_SLO = 'p99=100ms';
// Where a capacity within the SLO is looked for when no --load or --rate is given: these
// shares of the baseline stand-in's own closed-loop capacity.
// An SLO ladder's rates: fractions of the open-loop knee in a pair (it crosses the knee:
// a deployment's crossing lies between two rungs), of the closed-loop capacity one at a time.
const SLO_LOADS = [0.25, 0.5, 0.75, 1, 1.25, 1.5];
const SEQUENTIAL_SLO_LOADS = [0.25, 0.5, 0.7, 0.85, 1];

// App Engine's automatic scaling holds target_cpu_utilization, 0.6 unless the yaml sets it
// (app.yaml reference: 0.5–0.95).
const DEFAULT_TARGET_CPU = 0.6;

// The stand-in's settings (lib/settings.js), in --help after --instance (run, app).
const STAND_IN_SETTINGS = ['cfs-period', 'cfs-burst', 'slo', 'target-cpu'];

// 'p99=100ms' -> { key: 'p99', boundMs: 100, text }. One line on anything else.
function parseSlo(value) {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return value;
  const m = /^(p50|p90|p99|p99\.9)=(\d+(?:\.\d+)?)(ms|s)$/.exec(String(value).trim());
  if (!m || !(Number(m[2]) > 0))
    throw new UsageError(
      `--slo ${value} is not valid; expected a percentile and a bound such as p99=100ms (p50, p90, p99 or ` +
        `p99.9; ms or s)`,
    );
  const boundMs = Number(m[2]) * (m[3] === 's' ? 1000 : 1);
  return { key: m[1] === 'p99.9' ? 'p99_9' : m[1], boundMs, text: `${m[1]} ≤ ${boundMs} ms` };
}

// --target-cpu '0.6' or '60%' -> the share, undefined when not given (`run`, `app`).
function parseTargetCpu(value) {
  const raw = value === undefined ? undefined : String(value).trim();
  const share = raw?.endsWith('%') ? String(Number(raw.slice(0, -1)) / 100) : raw;
  return setting('target-cpu', share);
}

module.exports = {
  DEFAULT_SLO,
  SLO_LOADS,
  SEQUENTIAL_SLO_LOADS,
  DEFAULT_TARGET_CPU,
  STAND_IN_SETTINGS,
  parseSlo,
  parseTargetCpu,
};
