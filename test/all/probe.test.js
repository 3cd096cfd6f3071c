'use strict';
// Tier: all (long real runs: the probe on ctxbench's own server
// at two depths, and app --probe's duet run with its probes)
// The async-resource probe (bench/probes/probe.js, bench/probes/probe-hook.js) on ctxbench's own server
// and through `ctxbench app --probe`. Compared to 2 decimals (test/probe.test.js says why;
// it has the probe on a fixture whose work is known and a server without the hook).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { FIXTURE, round, probeDir, probe } = require('../helpers/probe');

const ROOT = path.join(__dirname, '..', '..');
test(
  "on ctxbench's own server: 8 levels more of HOP=immediate are 8 Immediate more per request",
  { timeout: 120000 },
  async (t) => {
    const app = (depth) =>
      `STRATEGY=none DEPTH=${depth} HOP=immediate "${process.execPath}" "${path.join(ROOT, 'app.js')}"`;
    const d8 = await probe(t, app(8), { health: '/healthz' });
    const d16 = await probe(t, app(16), { health: '/healthz' });
    assert.strictEqual(
      round(d16.perRequest.byType.Immediate - d8.perRequest.byType.Immediate),
      8,
      JSON.stringify({ d8, d16 }),
    );
    assert.ok(d16.perRequest.total > d8.perRequest.total + 8, 'each level also awaits a promise');
  },
);

test(
  'ctxbench app --probe: each side counted in a probe process after the measured blocks; ' +
    "the candidate's 5 setImmediate read as Immediate +5, on the terminal and the page",
  { timeout: 600000 },
  async (t) => {
    const { runCli } = require('../helpers/cli');
    const dir = probeDir(t);
    const out = path.join(dir, 'app.json');
    const cmd = (n) => `IMMEDIATES=${n} "${process.execPath}" "${FIXTURE}"`;
    const r = await runCli([
      'app',
      '--baseline',
      cmd(0),
      '--candidate',
      cmd(5),
      '--names',
      'plain,hopping',
      '--probe',
      '--blocks',
      '3',
      '--windows',
      '1',
      '--window',
      '0.2',
      '--warmup',
      '0.2',
      '--out',
      out,
      '--report',
      'none',
    ]);
    assert.strictEqual(r.code, 0, r.stderr);
    const run = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.deepStrictEqual(
      run.probe.sides.map((s) => [s.name, s.path, s.requests, s.concurrency]),
      [
        ['plain', '/', 2001, 10],
        ['hopping', '/', 2001, 10],
      ],
    );
    // The probe processes are not the measured ones.
    const measured = new Set(run.configs.flatMap((c) => c.processes.map((p) => p.pid)));
    for (const s of run.probe.sides) assert.ok(!measured.has(s.pid), `${s.name}: probed in a process of its own`);
    assert.strictEqual(round(run.app.probe.added.byType.Immediate), 5, JSON.stringify(run.app.probe));
    assert.strictEqual(
      round(run.app.probe.added.total),
      round(run.probe.sides[1].perRequest.total - run.probe.sides[0].perRequest.total),
    );
    const [base, cand] = run.probe.sides;
    const said =
      `Async resources per request (probe process, not measured): ` +
      `plain ${base.perRequest.total.toFixed(1)}, ` +
      `hopping ${cand.perRequest.total.toFixed(1)} (+` +
      `${run.app.probe.added.total.toFixed(1)}: Immediate +5.0`;
    assert.ok(r.stdout.includes(said), r.stdout);
    const report = path.join(dir, 'results.md');
    assert.strictEqual((await runCli(['report', out, '--out', report, '--no-html'])).code, 0);
    assert.ok(fs.readFileSync(report, 'utf8').includes(said));
    assert.match(
      fs.readFileSync(report, 'utf8'),
      new RegExp(
        String.raw`\)\. Counted with an async_hooks init counter preloaded through ` +
          String.raw`NODE_OPTIONS into one more process of each side \(2,001 requests ` +
          'on `/` at 10 in flight\\), never into a measured one\\.',
      ),
    );
  },
);
