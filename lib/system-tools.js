'use strict';
// The system tools ctxbench's tests and studies need beyond Node, in one list, and the one
// way to find each: on PATH, by the names Debian installs it under. .ci/run asks this
// module what is missing (and installs it), the tests ask it whether to skip, and the
// commands that need a tool ask it before they start anything.
//
//   node lib/system-tools.js missing   Debian packages of the tools not found, one a line
//   node lib/system-tools.js check     exit 1 with one line naming what is missing
const fs = require('node:fs');
const path = require('node:path');

// name: what the tests call it; bins: executables that must all be found (the first is
// "the" tool), or alternatives where `anyOf` is set; pkg: the Debian package; why: what
// needs it.
const TOOLS = [
  { name: 'valgrind', bins: ['valgrind', 'vgdb'], pkg: 'valgrind', why: 'instruction counts (--method instructions)' },
  {
    name: 'chromium',
    bins: ['chromium', 'chromium-browser', 'google-chrome'],
    anyOf: true,
    pkg: 'chromium',
    why: 'the HTML report opened in a headless browser',
  },
  {
    name: 'mariadb',
    bins: ['mariadbd', 'mariadb-install-db'],
    pkg: 'mariadb-server',
    why: 'the MySQL driver scenarios (a real MariaDB server)',
  },
  {
    name: 'redis',
    bins: ['redis-server'],
    pkg: 'redis-server',
    why: 'the Redis driver scenarios (a real Redis server)',
  },
  {
    name: 'strace',
    bins: ['strace'],
    pkg: 'strace',
    why: 'the proof that the APM agents send nothing beyond loopback (every connection attempt counted)',
  },
  {
    name: 'iproute2',
    bins: ['ip'],
    pkg: 'iproute2',
    why: 'the network namespace with only lo that the agents run in for that proof',
  },
];

// PATH, plus the sbin folders Debian puts servers in (mariadbd lives in /usr/sbin, which a
// non-login root shell may not have on PATH).
function searchPath(env = process.env) {
  const dirs = (env.PATH || '').split(path.delimiter).filter(Boolean);
  return [...dirs, ...['/usr/local/sbin', '/usr/sbin', '/sbin'].filter((d) => !dirs.includes(d))];
}

function which(bin, env = process.env) {
  for (const dir of searchPath(env)) {
    const file = path.join(dir, bin);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return null;
}

// find(name) -> { name, path, paths } when found, else null.
function find(name, env = process.env) {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw new Error(`unknown system tool ${name}`);
  if (tool.anyOf) {
    const found = tool.bins.map((b) => which(b, env)).find(Boolean);
    return found ? { name, path: found, paths: [found] } : null;
  }
  const paths = tool.bins.map((b) => which(b, env));
  return paths.every(Boolean) ? { name, path: paths[0], paths } : null;
}

const missing = (env = process.env) => TOOLS.filter((t) => !find(t.name, env));

// The line a test skips with, or a command fails with.
const hint = (name) => {
  const tool = TOOLS.find((t) => t.name === name);
  return `${tool.name} is not installed (${tool.why}): apt-get install -y ${tool.pkg}`;
};

module.exports = { TOOLS, find, missing, hint, which };

if (require.main === module) {
  const what = process.argv[2];
  const gone = missing();
  if (what === 'missing') {
    for (const t of gone) process.stdout.write(`${t.pkg}\n`);
  } else if (what === 'check') {
    if (gone.length) {
      process.stderr.write(
        `missing system tools: ${gone.map((t) => `${t.name} (Debian package ${t.pkg}: ${t.why})`).join('; ')}\n`,
      );
      process.exitCode = 1;
    }
  } else {
    process.stderr.write('usage: node lib/system-tools.js missing|check\n');
    process.exitCode = 2;
  }
}
