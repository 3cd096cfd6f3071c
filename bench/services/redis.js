'use strict';
// A real Redis for the Redis driver scenarios: Debian's redis-server on a free loopback
// port, its working directory a temporary folder, nothing persisted (no RDB, no AOF).
// Ready when it answers PING; stopped (SIGTERM, then SIGKILL) and its folder removed on
// every exit path: the session's stop, a failure while starting, and this process exiting
// (a second Ctrl-C included: the server is a child in our process group, and the exit
// hook removes the folder).
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { spawn, execFileSync } = require('node:child_process');
const { setTimeout: sleep } = require('node:timers/promises');
const systemTools = require('../../lib/system-tools');
const { freePort } = require('../../lib/free-port');
const { OneLineError } = require('../../lib/fatal');

const READY_TIMEOUT_MS = 15000;

class RedisError extends OneLineError {}

// One PING over a fresh connection: resolves true on +PONG.
function ping(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      answer += d;
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

// -> { url, version, pid, dir, stop() }; throws a one-line RedisError.
async function startRedis({ cpu = null } = {}) {
  const found = systemTools.find('redis');
  if (!found) throw new RedisError(systemTools.hint('redis'));
  const version = /v=(\S+)/.exec(execFileSync(found.path, ['--version'], { encoding: 'utf8' }))?.[1] ?? null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-redis-'));
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeDir);
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'no',
    '--daemonize',
    'no',
    '--logfile',
    path.join(dir, 'redis.log'),
  ];
  const [command, argv] = cpu === null ? [found.path, args] : ['taskset', ['-c', String(cpu), found.path, ...args]];
  const child = spawn(command, argv, { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const ended = await Promise.race([exited, sleep(5000).then(() => null)]);
      if (!ended) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    removeDir();
    process.removeListener('exit', removeDir);
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let gone = null;
  exited.then((e) => (gone = e));
  while (!(await ping(port))) {
    if (gone || Date.now() > deadline) {
      const log = fs.existsSync(path.join(dir, 'redis.log'))
        ? fs.readFileSync(path.join(dir, 'redis.log'), 'utf8').trim().split('\n').at(-1)
        : '';
      await stop();
      throw new RedisError(
        `redis-server did not answer on port ` +
          `${port}` +
          `${gone ? ` (it exited: ${gone.signal ?? `code ${gone.code}`})` : ` within ${READY_TIMEOUT_MS / 1000} s`}` +
          `${log ? `: ${log}` : ''}`,
      );
    }
    await sleep(50);
  }
  return { url: `redis://127.0.0.1:${port}`, version, pid: child.pid, dir, stop };
}

module.exports = { startRedis, RedisError };
