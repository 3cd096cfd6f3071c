'use strict';
// The two CPUs a local run uses: the load generator's (with PostgreSQL and the
// downstream service) and the servers'. Default 0 and 1; CTXBENCH_CPUS=1,0 swaps them,
// e.g. for a second run beside the first. CTXBENCH_CPUS=none pins nothing (the run records
// taskset false): for the test suite, whose runs assert structure, not timing, and whose
// files run several at a time (pinned, they would queue on one CPU while the other idles).
const os = require('node:os');
const { UsageError } = require('./cli');

function readCpus(value = process.env.CTXBENCH_CPUS, count = os.cpus().length) {
  if (value === undefined || value === '') return { loadgen: 0, server: 1 };
  if (value === 'none') return null;
  const m = /^(\d+),(\d+)$/.exec(value);
  const [loadgen, server] = m ? [Number(m[1]), Number(m[2])] : [];
  if (!m || loadgen === server || Math.max(loadgen, server) >= count) {
    throw new UsageError(
      `CTXBENCH_CPUS=${value} is not valid; expected two different CPUs of the ${count} here, load generator ` +
        `first (e.g. 0,1), or none`,
    );
  }
  return { loadgen, server };
}

let cached = null;
const cpus = () => (cached ??= readCpus());

module.exports = { cpus, readCpus };
