'use strict';
// Shared CLI plumbing for bench/cli/*.js: parseArgs with one-line errors, list and
// number parsing that names the flag, and atomic JSON writes.
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

// An error whose message is the whole story: printed as one line, exit code 1 unless the
// command gives another (compare's 1 means "slower", so its bad input exits 3).
class UsageError extends Error {
  constructor(message, { exitCode = 1, ...options } = {}) {
    super(message, options);
    this.exitCode = exitCode;
  }
}

function parse(args, options, { allowPositionals = false } = {}) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError(err.message.split('\n')[0]);
  }
}

// parseArgs options from flag names: each takes a value unless named in `booleans`;
// those in `multiple` may repeat; --help/-h is always there.
function flags(names, { booleans = [], multiple = [] } = {}) {
  const options = { help: { type: 'boolean', short: 'h' } };
  for (const name of names) options[name] = { type: 'string', ...(multiple.includes(name) && { multiple: true }) };
  for (const name of booleans) options[name] = { type: 'boolean' };
  return options;
}

function list(flag, value, valid) {
  if (value === undefined) return undefined;
  const items = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${flag} needs at least one value`);
  if (valid) {
    const unknown = items.filter((v) => !valid.includes(v));
    if (unknown.length) throw new UsageError(`--${flag}: unknown ${unknown.join(', ')} (valid: ${valid.join(', ')})`);
  }
  return items;
}

function number(flag, value, { min = -Infinity, max = Infinity, integer = false } = {}) {
  if (value === undefined) return undefined;
  const n = Number(value);
  const ok =
    String(value).trim() !== '' && Number.isFinite(n) && n >= min && n <= max && (!integer || Number.isInteger(n));
  if (!ok) {
    const kind = integer ? 'an integer' : 'a number';
    throw new UsageError(`--${flag}=${value} is not valid; expected ${kind} from ${min} to ${max}`);
  }
  return n;
}

// Write JSON so that a reader (or a crash) never sees half a file.
function writeJsonAtomic(file, data) {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

// A path as a user would type it from here: relative below the working directory,
// absolute elsewhere (never ../../tmp/x).
function displayPath(p) {
  const rel = path.relative('.', p);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : path.resolve(p);
}

// --acf on|off|both (AsyncContextFrame), or `fallback` (a preset's, or 'default': the
// runtime's own) when not given. The one check every command that starts servers shares.
function acfFlag(value, fallback = 'default') {
  const acf = value ?? fallback ?? 'default';
  if (!['on', 'off', 'both', 'default'].includes(acf))
    throw new UsageError(`--acf ${acf} is not valid; expected on, off or both`);
  return acf;
}

module.exports = { displayPath, UsageError, parse, flags, list, number, acfFlag, writeJsonAtomic };
