'use strict';
// The micro tests' planted strategy (test/micro.test.js, test/all/micro.test.js), with a known
// cost: every current() busy-waits 20 µs, and it is otherwise correct (the id travels on the
// request, as with `param`). Loaded through the test-only CTXBENCH_MICRO_EXTRA hook
// (micro/strategies.js).
const fs = require('node:fs');
const path = require('node:path');

const PLANTED_SLOW = `'use strict';
const BURN_NS = 20000n;
module.exports = {
  run: (id, fn) => fn(),
  current(req) {
    const end = process.hrtime.bigint() + BURN_NS;
    while (process.hrtime.bigint() < end);
    return req.traceId;
  },
};
`;

// Writes it into dir as planted-slow.js; returns the environment a CLI run needs to load it.
function plantSlow(dir) {
  const file = path.join(dir, 'planted-slow.js');
  fs.writeFileSync(file, PLANTED_SLOW);
  return { CTXBENCH_MICRO_EXTRA: file };
}

module.exports = { plantSlow };
