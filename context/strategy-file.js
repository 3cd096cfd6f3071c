'use strict';
// A team's own strategy, loaded from a file (`--strategy-file`): the public form of the
// strategy interface. The file is inspected in a child process, never in the runner:
// requiring a strategy may install async hooks, which would slow the load generator
// (and a file that throws or hangs must not take the runner with it).
//
// The interface (docs/strategies.md):
//   name        lower-case letters, digits and dashes; not a built-in strategy's
//   describe    one line for --help and reports
//   run(id, fn) run fn (the rest of the request) in a fresh context holding id
//   current()   the id, at any depth
//   bind(fn)    optional: fn bound to the current context (for callbacks and emitters)
//   enter(id)   optional: enterWith-style, the rest of this execution holds id
//   exit(fn)    optional: run fn outside any context
//   (enter and exit are used only by the Node-upgrade integrity scenarios)
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

// How the servers learn the user's strategies: JSON [{ name, describe, file }].
const ENV = 'CTXBENCH_STRATEGY_FILES';
const NAME = /^[a-z][a-z0-9-]{0,39}$/;

const PROBE = `
const file = process.argv[1];
let m;
try { m = require(file); } catch (err) { process.stdout.write(JSON.stringify({ threw: String(err && err.message || \
err).split('\\n')[0] })); process.exit(0); }
const kind = (k) => typeof (m && m[k]);
process.stdout.write(JSON.stringify({ name: m && m.name, describe: m && m.describe, run: kind('run'), current: \
kind('current'), bind: kind('bind'), enter: kind('enter'), exit: kind('exit') }));
process.exit(0);
`;

// inspect(file, builtIns) -> { name, describe, file } or throws an Error whose message is
// one line naming the file and what is wrong with it.
function inspect(file, builtIns = []) {
  const abs = path.resolve(file);
  const say = (what) => new Error(`strategy file ${file}: ${what}`);
  if (!fs.existsSync(abs)) throw say('does not exist');
  if (!fs.statSync(abs).isFile()) throw say('is not a file');
  let out;
  try {
    out = execFileSync(process.execPath, ['-e', PROBE, abs], {
      encoding: 'utf8',
      timeout: 20000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    throw say(
      err.signal === 'SIGTERM'
        ? 'did not finish loading within 20 s'
        : `could not be loaded (${String(err.stderr || err.message)
            .trim()
            .split('\n')
            .pop()})`,
    );
  }
  let m;
  try {
    m = JSON.parse(out);
  } catch {
    throw say('printed to stdout while loading; a strategy file must not');
  }
  if (m.threw) throw say(`throws when loaded: ${m.threw}`);
  if (m.run !== 'function') throw say('does not export run(id, fn)');
  if (m.current !== 'function') throw say('does not export current()');
  for (const op of ['bind', 'enter', 'exit'])
    if (m[op] !== 'undefined' && m[op] !== 'function') throw say(`exports ${op}, but not as a function`);
  if (typeof m.name !== 'string' || !NAME.test(m.name))
    throw say(
      `must export name: lower-case letters, digits and dashes, starting with a letter (got ` +
        `${JSON.stringify(m.name ?? null)})`,
    );
  if (builtIns.includes(m.name)) throw say(`name '${m.name}' is a built-in strategy's; choose another`);
  if (typeof m.describe !== 'string' || !m.describe.trim())
    throw say('must export describe: one line saying what it is');
  const operations = ['enter', 'exit'].filter((op) => m[op] === 'function');
  return { name: m.name, describe: m.describe.split('\n')[0], file: abs, operations };
}

// The entries a process was started with (servers), or none.
function fromEnv(env = process.env) {
  if (!env[ENV]) return [];
  const list = JSON.parse(env[ENV]);
  return Array.isArray(list) ? list : [];
}

module.exports = { inspect, fromEnv, ENV };
