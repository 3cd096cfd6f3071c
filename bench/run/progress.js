'use strict';
// Progress on stderr: a bar with ETA on a terminal (cli-progress), plain lines elsewhere
// (CI logs, pipes) so the log stays readable. A run adds blocks until it is precise or
// out of time, so its length is not known in advance: the total is the minimum design
// (perBlock steps x minimum blocks) and grows by a block when one is added; the ETA is
// never negative and never later than the time cap; the line says how far the worst
// ratio is from the precision target.
const cliProgress = require('cli-progress');

function formatS(s) {
  const v = Math.max(0, Math.round(s));
  return `${Math.floor(v / 60)}m${String(v % 60).padStart(2, '0')}s`;
}

function createProgress({ total, label, perBlock = null }) {
  const tty = Boolean(process.stderr.isTTY);
  let done = 0;
  let plannedGoal = '';
  let deadline = null;
  // The run's clock against its time cap, read when a line is printed (not when the block
  // was planned, which left a log saying 0m01s for a whole block).
  let clock = null;
  const goalText = () => plannedGoal.replace('{elapsed}', clock ? formatS((Date.now() - clock) / 1000) : '');
  const started = Date.now();
  let bar = null;
  const eta = () => {
    if (done === 0) return '?';
    let s = (((Date.now() - started) / done) * Math.max(0, total - done)) / 1000;
    if (deadline !== null) s = Math.min(s, Math.max(0, (deadline - Date.now()) / 1000));
    return formatS(s);
  };
  if (tty) {
    bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {value}/{total} | ETA {myEta} | {goal}{status}`,
        stream: process.stderr,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { status: 'starting', myEta: '?', goal: '' });
  }
  const fields = (status) => ({ status, myEta: eta(), goal: goalText() });
  let lastLine = Date.now();
  return {
    tick(status, steps = 1) {
      done += steps;
      if (done > total) total = done;
      if (bar) bar.update(done, fields(status));
      else if (Date.now() - lastLine >= 10000) {
        lastLine = Date.now();
        process.stderr.write(`${label}: ${goalText()}${status} (${done}/${total}, ETA ${eta()})\n`);
      }
    },
    status(status) {
      if (bar) bar.update(done, fields(status));
    },
    // Called before every block: the plan as the stopping rule sees it.
    plan({ block, minBlocks, precision, missing = [], elapsedS, maxTimeS }) {
      if (perBlock && block >= minBlocks) total = Math.max(total, done + perBlock);
      if (maxTimeS) deadline = Date.now() + (maxTimeS - elapsedS) * 1000;
      // A ratio with no interval yet (one block: no df; too few windows counted) is not
      // precise, it is unknown: said beside the worst of those that have one.
      const known = missing.filter((m) => typeof m.halfWidthPct === 'number');
      const unknown = missing.length - known.length;
      const worst = known.length ? Math.max(0, ...known.map((m) => m.halfWidthPct)).toFixed(1) : '?';
      const without = unknown && known.length ? `, ${unknown} without an interval` : '';
      const blocks = block < minBlocks ? `block ${block + 1}/${minBlocks}` : `extra block ${block + 1}`;
      // Before the first block there is no ratio at all: unknown, not precise.
      const prec = precision
        ? ` · worst ±${missing.length ? worst : block === 0 ? '?' : '≤' + precision} ` +
          `pp${missing.length ? without : ''} → ±${precision}`
        : '';
      if (maxTimeS) clock = Date.now() - elapsedS * 1000;
      const time = maxTimeS ? ` · {elapsed}/${formatS(maxTimeS)}` : '';
      plannedGoal = `${blocks}${prec}${time} | `;
      if (bar) bar.setTotal(total);
    },
    // A line that must stay in the log (a round finished, a warning, a failure).
    log(line) {
      if (bar) {
        bar.stop();
        process.stderr.write(`${line}\n`);
        bar.start(total, done, fields(''));
      } else {
        lastLine = Date.now();
        process.stderr.write(`${label}: ${goalText()}${line} (${done}/${total}, ETA ${eta()})\n`);
      }
    },
    stop() {
      if (bar) bar.stop();
    },
  };
}

module.exports = { createProgress };

// Ctrl-C (or SIGTERM) during a long command: finish the current step, keep everything
// measured; a second Ctrl-C quits at once (what was saved stays saved; the servers are
// killed on exit by bench/processes/server-process.js).
// Returns { requested, signal (AbortSignal), release() }.
//
// quit: for a step that has measured nothing worth keeping yet (rate mode's capacity
// probe): the first Ctrl-C calls it instead (it says why and ends the process itself).
function onInterrupt(progress, step = 'sample', { quit = null } = {}) {
  const controller = new AbortController();
  const stop = { requested: false, signal: controller.signal };
  const handler = () => {
    if (stop.requested) process.exit(130);
    stop.requested = true;
    controller.abort();
    if (quit) quit();
    else
      progress.log(
        `interrupted: finishing the current ${step}, keeping everything measured (Ctrl-C again to quit now)`,
      );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  stop.release = () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
  return stop;
}

module.exports.onInterrupt = onInterrupt;
