'use strict';
// Tier: quick (--help, the presets and docs/options.md agree: nothing started)
// Defaults stated once: `--help` is written from the tables the commands read, the
// presets are those tables, and docs/options.md (the option reference the README links)
// is generated from --help. Each check below fails when one of them drifts.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { optionsPage, FILE } = require('../scripts/docs-options');
const { PRESETS, DEFAULTS } = require('../lib/presets');
const { resolveSettings, help: RUN_HELP } = require('../bench/cli/run');

const ROOT = path.join(__dirname, '..');

test("docs/options.md is what every command's --help prints today (npm run docs:options)", () => {
  assert.ok(
    fs.readFileSync(FILE, 'utf8') === optionsPage(),
    'docs/options.md is stale: run `npm run docs:options` and commit it',
  );
});

test('ctxbench run with no flags measures the default preset, and its --help says so', () => {
  const s = resolveSettings({});
  const preset = PRESETS[DEFAULTS.preset];
  for (const key of [
    'blocks',
    'minPerConnection',
    'precision',
    'maxTime',
    'windows',
    'window',
    'soloDuration',
    'connections',
    'pipelining',
    'method',
    'aa',
    'baseline',
  ]) {
    assert.deepStrictEqual(s[key], preset[key], key);
  }
  assert.strictEqual(s.driver, DEFAULTS.driver);
  assert.strictEqual(s.groupSize, DEFAULTS.groupSize);
  // The help's option texts wrap at any space: read them as one line.
  const said = (re) => Number(re.exec(RUN_HELP.replace(/\s+/g, ' '))?.[1]);
  assert.strictEqual(
    said(/--precision PP [^(]*\(default ([\d.]+) in the default preset;/),
    preset.precision,
    '--precision',
  );
  assert.strictEqual(said(/--max-time S [^(]*\(default (\d+) in the default preset,/), preset.maxTime, '--max-time');
  assert.strictEqual(said(/--window S duet, pair: seconds per window \(default ([\d.]+)\)/), s.window, '--window');
  assert.strictEqual(
    said(/--windows N duet, pair: counted windows per pair of processes;[^(]*\(default (\d+)\)/),
    s.windows,
    '--windows',
  );
  assert.strictEqual(said(/--min-per-connection N[^(]*\(default (\d+)\)/), s.minPerConnection, '--min-per-connection');
  // A custom matrix keeps the preset's method settings and no precision target.
  const custom = resolveSettings({ strategies: 'none,als', precision: '2' });
  assert.strictEqual(custom.maxTime, DEFAULTS.maxTime);
  assert.strictEqual(said(/otherwise (\d+)\)/), DEFAULTS.maxTime);
});

test('the README states no option defaults of its own: it links the generated reference', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  assert.match(readme, /\(docs\/options\.md\)/);
  const flagRows = readme.split('\n').filter((l) => /^\|\s*`--[a-z]/.test(l));
  assert.deepStrictEqual(flagRows, [], 'option tables live in docs/options.md');
});
