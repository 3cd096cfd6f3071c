'use strict';
// Tier: quick (study files written by the test; the command refuses or keeps them, measuring nothing)
// `ctxbench headline`: which studies it measures, keeps or resumes, and the files it refuses.
const { test } = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { runCli } = require('./helpers/cli');
const { testDir } = require('./helpers/tmp');
const { stateOf } = require('../bench/cli/headline');
const { machineIdentity: thisMachine } = require('../bench/run/environment');
const { HEADLINE_PRESETS } = require('../lib/presets');
const { pickSources } = require('../analysis/strategy-sources');

// A study's file as `run` leaves it, as far as the command reads it.
const study = (fields = {}) => ({
  schema: 4,
  kind: 'run',
  status: 'complete',
  settings: { preset: 'default', quick: true },
  environment: thisMachine(),
  ...fields,
});
const write = (dir, name, run) => fs.writeFileSync(path.join(dir, name), JSON.stringify(run));

test('a study is new, complete (kept) or stopped (resumed); another machine or preset is refused', (t) => {
  const dir = testDir(t, 'ctxbench-headline-');
  const file = path.join(dir, 'default.json');
  assert.strictEqual(stateOf(file, 'default', thisMachine(), true), 'new');
  write(dir, 'default.json', study());
  assert.strictEqual(stateOf(file, 'default', thisMachine(), true), 'complete');
  for (const status of ['interrupted', 'failed']) {
    write(dir, 'default.json', study({ status }));
    assert.strictEqual(stateOf(file, 'default', thisMachine(), true), 'stopped', status);
  }
  write(dir, 'default.json', study({ environment: { ...thisMachine(), cpuModel: 'Another CPU' } }));
  assert.throws(() => stateOf(file, 'default', thisMachine(), true), /measured on another machine \(cpuModel Another/);
  write(dir, 'default.json', study());
  assert.throws(() => stateOf(file, 'default', thisMachine(), false), /is not the default preset's run/);
  assert.throws(() => stateOf(file, 'popular', thisMachine(), true), /is not a quick run of the popular/);
});

test('`ctxbench headline`: a complete study is kept; one from another machine stops it in one line', async (t) => {
  const dir = testDir(t, 'ctxbench-headline-');
  write(dir, 'default.json', study());
  const args = ['headline', '--only', 'default', '--quick', '--dir', dir, '--report', 'none'];
  const kept = await runCli(args);
  assert.strictEqual(kept.code, 0, kept.stderr);
  assert.match(kept.stderr, /1 study into .* \(1 complete, kept\); at most 0 min of measuring left/);
  assert.doesNotMatch(kept.stderr, /study 1\/1/);
  const other = study({ environment: { ...thisMachine(), cores: 64 } });
  write(dir, 'default.json', other);
  const refused = await runCli(args);
  assert.strictEqual(refused.code, 1);
  assert.match(
    refused.stderr,
    /^ctxbench: .*default\.json was measured on another machine \(cores 64; this one: \d+\)/,
  );
  assert.strictEqual(refused.stderr.trim().split('\n').length, 1, refused.stderr);
  assert.deepStrictEqual(JSON.parse(fs.readFileSync(path.join(dir, 'default.json'), 'utf8')), other);
});

test("the studies it measures are the ones the headline's timed columns read", () => {
  // One run per preset: the sources picked for a timed column are HEADLINE_PRESETS' runs.
  const { PRESETS } = require('../lib/presets');
  const results = Object.keys(PRESETS).map((preset) => ({
    file: `${preset}.json`,
    run: { kind: 'run', settings: { preset, instance: { periodUs: 100000 } }, configs: [] },
  }));
  const sources = pickSources(results);
  const timed = ['default', 'popular', 'io', 'latency', 'deployment'].map((k) => sources[k].run.settings.preset);
  assert.deepStrictEqual(timed.sort(), [...HEADLINE_PRESETS].sort());
});
