'use strict';
// Tier: quick (scripts/check-direction.js over fixture pages and a synthetic run's report in a temp dir)
// Every % of the baseline reads one way, below 100% costs more (issue 75): the check finds a
// ratio labelled or computed the cost way, and leaves the seeds' quoted figures, fenced code
// and absolute counts alone; the report of a sequential run passes it.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { check, findings } = require('../scripts/check-direction');
const { buildReport } = require('../report');
const { makeRun2 } = require('./helpers/run2');
const { tempDir } = require('./helpers/tmp');

const HEADER = '| Strategy | % of `none` [95% CI] | Verdict | CPU/req vs `none` [95% CI] | CPU µs/req |';
const RULE = '| --- | ---: | --- | ---: | ---: |';
const row = (throughput, cpu) => `| \`otel\` | ${throughput} | 70.7% slower, significant | ${cpu} | 47.1 |`;

test('a % column headed the cost way is found, with its line', () => {
  const page = ['# p', '', '| Strategy | CPU/req vs `none` (higher = costlier) [95% CI] |', '| --- | ---: |'];
  const found = findings(page.join('\n'));
  assert.strictEqual(found.length, 1);
  assert.strictEqual(found[0].line, 3);
  assert.match(found[0].what, /labelled the cost way/);
  const costlier = ['| Strategy | % costlier than `none` |', '| --- | ---: |', '| `als` | 12.0% |'];
  assert.strictEqual(findings(costlier.join('\n')).length, 1);
});

test('a note that explains a ratio the cost way is found', () => {
  const note = '*CPU/req vs baseline* is the same paired ratio of server CPU µs per request (higher = costlier).';
  assert.match(findings(`# p\n\n${note}\n`)[0].what, /explained the cost way/);
  assert.strictEqual(findings('the same of CPU per request (> 1 = costlier)').length, 1);
});

test('a CPU ratio computed the cost way beside throughput is found on its row', () => {
  const page = [HEADER, RULE, row('29.3% [28.3%–30.4%]', '340.0% [327.8%–352.5%]')].join('\n');
  const found = findings(page);
  assert.strictEqual(found.length, 1);
  assert.strictEqual(found[0].line, 3);
  assert.match(found[0].what, /340\.0%.*29\.3%.*computed the cost way/);
});

test('the same figures turned one way, or within 20% of 100%, pass', () => {
  const header = HEADER.replace('CPU/req vs `none`', '% of `none`: CPU/req, below 100% costs more');
  assert.deepStrictEqual(findings([header, RULE, row('29.3% [28.3%–30.4%]', '29.4% [28.4%–30.5%]')].join('\n')), []);
  // Near 100% the two may differ by noise: no row is called turned there.
  assert.deepStrictEqual(findings([HEADER, RULE, row('97.4% [93.2%–101.7%]', '102.3%')].join('\n')), []);
  // A signed change is not a % of the baseline; a multiplier is not a %.
  const changes = ['| Scenario | Gain, Node 24 vs 22 | Instances: strategy / `none` |', '| --- | ---: | ---: |'];
  assert.deepStrictEqual(findings([...changes, '| a | +245.4% | 1.69 [1.45–1.97] |'].join('\n')), []);
});

test("the seeds' quoted figures, fenced code and a gate's threshold are not checked", () => {
  const page = [
    '### Results',
    '',
    'FAIL (exit 1): 1 config(s) more than 1% costlier in instructions per request',
    '',
    '```sh',
    'echo "(higher = costlier)"',
    '```',
    '',
    '### Published references (not our measurements)',
    '',
    '| | Latency (Call Depth 8) | Impact vs Baseline (higher = costlier) |',
    '| --- | ---: | ---: |',
    '| Impact (-) | 91.2% | 340.0% |',
    '',
    '### Next section',
    '',
    '(higher = costlier)',
  ];
  const found = findings(page.join('\n'));
  assert.deepStrictEqual(
    found.map((x) => x.line),
    [17],
    'only the note after the references block',
  );
});

test("a sequential run's report passes, its CPU column turned like throughput", async () => {
  const dir = tempDir('ctxbench-direction-');
  const resultsDir = path.join(dir, 'results');
  fs.mkdirSync(resultsDir);
  // als serves half the requests of none and spends twice its CPU per request.
  const run = makeRun2({ seed: 5, blocks: 4, strategies: { als: 0.5 } });
  fs.writeFileSync(path.join(resultsDir, 'seq.json'), JSON.stringify(run));
  const out = path.join(dir, 'results.md');
  await buildReport({ resultsDir, out });
  assert.deepStrictEqual(check(dir), []);
  const page = fs.readFileSync(path.join(resultsDir, 'seq.md'), 'utf8');
  const lines = page.split('\n');
  const header = lines.find((l) => l.startsWith('| Strategy |') && l.includes('CPU µs/req'));
  assert.ok(header, 'the summary table');
  const cells = (l) => l.split('|').map((c) => c.trim());
  const col = cells(header).findIndex((c) => c.startsWith('% of `none`: CPU/req, below 100% costs more'));
  assert.ok(col > 0, header);
  const als = cells(lines.find((l) => l.startsWith('| `als` |')));
  const [estimate, lo, hi] = als[col].match(/[\d.]+(?=%)/g).map(Number);
  assert.ok(estimate > 45 && estimate < 55, als[col]);
  assert.ok(lo <= estimate && estimate <= hi, als[col]);
  assert.doesNotMatch(page, /costlier|higher = /);
  // The same page with the column turned back (the strategy's ÷ the baseline's) fails.
  const turned = page.replace(als[col], `${((100 * 100) / estimate).toFixed(1)}%`);
  assert.ok(findings(turned).some((x) => /computed the cost way/.test(x.what)));
});
