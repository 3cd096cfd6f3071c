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
const { setting } = require('../../lib/settings');
const { helpLines } = require('../../lib/settings-help');
const { redactArgs } = require('../services/services');
const { DEFAULT_PERIOD_US } = require('../../lib/instances');
const { probeRun, unprobed } = require('../probes/probe-run');
const { OPTIONS, resolveSettings, measureOptions } = require('./run-plan');
const { DEFAULT_SLO, SLO_LOADS, SEQUENTIAL_SLO_LOADS, STAND_IN_SETTINGS } = require('./slo');
const { measureRun, resumeRun } = require('../run/measure-run');
const {
  UNSETTLED_WINDOW_FACTOR,
  UNSETTLED_BOUND_PCT,
  UNSETTLED_CAP_FACTOR,
  DEFAULT_MAX_WARMUP_WINDOWS,
  SMALL_WINDOW_MAX_WARMUP,
  windowRequestsFor,
} = require('../measure/instruction-windows');

// The defaults of `run`'s settings that its presets and bench/ hold (lib/settings-help.js
// helpLines; the others are the plan's, lib/settings.js).
const RUN_DEFAULTS = {
  connections: 'from preset',
  blocks: `from preset, else ${DEFAULTS.blocks}`,
  precision: `${PRESETS.default.precision} in the default preset; a preset's own for its matrix, none for a custom one`,
  'max-time': `${PRESETS.default.maxTime} in the default preset, otherwise ${DEFAULTS.maxTime}`,
  amount: `${CURL_REQUESTS} with the curl driver, else none`,
  'window-requests': `by depth: ${windowRequestsFor(8)} at depth 8, ${windowRequestsFor(256)} at 256`,
  'max-warmup-windows': `${DEFAULT_MAX_WARMUP_WINDOWS} windows of 1,000 requests, ${SMALL_WINDOW_MAX_WARMUP} of fewer`,
  'unsettled-windows': `${UNSETTLED_WINDOW_FACTOR} × --windows`,
  'unsettled-bound': `${UNSETTLED_BOUND_PCT}; at most ${UNSETTLED_CAP_FACTOR} × --unsettled-windows`,
  'cfs-period': `${DEFAULT_PERIOD_US}, the kernel's and Kubernetes'`,
  'cfs-burst': 0,
  slo: `${DEFAULT_SLO} with --instance`,
};

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
  --preset NAME          ${Object.keys(PRESETS).join(' | ')} (default: ${DEFAULTS.preset})
  --quick                a sub-minute smoke run of the preset (imprecise)
  --strategies a,b       ${strategies.names.join(', ')}
  --strategy-file FILE   a strategy of your own (repeatable): a module exporting name,
                         describe, run(id, fn), current() and optionally bind(fn),
                         enter(id) and exit(fn) (enterWith-style, for the Node-upgrade
                         integrity scenarios); measured beside the others and marked
                         user-supplied
  --hops await           ${hops.names.join(', ')}
  --logs none,stdout     LOG of the servers: none, or stdout (one Cloud Logging line per
                         level, as the App Engine study logged); a dimension of the matrix
  --frameworks express   ${frameworks.names.join(', ')}
  --acf on|off|both      AsyncContextFrame (Node 22: flag; 24+: default on)
  --aa                   add an A/A arm: a second baseline process measured against the
                         first (on in the default preset); its interval must cover 100%
${helpLines('run', { defaults: RUN_DEFAULTS, except: STAND_IN_SETTINGS })}\
  --load P%[,P%…]        rate mode at P% of the baseline's capacity, measured first
                         (closed loop; with the pair, two baseline processes at once, each
                         one's share), e.g. --load 25%,50%,75%; with --slo in pairs, of the
                         open-loop knee instead (the last rate at which two baseline
                         processes keep the SLO, found after the closed-loop capacity), up
                         to 200%. With --slo and no --rate or --load, the rates are
                         ${SLO_LOADS.map((l) => `${l * 100}%`).join(', ')} of the knee;
                         one at a time, ${SEQUENTIAL_SLO_LOADS.map((l) => `${l * 100}%`).join(', ')} of the capacity
  --instance CLASS       run every server as a stand-in of a cloud instance: its own cgroup
                         with the class's CPU quota and memory limit, its request limit as
                         the connections, measured in pairs at fixed rates (docs/deploy.md):
                         F1, F2, F4, F4_1G, B1, B2, B4, B4_1G, B8 (App Engine; an MHz ÷ 2,400
                         share of one CPU, an assumption), cloudrun[:cpu=1,memory=512Mi,
                         concurrency=80], none (default); classes above half of the
                         server CPU run one at a time (sequential: --rate, --load), the rest
                         in pairs (Cloud Run at 1 vCPU: the latency preset's full-CPU pair
                         is its stand-in; cloudrun:cpu=0.5 pairs, docs/deploy.md)
${helpLines('run', { defaults: RUN_DEFAULTS, only: STAND_IN_SETTINGS })}\
  --driver NAME          ${DRIVERS.join(' | ')} (default: ${DEFAULTS.driver})
  --target name=URL      drive an already-deployed server instead of spawning (repeatable)
  --baseline STRATEGY    what "% of baseline" compares with (default from preset)
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
