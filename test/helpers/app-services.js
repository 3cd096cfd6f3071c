'use strict';
// The services the `ctxbench app` tests measure, and the id check of a side:
// test/fixtures/work-app.js, its work and its echo set by env (test/app.test.js,
// test/all/app.test.js, test/helpers/interrupt.js), and the examples a team would start,
// examples/<name>/server.js, with the service `ctxbench app --with` runs beside them
// (test/all/agents.test.js: Sentry and the sink; test/all/mysql.test.js: MariaDB).
const assert = require('node:assert');
const path = require('node:path');
const { ROOT } = require('./server');
const { runCliJson } = require('./cli');

const WORK_APP = path.join(__dirname, '..', 'fixtures', 'work-app.js');
const workApp = (env) => `${env} ${JSON.stringify(process.execPath)} ${JSON.stringify(WORK_APP)}`;

// A side's ids (run.app.ids.baseline or .candidate): every answer checked, each with its own id.
function assertIdsKept(ids, what) {
  assert.ok(
    ids.checked && ids.kept > 0 && ids.kept === ids.requests && ids.mismatches === 0 && ids.lost === 0,
    `${what}: ${JSON.stringify(ids)}`,
  );
}

// `ctxbench app --with <service>` on examples/<example>: the plain server (param) beside the
// same with CONTEXT=<context>, ids read from x-request-id, 3 blocks of one 0.5-s window after
// 0.5 s of warm-up, no report; `extra` flags added. Expects exit 0; resolves as runCliJson does.
async function runExampleApp({ example, context, service, out, extra = [] }) {
  const file = path.join(ROOT, 'examples', example, 'server.js');
  const server = `${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`;
  return runCliJson(
    [
      'app',
      '--with',
      service,
      '--baseline',
      server,
      '--candidate',
      `CONTEXT=${context} ${server}`,
      '--names',
      `param,${context}`,
      '--health',
      '/healthz',
      '--id-header',
      'x-request-id',
      ...extra,
      '--blocks',
      '3',
      '--windows',
      '1',
      '--window',
      '0.5',
      '--warmup',
      '0.5',
    ],
    out,
  );
}

module.exports = { WORK_APP, workApp, assertIdsKept, runExampleApp };
