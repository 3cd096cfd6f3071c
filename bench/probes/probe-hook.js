'use strict';
// Loaded into a probe process (`node --require bench/probes/probe-hook.js`, or NODE_OPTIONS for a
// team's start command) by bench/probes/probe.js: counts every async resource the process
// creates (async_hooks init, by type) and, when a response to a request labelled with
// `x-ctxbench-probe: <label>` finishes, writes the counts so far to
// $CTXBENCH_PROBE_DIR/<pid>-<label>.json. Two labelled requests around N plain ones give
// the resources per request. An init hook changes what it observes (it turns on V8's
// promise hooks), so this runs only in a probe process, never in a measured one.
const dir = process.env.CTXBENCH_PROBE_DIR;

if (dir) {
  const { createHook } = require('node:async_hooks');
  const dc = require('node:diagnostics_channel');
  const fs = require('node:fs');
  const path = require('node:path');
  // Which runtime serves: the cost model that applies is the one of this Node and this
  // AsyncContextFrame mode (read before the counter is on, so it counts nothing).
  const { detectAsyncContextFrame } = require('../../lib/runtime');
  const runtime = {
    node: process.version,
    execPath: process.execPath,
    execArgv: process.execArgv,
    acf: detectAsyncContextFrame(),
  };
  const byType = Object.create(null);
  let total = 0;
  createHook({
    init(asyncId, type) {
      byType[type] = (byType[type] || 0) + 1;
      total++;
    },
  }).enable();
  let served = 0;
  dc.subscribe('http.server.response.finish', ({ request }) => {
    served++;
    const label = request.headers['x-ctxbench-probe'];
    if (typeof label !== 'string' || !/^[\w-]{1,40}$/.test(label)) return;
    const file = path.join(dir, `${process.pid}-${label}.json`);
    // Written whole, then renamed: the reader never sees half a file.
    fs.writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, label, served, total, byType, runtime }));
    fs.renameSync(`${file}.tmp`, file);
  });
}
