'use strict';
// The runner end to end, on real servers: a tiny run yields the run JSON DESIGN.md
// promises, the control strategy is caught leaking, failures stay local to their
// config, and an interrupted run keeps what it measured.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ROOT, startServer } = require('./helpers/server');

const CLI = path.join(ROOT, 'bin', 'ctxbench.js');

function ctxbench(args, { onStderr } = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    onStderr?.(stderr, child);
  });
  const done = new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

function tmpdir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-runner-'));
}

const SAMPLE_FIELDS = ['rps', 'latency', 'requests', 'errors', 'non2xx', 'mismatches', 'cpuUsPerRequest', 'rssMB'];
const LATENCY_FIELDS = ['p2_5', 'p50', 'p97_5', 'p99', 'avg', 'stdev', 'max'];
const ENV_FIELDS = ['node', 'os', 'kernel', 'cpuModel', 'cores', 'memoryBytes', 'date', 'commit'];

test('a tiny real run writes every run-JSON field and a report that shows the control leaking', async () => {
  const dir = tmpdir();
  const out = path.join(dir, 'results', 'tiny.json');
  const report = path.join(dir, 'results.md');
  const { done } = ctxbench([
    'run', '--strategies', 'none,als,global', '--depths', '8', '--hops', 'immediate',
    '--duration', '1', '--warmup', '0.5', '--rounds', '2', '--connections', '50', '--pipelining', '2',
    '--out', out, '--report', report,
  ]);
  const { code, stderr } = await done;
  assert.strictEqual(code, 0, stderr);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.strictEqual(run.kind, 'run');
  assert.strictEqual(run.status, 'complete');
  for (const f of ENV_FIELDS) assert.ok(run.environment[f] !== undefined, `environment.${f}`);
  for (const f of ['strategies', 'depths', 'hops', 'connections', 'pipelining', 'duration', 'rounds', 'driver']) {
    assert.ok(run.settings[f] !== undefined, `settings.${f}`);
  }
  assert.strictEqual(run.configs.length, 3);
  for (const c of run.configs) {
    for (const f of ['id', 'framework', 'strategy', 'depth', 'hop', 'node', 'acf', 'samples', 'summary']) {
      assert.ok(c[f] !== undefined, `${c.id}: ${f}`);
    }
    assert.strictEqual(c.error, null, `${c.id} failed: ${JSON.stringify(c.error)}`);
    assert.strictEqual(c.samples.length, 2, c.id);
    for (const s of c.samples) {
      for (const f of SAMPLE_FIELDS) assert.ok(s[f] !== undefined && s[f] !== null, `${c.id} sample.${f}`);
      for (const f of LATENCY_FIELDS) assert.strictEqual(typeof s.latency[f], 'number', `${c.id} latency.${f}`);
      assert.ok(s.requests > 0);
    }
    assert.ok(c.summary.rps.median > 0);
  }
  const byStrategy = Object.fromEntries(run.configs.map((c) => [c.strategy, c]));
  assert.strictEqual(byStrategy.als.summary.mismatches, 0, 'AsyncLocalStorage keeps every id');
  assert.strictEqual(byStrategy.als.summary.lost, 0);
  assert.ok(byStrategy.global.summary.mismatches > 0, 'the global control must be caught leaking');
  assert.ok(byStrategy.none.summary.lost > 0, 'none carries no id');
  assert.ok(byStrategy.als.summary.ratio, 'als is compared with the none baseline');
  assert.match(byStrategy.als.summary.ratio.verdict, /significant|not enough/);

  const md = fs.readFileSync(report, 'utf8');
  const globalRow = md.split('\n').find((l) => l.includes('global') && l.startsWith('|'));
  assert.ok(globalRow, 'report has a row for global');
  assert.match(globalRow, /⚠/, 'the leak is flagged in the report');
  const noneRow = md.split('\n').find((l) => l.startsWith('| `none`'));
  assert.match(noneRow, /n\/a/, 'none carries no context: its answers are not a defect');
  assert.doesNotMatch(md, /^- ❌/m, 'no real strategy is reported broken');
});

test('a dead --target fails alone; the healthy target is measured', async (t) => {
  const server = await startServer({ STRATEGY: 'als', HOP: 'immediate' });
  t.after(() => server.stop());
  const dir = tmpdir();
  const out = path.join(dir, 'remote.json');
  const { done } = ctxbench([
    'run', '--target', `als=${server.url}`, '--target', 'dead=http://127.0.0.1:9',
    '--duration', '1', '--warmup', '0', '--rounds', '2', '--connections', '20', '--pipelining', '1',
    '--out', out, '--report', 'none',
  ]);
  const { code, stderr } = await done;
  assert.strictEqual(code, 0, stderr);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  const live = run.configs.find((c) => c.id === 'target/als');
  const dead = run.configs.find((c) => c.id === 'target/dead');
  assert.strictEqual(live.error, null);
  assert.strictEqual(live.samples.length, 2);
  assert.strictEqual(live.strategy, 'als', 'strategy confirmed by /__stats');
  assert.strictEqual(live.summary.mismatches, 0);
  assert.ok(dead.error && dead.error.message.length > 0);
  assert.strictEqual(dead.samples.length, 0);
  assert.match(stderr, /FAILED target\/dead/);
});

test('a target that reports another strategy than its name is refused', async (t) => {
  const server = await startServer({ STRATEGY: 'param' });
  t.after(() => server.stop());
  const out = path.join(tmpdir(), 'wrong.json');
  const { code } = await ctxbench(['run', '--target', `als=${server.url}`, '--duration', '1', '--warmup', '0', '--rounds', '1', '--out', out, '--report', 'none']).done;
  assert.strictEqual(code, 1, 'nothing could be measured');
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.match(run.configs[0].error.message, /reports strategy param/);
});

test('Ctrl-C keeps every finished sample and marks the run interrupted', async () => {
  const out = path.join(tmpdir(), 'interrupted.json');
  let sent = false;
  const { done } = ctxbench(
    ['run', '--strategies', 'none,als', '--depths', '8', '--duration', '1', '--warmup', '0', '--rounds', '50', '--out', out, '--report', 'none'],
    {
      onStderr: (text, child) => {
        if (!sent && /round 1\/50 done/.test(text)) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    },
  );
  const { code, stderr } = await done;
  assert.ok(sent, `never saw round 1 finish: ${stderr}`);
  assert.strictEqual(code, 130);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.strictEqual(run.status, 'interrupted');
  for (const c of run.configs) assert.ok(c.samples.length >= 1 && c.samples.length < 50, `${c.id} kept its samples`);
});

test('bad input: one line, exit 1, nothing started', async () => {
  const cases = [
    [['run', '--strategies', 'als,bogus'], /--strategies: unknown bogus/],
    [['run', '--depths', '0'], /--depths=0 is not valid/],
    [['run', '--preset', 'nope'], /--preset nope is unknown/],
    [['run', '--duration', 'x'], /--duration=x is not valid/],
    [['run', '--target', 'noequals'], /--target noequals is not valid/],
    [['run', '--acf', 'maybe'], /--acf maybe is not valid/],
    [['run', '--bogus'], /Unknown option '--bogus'/],
    [['run', '--node', '3', '--out', path.join(tmpdir(), 'n.json')], /no Node version could be resolved \(.*Node 3.*\); nothing to measure/],
    [['nope'], /unknown command 'nope'/],
  ];
  for (const [args, pattern] of cases) {
    const { code, stderr } = await ctxbench(args).done;
    assert.strictEqual(code, 1, args.join(' '));
    const lines = stderr.trim().split('\n');
    assert.strictEqual(lines.length, 1, `${args.join(' ')}: ${stderr}`);
    assert.match(lines[0], pattern);
    assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
  }
});

test('deployed targets swept by depth with the curl driver: /depth/N per depth, compared with the param service', async (t) => {
  const param = await startServer({ STRATEGY: 'param', HOP: 'immediate' });
  const als = await startServer({ STRATEGY: 'als', HOP: 'immediate' });
  t.after(() => Promise.all([param.stop(), als.stop()]));
  const out = path.join(tmpdir(), 'appengine.json');
  const { code, stderr } = await ctxbench([
    'run', '--target', `baseline=${param.url}`, '--target', `als=${als.url}`, '--depths', '4,16',
    '--driver', 'curl', '--amount', '60', '--connections', '10', '--warmup', '0', '--rounds', '2',
    '--out', out, '--report', 'none',
  ]).done;
  assert.strictEqual(code, 0, stderr);
  const run = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.deepStrictEqual(run.configs.map((c) => c.id).sort(), ['target/als/d16', 'target/als/d4', 'target/baseline/d16', 'target/baseline/d4']);
  for (const c of run.configs) {
    assert.strictEqual(c.error, null, c.id);
    assert.strictEqual(c.samples.length, 2, c.id);
    assert.ok(c.samples.every((s) => s.requests === 60 && s.mismatches === 0 && s.lost === 0), c.id);
  }
  const alsDeep = run.configs.find((c) => c.id === 'target/als/d16');
  assert.strictEqual(alsDeep.strategy, 'als');
  assert.strictEqual(alsDeep.depth, 16);
  assert.strictEqual(alsDeep.summary.ratio.baseline, 'target/baseline/d16', 'compared with the param service at the same depth');
});
