'use strict';
const js = require('@eslint/js');
const globals = require('globals');

// The rooms of the tree and what each may require (docs/architecture.md): a lower room
// never requires a higher one. `require` calls are matched by their path.
const forbid = (pattern, why) => ({
  selector: `CallExpression[callee.name='require'][arguments.0.value=${pattern}]`,
  message: why,
});
// Rooms, lowest first: lib → the app (context, handlers, servers) → load → analysis →
// micro → bench → report → the commands (bench/cli, bin).
// A require that climbs out of its room (`../`) into one of `names`; `./x` stays at home.
const ROOM = (names) => String.raw`/^(\.\.\/)+(${names})(\/|$)/`;
// The same from the repository's root (app.js): `./bench/…` is another room there.
const ROOM_FROM_ROOT = (names) => String.raw`/^(\.\/|(\.\.\/)+)(${names})(\/|$)/`;
// Analysis returns codes and numbers; report/ words them (issue 77). A string of four or more
// words is a sentence: one in analysis/ belongs in report/ (an Error's message aside).
const SENTENCE = String.raw`/(\S+\s+){3}\S/`;
const OUTSIDE_ERRORS = ':not(NewExpression[callee.name=/Error$/] *):not(ThrowStatement *)';
const PROSE = [`Literal[value=${SENTENCE}]`, `TemplateElement[value.cooked=${SENTENCE}]`].map((node) => ({
  selector: `${node}${OUTSIDE_ERRORS}`,
  message:
    'analysis/ returns codes and numbers: a sentence belongs in report/ (report/words.js, report/verdict-text.js)',
}));
const LAYERS = [
  {
    // Shared helpers with no knowledge of the rooms above: run files, Node binaries, presets.
    files: ['lib/**/*.js'],
    rules: {
      'no-restricted-syntax': [
        'error',
        forbid(String.raw`/^\.\.\//`, 'lib/ requires only lib/ (it is the lowest room)'),
      ],
    },
  },
  {
    // The app: strategies, the call chain, the servers. Knows nothing of measuring it.
    files: ['context/**/*.js', 'handlers/**/*.js', 'servers/**/*.js'],
    rules: {
      'no-restricted-syntax': [
        'error',
        forbid(
          ROOM('bench|report|load|micro|analysis'),
          'the app does not require the benchmark (bench/, report/, load/, micro/, analysis/)',
        ),
      ],
    },
  },
  {
    files: ['app.js'],
    rules: {
      'no-restricted-syntax': [
        'error',
        forbid(
          ROOM_FROM_ROOT('bench|report|load|micro|analysis'),
          'the app does not require the benchmark (bench/, report/, load/, micro/, analysis/)',
        ),
      ],
    },
  },
  {
    // Load drivers: send requests, return what they saw.
    files: ['load/**/*.js'],
    rules: {
      'no-restricted-syntax': [
        'error',
        forbid(
          ROOM('bench|report|micro|analysis|context|handlers|servers'),
          'load/ requires only lib/: drivers sit below bench/, report/, micro/ and analysis/, and know nothing ' +
            'of the app they load',
        ),
      ],
    },
  },
  {
    // Analysis: run JSON in, figures and verdicts out. Measures nothing, formats nothing.
    files: ['analysis/**/*.js'],
    rules: {
      'no-restricted-syntax': [
        'error',
        forbid(
          ROOM('bench|report|micro|load'),
          'analysis/ does not require bench/, report/, micro/ or load/ (it computes over what they recorded; ' +
            'shared helpers live in lib/)',
        ),
        ...PROSE,
      ],
    },
  },
  {
    // The micro suite measures context operations in workers; analysis/micro.js judges them.
    files: ['micro/**/*.js'],
    rules: {
      'no-restricted-syntax': ['error', forbid(ROOM('bench|report'), 'micro/ does not require bench/ or report/')],
    },
  },
  {
    // The runner: measures and saves, never formats or parses flags. Every folder of bench/
    // (run, methods, measure, rates, processes, services, probes, app, integrity) but the commands.
    files: ['bench/**/*.js'],
    ignores: ['bench/cli/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        forbid(
          String.raw`/(^|\/)report(\/|$)|(^|\/)cli\//`,
          'bench/ does not require report/ or bench/cli/ (the commands are the top layer)',
        ),
      ],
    },
  },
  {
    // The commands: a numeric flag is checked against its one declaration (lib/settings.js
    // setting()), never with bounds written at the call.
    files: ['bench/cli/**/*.js', 'bin/**/*.js'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='number']",
          message: 'declare the flag with its bounds in lib/settings.js and check it with setting()',
        },
      ],
    },
  },
  {
    // The report formats what analysis/ computed: nothing from bench/, micro/ or load/.
    files: ['report/**/*.js'],
    // Nor the maths and pairing inside analysis/: a figure the report shows comes out of an
    // analysis function, never from a median or a ratio taken while formatting.
    rules: {
      'no-restricted-syntax': [
        'error',
        forbid(
          ROOM('bench|micro|load|servers|context|handlers'),
          'report/ requires only analysis/ and lib/: it formats what analysis computed (what it knows of the ' +
            'app comes through analysis/registry.js)',
        ),
        forbid(
          String.raw`/^(\.\.\/)+analysis\/(stats|summary|summary-ratios|summary-windows|pairing)(\.js)?$/`,
          'report/ does not compute: it takes figures from analysis/ functions, not from analysis/stats, ' +
            'summary or pairing',
        ),
      ],
    },
  },
];

// The plan (a run's `settings`) is resolved once by a command and frozen (lib/plan.js):
// no code writes into it; what measuring learns goes into the run's `learned` record.
const PLAN_NAMES = '/^(settings|plan)$/';
const PLAN_WRITES = [
  `AssignmentExpression > MemberExpression.left[object.name=${PLAN_NAMES}]`,
  `AssignmentExpression > MemberExpression.left[object.property.name=${PLAN_NAMES}]`,
  `UpdateExpression > MemberExpression.argument[object.name=${PLAN_NAMES}]`,
  `UnaryExpression[operator='delete'] > MemberExpression.argument[object.name=${PLAN_NAMES}]`,
  `CallExpression[callee.object.name='Object'][callee.property.name='assign'][arguments.0.name=${PLAN_NAMES}]`,
  `CallExpression[callee.object.name='Object'][callee.property.name='assign'][arguments.0.property.name=${PLAN_NAMES}]`,
].map((selector) => ({
  selector,
  message:
    'the plan (settings) is frozen once resolved (lib/plan.js): build a new one with freezePlan, or record ' +
    'what was learned in run.learned',
}));

module.exports = [
  { ignores: ['node_modules/', 'results/'] },
  js.configs.recommended,
  {
    languageOptions: { sourceType: 'commonjs', ecmaVersion: 2023, globals: { ...globals.node } },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_|^req$|^res$|^next$' }] },
  },
  // Every file but lib/plan.js and the tests (which build synthetic runs); with the rooms'
  // own restricted syntax merged below (a later no-restricted-syntax replaces an earlier one).
  ...[{ files: ['**/*.js'], ignores: ['lib/plan.js', 'test/**'] }, ...LAYERS].map((layer) => ({
    ...layer,
    rules: {
      'no-restricted-syntax': ['error', ...(layer.rules?.['no-restricted-syntax']?.slice(1) ?? []), ...PLAN_WRITES],
    },
  })),
  // Rooms a person can hold in mind (issue 77): at most 400 lines a file and 80 lines a
  // function outside the tests. An exception says why where it stands:
  // `// eslint-disable-next-line max-lines-per-function -- <reason>`.
  {
    files: ['**/*.js'],
    ignores: ['test/**'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  // Lines of at most 120 characters, the tests' too (issue 59). A literal that must stay
  // one token carries `// eslint-disable-line max-len -- <reason>`.
  {
    files: ['**/*.js'],
    rules: { 'max-len': ['error', { code: 120 }] },
  },
];
