'use strict';
// Progress on stderr: a bar with ETA on a terminal (cli-progress), plain lines elsewhere
// (CI logs, pipes) so the log stays readable.
const cliProgress = require('cli-progress');

function createProgress({ total, label }) {
  const tty = Boolean(process.stderr.isTTY);
  let done = 0;
  const started = Date.now();
  let bar = null;
  if (tty) {
    bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {percentage}% | {value}/{total} | ETA {eta_formatted} | {status}`,
        stream: process.stderr,
        hideCursor: true,
        etaBuffer: 20,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { status: 'starting' });
  }
  const eta = () => {
    if (done === 0) return '?';
    const s = Math.round(((Date.now() - started) / done) * (total - done) / 1000);
    return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  };
  // Without a terminal: a status line at most every 10 s, so a log shows it is alive.
  let lastLine = Date.now();
  return {
    tick(status, steps = 1) {
      done += steps;
      if (bar) bar.update(done, { status });
      else if (Date.now() - lastLine >= 10000) {
        lastLine = Date.now();
        process.stderr.write(`${label}: ${status} (${done}/${total}, ETA ${eta()})\n`);
      }
    },
    status(status) {
      if (bar) bar.update(done, { status });
    },
    // A line that must stay in the log (a round finished, a warning, a failure).
    log(line) {
      if (bar) {
        bar.stop();
        process.stderr.write(`${line}\n`);
        bar.start(total, done, { status: '' });
      } else {
        lastLine = Date.now();
        process.stderr.write(`${label}: ${line} (${done}/${total}, ETA ${eta()})\n`);
      }
    },
    stop() {
      if (bar) bar.stop();
    },
  };
}

module.exports = { createProgress };

// Ctrl-C (or SIGTERM) during a long command: finish the current step, keep everything
// measured; a second Ctrl-C quits at once (what was saved stays saved).
// Returns { requested, signal (AbortSignal), release() }.
function onInterrupt(progress, step = 'sample') {
  const controller = new AbortController();
  const stop = { requested: false, signal: controller.signal };
  const handler = () => {
    if (stop.requested) process.exit(130);
    stop.requested = true;
    controller.abort();
    progress.log(`interrupted: finishing the current ${step}, keeping everything measured (Ctrl-C again to quit now)`);
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
