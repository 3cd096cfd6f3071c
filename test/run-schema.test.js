'use strict';
// Tier: quick (the plan and the run JSON's declarations; the CLI refusals start no server)
// A run's plan is frozen once resolved (lib/plan.js) and what measuring learns is recorded
// beside it; a run JSON is checked against its declaration (lib/run-schema.js) when saved
// and when read, older files migrated; docs/run-json.md is generated whole from the declarations.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { freezePlan, FIELDS } = require('../lib/plan');
const { checkRun, migrate, VERSION } = require('../lib/run-schema');
const { runJsonPage, FILE } = require('../scripts/docs-run-json');
const { figuresIn } = require('../scripts/check-docs-figures');
const { resolveSettings } = require('../bench/cli/run');
const { makeRun2 } = require('./helpers/run2');
const { summarize } = require('../analysis/summary');
const { ratioVerdictText } = require('../report/verdict-text');
const { runCli } = require('./helpers/cli');
const { tempDir } = require('./helpers/tmp');

const SCHEMA1 = path.join(__dirname, 'fixtures', 'default-schema1-e25c213.json');

test('docs/run-json.md, the whole page, is what the declarations say today (npm run docs:run-json)', () => {
  const text = fs.readFileSync(FILE, 'utf8');
  assert.ok(text === runJsonPage(), 'docs/run-json.md is stale: run `npm run docs:run-json` and commit it');
  assert.match(text.split('\n')[0], /generated whole by `npm run docs:run-json`/);
  // The declarations explain; a measured figure lives only on the pages `ctxbench report` writes.
  assert.deepStrictEqual(figuresIn(text), []);
});

test('the plan: every field declared, frozen all the way down; a write into it throws', () => {
  assert.throws(() => freezePlan({ blocks: 3, capacityGuess: 1 }), /not declared in lib\/plan\.js: capacityGuess/);
  const plan = freezePlan({ blocks: 3, instance: { name: 'F1', cpus: 0.25 }, strategies: ['none'] });
  assert.throws(() => {
    plan.blocks = 4;
  }, TypeError);
  assert.throws(() => {
    plan.instance.cpus = 1;
  }, TypeError);
  assert.throws(() => plan.strategies.push('als'), TypeError);
  // What run resolves is such a plan, each of its fields declared.
  const s = resolveSettings({ strategies: 'none,als', depths: '8', rate: '100', instance: 'F1' });
  assert.ok(Object.isFrozen(s) && Object.isFrozen(s.instance) && Object.isFrozen(s.strategies));
  for (const k of Object.keys(s)) assert.ok(Object.hasOwn(FIELDS, k), k);
  // --target is resolved there too: the remote baseline is the plan's, not set while measuring.
  const remote = resolveSettings({ target: ['a=http://127.0.0.1:1'] });
  assert.deepStrictEqual([remote.baseline, remote.targets], ['param', [{ name: 'a', url: 'http://127.0.0.1:1' }]]);
});

test('a run of schema 2 is migrated on read: what was learned moves out of settings into learned', () => {
  const old = { ...makeRun2({ seed: 3 }), schema: 2, environment: {} };
  old.settings = { ...old.settings, capacity: { rps: 900 }, postgres: 'embedded' };
  const run = checkRun(old, { file: 'old.json' });
  assert.deepStrictEqual(run.learned, { capacity: { rps: 900 }, postgres: 'embedded' });
  assert.ok(!('capacity' in run.settings) && !('postgres' in run.settings));
  assert.strictEqual(old.settings.capacity.rps, 900, 'the object read is not changed');
  // Schema 1 (one warm process per configuration) is read too, never refused.
  assert.strictEqual(checkRun(JSON.parse(fs.readFileSync(SCHEMA1, 'utf8')), { file: 'schema1.json' }).kind, 'run');
  // A repro's runs are migrated with it.
  assert.deepStrictEqual(migrate({ kind: 'repro', schema: 2, runs: [old] }).runs[0].learned.postgres, 'embedded');
  assert.ok(VERSION >= 3);
});

test('a malformed run is refused in one line naming the file and the field', () => {
  const good = { ...makeRun2({ seed: 4 }), schema: VERSION, environment: {} };
  const broken = (f) => {
    const r = structuredClone(good);
    f(r);
    return r;
  };
  assert.throws(
    () =>
      checkRun(
        broken((r) => {
          delete r.configs;
        }),
        { file: 'a.json' },
      ),
    /^Error: a\.json: not a ctxbench result .* the top level has no "configs"$/,
  );
  assert.throws(
    () =>
      checkRun(
        broken((r) => {
          r.configs[1].samples = 'many';
        }),
        { file: 'b.json' },
      ),
    /^Error: b\.json: .* configs\.1\.samples must be array$/,
  );
  assert.throws(
    () =>
      checkRun(
        broken((r) => {
          r.settings.blocks = 'four';
        }),
        { file: 'c.json' },
      ),
    /c\.json: .* settings\.blocks must be integer$/,
  );
  assert.throws(
    () =>
      checkRun(
        broken((r) => {
          r.kind = 'weather';
        }),
        { file: 'd.json' },
      ),
    /d\.json: .*kind "weather" is not one of run/,
  );
  assert.throws(
    () => checkRun({ ...good, kind: 'micro', micro: { results: [] } }, { file: 'e.json', kinds: ['run'] }),
    /^Error: e\.json: a micro run, not a `ctxbench run`$/,
  );
  assert.strictEqual(checkRun(good).kind, 'run');
});

// The record is closed (schema 4): a field no declaration names is refused at
// every level, where Ajv's open objects let a misspelt one through before.
test('a misspelt field is refused in one line naming it, at every level of the record', async () => {
  const good = { ...makeRun2({ seed: 6 }), schema: VERSION, environment: {} };
  const planted = [
    [
      (r) => {
        r.configs[1].samples[0].rsp = 1;
      },
      'configs.1.samples.0',
      'rsp',
    ],
    [
      (r) => {
        r.configs[0].sumary = {};
      },
      'configs.0',
      'sumary',
    ],
    [
      (r) => {
        r.settings.blokcs = 3;
      },
      'settings',
      'blokcs',
    ],
    [
      (r) => {
        r.learned = { capacty: {} };
      },
      'learned',
      'capacty',
    ],
    [
      (r) => {
        r.environment.cpumodel = 'x';
      },
      'environment',
      'cpumodel',
    ],
    [
      (r) => {
        r.measuringSecs = 1;
      },
      'the top level',
      'measuringSecs',
    ],
  ];
  for (const [plant, where, field] of planted) {
    const run = structuredClone(good);
    plant(run);
    const line = new RegExp(`^Error: m\\.json: .* ${where.replace(/\./g, '\\.')} has a field "${field}" that is not`);
    assert.throws(() => checkRun(run, { file: 'm.json' }), line);
  }
  // What commands write beside the plan is declared: these are not refused.
  const written = { ...structuredClone(good), measuringSeconds: 12, precision: { target: 2 }, agentSink: {} };
  assert.strictEqual(checkRun(written).kind, 'run');
  // The report refuses the file in one line too.
  const dir = tempDir('ctxbench-closed-');
  const run = structuredClone(good);
  run.configs[0].samples[0].lsot = 0;
  fs.writeFileSync(path.join(dir, 'typo.json'), JSON.stringify(run));
  const r = await runCli(['report', path.join(dir, 'typo.json'), '--out', path.join(dir, 'r.md')]);
  assert.notStrictEqual(r.code, 0);
  assert.match(r.stderr.trim(), /^ctxbench: .*typo\.json: .*configs\.0\.samples\.0 has a field "lsot"[^\n]*$/);
});

test('schema 4: a measured run without method or baseline reads as sequential against none', () => {
  const old = { ...makeRun2({ seed: 7 }), schema: 2, environment: {} };
  delete old.settings.method;
  delete old.settings.baseline;
  const run = checkRun(old, { file: 'old.json' });
  assert.strictEqual(run.settings.method, 'sequential');
  assert.strictEqual(run.settings.baseline, 'none');
  assert.ok(!('method' in old.settings), 'the object read is not changed');
  // A plan that names them keeps them; an integrity run has no baseline to fill.
  const duet = checkRun({ ...old, settings: { ...old.settings, method: 'duet', baseline: 'param' } });
  assert.deepStrictEqual([duet.settings.method, duet.settings.baseline], ['duet', 'param']);
  const integrity = migrate({ kind: 'integrity', schema: 1, settings: {}, integrity: { cells: [] } });
  assert.ok(!('baseline' in integrity.settings));
  // aa and calibrate with --method pair put the pair's rate in the plan.
  assert.strictEqual(freezePlan({ method: 'pair', rate: 600 }).rate, 600);
});

test("issue 77: an old file's saved verdict sentences are dropped on read; the report words the judgement", () => {
  const old = { ...makeRun2({ seed: 8, strategies: { als: 0.9 } }), schema: 3, environment: {} };
  const als = old.configs.find((c) => c.strategy === 'als');
  const base = old.configs.find((c) => c.strategy === 'none');
  // As a file written before issue 77 holds it: each ratio with its sentence, one of them
  // (a ratio saved before judgements were kept) with no judgement at all.
  const bare = summarize(als, base).ratio;
  delete bare.judgement;
  als.summary = {
    ...summarize(als, base),
    ratio: { ...bare, verdict: 'SENTENCE' },
    sharedRatio: { estimate: 1, verdict: 'SENTENCE' },
  };
  als.summary.cpuRatio = { ...als.summary.cpuRatio, verdict: 'SENTENCE' };
  const app = { ratio: { estimate: 0.9, verdict: 'SENTENCE' } };
  const run = checkRun({ ...old, kind: 'run' }, { file: 'old.json' });
  const summary = run.configs.find((c) => c.strategy === 'als').summary;
  for (const k of ['ratio', 'cpuRatio', 'sharedRatio']) assert.ok(!('verdict' in summary[k]), k);
  assert.strictEqual(als.summary.ratio.verdict, 'SENTENCE', 'the object read is not changed');
  assert.ok(!('verdict' in migrate({ ...old, kind: 'app', app }).app.ratio), "an app's answer too");
  assert.ok(!('verdict' in migrate({ ...old, kind: 'aa', aa: { overall: app.ratio } }).aa.overall), 'A/A trials too');
  assert.ok(!('verdict' in migrate({ kind: 'repro', runs: [old] }).runs[0].configs[1].summary.ratio), 'a repro too');
  // The words come from the figures (judged again: no judgement was saved), never the sentence.
  assert.match(ratioVerdictText(summary.ratio, summary), /^\d+\.\d% slower, significant$/);
});

test('report, compare, repro --compare and run --resume refuse a malformed run in one line', async () => {
  const dir = tempDir('ctxbench-schema-');
  const good = path.join(dir, 'good.json');
  fs.writeFileSync(good, JSON.stringify({ ...makeRun2({ seed: 5 }), schema: VERSION, environment: {} }));
  const bad = path.join(dir, 'bad.json');
  const run = { ...makeRun2({ seed: 5 }), schema: VERSION, environment: {} };
  run.configs[0].samples[0].lost = 'some';
  fs.writeFileSync(bad, JSON.stringify(run));
  const micro = path.join(dir, 'micro.json');
  fs.writeFileSync(micro, JSON.stringify({ schema: 1, kind: 'micro', settings: {}, micro: { results: [] } }));
  const cases = [
    [['report', bad, '--out', path.join(dir, 'r.md')], /bad\.json: .*configs\.0\.samples\.0\.lost must be integer/],
    [['compare', good, bad], /bad\.json: .*configs\.0\.samples\.0\.lost must be integer/],
    [['repro', '--compare', bad, good], /bad\.json: .*configs\.0\.samples\.0\.lost must be integer/],
    [['run', '--resume', bad], /bad\.json: .*configs\.0\.samples\.0\.lost must be integer/],
    [['run', '--resume', micro], /micro\.json: a micro run, not a `ctxbench run`/],
  ];
  for (const [args, line] of cases) {
    const r = await runCli(args);
    assert.notStrictEqual(r.code, 0, args.join(' '));
    assert.strictEqual(r.stderr.trim().split('\n').length, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, line, args.join(' '));
  }
});
