'use strict';
// The registry: the only place that maps a strategy name to its module.
// Metadata lives here rather than in the modules so that listing strategies (--help,
// reports, the runner) never requires one: requiring cls-hooked or alscontext's CLS
// installs an async hook that slows every promise in the process.

const STRATEGIES = {
  none: {
    describe: 'no context at all: the floor every other strategy is measured against',
    carriesContext: false,
  },
  param: {
    describe: 'id passed down the call chain as an argument (the App Engine study\'s baseline)',
    carriesContext: true,
  },
  'cls-hooked': {
    describe: 'cls-hooked namespace (async_hooks createHook)',
    carriesContext: true,
  },
  alscontext: {
    describe: 'alscontext CLS part (its own async_hooks createHook), as the als-context benchmark used',
    carriesContext: true,
  },
  'alscontext-als': {
    describe: 'alscontext ALS part (a Map-store wrapper over AsyncLocalStorage)',
    carriesContext: true,
  },
  als: {
    describe: 'native AsyncLocalStorage holding the id',
    carriesContext: true,
  },
  otel: {
    describe: 'OpenTelemetry context API with AsyncLocalStorageContextManager, id in a context key',
    carriesContext: true,
  },
  global: {
    describe: 'CONTROL: a module-level variable; must be reported as leaking under concurrency',
    carriesContext: true,
    control: true,
  },
};

const names = Object.keys(STRATEGIES);

function info(name) {
  const meta = STRATEGIES[name];
  if (!meta) throw new Error(`unknown strategy '${name}' (valid: ${names.join(', ')})`);
  return { name, ...meta };
}

// Loads exactly one strategy module. Call once per process.
function load(name) {
  const meta = info(name);
  const impl = require(`./${name}.js`);
  return { ...meta, run: impl.run, current: impl.current, bind: impl.bind };
}

module.exports = { names, info, load };
