'use strict';
// Tier: quick (--help texts only: nothing measured)
// Every --help opens with what the command answers, in a line or two, before its usage and
// options (as autocannon's and hyperfine's do), and a command that measures names the
// method it uses by default there, first.
const test = require('node:test');
const assert = require('node:assert');
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { COMMANDS, helpOf } = require('../bench/cli');

const CLI = path.join(__dirname, '..', 'bin', 'ctxbench.js');
// Not a description: a usage line, an option line, an exit-code line, or nothing.
const NOT_A_DESCRIPTION = /^(\s*$|\s*usage:|\s*-{1,2}[a-z]|\s*exit )/i;

// The opening: the lines before the first blank line.
const opening = (text) => text.split(/\n\s*\n/)[0];

// The commands that measure, with the method each uses by default.
const METHOD = {
  run: /duet/,
  calibrate: /duet/,
  aa: /duet/,
  repro: /duet/,
  app: /duet/,
  overhead: /sequential/,
  deploy: /pair at a fixed rate/,
  micro: /time per operation/,
};

const texts = () => [
  ['ctxbench --help', execFileSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' })],
  ...Object.keys(COMMANDS).map((name) => [`ctxbench ${name} --help`, helpOf(name)]),
];

test('every --help opens with a line or two of what the command answers, not a usage or option line', () => {
  for (const [what, text] of texts()) {
    const lines = opening(text).split('\n');
    assert.ok(!NOT_A_DESCRIPTION.test(lines[0]), `${what} opens with: ${lines[0]}`);
    assert.ok(lines.length <= 3, `${what}: ${lines.length} lines before the first blank one`);
    assert.ok(
      lines.every((l) => !NOT_A_DESCRIPTION.test(l)),
      `${what}: ${lines.join(' / ')}`,
    );
    assert.match(text, /usage: ctxbench/, what);
  }
});

test('a measuring command names its default method in that opening', () => {
  for (const [name, method] of Object.entries(METHOD)) {
    assert.match(opening(helpOf(name)).replace(/\s+/g, ' '), method, name);
  }
  assert.match(opening(texts()[0][1]).replace(/\s+/g, ' '), /duet by default/, 'ctxbench --help');
  // The run's default is the duet: the sequential method is described as what --method chooses.
  assert.doesNotMatch(helpOf('run').split('usage:')[0], /sequential/);
});
