'use strict';
// A real MariaDB for the MySQL driver scenarios: Debian's mariadbd on a free loopback port,
// its data directory made fresh in a temporary folder by mariadb-install-db (quick enough
// that no prepared copy is kept: docs/investigations.md, "Figures that code comments
// carried"), root without a password on 127.0.0.1 only. Ready when a query answers;
// stopped (SIGTERM, then SIGKILL) and its folder removed on every exit path: the session's
// stop, a failure while starting, and this process exiting (a second
// Ctrl-C included: the server is a child in our process group, and the exit hook removes
// the folder). As root, mariadbd and mariadb-install-db need --user=root.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, execFileSync } = require('node:child_process');
const { setTimeout: sleep } = require('node:timers/promises');
const systemTools = require('../../lib/system-tools');
const { freePort } = require('../../lib/free-port');
const { OneLineError } = require('../../lib/fatal');

const READY_TIMEOUT_MS = 30000;
const STOP_GRACE_MS = 10000;

class MariadbError extends OneLineError {}

// One query over a fresh connection: resolves the server's version, or null.
function version(port) {
  // Loaded here: every command that can start services loads this file, and mysql2 takes
  // noticeable time to load (docs/investigations.md, "Figures that code comments carried"), which only a run
  // with a MySQL scenario should pay.
  const mysql = require('mysql2');
  return new Promise((resolve) => {
    const c = mysql.createConnection({ host: '127.0.0.1', port, user: 'root', connectTimeout: 1000 });
    c.on('error', () => {});
    c.query('SELECT VERSION() AS v', (err, rows) => {
      c.destroy();
      resolve(err ? null : rows[0].v);
    });
  });
}

// -> { url, version, pid, dir, stop() }; throws a one-line MariadbError.
async function startMariadb({ cpu = null } = {}) {
  const found = systemTools.find('mariadb');
  if (!found) throw new MariadbError(systemTools.hint('mariadb'));
  const [mariadbd, installDb] = found.paths;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-mariadb-'));
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeDir);
  const asRoot = process.getuid?.() === 0 ? ['--user=root'] : [];
  const data = path.join(dir, 'data');
  try {
    execFileSync(
      installDb,
      ['--no-defaults', ...asRoot, `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db'],
      { stdio: 'pipe' },
    );
  } catch (err) {
    removeDir();
    process.removeListener('exit', removeDir);
    throw new MariadbError(
      `mariadb-install-db failed: ${String(err.stderr || err.message)
        .trim()
        .split('\n')
        .at(-1)}`,
    );
  }
  const port = await freePort();
  const log = path.join(dir, 'error.log');
  const args = [
    '--no-defaults',
    ...asRoot,
    `--datadir=${data}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    `--socket=${path.join(dir, 'mysqld.sock')}`,
    `--pid-file=${path.join(dir, 'mysqld.pid')}`,
    `--log-error=${log}`,
    '--skip-log-bin',
    '--innodb-buffer-pool-size=16M',
  ];
  const [command, argv] = cpu === null ? [mariadbd, args] : ['taskset', ['-c', String(cpu), mariadbd, ...args]];
  const child = spawn(command, argv, { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let gone = null;
  exited.then((e) => (gone = e));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await Promise.race([exited, sleep(STOP_GRACE_MS).then(() => null)]))) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    removeDir();
    process.removeListener('exit', removeDir);
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const answered = await version(port);
    if (answered) return { url: `mysql://root@127.0.0.1:${port}`, version: answered, pid: child.pid, dir, stop };
    if (gone || Date.now() > deadline) {
      const last = fs.existsSync(log)
        ? (fs
            .readFileSync(log, 'utf8')
            .trim()
            .split('\n')
            .filter((l) => /ERROR/.test(l))
            .at(-1) ?? '')
        : '';
      await stop();
      throw new MariadbError(
        `mariadbd did not answer on port ` +
          `${port}` +
          `${gone ? ` (it exited: ${gone.signal ?? `code ${gone.code}`})` : ` within ${READY_TIMEOUT_MS / 1000} s`}` +
          `${last ? `: ${last}` : ''}`,
      );
    }
    await sleep(100);
  }
}

module.exports = { startMariadb, MariadbError };
