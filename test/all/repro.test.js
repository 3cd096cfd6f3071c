'use strict';
// Tier: all (needs PostgreSQL: repro's end-to-end run of two rate-mode runs with HOP=pg)
// `ctxbench repro` measures what `run` measures, twice (test/repro.test.js has the
// statistics, --compare, and the quick tier's real repro, interrupted, in test/interrupt.test.js).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { tempDir } = require('../helpers/tmp');

test(
  'ctxbench repro measures what run measures: rate mode and HOP=pg (its own PostgreSQL) in both runs',
  { timeout: 600_000 },
  async () => {
    const { runCli } = require('../helpers/cli');
    const dir = tempDir('ctxbench-repro-pg-');
    const out = path.join(dir, 'repro-pg.json');
    try {
      const r = await runCli(
        [
          'repro',
          '--strategies',
          'none,als',
          '--depths',
          '8',
          '--hops',
          'pg',
          '--baseline',
          'none',
          '--rate',
          '100',
          '--windows',
          '2',
          '--window',
          '0.2',
          '--warmup',
          '0.2',
          '--blocks',
          '3',
          '--out',
          out,
        ],
        { timeoutMs: 580_000 },
      );
      assert.strictEqual(r.code, 0, r.stderr);
      const saved = JSON.parse(fs.readFileSync(out, 'utf8'));
      assert.strictEqual(saved.runs.length, 2);
      for (const run of saved.runs) {
        assert.deepStrictEqual(run.settings.rates, [100], 'open loop, as run --rate');
        assert.strictEqual(run.learned.postgres, 'embedded', 'its own PostgreSQL, as run --hops pg');
        for (const c of run.configs) {
          assert.strictEqual(c.error, null, `${c.id}: ${c.error?.message}`);
          assert.strictEqual(c.hop, 'pg');
          // Rate mode is measured in pairs: a pair sample per block and partner (the baseline
          // has two: the candidate and its A/A twin), what was sent counted against what was due
          // (whether a busy machine let the generator send it all is a benchmark's question).
          const blocks = c.samples.filter((x) => x.kind === 'pair');
          assert.deepStrictEqual([...new Set(blocks.map((b) => b.block))], [0, 1, 2], c.id);
          assert.ok(
            blocks.every((b) => b.rate === 100 && b.due > 0 && b.sent > 0 && b.sent <= b.due && b.errors === 0),
            `${c.id}: ${JSON.stringify(blocks.map((b) => [b.rate, b.due, b.sent, b.errors]))}`,
          );
        }
      }
      // Fresh processes: the second run's servers are not the first run's.
      const nonces = (run) => new Set(run.configs.flatMap((c) => c.processes.map((x) => x.nonce)));
      const [na, nb] = saved.runs.map(nonces);
      assert.ok(na.size > 0);
      for (const n of na) assert.ok(!nb.has(n), `process ${n} reused`);
      assert.strictEqual(saved.status, 'complete');
      assert.ok(saved.repro && Array.isArray(saved.repro.rows), 'the two runs compared');
      assert.deepStrictEqual(fs.readdirSync(dir), ['repro-pg.json'], 'the per-run progress files are gone');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);
