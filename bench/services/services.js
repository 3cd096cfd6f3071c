'use strict';
// What a run's servers talk to when HOP=pg or HOP=http is measured (and what the pg /
// undici integrity scenarios use): a PostgreSQL (embedded, started here, unless
// --pg-url names one) and the downstream ctxbench service. startServices() returns the
// environment to give every server (PG_URL, DOWNSTREAM_URL) and a stop() to call in a
// `finally`; both children also stop by themselves when this process goes away (their
// stdin is a pipe from it), so an interrupted or crashed run leaves nothing behind.
//
// Where they run: pinned with the load generator to CPU 0 (servers are on CPU 1). The
// server CPU is the thing measured: a PostgreSQL backend or the downstream sharing it
// would take time from the server under test in proportion to its throughput, and
// would bill the database's own CPU to every strategy's server. On a real deployment
// the database and the next service are other machines; here they share the load
// generator's CPU, whose saturation the runner already watches and warns about.
const { spawnListening } = require('../processes/server-process');
const { getJson } = require('../measure/http-client');
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const { spawnSync } = require('node:child_process');
const { treeOf } = require('../processes/proc-cpu');
const { startPostgres } = require('./postgres');
const { startRedis } = require('./redis');
const { startMariadb } = require('./mariadb');
const { cpus } = require('../../lib/cpus');
const { OneLineError } = require('../../lib/fatal');
const strategies = require('../../context');

const DOWNSTREAM = path.resolve(__dirname, '..', '..', 'handlers', 'downstream.js');
const SINK = path.join(__dirname, 'agent-sink.js');
const READY_TIMEOUT_MS = 15000;

class ServicesError extends OneLineError {}

// The downstream service and the agents' sink, through the one spawn helper
// (bench/processes/server-process.js): ready on their listening line, stopped with SIGTERM then SIGKILL.
async function startHelper(script, what, { cpu = null } = {}) {
  const argv = [script];
  const [command, args] =
    cpu === null ? [process.execPath, argv] : ['taskset', ['-c', String(cpu), process.execPath, ...argv]];
  try {
    const s = await spawnListening(command, args, {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
      timeoutMs: READY_TIMEOUT_MS,
      detached: true,
      unrefPipes: true,
    });
    return { url: s.url, pid: s.pid, stop: s.stop };
  } catch (err) {
    const tail = err.stderrTail ? `: ${err.stderrTail.split('\n').pop()}` : '';
    throw new ServicesError(`${what} could not start: ${err.message}${tail}`);
  }
}

const startDownstream = (options) => startHelper(DOWNSTREAM, 'the downstream service', options);
const startSink = (options) => startHelper(SINK, 'the agent sink', options);

// Whether a strategy sends to the local sink (the registry's `sink`); false for a name this
// tree does not know (a remote target's).
function needsSink(name) {
  return strategies.names.includes(name) && Boolean(strategies.info(name).sink);
}

// What the agents' sink received so far (bench/services/agent-sink.js), or null if it cannot say.
function sinkCounts(url) {
  return getJson(`${url}/__counts`).catch(() => null);
}

// The span check per request named, for the requests whose id starts with prefix.
function sinkOwners(url, prefix) {
  return getJson(`${url}/__owners?prefix=${encodeURIComponent(prefix)}`).catch(() => null);
}

// need: { pg, http } booleans (which services the configurations use); pgUrl: an
// existing PostgreSQL to use instead of starting one; pinned: whether servers are
// pinned (then the services share the load generator's CPU, lib/cpus.js). Resolves { env, pg, downstream, stop }.
async function startServices({
  need = { pg: true, http: true, redis: false, mysql: false, sink: false },
  pgUrl = null,
  pinned = false,
} = {}) {
  const cpu = pinned ? cpus().loadgen : null;
  const started = [];
  const env = {};
  const result = {
    env,
    pg: null,
    downstream: null,
    redis: null,
    mysql: null,
    sink: null,
    stop: () => Promise.all(started.map((s) => s.stop().catch(() => {}))).then(() => undefined),
  };
  try {
    if (need.pg) {
      if (pgUrl) {
        await checkPostgres(pgUrl);
        result.pg = { url: pgUrl, embedded: false };
      } else {
        const pg = await startPostgres({ cpu });
        started.push(pg);
        result.pg = { url: pg.url, embedded: true, pid: pg.postgresPid, dir: pg.dir };
      }
      env.PG_URL = result.pg.url;
    }
    if (need.http) {
      const downstream = await startDownstream({ cpu });
      started.push(downstream);
      result.downstream = { url: downstream.url, pid: downstream.pid };
      env.DOWNSTREAM_URL = downstream.url;
    }
    if (need.sink) {
      const sink = await startSink({ cpu });
      started.push(sink);
      result.sink = { url: sink.url, pid: sink.pid };
      env.SINK_URL = sink.url;
    }
    if (need.redis) {
      const redis = await startRedis({ cpu });
      started.push(redis);
      result.redis = { url: redis.url, version: redis.version, pid: redis.pid, dir: redis.dir };
      env.REDIS_URL = redis.url;
    }
    if (need.mysql) {
      const db = await startMariadb({ cpu });
      started.push(db);
      result.mysql = { url: db.url, version: db.version, pid: db.pid, dir: db.dir };
      env.MYSQL_URL = db.url;
    }
  } catch (err) {
    await result.stop();
    throw err;
  }
  // The load generator is the measuring instrument: the services on its CPU yield to it.
  if (pinned) for (const s of started) yieldToGenerator(s.postgresPid ?? s.pid);
  return result;
}

// Every thread of a service's process tree under SCHED_IDLE (the threads and backends it
// makes later inherit it), or at nice 10 where chrt cannot set it: their bursts do not make
// the generator late. The scheduler preempts an idle-policy task as soon as a normal one
// wakes, where nice only shares the CPU by weight: at one priority PostgreSQL's bursts made
// the generator late, and nice 10 helped less than the idle policy (docs/method.md, "The
// thread, and the services' priority"; the figures at nice 10: docs/investigations.md,
// "Figures that code comments carried").
const SERVICE_NICE = 10;
function yieldToGenerator(pid) {
  if (!Number.isInteger(pid)) return;
  for (const p of treeOf(pid)) {
    if (spawnSync('chrt', ['--idle', '--all-tasks', '--pid', '0', String(p)], { stdio: 'ignore' }).status === 0)
      continue;
    let tasks;
    try {
      tasks = fs.readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        os.setPriority(Number(tid), SERVICE_NICE);
      } catch {
        // gone, or not ours to change: it keeps its priority
      }
    }
  }
}

// --pg-url: one query before anything starts, so a wrong URL is one line, not a run
// full of 500s.
async function checkPostgres(url) {
  // Loaded here: only --pg-url needs a client in this process, and pg is slow to load
  // (docs/investigations.md, "Figures that code comments carried").
  const { Client } = require('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (err) {
    throw new ServicesError(`--pg-url: cannot query PostgreSQL at ${redact(url)} (${err.code || err.message})`);
  } finally {
    await client.end().catch(() => {});
  }
}

// The password never goes to a log or a result file.
function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(not a URL)';
  }
}

// The project's folder. A command is recorded with the paths under it relative to it
// (`--out results/x.json`, not `--out /home/me/ctxbench/results/x.json`): where the project
// was checked out says nothing of the run, and the committed pages show the commands. Only
// the absolute paths are rewritten (a relative one is kept as typed); paths elsewhere (a
// scratch file in /tmp, a Node binary in the cache) are kept, and the report shortens them
// (report/pages.js shownPaths).
const PROJECT = path.resolve(__dirname, '..', '..');

// text with every absolute path under root made relative to it (root itself: '.').
function projectRelative(text, root = PROJECT) {
  const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const under = new RegExp(String.raw`(?<![\w.~/-])${escaped}(/|(?=[\s"'=:;,)]|$))`, 'g');
  return String(text).replace(under, (_, slash) => (slash === '/' ? '' : '.'));
}

// The command line as recorded in result files: --pg-url's password hidden, the project's
// paths relative to it.
function redactArgs(args) {
  return args.map((arg, i) => {
    if (arg.startsWith('--pg-url=')) return `--pg-url=${redact(arg.slice('--pg-url='.length))}`;
    return args[i - 1] === '--pg-url' ? redact(arg) : projectRelative(arg);
  });
}

// Which services a list of hops (and integrity scenarios) needs.
// What a run's servers need: by their hops, and the sink when a strategy sends to one (the
// APM agents, the OTLP rows: the registry's `sink`).
function needsOf(hopNames, strategyNames = []) {
  // A remote target's configurations name no strategy of this tree (null).
  const sink = strategyNames.some((name) => needsSink(name));
  return {
    pg: hopNames.includes('pg'),
    http: hopNames.includes('http'),
    redis: hopNames.includes('redis'),
    mysql: hopNames.includes('mysql'),
    sink,
  };
}

// A service failure is the user's to fix (or the machine's): one line, no stack.
module.exports = {
  startServices,
  startDownstream,
  startSink,
  sinkCounts,
  sinkOwners,
  checkPostgres,
  needsOf,
  needsSink,
  redact,
  redactArgs,
  projectRelative,
};
