'use strict';
// Valgrind's callgrind as an instruction counter for one server process: the command
// prefix that runs a server under it, and the two monitor commands that cut a
// measurement window out of its life (`zero` at the start, `dump` at the end).
//
// Why callgrind: this machine type exposes no hardware counters to the kernel (no `perf
// stat -e instructions`); callgrind counts every guest instruction (Ir) a process
// executes, deterministically when the process itself is (node --single-threaded: JIT
// compilation and GC on the main thread, docs/investigations.md). It sees no cache
// misses or memory stalls: a count is work done, not time spent.
const { execFile, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const systemTools = require('../../lib/system-tools');

// --smc-check=all-non-file: V8 writes and rewrites machine code in anonymous memory; without
// it Valgrind may run stale translations of code the JIT replaced.
const TOOL_ARGS = ['--tool=callgrind', '--smc-check=all-non-file'];
// The flags that make a Node process's count repeat from process to process:
// --single-threaded, else compilation and GC run on helper threads whose share of the work
// depends on timing; --predictable-gc-schedule ("fixes heap growing, idle, and memory
// reducing behavior"), else V8 paces garbage collection by measured speeds and a busy loop
// on the load generator's CPU moves the count of `none` (docs/investigations.md,
// "Instruction counts: what keeps the count falling, and what makes it repeat", Garbage
// collection paced by the clock); --predictable, else incremental marking sizes its
// steps by the wall time since marking began (V8's IncrementalMarkingSchedule; with
// --predictable each step counts as 1 ms), so a slower process marks in fewer, larger steps
// and collects at other request indices, so a process alone and one sharing its CPU with a
// busy loop part from the third warm-up window without it and agree with it
// (docs/investigations.md, "Instruction counts that depend on speed").
const NODE_ARGS = ['--single-threaded', '--predictable-gc-schedule', '--predictable'];
const INSTALL_HINT =
  `install it with: apt-get install -y ${systemTools.TOOLS.find((t) => t.name === 'valgrind').pkg} ` +
  `(Debian/Ubuntu)`;
const DUMP_TIMEOUT_MS = 120000;

const { setTimeout: sleep } = require('node:timers/promises');

// valgrind and vgdb (its monitor-command client) on PATH -> { valgrind, vgdb, version },
// or null.
function findValgrind() {
  const found = systemTools.find('valgrind');
  if (!found) return null;
  const [valgrind, vgdb] = found.paths;
  try {
    const version = execFileSync(valgrind, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return { valgrind, vgdb, version };
  } catch {
    return null;
  }
}

// vgdb finds a Valgrind process through FIFOs named after the USER and HOST environment
// variables of each side ("...-by-USER-on-HOST"); the server under test gets HOST from
// the runner (HOST=127.0.0.1 is its listen address), so both sides are given the same
// pair explicitly.
function identityEnv(env = process.env) {
  let user = env.USER || env.LOGNAME;
  if (!user) {
    try {
      user = os.userInfo().username;
    } catch {
      user = 'ctxbench';
    }
  }
  return { USER: user, LOGNAME: user, HOST: '127.0.0.1' };
}

// A fresh directory for one process's dump files.
function outDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-callgrind-'));
}

// The command prefix that runs `node …` under callgrind, writing dumps into dir.
// The executables as lib/system-tools.js found them (the one lookup the check used), else
// by name on PATH.
const bin = (i, name) => systemTools.find('valgrind')?.paths[i] ?? name;

function wrapper(dir) {
  return [bin(0, 'valgrind'), ...TOOL_ARGS, `--callgrind-out-file=${path.join(dir, 'cg.out')}`];
}

function monitor(pid, command, env) {
  return new Promise((resolve, reject) => {
    execFile(
      bin(1, 'vgdb'),
      [`--pid=${pid}`, command],
      { env: { ...process.env, ...env }, timeout: DUMP_TIMEOUT_MS },
      (err, stdout, stderr) => {
        if (err)
          reject(new Error(`vgdb ${command} to ${pid} failed: ${(stderr || err.message).trim().split('\n').at(-1)}`));
        else resolve(stdout);
      },
    );
  });
}

// Instructions in one dump file (its `summary:` line; `totals:` is written last, so a file
// holding it is complete).
function parseDump(text) {
  if (!/^totals:/m.test(text)) return null;
  const m = /^summary:\s+(\d+)/m.exec(text) || /^totals:\s+(\d+)/m.exec(text);
  return m ? Number(m[1]) : null;
}

// One counter for one process: zero() starts a window, dump() ends it and resolves the
// instructions executed since (callgrind numbers its dumps cg.out.1, .2, …).
function counter(pid, dir, env) {
  let dumps = 0;
  return {
    zero: () => monitor(pid, 'zero', env),
    async dump() {
      await monitor(pid, 'dump', env);
      const file = path.join(dir, `cg.out.${++dumps}`);
      const deadline = Date.now() + DUMP_TIMEOUT_MS;
      for (;;) {
        const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
        const ir = parseDump(text);
        if (ir !== null) {
          fs.rmSync(file, { force: true }); // one dump can be megabytes of per-function costs
          return ir;
        }
        if (Date.now() > deadline)
          throw new Error(`callgrind wrote no complete ${path.basename(file)} within ${DUMP_TIMEOUT_MS / 1000} s`);
        await sleep(50);
      }
    },
  };
}

module.exports = { findValgrind, identityEnv, outDir, wrapper, counter, parseDump, NODE_ARGS, TOOL_ARGS, INSTALL_HINT };
