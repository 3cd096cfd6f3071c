'use strict';
// The integrity suite's soak: many requests through the mixed chain in a second fresh server
// (--expose-gc), and memory after a forced GC before and after.
const { signedPctText } = require('../../lib/format');
const client = require('./integrity-client');
const { cellOf, pick, sampledParentFor } = require('./integrity-cells');
const { startFor, failServer } = require('./integrity-servers');

const SOAK_GROWTH_LIMIT_PCT = 20;

// The soak: warm up, GC, measure, send soakRequests, GC, measure.
async function measureSoak(url, settings, { checker, stop, onProgress }) {
  const path = '/scenario/soak';
  // Warm up long enough for the heap to reach its working size under this concurrency
  // (docs/investigations.md, "Figures that code comments carried"), so the soak's growth is growth.
  const warmup = Math.min(
    5000,
    Math.max(Math.min(2000, settings.soakRequests), Math.round(settings.soakRequests / 20)),
  );
  await client.fire(url, path, { checker, total: warmup, concurrency: settings.concurrency, stop });
  const before = await client.postJson(`${url}/__gc`);
  const started = Date.now();
  const tally = await client.fire(url, path, {
    checker,
    total: settings.soakRequests,
    concurrency: settings.concurrency,
    stop,
    onProgress,
  });
  const seconds = (Date.now() - started) / 1000;
  const after = await client.postJson(`${url}/__gc`);
  const pct = (a, b) => (b > 0 ? (100 * (a - b)) / b : null);
  const growth = {
    rssPct: pct(after.rssBytes, before.rssBytes),
    heapUsedPct: pct(after.heapUsedBytes, before.heapUsedBytes),
  };
  const flags = [];
  if (growth.heapUsedPct > SOAK_GROWTH_LIMIT_PCT) flags.push(`heap used +${growth.heapUsedPct.toFixed(0)}%`);
  if (growth.rssPct > SOAK_GROWTH_LIMIT_PCT) flags.push(`RSS +${growth.rssPct.toFixed(0)}%`);
  return {
    tally,
    warmup,
    seconds,
    before,
    after,
    growth,
    limitPct: SOAK_GROWTH_LIMIT_PCT,
    flagged: flags.length > 0,
    flags,
  };
}

// One strategy's soak on its own server: its cell and its memory record, saved. The server
// is stopped however this ends (answer, error or Ctrl-C).
async function runSoak(ctx, target, strategy) {
  const { settings, result, save, progress, stop, serverEnv } = ctx;
  let server = null;
  try {
    progress?.status(`${target.label} ${strategy}: soak (${settings.soakRequests} requests)`);
    server = await startFor(target, strategy, settings, { soak: true, env: serverEnv });
    const checker = client.createChecker({ sampledParent: sampledParentFor(strategy) });
    const onProgress = (done, total) => progress?.status(`${target.label} ${strategy}: soak ${done}/${total}`);
    const soak = await measureSoak(server.url, settings, { checker, stop, onProgress });
    const cell = cellOf({ target, strategy, name: 'soak', tally: soak.tally, serverAcf: server.first.acf });
    if (stop.requested) cell.interrupted = true;
    result.cells.push(cell);
    const memory = pick(soak, ['warmup', 'seconds', 'before', 'after', 'growth', 'limitPct', 'flagged', 'flags']);
    result.soak.push({
      node: target.label,
      nodeVersion: target.version,
      acf: server.first.acf,
      strategy,
      requests: soak.tally.requests,
      verdict: cell.verdict,
      ...memory,
      interrupted: Boolean(stop.requested),
    });
    save();
    progress?.tick(`${strategy} soak: ${soak.flagged ? `FLAGGED ${soak.flags.join(', ')}` : 'ok'}`);
    progress?.log(
      `${target.label} ${strategy}: soak ${soak.tally.requests} requests, heap ` +
        `${fmtPct(soak.growth.heapUsedPct)}, RSS ` +
        `${fmtPct(soak.growth.rssPct)}${soak.flagged ? ' FLAGGED' : ''}`,
    );
  } catch (err) {
    failServer(ctx, target, strategy, 'soak', err);
    save();
  } finally {
    if (server) await server.stop();
  }
}

const fmtPct = (x) => signedPctText(x, '?');

module.exports = { SOAK_GROWTH_LIMIT_PCT, measureSoak, runSoak };
