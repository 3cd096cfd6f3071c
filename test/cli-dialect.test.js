'use strict';
// Tier: quick (parsing only: nothing started)
// One CLI dialect (lib/cli.js parse): a list flag and its singular are one flag in every
// command, a near miss gets a suggestion, and Node's parser errors reach the user in
// ctxbench's own one-line words.
const test = require('node:test');
const assert = require('node:assert');
const { parse, flags, UsageError } = require('../lib/cli');

const RUN = flags(['depths', 'hops', 'frameworks', 'strategies', 'blocks', 'max-regression'], { booleans: ['quick'] });
const SINGLE = flags(['depth', 'hop', 'framework', 'strategy']);

const said = (args, options, extra) => {
  try {
    parse(args, options, extra);
  } catch (err) {
    assert.ok(err instanceof UsageError, String(err));
    return err.message;
  }
  return null;
};

test('a list flag and its singular are one flag, whichever the command has', () => {
  assert.deepStrictEqual(
    { ...parse(['--depth', '8', '--hop=immediate'], RUN).values },
    { depths: '8', hops: 'immediate' },
  );
  assert.deepStrictEqual(
    { ...parse(['--depths', '8', '--strategies', 'als'], SINGLE).values },
    { depth: '8', strategy: 'als' },
  );
  assert.deepStrictEqual({ ...parse(['--depths', '8'], RUN).values }, { depths: '8' });
});

test('a near miss is named with what was meant; a far one points to --help', () => {
  assert.strictEqual(
    said(['--bloks', '3'], RUN),
    'unknown option --bloks (did you mean --blocks?); `--help` lists the options',
  );
  assert.match(said(['--max-regresion', '5'], RUN), /did you mean --max-regression\?/);
  assert.match(said(['--dephts', '8'], RUN), /did you mean --depths\?/);
  assert.strictEqual(said(['--bogus'], RUN), 'unknown option --bogus; `--help` lists the options');
});

test("Node's parser errors become one line of ctxbench's own", () => {
  assert.strictEqual(said(['--blocks'], RUN), '--blocks needs a value');
  assert.strictEqual(
    said(['--blocks', '-3'], RUN),
    "--blocks needs a value; one that starts with '-' is written --blocks=VALUE",
  );
  assert.strictEqual(said(['--quick=yes'], RUN), '--quick takes no value');
  assert.strictEqual(said(['extra'], RUN), 'unexpected argument extra: this command takes only options (see --help)');
  for (const args of [['--bogus'], ['--blocks'], ['--blocks', '-3'], ['extra']]) {
    assert.doesNotMatch(
      said(args, RUN),
      /To specify|positional argument starting|ambiguous|Did you forget/,
      args.join(' '),
    );
  }
});
