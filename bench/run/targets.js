'use strict';
// Which node binaries to run servers (or micro workers) under. Without --node: the
// default runtime (DEFAULT_MAJOR, Node 24: what users run and results are measured on),
// whatever node runs ctxbench itself. lib/node-versions.js resolves each major
// (installing it from npm once; this process's own binary when the major matches). A
// major that fails, or a note such as "Node 20 has no AsyncContextFrame", is printed
// and returned as a warning; the others still run.
const { UsageError } = require('../../lib/cli');
const { DEFAULT_MAJOR, resolveTargets } = require('../../lib/node-versions');

// -> { targets, warnings }; throws a one-line UsageError when no target is left.
async function resolveNodeTargets(majors, acf, { prefix = 'ctxbench' } = {}) {
  const current = process.versions.node.split('.')[0];
  majors = majors?.length ? majors : [DEFAULT_MAJOR];
  if (majors.length === 1 && String(majors[0]) === current && acf === 'default') {
    return {
      targets: [
        {
          label: `node${current}`,
          major: current,
          version: process.version,
          path: process.execPath,
          args: [],
          expectAcf: null,
        },
      ],
      warnings: [],
    };
  }
  const log = (line) => process.stderr.write(`${prefix}: ${line}\n`);
  const { targets, errors } = await resolveTargets(majors, acf, { log });
  const warnings = [
    ...(errors || []).map(String),
    ...(targets || []).filter((t) => t.note).map((t) => `${t.label}: ${t.note}`),
  ];
  if (!targets || targets.length === 0) {
    throw new UsageError(
      `no Node version could be resolved${errors && errors.length ? ` (${errors.join('; ')})` : ''}; nothing ` +
        `to measure`,
    );
  }
  for (const w of warnings) log(w);
  return { targets, warnings };
}

module.exports = { resolveNodeTargets };
