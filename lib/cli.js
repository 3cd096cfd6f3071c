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

// One dialect across commands: a list flag and its singular name are one flag (`run
// --depth 8` is `--depths 8`; `aa --depths 8` is `--depth 8`), whichever the command has.
const TWINS = [['depths', 'depth'], ['hops', 'hop'], ['frameworks', 'framework'], ['strategies', 'strategy']];
function twinOf(name, options) {
  const pair = TWINS.find((t) => t.includes(name));
  const other = pair?.find((n) => n !== name);
  return other && !Object.hasOwn(options, name) && Object.hasOwn(options, other) ? other : null;
}

function withTwins(args, options) {
  return args.map((a) => {
    const m = /^--([a-z][a-z-]*)(=.*)?$/.exec(a);
    const twin = m && twinOf(m[1], options);
    return twin ? `--${twin}${m[2] ?? ''}` : a;
  });
}

// Edit distance, for "did you mean" on a near miss.
function distance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length][b.length];
}

function suggestion(name, options) {
  const near = Object.keys(options)
    .map((o) => ({ o, d: o.startsWith(name) || name.startsWith(o) ? 1 : distance(name, o) }))
    .filter((x) => x.d <= Math.max(1, Math.floor(name.length / 3)))
    .sort((x, y) => x.d - y.d);
  return near.length ? ` (did you mean --${near[0].o}?)` : '';
}

// Node's parser errors, said in ctxbench's words (one line, naming the flag; no advice
// written for another program).
function reworded(err, options) {
  const message = String(err.message);
  const flag = /'(--?[^' ]+)/.exec(message)?.[1] ?? '';
  const name = flag.replace(/^-+/, '');
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${flag}${suggestion(name, options)}; \`--help\` lists the options`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']*)'/.exec(message)?.[1] ?? ''}: this command takes only options` +
        ' (see --help)';
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(message)) return `${flag} takes no value`;
      if (/ambiguous/.test(message)) return `${flag} needs a value; one that starts with '-' is written ${flag}=VALUE`;
      return `${flag} needs a value`;
    default:
      return message.split('\n')[0];
  }
}

function parse(args, options, { allowPositionals = false } = {}) {
  try {
    return parseArgs({ args: withTwins(args, options), options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError(reworded(err, options), { cause: err });
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

// The preset a --preset names, or the one line every command refuses an unknown one with.
function presetNamed(name, presets) {
  if (Object.hasOwn(presets, name)) return presets[name];
  throw new UsageError(`--preset ${name} is unknown (valid: ${Object.keys(presets).join(', ')})`);
}

module.exports = { displayPath, UsageError, parse, flags, list, number, acfFlag, writeJsonAtomic, presetNamed };
