'use strict';
// Tier: all (no system tool, but a real pair run at a rate nothing here serves: 3 blocks,
// the fewest a pair takes, of 2 windows of 0.2 s)
// A rate far beyond what the machine serves: the run's end says that the baseline cannot
// serve it (not "not enough samples" for the A/A twin beside it) and how late the load
// generator itself was (the progress lines print it per window; the end must too).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli } = require('../helpers/cli');
const { tempDir } = require('../helpers/tmp');

test(
  "run --rate beyond the machine: the end says the baseline cannot serve it, and the generator's lateness",
  { timeout: 300000 },
  async () => {
    const dir = tempDir('ctxbench-rate-beyond-');
    const out = path.join(dir, 'beyond.json');
    const r = await runCli([
      'run',
      '--strategies',
      'none',
      '--depths',
      '8',
      '--hops',
      'immediate',
      '--rate',
      '80000',
      '--blocks',
      '3',
      '--windows',
      '2',
      '--window',
      '0.2',
      '--warmup',
      '0.2',
      '--out',
      out,
      '--report',
      'none',
    ]);
    assert.ok(r.code === 0 || r.code === 1, `${r.code}: ${r.stderr}`);
    const end = `${r.stdout}\n${r.stderr}`;
    assert.match(end, /^none\s+8\s+cannot serve 80,000 req\/s\s+baseline: sent \d+% of its due requests/m, end);
    assert.match(end, /^none \(A\/A twin\)\s+8\s+—\s+baseline did not hold the rate: no comparison/m, end);
    assert.match(end, /^none cannot serve 80,000 req\/s here: no comparison at that rate/m, end);
    assert.match(
      end,
      /^The load generator's own lateness p99 at that rate: [\d.,]+(–[\d.,]+)? ms per window \((over|within) 1 ms/m,
      end,
    );
    assert.doesNotMatch(end, /not enough samples/);
    fs.rmSync(dir, { recursive: true, force: true });
  },
);
