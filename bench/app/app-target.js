'use strict';
// `ctxbench app --instance CLASS` at the autoscaler's operating point (--target-cpu): per
// block a fresh process of each side as a stand-in (bench/app/app-stand-in.js), in positions
// swapped between blocks, warmed closed loop, then measured there as `deploy` measures its
// yamls (bench/rates/at-target.js): the rate at which the baseline uses its target share of the
// quota, and the candidate there or at its own.
const { isNum } = require('../../lib/format');
const { analyzeApp } = require('../../analysis');
const { warnOnce } = require('../processes/block');
const { measureAtTarget } = require('../rates/at-target');
const { sideConfigs, sideFailure } = require('./app-sides');
const { startPair, warmPair, pairCommon, standInSession } = require('./app-stand-in');

// The progress line's figures, as report/format.js int prints a rate and the command a ratio.
const int = (x) => (isNum(x) ? Math.round(x).toLocaleString('en-US') : '—');
const pct = (x) => `${(100 * x).toFixed(1)}%`;

// measureAppAtTarget(setup, { points, io }) -> { configs, points }. setup: bench/app/app-stand-in.js
// standInSession's. points: the run's operating points, each block's appended as it starts;
// io: { status(text), save(), warn(text), onStart(configs), onBlock({ block, point }) }.
async function measureAppAtTarget(setup, { points = [], io }) {
  const { sides, settings, stop } = setup;
  const configs = sideConfigs(sides);
  const [base, cand] = configs;
  io.onStart?.(configs);
  for (let block = 0; block < settings.blocks && !stop.requested; block++) {
    const members = block % 2 ? [cand, base] : [base, cand];
    const servers = [];
    try {
      await startPair(setup, members, (c) => sides[configs.indexOf(c)], block, servers);
      io.status(`block ${block + 1}: ${cand.name} with ${base.name}, warming closed loop`);
      const warm = await warmPair(servers, members, settings);
      const point = await measureAtTarget({
        common: pairCommon(setup, servers),
        members,
        base,
        other: cand,
        label: cand.name,
        warm,
        settings,
        block,
        group: block,
        found: points,
        io: { ...io, refresh: () => {}, stopped: () => stop.requested },
      });
      io.onBlock({ block, point });
    } catch (err) {
      throw await sideFailure(err, { servers, members, configs, block });
    } finally {
      await Promise.all(servers.map((x) => x.stop()));
    }
  }
  return { configs, points };
}

// --instance at --target-cpu: per block both sides as fresh stand-ins, the baseline's rate at
// the target searched, then the pair there.
function targetSession(plan) {
  const { settings } = plan;
  const [base, cand] = settings.names;
  return standInSession(plan, {
    title:
      `Your service on ${settings.instance.name} stand-ins at the autoscaler's target: ${cand} against ${base}`,
    progress: { total: settings.blocks, step: 'block' },
    measure(r, setup, { save, progress }) {
      r.learned.operatingPoints = [];
      return measureAppAtTarget(setup, {
        points: r.learned.operatingPoints,
        io: {
          status: (text) => progress.status(text),
          save,
          warn: (text) => warnOnce(r, text, progress),
          onStart: (configs) => {
            r.configs = configs;
            save();
          },
          onBlock: ({ block, point }) => {
            r.app = analyzeApp(r);
            save();
            const op = r.app.operating;
            progress.tick(
              `block ${block + 1}/${settings.blocks} · ${base} at ${int(point.base?.rate)} ` +
                `req/s${point.own ? `, ${cand} at ${int(point.own.rate)}` : ''}` +
                (op ? ` · ${cand} ${pct(op.ratio.estimate)} of ${base}'s throughput per instance` : ''),
            );
          },
        },
      });
    },
  });
}

module.exports = { measureAppAtTarget, targetSession };
