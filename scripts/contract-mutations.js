#!/usr/bin/env node
'use strict';
// node scripts/contract-mutations.js [COMMAND …]: issue 49's check that a change breaking a
// command's output contract goes red in the quick tier (`npm test`), not only in test:all.
// For each command, one mutation of what it outputs (an exit code, a run JSON field, a
// printed line; for deploy, which needs a cgroup, its refusal line) is applied to the
// source, the quick-tier test files that must catch it are run (`node --test`, as npm test
// runs them), and the source is restored (on every exit path, Ctrl-C included). Prints one
// line per command; exit 1 when a mutation stayed green. Run it alone (no benchmark
// beside it); it measures nothing.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..');
const MUTATIONS = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'contract-mutations.json'), 'utf8'));

const wanted = process.argv.slice(2);
const unknown = wanted.filter((c) => !MUTATIONS.some((m) => m.command === c));
if (unknown.length) {
  process.stderr.write(
    `contract-mutations: no mutation for ${unknown.join(', ')} (commands: ` +
      `${MUTATIONS.map((m) => m.command).join(', ')})\n`,
  );
  process.exit(2);
}

let restore = null;
const restoreNow = () => {
  if (restore) restore();
  restore = null;
};
process.on('SIGINT', () => {
  restoreNow();
  process.exit(130);
});
process.on('exit', restoreNow);

let green = 0;
for (const m of MUTATIONS.filter((x) => !wanted.length || wanted.includes(x.command))) {
  const file = path.join(ROOT, m.file);
  const original = fs.readFileSync(file, 'utf8');
  const at = original.indexOf(m.from);
  if (at < 0 || original.indexOf(m.from, at + 1) >= 0) {
    process.stderr.write(
      `contract-mutations: ${m.command}: the text to mutate occurs ${at < 0 ? 'nowhere' : 'more than once'} ` +
        `in ${m.file}; update scripts/fixtures/contract-mutations.json\n`,
    );
    process.exit(2);
  }
  restore = () => fs.writeFileSync(file, original);
  fs.writeFileSync(file, original.slice(0, at) + m.to + original.slice(at + m.from.length));
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--test', '--test-concurrency=4', ...m.tests], {
    cwd: ROOT,
    env: { ...process.env, CTXBENCH_CPUS: 'none' },
    encoding: 'utf8',
  });
  restoreNow();
  const failing = [...(r.stdout || '').matchAll(/^not ok \d+ - (.+)$/gm)]
    .map((x) => x[1])
    .filter((name) => !/\.test\.js$/.test(name));
  const red = r.status !== 0;
  if (!red) green++;
  process.stdout.write(
    `${m.command}: ${m.file} "${m.from.trim()}" -> "${m.to.trim()}": ` +
      `${red ? `red (${failing.length ? failing.slice(0, 3).join('; ') : `exit ${r.status}`})` : 'STILL GREEN'} ` +
      `in ${Math.round((Date.now() - started) / 1000)} s\n`,
  );
}
process.stdout.write(
  `contract-mutations: ${green === 0 ? 'every mutation went red' : `${green} mutation(s) stayed green`}\n`,
);
process.exit(green === 0 ? 0 : 1);
