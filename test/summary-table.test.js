'use strict';
// Tier: quick (report --csv/--json end to end on the committed default run)
// `ctxbench report --csv/--json`: the summary table out of ctxbench, one row per
// configuration, columns as docs/run-json.md lists them.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runCli } = require('./helpers/cli');
const { COLUMNS } = require('../report/summary-table');
const { tempDir } = require('./helpers/tmp');

// Real runs, frozen for the tests (test/fixtures/results/README.md).
const RESULTS = path.join(__dirname, 'fixtures', 'results');

// A CSV line -> cells (quotes doubled inside quoted cells).
function parseCsvLine(line) {
  const cells = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted && ch === '"' && line[i + 1] === '"') {
      cur += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      cells.push(cur);
      cur = '';
    } else cur += ch;
  }
  return [...cells, cur];
}

test(
  'report --csv and --json: one row per configuration ' + 'of the committed default run, the documented columns',
  async () => {
    const dir = tempDir('ctxbench-csv-');
    const csv = path.join(dir, 'summary.csv');
    const json = path.join(dir, 'summary.json');
    const file = path.join(RESULTS, 'default.json');
    const r = await runCli(['report', file, '--out', path.join(dir, 'r.md'), '--csv', csv, '--json', json]);
    assert.strictEqual(r.code, 0, r.stderr);
    const run = JSON.parse(fs.readFileSync(file, 'utf8'));
    const lines = fs.readFileSync(csv, 'utf8').trimEnd().split('\n');
    assert.deepStrictEqual(lines[0].split(','), COLUMNS);
    assert.strictEqual(lines.length - 1, run.configs.length);
    const rows = lines.slice(1).map((l) => Object.fromEntries(parseCsvLine(l).map((v, i) => [COLUMNS[i], v])));
    for (const row of rows)
      assert.strictEqual(Object.keys(row).length, COLUMNS.length, 'no cell split by a comma inside it');
    const als = rows.find((x) => x.strategy === 'als' && x.depth === '8');
    const config = run.configs.find((c) => c.id === als.id);
    assert.ok(Math.abs(Number(als.ratio) - config.summary.ratio.estimate) < 1e-5);
    assert.ok(Number(als.ratio_ci95_low) <= Number(als.ratio) && Number(als.ratio) <= Number(als.ratio_ci95_high));
    assert.strictEqual(als.verdict, config.summary.ratio.verdict);
    assert.strictEqual(als.method, 'duet');
    assert.strictEqual(rows.find((x) => x.id.endsWith('/aa')).aa_twin, 'true');
    assert.strictEqual(rows.find((x) => x.id === run.configs[0].id).verdict, 'baseline');
    assert.ok(Number(rows.find((x) => x.strategy === 'global').mismatches) > 0, "the control's leak is in the table");
    const doc = JSON.parse(fs.readFileSync(json, 'utf8'));
    assert.deepStrictEqual([doc.kind, doc.columns, doc.rows.length], ['summary', COLUMNS, run.configs.length]);
    assert.strictEqual(doc.rows.find((x) => x.id === als.id).ratio, config.summary.ratio.estimate);
  },
);

test('report --csv of files without a run: one line, exit 1', async () => {
  const r = await runCli([
    'report',
    path.join(RESULTS, 'integrity.json'),
    '--out',
    path.join(os.tmpdir(), 'x.md'),
    '--csv',
    path.join(os.tmpdir(), 'x.csv'),
  ]);
  assert.strictEqual(r.code, 1);
  assert.match(r.stderr, /--csv\/--json: none of the files is a run/);
});
