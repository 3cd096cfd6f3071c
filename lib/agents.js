'use strict';
// The APM agents measured as strategies (context/sentry.js, context/datadog.js): which
// package and version, where it is installed, and on which runtimes it runs.
//
// They are large (~95 MB and ~100 MB installed, measured) and only the agent strategies
// use them, so neither a deploy nor a plain install of ctxbench pulls them in: the first
// run that needs one installs it, pinned, into the cache beside the Node binaries
// (lib/cache-install.js) and every server loads it from there. Nothing they send leaves
// the machine: their endpoint is ctxbench's local sink (bench/services/agent-sink.js, SINK_URL).
const fs = require('node:fs');
const path = require('node:path');
const { installIntoCache, oneLineError } = require('./cache-install');
const { cacheDirectory } = require('./node-versions');

const AGENTS = {
  sentry: { package: '@sentry/node', version: '11.12.0', size: '~95 MB' },
  datadog: { package: 'dd-trace', version: '6.21.0', size: '~100 MB' },
};

function agent(name) {
  const spec = AGENTS[name];
  if (!spec) throw new Error(`unknown agent ${name}`);
  return spec;
}

const spec = (name) => `${agent(name).package}@${agent(name).version}`;
const prefixOf = (name, env = process.env) => path.join(cacheDirectory(env), `agent-${name}-${agent(name).version}`);
const packageDir = (prefix, name) => path.join(prefix, 'node_modules', ...agent(name).package.split('/'));
const manifestIn = (name) => (prefix) => path.join(packageDir(prefix, name), 'package.json');

// -> the installed package's directory, installing it first when the cache lacks it.
async function ensureAgent(name, { log = () => {}, env = process.env } = {}) {
  const prefix = prefixOf(name, env);
  await installIntoCache({ specs: [spec(name)], prefix, installed: manifestIn(name), log, note: agent(name).size });
  return packageDir(prefix, name);
}

const installed = (name, env = process.env) => fs.existsSync(manifestIn(name)(prefixOf(name, env)));

// In a server: the agent's module, or a one-line error saying how it gets installed.
function requireAgent(name, env = process.env) {
  if (!installed(name, env)) {
    throw oneLineError(
      `STRATEGY=${name} needs ${spec(name)} in ${prefixOf(name, env)}: ctxbench installs it there on first ` +
        `use (any ctxbench command that starts a ${name} server)`,
    );
  }
  return require(packageDir(prefixOf(name, env), name));
}

// Why the agent cannot run on this Node version (its package's engines field), or null.
// Reads the installed package: the range is the package's own word, not a copy of it.
function runtimeProblem(name, nodeVersion, env = process.env) {
  if (!installed(name, env)) return null;
  const range = JSON.parse(fs.readFileSync(manifestIn(name)(prefixOf(name, env)), 'utf8')).engines?.node;
  // semver parses npm's ranges; loaded here because only the commands ask (servers do not).
  const semver = require('semver');
  if (!range || semver.satisfies(String(nodeVersion).replace(/^v/, ''), range)) return null;
  return `${spec(name)} supports Node ${range}, not ${nodeVersion}`;
}

module.exports = { AGENTS, ensureAgent, requireAgent, runtimeProblem, installed, spec, prefixOf };
