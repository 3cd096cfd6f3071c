'use strict';
// Tier: quick (no cgroup is made: the stand-in's writes go to a fake cgroup folder). The
// instance stand-ins (lib/instances.js, bench/processes/cgroup.js): the class table and its one-line
// refusals, the quota and limit written for cgroup v1 and v2, the kernel's accounting read
// back, groups left by a killed run swept, and the refusal line where no cgroup can be
// made. A real stand-in run is test/all/instance.test.js's.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { parseInstance, describeInstance } = require('../lib/instances');
const {
  detectCgroups,
  Cgroup,
  sweepLeftovers,
  mountsOf,
  ownGroups,
  joinCommand,
} = require('../bench/processes/cgroup');
const { runCli } = require('./helpers/cli');
const { tempDir } = require('./helpers/tmp');

const MiB = 2 ** 20;

test(
  'the instance classes: App Engine F and B classes as MHz ÷ 2,400 of ' +
    'a CPU with their memory and request limit; Cloud Run by its flags',
  () => {
    const f1 = parseInstance('F1');
    assert.deepStrictEqual(
      [f1.cpus, f1.memoryBytes, f1.requestLimit, f1.quotaUs, f1.periodUs],
      [0.25, 384 * MiB, 10, 25000, 100000],
    );
    assert.deepStrictEqual(
      ['F2', 'F4', 'F4_1G', 'B8'].map((c) => [parseInstance(c).cpus, parseInstance(c).memoryBytes / MiB]),
      [
        [0.5, 768],
        [1, 1536],
        [1, 3072],
        [2, 3072],
      ],
    );
    assert.strictEqual(parseInstance('b2').requestLimit, null, 'basic scaling has no max_concurrent_requests');
    assert.match(f1.assumption, /MHz ÷ 2,400/);
    const cr = parseInstance('cloudrun');
    assert.deepStrictEqual([cr.cpus, cr.memoryBytes, cr.requestLimit], [1, 512 * MiB, 80]);
    const small = parseInstance('cloudrun:cpu=0.5,memory=1Gi');
    assert.deepStrictEqual(
      [small.cpus, small.memoryBytes, small.requestLimit, small.quotaUs],
      [0.5, 2 ** 30, 1, 50000],
    );
    assert.strictEqual(parseInstance('F1', { periodUs: 20000 }).quotaUs, 5000);
    assert.strictEqual(parseInstance('none'), null);
    assert.match(
      describeInstance(f1),
      /^F1: 0\.25 CPU \(CFS quota 25,000 µs per 100,000 µs\), 384 MiB, 10 requests at once$/,
    );
    for (const [bad, why] of [
      ['F3', /expected one of F1/],
      ['cloudrun:cpu=0.01', /cpu is from 0\.08/],
      ['cloudrun:cpu=0.5,concurrency=4', /concurrency must be 1/],
      ['cloudrun:memory=12', /memory is from 128Mi/],
      ['cloudrun:gpu=1', /expected cloudrun:cpu=N/],
    ]) {
      assert.throws(
        () => parseInstance(bad),
        (err) => why.test(err.message) && !err.message.includes('\n'),
        bad,
      );
    }
    assert.throws(() => parseInstance('F1', { periodUs: 10 }), /--cfs-period 10 is not valid/);
  },
);

function fakeV1() {
  const dir = tempDir('ctxbench-cg1-');
  const parents = Object.fromEntries(['cpu', 'cpuacct', 'memory'].map((c) => [c, path.join(dir, c)]));
  for (const p of Object.values(parents)) fs.mkdirSync(p);
  return { dir, layout: { version: 1, parents } };
}

test(
  'cgroup v1: the quota and period in the cpu group, ' + 'the limit in the memory group, the accounting read back',
  () => {
    const { dir, layout } = fakeV1();
    const g = new Cgroup(layout, 'b0-als').create({ quotaUs: 25000, periodUs: 100000, memoryBytes: 384 * MiB });
    assert.match(g.name, new RegExp(`^ctxbench-${process.pid}-b0-als-\\d+$`));
    const cpu = path.join(layout.parents.cpu, g.name);
    assert.strictEqual(fs.readFileSync(path.join(cpu, 'cpu.cfs_period_us'), 'utf8'), '100000');
    assert.strictEqual(fs.readFileSync(path.join(cpu, 'cpu.cfs_quota_us'), 'utf8'), '25000');
    const mem = path.join(layout.parents.memory, g.name);
    assert.strictEqual(fs.readFileSync(path.join(mem, 'memory.limit_in_bytes'), 'utf8'), String(384 * MiB));
    fs.writeFileSync(path.join(cpu, 'cpu.stat'), 'nr_periods 40\nnr_throttled 10\nthrottled_time 250000000\n');
    fs.writeFileSync(path.join(layout.parents.cpuacct, g.name, 'cpuacct.usage'), '1500000000\n');
    fs.writeFileSync(path.join(mem, 'memory.max_usage_in_bytes'), String(391 * MiB));
    fs.writeFileSync(path.join(mem, 'memory.oom_control'), 'oom_kill_disable 0\nunder_oom 0\noom_kill 1\n');
    assert.deepStrictEqual(g.read(), {
      cpuUs: 1500000,
      periods: 40,
      throttled: 10,
      throttledUs: 250000,
      memoryPeakBytes: 391 * MiB,
      oomKills: 1,
    });
    // A server joins every folder before its first instruction.
    const join = joinCommand(g);
    assert.deepStrictEqual(
      join.env.CTXBENCH_CGROUP_DIRS.split(':'),
      ['cpu', 'cpuacct', 'memory'].map((c) => path.join(layout.parents[c], g.name)),
    );
    assert.deepStrictEqual(join.wrap.slice(0, 2), ['sh', '-c']);
    fs.rmSync(dir, { recursive: true, force: true });
  },
);

test(
  'cgroup v2: cpu.max as "quota period", memory.max, ' +
    'the controllers enabled in the parent, the accounting read back',
  () => {
    const parent = tempDir('ctxbench-cg2-');
    fs.writeFileSync(path.join(parent, 'cgroup.controllers'), 'cpuset cpu io memory pids\n');
    fs.writeFileSync(path.join(parent, 'cgroup.subtree_control'), '');
    const g = new Cgroup({ version: 2, parent }, 'b1-none').create({
      quotaUs: 50000,
      periodUs: 100000,
      memoryBytes: 768 * MiB,
    });
    const d = path.join(parent, g.name);
    assert.strictEqual(fs.readFileSync(path.join(d, 'cpu.max'), 'utf8'), '50000 100000');
    assert.strictEqual(fs.readFileSync(path.join(d, 'memory.max'), 'utf8'), String(768 * MiB));
    assert.strictEqual(fs.readFileSync(path.join(parent, 'cgroup.subtree_control'), 'utf8'), '+cpu +memory');
    fs.writeFileSync(
      path.join(d, 'cpu.stat'),
      'usage_usec 900000\nuser_usec 800000\nsystem_usec 100000\nnr_periods 12\nnr_throttled 3\nthrottled_usec 40000\n',
    );
    fs.writeFileSync(path.join(d, 'memory.peak'), String(100 * MiB));
    fs.writeFileSync(path.join(d, 'memory.events'), 'low 0\nhigh 0\nmax 2\noom 1\noom_kill 0\n');
    assert.deepStrictEqual(g.read(), {
      cpuUs: 900000,
      periods: 12,
      throttled: 3,
      throttledUs: 40000,
      memoryPeakBytes: 100 * MiB,
      oomKills: 0,
    });
    fs.rmSync(parent, { recursive: true, force: true });
  },
);

test("a group left by a killed run (its pid gone) is removed and named; this run's and a live run's are kept", () => {
  const { dir, layout } = fakeV1();
  const dead = 'ctxbench-999999-b0-als-3';
  for (const p of Object.values(layout.parents)) {
    fs.mkdirSync(path.join(p, dead));
    fs.mkdirSync(path.join(p, `ctxbench-${process.pid}-b0-none-1`));
    fs.mkdirSync(path.join(p, `ctxbench-${process.ppid}-b0-none-2`));
    fs.mkdirSync(path.join(p, 'someone-else'));
  }
  const swept = sweepLeftovers(layout);
  assert.deepStrictEqual(
    swept.map((x) => [path.basename(x.dir), x.pid, x.removed]),
    Object.keys(layout.parents).map(() => [dead, 999999, true]),
  );
  for (const p of Object.values(layout.parents))
    assert.deepStrictEqual(
      fs.readdirSync(p).sort(),
      [`ctxbench-${process.pid}-b0-none-1`, `ctxbench-${process.ppid}-b0-none-2`, 'someone-else'].sort(),
    );
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a stand-in run names each group a killed run left that it removed, before it starts anything', () => {
  // A delegated cgroup v2 folder stands in for the kernel's (no group is made in the kernel).
  const dir = tempDir('ctxbench-sweep-');
  fs.writeFileSync(path.join(dir, 'cgroup.controllers'), 'cpuset cpu io memory pids\n');
  fs.writeFileSync(path.join(dir, 'cgroup.subtree_control'), '');
  fs.mkdirSync(path.join(dir, 'ctxbench-999999-b0-als-3'));
  const r = require('node:child_process').spawnSync(
    process.execPath,
    ['-e', "require('./bench/processes/cgroup').standInLayout()"],
    {
      cwd: path.join(__dirname, '..'),
      env: { ...process.env, CTXBENCH_CGROUP_ROOT: dir },
      encoding: 'utf8',
    },
  );
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(
    r.stderr,
    `ctxbench: removed a cgroup left by a killed run (pid 999999): ${path.join(dir, 'ctxbench-999999-b0-als-3')}\n`,
  );
  assert.ok(!fs.existsSync(path.join(dir, 'ctxbench-999999-b0-als-3')));
});

test('where no cgroup can be made, one line says what is missing, before any server starts', async () => {
  assert.deepStrictEqual(
    mountsOf('cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0\ncgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0'),
    { v1: { cpu: '/sys/fs/cgroup/cpu' }, v2: '/sys/fs/cgroup/unified' },
  );
  assert.deepStrictEqual(ownGroups('4:memory:/a/b\n2:cpu,cpuacct:/\n0::/'), { memory: '/a/b', cpu: '/', cpuacct: '/' });
  assert.throws(
    () => detectCgroups({ mounts: '', self: '', env: {}, probe: false }),
    new RegExp(
      String.raw`^Error: --instance needs a cgroup it can create with a CPU quota and a memory limit: ` +
        String.raw`no cgroup filesystem is mounted; run as root, or point CTXBENCH_CGROUP_ROOT`,
    ),
  );
  const notCgroup = tempDir('ctxbench-nocg-');
  assert.throws(
    () => detectCgroups({ env: { CTXBENCH_CGROUP_ROOT: notCgroup }, probe: false }),
    /CTXBENCH_CGROUP_ROOT=.*: not a cgroup v2 folder/,
  );
  fs.writeFileSync(path.join(notCgroup, 'cgroup.controllers'), 'pids io\n');
  assert.throws(
    () => detectCgroups({ env: { CTXBENCH_CGROUP_ROOT: notCgroup }, probe: false }),
    /the cpu and memory controllers are not available there/,
  );
  // The command: the line, exit 1, and no server started (nothing listens, nothing written).
  const out = path.join(notCgroup, 'run.json');
  const r = await runCli(
    [
      'run',
      '--instance',
      'F1',
      '--strategies',
      'none,als',
      '--depths',
      '8',
      '--rate',
      '100',
      '--out',
      out,
      '--report',
      'none',
    ],
    { env: { CTXBENCH_CGROUP_ROOT: notCgroup } },
  );
  assert.strictEqual(r.code, 1, r.stderr);
  assert.deepStrictEqual(r.stderr.trim().split('\n'), [
    `ctxbench: --instance: CTXBENCH_CGROUP_ROOT=${notCgroup}: the cpu and memory controllers are not available there`,
  ]);
  assert.ok(!fs.existsSync(out));
  fs.rmSync(notCgroup, { recursive: true, force: true });
});

const APP = ['app', '--baseline', 'node server.js', '--candidate', 'TRACING=1 node server.js'];
test('run --instance, deploy and app --instance refuse bad input with one line', async () => {
  for (const [args, want] of [
    [['run', '--instance', 'F1', '--method', 'duet'], /^ctxbench: --method duet cannot be used with --instance F1/],
    [
      ['run', '--instance', 'F1', '--connections', '50'],
      /^ctxbench: --connections 50 with --instance F1: the instance serves 10 requests at once/,
    ],
    [['run', '--instance', 'F1', '--target', 'a=http://127.0.0.1:1'], /^ctxbench: --instance runs the servers locally/],
    [['run', '--cfs-period', '50000'], /^ctxbench: --cfs-period is the CFS period of an --instance stand-in/],
    [['run', '--instance', 'F1', '--slo', 'p99<1s'], /^ctxbench: --slo p99<1s is not valid/],
    [
      ['run', '--instance', 'cloudrun', '--method', 'pair'],
      /^ctxbench: --method pair cannot be used with --instance cloudrun:cpu=1/,
    ],
    [
      ['run', '--target-cpu', '0.6'],
      new RegExp(
        String.raw`^ctxbench: --target-cpu measures each pair at the rate the ` +
          String.raw`autoscaler would hold on a stand-in: give --instance CLASS\n?$`,
      ),
    ],
    [
      ['run', '--instance', 'F1', '--target-cpu', '0.6', '--rate', '500'],
      /^ctxbench: --target-cpu .*: not with --rate or --load/,
    ],
    [['run', '--instance', 'F4', '--target-cpu', '60%'], /^ctxbench: --target-cpu .*F4's 1 CPU each do not fit/],
    [
      ['run', '--instance', 'F1', '--target-cpu', '1.2'],
      /^ctxbench: --target-cpu=1\.2 is not valid; expected a number from 0\.05 to 0\.95/,
    ],
    [
      ['deploy', 'app_baseline.yaml', 'app_als.yaml', '--load', '50%', '--target-cpu', '0.6'],
      /^ctxbench: --load measures a ladder of rates, --target-cpu the operating point/,
    ],
    [['deploy', 'app_baseline.yaml'], /^ctxbench: deploy needs at least two app\.yaml files/],
    [
      ['deploy', 'app_baseline.yaml', 'app_baseline.yaml'],
      /^ctxbench: app_baseline\.yaml \(STRATEGY=param\) and app_baseline\.yaml \(STRATEGY=param\) are both baselines/,
    ],
    [['deploy', 'app_cls.yaml', 'app_als.yaml'], /^ctxbench: no yaml runs STRATEGY=param or none/],
    [['deploy', 'app_baseline.yaml', 'missing.yaml'], /^ctxbench: missing\.yaml: no such file/],
    [
      [...APP, '--instance', 'F4'],
      /^ctxbench: --instance F4: 1 CPU each, two stand-ins do not fit at once on the one server CPU/,
    ],
    [
      [...APP, '--instance', 'cloudrun'],
      /^ctxbench: --instance cloudrun:cpu=1,memory=512Mi,concurrency=80: 1 CPU each/,
    ],
    [
      [...APP, '--instance', 'F2', '--predict'],
      /^ctxbench: --predict puts a service on the cost model's scale at saturation, in duet: not with --instance/,
    ],
    [
      [...APP, '--instance', 'F2', '--path', '/a', '--path', '/b'],
      /^ctxbench: --instance sends one open-loop schedule per side, of one request: give one --path/,
    ],
    [
      [...APP, '--instance', 'F2', '--connections', '20'],
      /^ctxbench: --connections 20 with --instance F2: the instance serves 10 requests at once/,
    ],
    [[...APP, '--slo', 'p99=50ms'], /^ctxbench: --slo is a setting of an --instance stand-in: give --instance/],
    [
      [...APP, '--target-cpu', '0.6'],
      /^ctxbench: --target-cpu is a setting of an --instance stand-in: give --instance/,
    ],
    [
      [...APP, '--instance', 'F1', '--load', '50%', '--target-cpu', '0.6'],
      /^ctxbench: --load measures a ladder of rates, --target-cpu the operating point: give one of them/,
    ],
    [
      [...APP, '--instance', 'F1', '--target-cpu', '96%'],
      /^ctxbench: --target-cpu=0\.96 is not valid; expected a number from 0\.05 to 0\.95/,
    ],
    [[...APP, '--instance', 'F9'], /^ctxbench: --instance F9/],
  ]) {
    const r = await runCli(args);
    assert.strictEqual(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.strictEqual(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, want);
  }
});

// The autoscaler's concurrency target is the yaml's when it sets one (analysis/operating-point.js
// concurrencyAllowed), so a value App Engine refuses is refused here too.
test("deploy takes the yaml's target_throughput_utilization, refusing one App Engine would not", async () => {
  const dir = tempDir('ctxbench-throughput-');
  const root = path.join(__dirname, '..');
  const yaml = (name, value) => {
    const text = fs.readFileSync(path.join(root, name), 'utf8');
    const file = path.join(dir, name);
    fs.writeFileSync(
      file,
      text.replace('automatic_scaling:\n', `automatic_scaling:\n  target_throughput_utilization: ${value}\n`),
    );
    return file;
  };
  // --out and --report: were the refusal gone, the run would not write the committed results.
  const out = ['--out', path.join(dir, 'deploy.json'), '--report', 'none', '--max-time', '1'];
  const r = await runCli(['deploy', yaml('app_baseline.yaml', 1.2), path.join(root, 'app_als.yaml'), ...out]);
  assert.strictEqual(r.code, 1, r.stderr);
  assert.deepStrictEqual(r.stderr.trim().split('\n'), [
    `ctxbench: ${path.join(dir, 'app_baseline.yaml')}: ` +
      `automatic_scaling.target_throughput_utilization 1.2 is not from 0.5 to 0.95`,
  ]);
});
