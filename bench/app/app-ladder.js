'use strict';
// `ctxbench app --instance CLASS --load PCTS`: the ladder of rates on stand-ins
// (bench/app/app-stand-in.js): the baseline stand-in's closed-loop capacity first (two baseline
// processes at once, as a pair's two servers share the server CPU), then per block and rate a
// fresh process of each side, both sent the same open-loop schedule at once (the pair at a
// fixed rate, bench/measure/pair-windows.js), the positions swapped between blocks.
const { settledBursts, kneeOf, ladderAnchor, BURSTS_RULE, KNEE_RULE } = require('../rates/capacity');
const pair = require('../measure/pair-windows');
const { HELD_MIN } = require('../../lib/histogram');
const { pairSample, windowKeeper } = require('../rates/at-target');
const { analyzeApp } = require('../../analysis');
const { loadBoth, sideFailure } = require('./app-sides');
const { startStandIn, startPair, warmPair, pairCommon, standInSession } = require('./app-stand-in');

const CAPACITY_BURST_S = 2;
const pctLabel = (load) => `load${Math.round(load * 1000) / 10}`;

// The baseline stand-in's closed-loop capacity and open-loop knee (the ladder's 100%):
// { rps, bursts, settled, knee, method }.
async function standInCapacity(setup, log) {
  const { sides, settings } = setup;
  const side = sides[0];
  const servers = [];
  try {
    for (let i = 0; i < 2; i++) servers.push(await startStandIn(setup, side, `capacity-${side.name}`));
    const load = { paths: settings.paths, idHeader: null, connections: settings.connections };
    if (settings.warmup > 0) await loadBoth(servers, { ...load, durationS: settings.warmup });
    const { rps, bursts, settled } = await settledBursts(async () => {
      const counts = await loadBoth(servers, { ...load, durationS: CAPACITY_BURST_S });
      return counts.reduce((a, c) => a + c.responses, 0) / counts.length / CAPACITY_BURST_S;
    });
    const knee = await kneeOf(
      servers,
      servers.map(() => ({ path: settings.paths[0] })),
      rps,
      { ...settings, idHeader: settings.idHeader ?? false },
      log,
    );
    return {
      rps,
      bursts,
      settled,
      knee,
      method:
        `closed loop (autocannon, ${settings.connections} connections: the instance's request limit), two ` +
        `baseline stand-ins at once on the server CPU, ${BURSTS_RULE}, bursts of ${CAPACITY_BURST_S} s after ` +
        `${settings.warmup} s of warm-up; then ${KNEE_RULE}, the 100% of the ladder`,
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

// The configurations of an --instance run: per rate, the baseline and the candidate.
function instanceConfigs(sides, capacityRps, loads) {
  return loads.flatMap((load) =>
    sides.map((side, i) => ({
      id: `app/${side.name}/${pctLabel(load)}`,
      arm: i === 0 ? 'baseline' : 'candidate',
      strategy: side.name,
      name: side.name,
      command: side.command,
      userSupplied: true,
      group: pctLabel(load),
      load,
      rate: Math.max(1, Math.round(load * capacityRps)),
      processes: [],
      samples: [],
      error: null,
    })),
  );
}

// measureAppOnInstance(setup, { log, onCapacity, onPair, onSample }) -> { capacity, configs }.
// setup: bench/app/app-stand-in.js standInSession's; its settings with instance, loads and
// connections (the request limit). A side that dies under load ends the run with its reason
// (an OOM kill named as such).
async function measureAppOnInstance(setup, hooks) {
  const { sides, settings, stop } = setup;
  const capacity = await standInCapacity(setup, hooks.log);
  const configs = instanceConfigs(sides, ladderAnchor(capacity), settings.loads);
  hooks.onCapacity(capacity, configs);
  // Per block a fresh process of each side, started once, warmed closed loop, then sent
  // every rate of the ladder lowest first (bench/methods/pair.js ladderBlock says why).
  const loads = [...settings.loads].sort((x, y) => x - y);
  for (let block = 0; block < settings.blocks && !stop.requested; block++)
    await ladderBlock(setup, { configs, loads, block, hooks });
  return { capacity, configs };
}

// One block of the ladder: both sides started, warmed, then the pair at each rate until
// both fell behind one (the higher rates are then marked skipped, not sent).
async function ladderBlock(setup, { configs, loads, block, hooks }) {
  const { settings, stop } = setup;
  const [base0, cand0] = configs.filter((c) => c.load === loads[0]);
  const order = block % 2 ? [cand0, base0] : [base0, cand0];
  const servers = [];
  let members = order;
  try {
    await startPair(setup, order, (c) => setup.sides[c === base0 ? 0 : 1], block, servers);
    await warmPair(servers, order, settings);
    for (const load of loads) {
      if (stop.requested) break;
      const [base, cand] = configs.filter((c) => c.load === load);
      members = order.map((c) => (c === base0 ? base : cand));
      const at = { of: members.indexOf(cand), partner: members.indexOf(base), partnerId: base.id };
      const result = await pair.measurePair({
        ...pairCommon(setup, servers),
        rate: cand.rate,
        windows: settings.windows,
        onWindow: windowKeeper({ save: hooks.onSample }, cand, { ...at, block, group: block, rate: cand.rate }),
      });
      const counted = result.windows.filter((w) => w.counted).length;
      members.forEach((c, i) =>
        c.samples.push(pairSample(result, members, i, { block, group: block, rate: cand.rate, ladder: true })),
      );
      hooks.onPair({ block, load, rate: cand.rate, counted });
      if (result.totals.every((t) => t.due > 0 && t.sent < HELD_MIN * t.due)) {
        for (const rest of loads.filter((x) => x > load))
          hooks.onPair({ block, load: rest, rate: null, counted: 0, skipped: true });
        break;
      }
    }
  } catch (err) {
    throw await sideFailure(err, { servers, members, configs, block, at: `at ${members[0].rate} req/s ` });
  } finally {
    await Promise.all(servers.map((x) => x.stop()));
  }
}

// --instance with --load: the baseline's capacity first, then the pairs at the ladder of rates.
function ladderSession(plan) {
  const { settings } = plan;
  const [base, cand] = settings.names;
  return standInSession(plan, {
    title: `Your service on ${settings.instance.name} stand-ins: ${cand} against ${base}`,
    progress: { total: settings.blocks * settings.loads.length, step: 'pair' },
    measure(r, setup, { save, progress }) {
      progress.log(
        `measuring the capacity of ${base} as a ${settings.instance.name} stand-in (closed loop, two ` +
          `processes at once; then its open-loop knee)`,
      );
      return measureAppOnInstance(setup, {
        log: (line) => progress.log(line),
        onCapacity: (capacity, configs) => {
          r.learned.capacity = capacity;
          r.configs = configs;
          progress.log(
            `${base}'s capacity: ${capacity.rps.toLocaleString('en-US')} req/s closed loop (bursts ` +
              `${capacity.bursts.join(', ')}); open-loop knee ${capacity.knee.rps.toLocaleString('en-US')} ` +
              `req/s, the ladder's 100%`,
          );
          save();
        },
        onSample: save,
        onPair: (p) => {
          r.app = analyzeApp(r);
          save();
          progress.tick(
            p.skipped
              ? `block ${p.block + 1}/${settings.blocks} · ${Math.round(p.load * 100)}%: not sent (both fell ` +
                  `behind a lower rate)`
              : `block ${p.block + 1}/${settings.blocks} · ${Math.round(p.load * 100)}% ` +
                  `(${p.rate.toLocaleString('en-US')} req/s): ${p.counted}/${settings.windows} windows counted`,
          );
        },
      });
    },
  });
}

module.exports = { measureAppOnInstance, ladderSession };
