'use strict';
// The one way ctxbench installs npm packages it does not ship (Node binaries of other
// majors, Artillery, the APM agents) into its cache, outside the repository and outside a
// team's node_modules: `npm install --prefix <temp>` and a rename into place, so an
// interrupted or concurrent install never leaves a half-written cache entry.
// --ignore-scripts: an install script that downloads a binary of its own would need a
// network we may not have; what these packages need at run time ships inside them.
const { execFile } = require('node:child_process');
const fs = require('node:fs');

const NETWORK_CODES = new RegExp(
  'E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH|HOSTUNREACH|SOCKETTIMEOUT)' +
    '|network|timed out|FETCH_ERROR',
  'i',
);

function oneLineError(message) {
  const err = new Error(
    String(message)
      .replace(/\s*\n\s*/g, ' ')
      .trim(),
  );
  err.oneLine = true;
  return err;
}

const npmCommand = () => (process.platform === 'win32' ? 'npm.cmd' : 'npm');

function firstLine(text) {
  return (
    String(text)
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l && !/^npm warn/i.test(l)) || ''
  );
}

function exec(file, args, { timeout }) {
  return new Promise((resolve) => {
    execFile(file, args, { timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ error, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

// specs: ['pkg@version', …]; prefix: the cache entry; installed(dir) -> the file that
// proves an install in dir is whole (a binary, an entry module); note: what the log line
// adds (its size, …). Resolves installed(prefix), installing only when it is missing.
async function installIntoCache({ specs, prefix, installed, log = () => {}, timeoutMs = 600_000, note = '' }) {
  if (fs.existsSync(installed(prefix))) return installed(prefix);
  const what = specs.join(' ');
  const temp = `${prefix}.tmp-${process.pid}-${Date.now()}`;
  fs.mkdirSync(temp, { recursive: true });
  log(`installing ${what} into ${prefix} (once${note ? `, ${note}` : ''}; later runs reuse it)`);
  try {
    const args = [
      'install',
      '--prefix',
      temp,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--loglevel=error',
      ...specs,
    ];
    const { error, stderr } = await exec(npmCommand(), args, { timeout: timeoutMs });
    if (error) {
      if (error.code === 'ENOENT') throw oneLineError(`npm is not on PATH; it is needed to install ${what}`);
      if (error.killed || NETWORK_CODES.test(stderr))
        throw oneLineError(`cannot reach the npm registry to install ${what} (${firstLine(stderr) || 'timed out'})`);
      throw oneLineError(`npm install ${what} failed: ${firstLine(stderr) || error.message}`);
    }
    if (!fs.existsSync(installed(temp))) throw oneLineError(`${what} installed no ${installed(temp)}`);
    fs.rmSync(prefix, { recursive: true, force: true });
    try {
      fs.renameSync(temp, prefix);
    } catch (err) {
      // Another process finished first: keep its copy.
      if (!fs.existsSync(installed(prefix))) throw err;
    }
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
  return installed(prefix);
}

module.exports = { installIntoCache, oneLineError, npmCommand, firstLine, NETWORK_CODES };
