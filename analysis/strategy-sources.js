'use strict';
// Which runs feed which column of the headline (analysis/strategy-summary.js), and at which
// settings: the studies by preset, the default run's depths and strategies, each column's
// point, and those settings and machines as the notes under the table say them.
const path = require('node:path');
const { summaryOf } = require('./summary');
const { DEFAULTS } = require('../lib/presets');

// The studies the summary reads, by preset (the committed files of `ctxbench run --preset X`).
function pickSources(results) {
  const byPreset = (p) => results.find(({ run }) => run.kind === 'run' && run.settings?.preset === p) || null;
  const named = (x) => (x ? { ...x, name: x.name ?? path.basename(x.file, '.json') } : null);
  return {
    default: named(byPreset('default')),
    // The headline's other rows (the popular middlewares and the APM agents): the same
    // measurement as the default run, in a study of its own.
    popular: named(byPreset('popular')),
    // Every integrity study (the full matrix, and narrower ones such as the agents'): each
    // strategy's column reads the widest study that ran it (integritySourceOf).
    integrity: results.filter(({ run }) => run.kind === 'integrity').map(named),
    io: named(byPreset('io')),
    latency: named(byPreset('latency')),
    stores: named(byPreset('stores')),
    // The deployment column: every strategy on an instance stand-in at the autoscaler's
    // target, the study at the kernel's default period (its others are on its page).
    deployment: named(
      results.find(
        ({ run }) =>
          run.kind === 'run' &&
          run.settings?.preset === 'deployment-f1' &&
          run.settings.instance?.periodUs === 100000 &&
          !run.settings.instance?.burstUs,
      ) ?? byPreset('deployment-f1'),
    ),
    instructions: named(byPreset('instructions')),
    'depth-sweep': named(byPreset('depth-sweep')),
    // Second runs of a study (`ctxbench repro --compare …`): the default run's, the deployment study's.
    repro: results.filter(({ run }) => run.kind === 'repro' && Array.isArray(run.files) && run.repro?.rows).map(named),
  };
}

const described = (v) => ({ name: v.name, file: v.file, title: v.run.title ?? null });

// Rows from the popular study: only where its figures read like the default run's (the
// same baseline, method, hop and depths), for strategies the default run does not have.
function popularStrategies(popular, def, baseline, strategies) {
  const sameAsDefault =
    popular &&
    ['baseline', 'method'].every((k) => popular.run.settings?.[k] === def.run.settings?.[k]) &&
    String(popular.run.settings?.hops) === String(def.run.settings?.hops) &&
    String(popular.run.settings?.depths) === String(def.run.settings?.depths);
  return sameAsDefault
    ? [...new Set((popular.run.configs || []).map((c) => c.strategy))].filter(
        (st) => st !== baseline && !strategies.includes(st),
      )
    : [];
}

// The headline's plan (sources: pickSources with a default run): its strategies (the
// default run's, then the popular study's), its depths, and the point each other column
// reads. The options (ioHop, load, stores) are strategySummary's.
function headlinePlan(sources, { ioHop, load, stores }) {
  const def = sources.default;
  const configs = def.run.configs || [];
  const depths = [...new Set(configs.map((c) => c.depth).filter(Number.isFinite))].sort((a, b) => a - b);
  const shallowDepth = depths[0] ?? null;
  const deepDepth = depths.length > 1 ? depths.at(-1) : null;
  const baseline = def.run.settings?.baseline ?? null;
  const strategies = [...new Set([...(def.run.settings?.strategies || []), ...configs.map((c) => c.strategy)])].filter(
    (st) => configs.some((c) => c.strategy === st),
  );
  const popular = sources.popular;
  const fromPopular = popularStrategies(popular, def, baseline, strategies);
  strategies.push(...fromPopular);
  const ioDepth = sources.io
    ? Math.min(...(sources.io.run.configs || []).filter((c) => c.hop === ioHop).map((c) => c.depth))
    : null;
  // The latency column moves onto the F1 stand-in once the deployment study holds it as
  // well as the latency study does (issue 47): its first run (3 blocks) gave a p99 added in 6
  // of 12 rows where the latency study (14 blocks) gives 11, so until then it stays there.
  const latencySource = sources.latency ?? sources.deployment;
  const latencyDepth = latencySource
    ? Math.min(...(latencySource.run.configs || []).map((c) => c.depth).filter(Number.isFinite))
    : null;
  const sweep = sources['depth-sweep'];
  const sweepBroken = (c) => Boolean(summaryOf(c, sweep.run.configs, sweep.run.settings?.baseline).broken);
  const storesNode = sources.stores
    ? (sources.stores.run.configs || [])
        .map((c) => c.node)
        .filter(Boolean)
        .sort()
        .at(-1)
    : null;
  return {
    sources,
    def,
    // The precision the headline promises a % figure (half its 95% interval, in points): its
    // margin, the width within which it says "within ±2%" or not (analysis/strategy-held.js).
    promisedPp: def.run.settings?.margin ?? DEFAULTS.margin,
    popular,
    configs,
    baseline,
    strategies,
    fromPopular,
    shallowDepth,
    deepDepth,
    ioHop,
    ioDepth,
    load,
    latencySource,
    latencyDepth,
    stores,
    storesNode,
    sweep,
    sweepBroken,
  };
}

// The settings each column was measured at, for the notes under the table (plan: headlinePlan).
function settingsOf(plan) {
  const { def, configs, sources, ioHop, ioDepth, load, latencySource, latencyDepth } = plan;
  const { shallowDepth, stores, storesNode } = plan;
  return {
    method: def.run.settings?.method,
    marginPct: plan.promisedPp,
    hop: configs[0]?.hop ?? null,
    node: configs[0]?.node ?? null,
    io: sources.io
      ? {
          hop: ioHop,
          depth: ioDepth,
          baseline: sources.io.run.settings?.baseline ?? null,
          method: sources.io.run.settings?.method,
          load: sources.io.run.settings?.loads?.length === 1 ? sources.io.run.settings.loads[0] : null,
        }
      : null,
    latency: latencySource
      ? {
          load,
          depth: latencyDepth,
          hop: (latencySource.run.configs || [])[0]?.hop ?? null,
          baseline: latencySource.run.settings?.baseline ?? null,
          method: latencySource.run.settings?.method,
          instance: latencySource.run.settings?.instance?.name ?? null,
          knee: Boolean(latencySource.run.learned?.capacity?.groups?.some((g) => g.knee)),
        }
      : null,
    deployment: sources.deployment
      ? {
          instance: sources.deployment.run.settings?.instance?.name ?? null,
          periodUs: sources.deployment.run.settings?.instance?.periodUs ?? null,
          targetCpu: sources.deployment.run.settings?.targetCpu ?? null,
          slo: sources.deployment.run.settings?.slo?.text ?? null,
          baseline: sources.deployment.run.settings?.baseline ?? null,
          depth: shallowDepth,
        }
      : null,
    stores: sources.stores
      ? { stores, node: storesNode, baseline: sources.stores.run.settings?.baseline ?? null }
      : null,
  };
}

// On which machine each study of a headline column was measured (CPU model, cores).
const machinesOf = (sources) =>
  Object.entries(sources)
    .filter(
      ([k, v]) =>
        v && !Array.isArray(v) && ['default', 'popular', 'io', 'latency', 'stores', 'deployment'].includes(k),
    )
    .map(([k, v]) => ({
      study: k,
      name: v.name,
      cpuModel: v.run.environment?.cpuModel ?? null,
      cores: v.run.environment?.cores ?? null,
      date: v.run.environment?.date ?? null,
    }));

// The studies read, by name, file and title (the repro comparisons are not a source).
const describedSources = (sources) =>
  Object.fromEntries(
    Object.entries(sources)
      .filter(([k]) => k !== 'repro')
      .map(([k, v]) => [k, Array.isArray(v) ? v.map(described) : v ? described(v) : null]),
  );

module.exports = { pickSources, described, headlinePlan, settingsOf, machinesOf, describedSources };
