'use strict';
// Sentry for the example service, as Sentry documents it for CommonJS: this file is
// required before anything else (server.js does it first with CONTEXT=sentry), so its
// instrumentations patch http and Express as they load. Tracing on for every request
// (tracesSampleRate 1), as the cost model's `sentry` strategy runs it (context/sentry.js),
// so that `ctxbench app --predict --strategy sentry` compares like with like. Every
// envelope goes to SINK_URL, ctxbench's local sink (`ctxbench app --with sink`): nothing
// leaves the machine.
// A team's own instrument file requires '@sentry/node'. This one loads the copy the cost
// model measured (lib/agents.js: the same pinned version, installed into ctxbench's cache
// by the first ctxbench command that starts a Sentry server), so that its measurement and
// the model's `sentry` line are of the same agent.
function loadSentry() {
  try {
    return require('../../lib/agents').requireAgent('sentry');
  } catch (err) {
    process.stderr.write(`${err.message.split('\n')[0]}\n`);
    process.exit(1);
  }
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
