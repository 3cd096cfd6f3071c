'use strict';
const js = require('@eslint/js');
const globals = require('globals');

// The rooms of the tree and what each may require (docs/architecture.md): a lower room
// never requires a higher one. `require` calls are matched by their path.
const forbid = (pattern, why) => ({ selector: `CallExpression[callee.name='require'][arguments.0.value=${pattern}]`, message: why });
const LAYERS = [
  {
    // The app: strategies, the call chain, the servers. Knows nothing of measuring it.
    files: ['context/**/*.js', 'handlers/**/*.js', 'servers/**/*.js'],
    rules: { 'no-restricted-syntax': ['error', forbid(String.raw`/(^|\/)(bench|report|load|micro)(\/|$)/`, 'the app does not require the benchmark (bench/, report/, load/, micro/)')] },
  },
  {
    // The runner and the analysis: measure and compute, never format or parse flags.
    files: ['bench/*.js'],
    rules: { 'no-restricted-syntax': ['error', forbid(String.raw`/(^|\/)report(\/|$)|(^|\/)cli\//`, 'bench/ does not require report/ or bench/cli/ (the commands are the top layer)')] },
  },
  {
    // The report formats what bench/ computed; the commands are above it.
    files: ['report/**/*.js'],
    rules: { 'no-restricted-syntax': ['error', forbid(String.raw`/(^|\/)bench\/cli(\/|$)/`, 'report/ does not require bench/cli/: analysis lives in bench/')] },
  },
];

module.exports = [
  { ignores: ['node_modules/', 'results/'] },
  js.configs.recommended,
  {
    languageOptions: { sourceType: 'commonjs', ecmaVersion: 2023, globals: { ...globals.node } },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_|^req$|^res$|^next$' }] },
  },
  ...LAYERS,
];
