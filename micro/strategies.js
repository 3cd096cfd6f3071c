'use strict';
// Which strategies `ctxbench micro` may measure: the registry's (context/index.js), plus,
// FOR TESTS ONLY, modules named in the environment variable CTXBENCH_MICRO_EXTRA.
//
//   CTXBENCH_MICRO_EXTRA=/abs/path/planted-slow.js[,/abs/other.js]
//
// Each file is a strategy module ({ run(id, fn), current(req), carriesContext? }) whose
// name is its file name without `.js`. test/micro.test.js uses it to plant a strategy
// with a known cost and check that the benchmark reports it. It is not a feature: it is
// not in --help, and the run JSON records the extra modules under settings.extra so a
// result produced with one can never pass for a normal run.
const path = require('node:path');
const registry = require('../context');

const ENV = 'CTXBENCH_MICRO_EXTRA';

function extraModules(env = process.env) {
  const raw = env[ENV];
  if (!raw) return {};
  const out = {};
  for (const file of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (!path.isAbsolute(file)) throw new Error(`${ENV}: '${file}' is not an absolute path`);
    const name = path.basename(file).replace(/\.[cm]?js$/, '');
    if (registry.names.includes(name)) throw new Error(`${ENV}: '${name}' would shadow a registered strategy`);
    out[name] = file;
  }
  return out;
}

function names(env = process.env) {
  return [...registry.names, ...Object.keys(extraModules(env))];
}

function info(name, env = process.env) {
  const extra = extraModules(env);
  if (Object.hasOwn(extra, name)) {
    return { name, describe: `test-only module ${extra[name]}`, carriesContext: true, extra: extra[name] };
  }
  return registry.info(name);
}

// Loads exactly one strategy. Call once per process (micro/worker.js does).
function load(name, env = process.env) {
  const extra = extraModules(env);
  if (Object.hasOwn(extra, name)) {
    const impl = require(extra[name]);
    return {
      name,
      describe: impl.describe || `test-only module ${extra[name]}`,
      carriesContext: impl.carriesContext !== false,
      extra: extra[name],
      run: impl.run,
      current: impl.current,
      bind: impl.bind,
    };
  }
  return registry.load(name);
}

module.exports = { ENV, extraModules, names, info, load };
