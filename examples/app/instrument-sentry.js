'use strict';
// Sentry for the example service, as Sentry documents it for CommonJS: this file is
// required before anything else (server.js does it first with CONTEXT=sentry), so its
// instrumentations patch http and Express as they load. Tracing on for every request
// (tracesSampleRate 1), as the cost model's `sentry` strategy runs it (context/sentry.js),
// so that `ctxbench app --predict --strategy sentry` compares like with like. Every
// envelope goes to SINK_URL, ctxbench's local sink (`ctxbench app --with sink`): nothing
// leaves the machine.
function loadSentry() {
  try {
    return require('@sentry/node');
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND') throw err;
  }
  // In ctxbench's own checkout: the pinned copy its `sentry` strategy runs (lib/agents.js),
  // installed by the first ctxbench command that starts a Sentry server.
  return require('../../lib/agents').requireAgent('sentry');
}

const sink = process.env.SINK_URL;
if (!sink) {
  process.stderr.write('CONTEXT=sentry needs SINK_URL (the local sink): run it under `ctxbench app --with sink`\n');
  process.exit(1);
}
const Sentry = loadSentry();
Sentry.init({
  dsn: `http://example@${new URL(sink).host}/1`,
  tracesSampleRate: 1.0,
  sendClientReports: false,
  environment: 'example',
});

module.exports = Sentry;
