'use strict';
// Tier: quick (the headline's deployment column on fixtures: nothing started)
// The headline's F1 column is the deployment study at the autoscaler's target: throughput
// per instance as % of `none`'s with the p99 there beside `none`'s, one column, and it
// leaves for its study page while its intervals are wider than ±4 pp, as any % column does.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { strategySummary } = require('../analysis');
const { markdown, columns } = require('../report/strategy-summary');
const { contradictions } = require('../report/headline-check');
const { readResults } = require('../report');

const FIXTURES = path.join(__dirname, 'fixtures', 'results');
// deployment-f1.json: a real run at the operating point (3 blocks, depth 8: sentry,
// cls-hooked and the A/A twin beside `none`; test/fixtures/results/README.md).
const FILES = ['default.json', 'popular.json', 'deployment-f1.json'];

let loaded;
function summaryWith(edit, extra = []) {
  loaded ??= readResults(
    FIXTURES,
    FILES.map((name) => path.join(FIXTURES, name)),
  );
  return strategySummary([
    ...loaded.map((r) => {
      const name = path.basename(r.file, '.json');
      return { ...r, name, run: name === 'deployment-f1' && edit ? edit(structuredClone(r.run)) : r.run };
    }),
    ...extra,
  ]);
}

// Every window of a candidate read at exactly `k` times its partner's CPU per request: a
// study whose intervals are as narrow as they come.
const exact = (costs) => (run) => {
  for (const c of run.configs)
    for (const w of c.samples.filter((x) => x.kind === 'window' && x.instance && x.partnerInstance))
      w.instance.cpuUsPerRequest = w.partnerInstance.cpuUsPerRequest * costs[c.strategy];
  return run;
};

test("the F1 column: one column at the autoscaler's target, off the headline while its intervals exceed ±4 pp", () => {
  const summary = summaryWith();
  const col = summary.columns.find((c) => c.key === 'deploy');
  assert.ok(col.halfWidthPp > 4, `the fixture's widest is ±${col.halfWidthPp} pp`);
  assert.deepStrictEqual(col.leaves, { why: 'wide', page: 'deployment-f1' });
  assert.ok(!columns(summary).some((c) => c.key === 'deploy'));
  const md = markdown(summary, { link: (name) => `results/${name}.md` });
  assert.match(
    md,
    new RegExp(
      String.raw`F1 at its autoscaling target \(depth 8\): on its study page, ` +
        String.raw`\[deployment-f1\]\(results/deployment-f1\.md\) \(its 95% ` +
        String.raw`intervals reach ±\d+ pp; a % column stays only within ±4 pp\)\.`,
    ),
  );
  assert.doesNotMatch(md, /capacity within p99/i, 'no capacity within the SLO in the headline');
});

test(
  'within ±4 pp it shows: throughput per instance % of none with ' +
    'its interval; the p99 there, as wide as it is, on the page',
  () => {
    const summary = summaryWith(exact({ sentry: 12.5, 'cls-hooked': 1.6, none: 1 }));
    const shown = columns(summary).map((c) => c.name ?? c.title);
    assert.ok(shown.includes('F1 at its autoscaling target (depth 8)'), shown.join(' | '));
    const row = summary.rows.find((r) => r.strategy === 'sentry');
    assert.strictEqual(row.deploy.estimate.toFixed(3), '0.080');
    const md = markdown(summary, { link: (name) => `results/${name}.md` });
    const line = md.split('\n').find((l) => l.startsWith('| `sentry`:'));
    assert.match(line, /8\.0% \[8\.0%–8\.0%\]/);
    assert.doesNotMatch(line, /p99/, 'no tail without its interval in a cell');
    assert.match(
      md,
      new RegExp(
        String.raw`F1 at its autoscaling target \(depth 8\): on F1 stand-ins \(100-ms CFS period\), ` +
          "`none`'s CPU per request ÷ the strategy's",
      ),
    );
    assert.match(
      md,
      new RegExp(
        // Its tail, as wide as it is there, stays on the study page (docs/reading.md says why).
        String.raw`for this machine only \(docs/deploy\.md; its p99 on its page\)\.`,
      ),
    );
    assert.deepStrictEqual(contradictions(summary), []);
  },
);

// Six blocks whose `none` costs 200–600 µs a request there (a machine's state moving, as on one
// host: docs/deploy.md, "What the ratio rests on"): Sentry adds 20 µs whatever the base, so its
// ratio follows the base; cls-hooked costs 1.6× it in every block, so its ratio does not.
const moving = (run) => {
  const levels = [200, 300, 450, 600, 250, 500];
  for (const c of run.configs) {
    const ws = c.samples.filter((x) => x.kind === 'window' && x.instance && x.partnerInstance);
    c.samples.push(...ws.map((w) => ({ ...structuredClone(w), block: w.block + 3 })));
    for (const w of c.samples.filter((x) => x.kind === 'window' && x.instance && x.partnerInstance)) {
      const base = levels[w.block] * (1 + 0.01 * ((w.window ?? 0) % 3));
      w.partnerInstance.cpuUsPerRequest = base;
      w.instance.cpuUsPerRequest =
        c.strategy === 'sentry' ? base + 20 : c.strategy === 'cls-hooked' ? 1.6 * base : base;
    }
  }
  return run;
};

test(
  "a headline F1 figure whose blocks followed none's cost " + 'there carries a ⚠ and the note says what it means',
  () => {
    const summary = summaryWith(moving);
    const md = markdown(summary, { link: (name) => `results/${name}.md` });
    // The strategy's headline row.
    const cell = (name) => md.split('\n').find((l) => l.startsWith(`| \`${name}\`:`));
    assert.ok(
      columns(summary).some((c) => c.key === 'deploy'),
      'the column shows (within ±4 pp)',
    );
    assert.match(cell('sentry'), /9\d\.\d% \[[\d.]+%–[\d.]+%\] ⚠/, cell('sentry'));
    assert.doesNotMatch(cell('cls-hooked'), /⚠/, cell('cls-hooked'));
    assert.match(
      md,
      new RegExp(
        " ⚠ \\(`sentry`\\): its blocks' figures followed `none`'s CPU per request there " +
          String.raw`from block to block, so its interval holds for this run's mix of machine states`,
      ),
    );
    assert.deepStrictEqual(contradictions(summary), []);
  },
);

test(
  'an F1 figure its second run on the same machine did not reproduce says so in its cell; one that held, or one ' +
    'compared across machines, does not',
  () => {
    const study = path.join(FIXTURES, 'deployment-f1.json');
    const id = (strategy) =>
      loaded
        .find((r) => r.file === study)
        .run.configs.find((c) => c.strategy === strategy && c.depth === 8 && c.arm !== 'aa').id;
    const repro = (same) => ({
      file: 'results/repro-deployment-f1.json',
      name: 'repro-deployment-f1',
      run: {
        schema: 2,
        kind: 'repro',
        title: 'repro (synthetic)',
        files: [study, 'results/runs/other.json'],
        repro: {
          machines: { same },
          rows: [
            { id: id('sentry'), a: { estimate: 0.08 }, b: { estimate: 0.097 }, consistent: false },
            { id: id('cls-hooked'), a: { estimate: 0.625 }, b: { estimate: 0.63 }, consistent: true },
          ],
        },
      },
    });
    const cell = (summary, name) =>
      markdown(summary, { link: (n) => `results/${n}.md` })
        .split('\n')
        .find((l) => l.startsWith(`| \`${name}\`:`));
    const costs = exact({ sentry: 12.5, 'cls-hooked': 1.6, none: 1 });
    const summary = summaryWith(costs, [repro(true)]);
    // One of the two compared consistent: below the repro bar, so † too.
    assert.match(cell(summary, 'sentry'), /8\.0% \[8\.0%–8\.0%\] † \(not reproduced: 9\.7%\)/);
    assert.doesNotMatch(cell(summary, 'cls-hooked'), /not reproduced/);
    assert.match(
      markdown(summary),
      /"not reproduced": the study's second run on the same machine read the figure given/,
    );
    assert.deepStrictEqual(contradictions(summary), []);
    const across = summaryWith(costs, [repro(false)]);
    assert.doesNotMatch(
      cell(across, 'sentry'),
      /not reproduced/,
      'another machine is a comparison, not a second reading',
    );
  },
);
