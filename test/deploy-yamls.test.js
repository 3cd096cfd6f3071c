'use strict';
// Tier: quick (the yamls read and ordered, nothing started)
// `ctxbench deploy` takes its baseline from what the yamls run, not from the order a shell
// sorted a glob into; a yaml's server variables are checked as the server checks them; a
// yaml whose strategy lost the id at its own HOP in the integrity results is named.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { readYaml, baselineFirst, idWarnings } = require('../bench/cli/deploy');
const { tempDir } = require('./helpers/tmp');

const ROOT = path.join(__dirname, '..');
const YAMLS = ['app_als.yaml', 'app_alscontext.yaml', 'app_baseline.yaml', 'app_cls.yaml', 'app_otel.yaml'];

test('deploy: the yaml that runs param is the baseline in any position; none or two are refused', () => {
  const read = (names) => names.map((n) => readYaml(path.join(ROOT, n)));
  for (const order of [YAMLS, [...YAMLS].reverse(), [YAMLS[3], YAMLS[2], YAMLS[0]]]) {
    const ordered = baselineFirst(read(order));
    assert.strictEqual(ordered[0].strategy, 'param', order.join(' '));
    const rest = order.filter((n) => n !== 'app_baseline.yaml').map((n) => path.join(ROOT, n));
    assert.deepStrictEqual(
      ordered.slice(1).map((y) => y.file),
      rest,
      'the others keep the order given',
    );
  }
  assert.throws(() => baselineFirst(read(['app_cls.yaml', 'app_als.yaml'])), /no yaml runs STRATEGY=param or none/);
  const dir = tempDir('ctxbench-yamls-');
  const none = path.join(dir, 'app_none.yaml');
  fs.writeFileSync(none, fs.readFileSync(path.join(ROOT, 'app_als.yaml'), 'utf8').replace("'als'", "'none'"));
  assert.throws(
    () => baselineFirst([...read(['app_baseline.yaml']), readYaml(none)]),
    /app_baseline\.yaml \(STRATEGY=param\) and .*app_none\.yaml \(STRATEGY=none\) are both baselines/,
  );
  assert.strictEqual(baselineFirst([...read(['app_cls.yaml']), readYaml(none)])[0].strategy, 'none');
});

test("deploy: a yaml's DEPTH is checked with the server's own bounds, in the server's words", () => {
  const dir = tempDir('ctxbench-yamls-');
  const file = path.join(dir, 'app_cls.yaml');
  fs.writeFileSync(file, fs.readFileSync(path.join(ROOT, 'app_cls.yaml'), 'utf8').replace("DEPTH: '8'", "DEPTH: '0'"));
  assert.throws(() => readYaml(file), {
    message: `${file}: DEPTH="0" is not valid; expected an integer from 1 to 1024`,
  });
});

test('deploy: a strategy that lost the id at its own HOP on its Node major is named in one line', () => {
  const yamls = baselineFirst(YAMLS.map((n) => readYaml(path.join(ROOT, n))));
  const cell = (strategy, scenario, runtime, verdict) => ({ strategy, scenario, runtime, verdict });
  const integrity = {
    integrity: {
      cells: [
        cell('alscontext', 'chain-await', 'node24', 'lost'),
        cell('alscontext', 'chain-await', 'node20', 'lost'),
        cell('cls-hooked', 'chain-await', 'node24', 'kept'),
        cell('als', 'chain-immediate', 'node24', 'lost'),
      ],
    },
  };
  const lines = idWarnings(yamls, integrity);
  assert.strictEqual(lines.length, 1, lines.join('\n'));
  assert.match(lines[0], /app_alscontext\.yaml: alscontext lost the id in chain-await \(HOP=await\) on node24/);
  assert.deepStrictEqual(idWarnings(yamls, null), [], 'no integrity results: nothing to name');
});

test('deploy: blocks until every ratio is within ±5 pp or 600 s, and says what it reached', () => {
  const { deploySettings, precisionLines } = require('../bench/cli/deploy');
  const yamls = baselineFirst(['app_cls.yaml', 'app_baseline.yaml'].map((n) => readYaml(path.join(ROOT, n))));
  const plan = deploySettings(yamls, {});
  assert.deepStrictEqual([plan.precision, plan.maxTime, plan.blocks], [5, 600, 3]);
  assert.strictEqual(deploySettings(yamls, { precision: '3' }).precision, 3);
  assert.deepStrictEqual(precisionLines({ target: 5, reached: true, blocks: 3 }), [
    'Precision: every ratio within ±5 pp after 3 blocks',
  ]);
  const short = { target: 5, reached: false, blocks: 4, elapsedS: 598, missing: [{ halfWidthPct: 6.34 }] };
  assert.match(precisionLines(short)[0], /±5 pp not reached after 4 blocks and 598 s .* the widest ±6\.3 pp$/);
  assert.deepStrictEqual(precisionLines(undefined), []);
});

// Issue 76: `deploy` and the deployment study answer two questions; a deploy page says which.
test("deploy: its page says it answers a team deploying the yamls, and the study's settings beside", () => {
  const { deployVsStudy } = require('../report/sections/run');
  const yamls = baselineFirst(['app_cls.yaml', 'app_baseline.yaml'].map((n) => readYaml(path.join(ROOT, n))));
  const { deploySettings } = require('../bench/cli/deploy');
  const page = deployVsStudy(deploySettings(yamls, {}));
  assert.match(page, /\*\*Which figure answers you:\*\* .*\(HOP=await, LOG=stdout, against `param`\)/);
  assert.match(page, /deployment study .* \(HOP=immediate, LOG=none, against `none`\)/);
});
