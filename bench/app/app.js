'use strict';
// `ctxbench app`'s measuring, one session per path of the plan: the duet at saturation
// (bench/app/app-duet.js; with --predict, bench/app/app-predict.js), or on --instance stand-ins the
// ladder of rates (bench/app/app-ladder.js) or the autoscaler's operating point
// (bench/app/app-target.js). The command (bench/cli/app.js) resolves the plan and prints the end.
const { session } = require('../run/session');
const { standInLayout } = require('../processes/cgroup');
const { AppStartError } = require('./app-process');
const { analyzeApp } = require('../../analysis');
const { withEnv, requestsFor, probeSides } = require('./app-sides');
const { measureApp, measureWindow } = require('./app-duet');
const { predictInto } = require('./app-predict');
const { measureAppOnInstance, ladderSession } = require('./app-ladder');
const { measureAppAtTarget, targetSession } = require('./app-target');

// appSession({ common, settings, commands, fits, probe }) -> the session's promise of the run.
// common: the session's fields every path has (command, settings as saved, out, services);
// settings: the plan; commands: [{ name, command }], the candidate's where there is one;
// fits: the cost model's (--predict); probe: --probe.
function appSession(plan) {
  if (!plan.settings.instance) return duetSession(plan);
  // Cgroups that can be made, and none left by a killed run, before anything starts.
  const layout = standInLayout();
  return (plan.settings.targetCpu ? targetSession : ladderSession)({ ...plan, layout });
}

// The duet: both sides at saturation on one CPU, then --predict's reference beside the
// baseline, then --probe; the run JSON saved after every block.
function duetSession({ common, settings, commands, fits, probe }) {
  const hasCandidate = commands.length === 2;
  return session({
    kind: 'app',
    title: hasCandidate
      ? `Your service: ${settings.names[1]} against ${settings.names[0]}`
      : `Your service: what each strategy would cost ${settings.names[0]} (predicted)`,
    ...common,
    progress: {
      total: settings.blocks * settings.windows * ((hasCandidate ? 1 : 0) + (settings.predict ? 1 : 0)),
      step: 'window',
    },
    analyze: analyzeApp,
    async measure(r, { save, progress, stop, pinned, serverEnv }) {
      const sides = withEnv(commands, serverEnv);
      try {
        if (hasCandidate) {
          r.configs = await measureApp({
            sides,
            settings,
            pinned,
            stop,
            onBlock: (configs) => {
              r.configs = configs;
              r.app = analyzeApp(r);
              save();
            },
            onProgress: (p) => {
              const what = `block ${p.block + 1}/${settings.blocks} window ${p.window + 1}`;
              if (p.dropped) progress.log(`${what} dropped: ${p.dropped}`);
              else
                progress.tick(
                  `${what}${p.ratio ? ` · ${sides[1].name} ${(100 * p.ratio).toFixed(1)}% of ${sides[0].name}` : ''}`,
                );
            },
          });
        }
        if (settings.predict && !stop.requested)
          await predictInto(r, { side: sides[0], settings, fits, pinned, stop, save, progress });
        // Inside the session, so that what --with started still serves the probe processes.
        if (probe && hasCandidate && !stop.requested) r.probe = await probeSides(sides, settings, progress);
      } catch (err) {
        // Nothing measured is lost: the run JSON keeps every window taken before a failure.
        if (err instanceof AppStartError) {
          if (err.configs && !err.reference) r.configs = err.configs;
          r.status = 'failed';
          r.app = analyzeApp(r);
        }
        throw err;
      }
    },
  });
}

module.exports = { appSession, measureApp, measureAppOnInstance, measureAppAtTarget, requestsFor, measureWindow };
