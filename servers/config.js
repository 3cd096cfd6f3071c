'use strict';
// Server configuration from the environment. Every value is checked before anything
// starts; a bad one becomes a ConfigError whose message is the single line printed.
const strategies = require('../context');
const hops = require('../handlers/hops');
const logs = require('../handlers/log');
const frameworks = require('./index');

const { MAX_DEPTH, SERVER_SETTINGS } = require('../lib/settings');
// STORES: extra live AsyncLocalStorage instances per request (handlers/stores.js).
const MAX_STORES = 1000;
// OTEL_EXPORTER: memory (bounded in-memory), none (spans made, never exported),
// otlp-unreachable (OTLP/HTTP to a loopback port where nothing listens, as the study did).
const OTEL_EXPORTERS = ['memory', 'none', 'otlp-unreachable'];

class ConfigError extends Error {}

function bad(variable, value, valid) {
  return new ConfigError(`${variable}=${JSON.stringify(value)} is not valid; expected ${valid}`);
}

function oneOf(env, variable, names, fallback) {
  const value = env[variable] ?? fallback;
  if (!names.includes(value)) throw bad(variable, value, `one of: ${names.join(', ')}`);
  return value;
}

function integer(env, variable, fallback, min, max) {
  const raw = env[variable];
  if (raw === undefined) return fallback;
  const text = String(raw).trim();
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) throw bad(variable, raw, `an integer from ${min} to ${max}`);
  return value;
}

// App Engine and Cloud Run route to the container from outside; locally stay on loopback.
function defaultHost(env) {
  return env.GAE_SERVICE || env.K_SERVICE ? '0.0.0.0' : '127.0.0.1';
}

// HOP=pg / HOP=http and the pg and undici integrity scenarios: where the database and
// the downstream service are, and how many clients each pg.Pool holds (fewer than the
// requests in flight, so that requests wait for a client as they do in production).
function ioConfig(env, hop) {
  const pgUrl = env.PG_URL || null;
  if (pgUrl && !/^postgres(ql)?:\/\/\S+$/.test(pgUrl))
    throw bad('PG_URL', '(hidden)', 'a postgres://user:password@host:port/database URL');
  const mysqlUrl = env.MYSQL_URL || null;
  if (mysqlUrl && !/^mysql:\/\/[^\s/]+\/?$/.test(mysqlUrl))
    throw bad('MYSQL_URL', '(hidden)', 'mysql://user[:password]@host:port');
  const redisUrl = env.REDIS_URL || null;
  if (redisUrl && !/^redis:\/\/[^\s/]+\/?$/.test(redisUrl)) throw bad('REDIS_URL', redisUrl, 'redis://host:port');
  const downstreamUrl = env.DOWNSTREAM_URL || null;
  if (downstreamUrl && !/^https?:\/\/[^\s/]+\/?$/.test(downstreamUrl))
    throw bad('DOWNSTREAM_URL', downstreamUrl, 'http://host:port');
  const needs = (h, what, started) =>
    new ConfigError(`HOP=${h} needs ${what}; \`ctxbench run\` starts ${started} and sets it`);
  if (hop === 'pg' && !pgUrl) throw needs('pg', 'PG_URL (postgres://user:password@host:port/database)', 'a PostgreSQL');
  if (hop === 'mysql' && !mysqlUrl)
    throw needs('mysql', 'MYSQL_URL (mysql://user@host:port of a MySQL or MariaDB server)', 'a MariaDB');
  if (hop === 'redis' && !redisUrl) throw needs('redis', 'REDIS_URL (redis://host:port)', 'a redis-server');
  if (hop === 'http' && !downstreamUrl)
    throw needs('http', 'DOWNSTREAM_URL (http://host:port of `node handlers/downstream.js`)', 'one');
  return {
    pgUrl,
    pgPoolSize: integer(env, 'PG_POOL_SIZE', 10, 1, 1000),
    mysqlUrl,
    redisUrl,
    downstreamUrl: downstreamUrl && downstreamUrl.replace(/\/$/, ''),
  };
}

// SINK_URL: where the strategies with an endpoint send (the APM agents' spans, the OTLP
// rows' traces, metrics and logs), ctxbench's local sink (bench/services/agent-sink.js): required by
// each row the registry gives a `sink`. Without it an SDK would retry a default endpoint
// (Sentry: none; dd-trace: localhost:8126; OTLP: localhost:4318) and measure that instead.
function sinkUrl(env, strategy) {
  const url = env.SINK_URL || null;
  if (url && !/^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+\/?$/.test(url))
    throw bad('SINK_URL', url, 'http://127.0.0.1:port (a sink on this machine: nothing an agent sends may leave it)');
  if (!url && strategies.info(strategy).sink) {
    throw new ConfigError(
      `STRATEGY=${strategy} needs SINK_URL (http://127.0.0.1:port of \`node bench/services/agent-sink.js\`);` +
        " ctxbench's commands start one and set it",
    );
  }
  return url && url.replace(/\/$/, '');
}

// What a configuration of the matrix sets in a server's environment, and its checks: the
// one declaration of these variables' names, defaults and bounds (those a flag also sets,
// DEPTH, are declared with the flag in lib/settings.js: its `env`, bounds and
// default.server, read into the field its `plan` names). loadConfig reads them at
// start-up, envOf writes them for a server ctxbench starts, and `deploy` checks a yaml's
// env_variables with the same function, so a bad DEPTH reads the same wherever it is set.
function serverSettings(env) {
  return {
    strategy: oneOf(env, 'STRATEGY', strategies.names, 'param'),
    ...Object.fromEntries(SERVER_SETTINGS.map((s) => [s.plan, integer(env, s.env, s.default.server, s.min, s.max)])),
    hop: oneOf(env, 'HOP', hops.names, 'await'),
    framework: oneOf(env, 'FRAMEWORK', frameworks.names, 'express'),
    log: oneOf(env, 'LOG', logs.names, 'none'),
    burnUs: integer(env, 'BURN_US', 0, 0, 1e6),
    stores: integer(env, 'STORES', 0, 0, MAX_STORES),
  };
}

// A configuration -> the variables serverSettings reads (every one given: a server started
// by ctxbench never falls back to a default the run did not record; one a configuration
// does not carry is given its declared default, as BURN_US and STORES are).
function envOf(config) {
  const { strategy, hop, framework, log, burnUs, stores } = config;
  return {
    STRATEGY: strategy,
    ...Object.fromEntries(SERVER_SETTINGS.map((s) => [s.env, String(config[s.plan] ?? s.default.server)])),
    HOP: hop,
    FRAMEWORK: framework,
    LOG: log || 'none',
    BURN_US: String(burnUs || 0),
    STORES: String(stores || 0),
  };
}

function loadConfig(env = process.env) {
  const host = env.HOST ?? defaultHost(env);
  if (!/^[\w.:-]{1,253}$/.test(host)) throw bad('HOST', host, 'a host name or IP address');
  const { strategy, depth, hop, framework, log, burnUs, stores } = serverSettings(env);
  const config = {
    strategy,
    depth,
    hop,
    ...ioConfig(env, hop),
    framework,
    log,
    // Where the otel-selective / otel-full strategies send spans (ignored by the others).
    otelExporter: oneOf(env, 'OTEL_EXPORTER', OTEL_EXPORTERS, 'memory'),
    burnUs,
    stores,
    port: integer(env, 'PORT', 8080, 0, 65535),
    host,
    project: env.GOOGLE_CLOUD_PROJECT || 'local',
  };
  const problem = strategies.frameworkProblem(config.strategy, config.framework);
  if (problem) throw new ConfigError(problem);
  config.sinkUrl = sinkUrl(env, config.strategy);
  return config;
}

module.exports = { loadConfig, serverSettings, envOf, ConfigError, MAX_DEPTH, MAX_STORES, OTEL_EXPORTERS };
