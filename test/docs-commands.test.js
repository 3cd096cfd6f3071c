'use strict';
// Tier: quick (the CLI's parsers and a report rendered from the fixtures: nothing measured)
// Every command a page suggests is one the CLI accepts (scripts/docs-commands.js): README.md,
// docs/*.md and the pages the report writes, checked by each command's own parser without
// running it. The committed results pages are .ci/run's to check (`--results`): tests never
// read them.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { commandsIn, refusal, refusedCommands, docsPages } = require('../scripts/docs-commands');
const { runCli } = require('./helpers/cli');
const { tempDir } = require('./helpers/tmp');
const { PRESETS } = require('../lib/presets');
const { COMMANDS } = require('../bench/cli');

const FIXTURES = path.join(__dirname, 'fixtures', 'results');

test('every ctxbench command README.md and docs/ suggest is accepted by the CLI', () => {
  const found = docsPages().flatMap((p) => commandsIn(fs.readFileSync(p, 'utf8')));
  assert.ok(found.filter((c) => c.command).length > 50, `only ${found.length} commands found: the extraction broke`);
  assert.deepStrictEqual(refusedCommands(docsPages()), []);
});

test("every ctxbench command the report's pages suggest is accepted (rendered from the fixtures)", async () => {
  const dir = tempDir('ctxbench-doc-commands-');
  const out = path.join(dir, 'results.md');
  const r = await runCli(['report', '--results', FIXTURES, '--out', out, '--no-html']);
  assert.strictEqual(r.code, 0, r.stderr);
  const pagesDir = path.join(dir, 'results');
  const pages = [
    out,
    ...fs
      .readdirSync(pagesDir)
      .filter((n) => n.endsWith('.md'))
      .map((n) => path.join(pagesDir, n)),
  ];
  const found = pages.flatMap((p) => commandsIn(fs.readFileSync(p, 'utf8')));
  assert.ok(found.length > 5, `only ${found.length} commands found in the rendered report`);
  assert.deepStrictEqual(refusedCommands(pages), []);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a page suggesting a command the CLI refuses is caught, line by line', () => {
  const dir = tempDir('ctxbench-doc-commands-');
  const page = path.join(dir, 'deploy.md');
  fs.writeFileSync(
    page,
    [
      '# Deployment', // 1
      '', // 2
      'Reproduce: `ctxbench repro --preset deploy`.', // 3: deploy is a command, not a run preset
      '', // 4
      '```sh', // 5
      'npx ctxbench run --preset io --bloks 3', // 6: a near miss
      'ctxbench aa --blocks 3', // 7: run's option, not aa's
      'ctxbench bench --quick', // 8: no such command
      'ctxbench run results/x.json', // 9: run takes no file
      '```', // 10
    ].join('\n'),
  );
  const refused = refusedCommands([page]).map((l) => l.replace(/^.*deploy\.md:/, ''));
  assert.deepStrictEqual(refused, [
    `3: \`ctxbench repro --preset deploy\`: --preset deploy is unknown (valid: ${Object.keys(PRESETS).join(', ')})`,
    '6: `npx ctxbench run --preset io --bloks 3`: unknown option ' +
      '--bloks (did you mean --blocks?); `--help` lists the options',
    '7: `ctxbench aa --blocks 3`: unknown option --blocks (did ' +
      'you mean --blocks-per-trial?); `--help` lists the options',
    `8: \`ctxbench bench --quick\`: unknown command 'bench' (valid: ${Object.keys(COMMANDS).join(', ')})`,
    '9: `ctxbench run results/x.json`: unexpected argument ' +
      'results/x.json: this command takes only options (see --help)',
  ]);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("placeholders, usage syntax, output lines and shell around a command are tolerated (the script's rules)", () => {
  const page = [
    '`ctxbench <command> --help` and `ctxbench CMD`',
    '`ctxbench run --resume` names the option; `ctxbench run --preset NAME`; `ctxbench run --preset io|latency`',
    '```text',
    'usage: ctxbench compare a.json b.json [--max-regression PCT] [--out FILE]',
    '       ctxbench repro --compare a.json b.json [--out FILE]',
    'ctxbench: unknown option --bogus',
    'ctxbench default: complete, duet, 312 s of measuring',
    "                        ctxbench app), ci/ (a CI gate's workflow)",
    '```',
    '```sh',
    '$ CTXBENCH_CPUS=none npx ctxbench run --strategy-file … --strategies none,mine > out.txt 2>&1',
    'node bin/ctxbench.js run --preset io \\',
    '  --rate 800   # a comment --bogus',
    'ctxbench report && ctxbench compare main.json pr.json --max-regression 1 | tee gate.txt',
    'ctxbench app --baseline "PORT=1 \\"node\\" server.js" --candidate \'TRACING=1 node server.js\'',
    '```',
  ].join('\n');
  const found = commandsIn(page);
  assert.deepStrictEqual(
    found.map((c) => c.command),
    [null, null, 'run', 'run', 'run', 'repro', 'run', 'run', 'report', 'compare', 'app'],
  );
  assert.deepStrictEqual(found.map(refusal).filter(Boolean), []);
  // The rules loosen only what they say: a trailing option without its value passes in inline
  // code (it names the option), not on a code line, and a preset alternative is checked.
  assert.match(refusal(commandsIn('```\nctxbench run --resume\n```')[0]), /--resume needs a value/);
  assert.match(refusal(commandsIn('`ctxbench run --preset io|deploy`')[0]), /--preset deploy is unknown/);
  assert.match(refusal(commandsIn('`ctxbench run --bogus …`')[0]), /unknown option --bogus/);
});
