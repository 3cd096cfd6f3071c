#!/usr/bin/env node
'use strict';
// node scripts/ci-recipe-check.js: runs the `run:` steps of examples/ci/instructions-gate.yml
// verbatim, in order, in a temporary project laid out as the workflow expects (the pull
// request's src/context.js at the top, the base branch's in .base/), twice:
//   planted   the pull request adds ~2% of work per request (examples/gate/after.js):
//             the gate step must exit 1;
//   unchanged the pull request is the base (examples/gate/before.js): the gate must exit 0.
// Two changes to what the workflow runs, and only these: its install step (`npm ci`) is
// `npm install --save-dev` of this tree's `npm pack` tarball (ctxbench is not yet on the
// registry), and a step that needs sudo (installing Valgrind) is skipped: Valgrind must be
// installed here already. Needs Valgrind; takes several minutes (four counted runs).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const YAML = require('yaml');
const systemTools = require('../lib/system-tools');

const ROOT = path.join(__dirname, '..');
const WORKFLOW = path.join(ROOT, 'examples', 'ci', 'instructions-gate.yml');
const say = (line) => process.stderr.write(`ci-recipe: ${line}\n`);

if (!systemTools.find('valgrind')) {
  say(systemTools.hint('valgrind'));
  process.exit(1);
}

const steps = Object.values(YAML.parse(fs.readFileSync(WORKFLOW, 'utf8')).jobs)[0].steps.filter(
  (s) => typeof s.run === 'string',
);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-ci-recipe-'));
fs.chmodSync(work, 0o755);
const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' });
if (pack.status !== 0) {
  say(`npm pack failed: ${pack.stderr.trim().split('\n').pop()}`);
  process.exit(1);
}
const tarball = path.join(work, JSON.parse(pack.stdout)[0].filename);

// The gate examples, under the strategy name the workflow measures.
const wrapper = (file) =>
  fs.readFileSync(path.join(ROOT, 'examples', 'gate', file), 'utf8').replace("name: 'mine'", "name: 'my-context'");

function scenario(name, prFile) {
  const project = path.join(work, name);
  for (const dir of ['src', path.join('.base', 'src')]) fs.mkdirSync(path.join(project, dir), { recursive: true });
  fs.writeFileSync(
    path.join(project, 'package.json'),
    `${JSON.stringify({ name: `team-${name}`, version: '1.0.0', private: true }, null, 2)}\n`,
  );
  fs.writeFileSync(path.join(project, '.base', 'src', 'context.js'), wrapper('before.js'));
  fs.writeFileSync(path.join(project, 'src', 'context.js'), wrapper(prFile));
  let gate = null;
  for (const step of steps) {
    const command = step.run.trim();
    if (/\bsudo\b/.test(command)) {
      say(`${name}: skipped (needs sudo; done here already): ${command}`);
      continue;
    }
    const started = Date.now();
    let r;
    if (command === 'npm ci') {
      const args = ['install', '--save-dev', '--no-audit', '--no-fund', tarball];
      r = spawnSync('npm', [...args, '--offline'], { cwd: project, encoding: 'utf8' });
      if (r.status !== 0) r = spawnSync('npm', [...args, '--prefer-offline'], { cwd: project, encoding: 'utf8' });
      say(`${name}: npm ci -> npm install --save-dev ${path.basename(tarball)}: exit ${r.status}`);
    } else {
      r = spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
      say(`${name}: ${step.name ?? command}: exit ${r.status} (${Math.round((Date.now() - started) / 1000)} s)`);
    }
    if (command.includes('ctxbench compare')) {
      gate = r.status;
      process.stdout.write(`--- ${name}: ${command}\n${r.stdout}`);
    } else if (r.status !== 0) {
      say(`${name}: step failed: ${(r.stderr || r.stdout).trim().split('\n').pop()}`);
      return null;
    }
  }
  return gate;
}

const planted = scenario('planted', 'after.js');
const unchanged = scenario('unchanged', 'before.js');
const ok = planted === 1 && unchanged === 0;
say(
  `planted 2%: gate exit ${planted} (1 wanted); unchanged: gate exit ${unchanged} (0 wanted): ` +
    `${ok ? 'the recipe works' : 'FAILED'}`,
);
process.exitCode = ok ? 0 : 1;
