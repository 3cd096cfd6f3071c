'use strict';
// The two sides of `ctxbench app` (two start commands of a team's own service), as every
// measuring path sees them: the duet (bench/app/app.js), --predict (bench/app/app-predict.js) and the
// --instance stand-ins (bench/app/app-stand-in.js): their records, their requests and load, how a
// side that died is named, and --probe's process beside the measured ones.
const fs = require('node:fs');
const { randomBytes } = require('node:crypto');
const { autocannon } = require('../../load/autocannon'); // required lazily there
const { startApp, AppStartError } = require('./app-process');
const { oomOf, oomText } = require('../processes/cgroup');
const { probeEnv, countResources, makeDir } = require('../probes/probe');

// --probe: requests after a warm-up, on the first --path (the help text names them).
const PROBE = { requests: 2000, warmup: 500 };

// The start commands with the URLs of what --with started (the same for both sides).
const withEnv = (commands, serverEnv) => commands.map((c) => ({ ...c, env: { ...serverEnv } }));

// The requests of one side for one load: every path in turn; with an id header, a fresh
// id per request and the answer's header checked against it (autocannon's documented
// setupRequest/onResponse; one request in flight per connection, so the context a
// response sees is its own request's).
function requestsFor(paths, idHeader, counts) {
  const prefix = randomBytes(6).toString('hex');
  const wanted = idHeader ? idHeader.toLowerCase() : null;
  let n = 0;
  return paths.map((path) => ({
    method: 'GET',
    path,
    setupRequest(req, context) {
      if (!wanted) return req;
      const id = `${prefix}-${(n++).toString(16)}`;
      context.id = id;
      return { ...req, headers: { ...req.headers, [idHeader]: id } };
    },
    onResponse(status, _body, context, headers) {
      counts.responses++;
      if (status < 200 || status >= 300) counts.non2xx++;
      if (!wanted) return;
      const key = Object.keys(headers || {}).find((k) => k.toLowerCase() === wanted);
      const got = key ? String(headers[key]) : null;
      if (got === context.id) counts.kept++;
      else if (got && got.startsWith(prefix)) counts.mismatches++;
      else counts.lost++;
    },
  }));
}

// The two sides' configurations (duet and the operating point): the baseline's, the candidate's.
const sideConfigs = (sides) =>
  sides.map((side, i) => ({
    id: `app/${side.name}`,
    arm: i === 0 ? 'baseline' : 'candidate',
    strategy: side.name,
    name: side.name,
    command: side.command,
    userSupplied: true,
    processes: [],
    samples: [],
    error: null,
  }));

const newCounts = () => ({ responses: 0, non2xx: 0, kept: 0, mismatches: 0, lost: 0, errors: 0 });

// Both sides under load for durationS at once; resolves per side { counts }. pathsBySide:
// a side's own paths where it has them (the reference server of --predict), else `paths`.
async function loadBoth(servers, { paths, pathsBySide = [], idHeader, connections, durationS }) {
  return Promise.all(
    servers.map(async (s, i) => {
      const counts = newCounts();
      const result = await autocannon({
        url: s.url,
        connections,
        pipelining: 1,
        duration: durationS,
        requests: requestsFor(pathsBySide[i] ?? paths, idHeader, counts),
      });
      counts.errors = (result.errors || 0) + (result.timeouts || 0);
      return counts;
    }),
  );
}

// A side that died under load -> the AppStartError that ends the run with its reason (an OOM
// kill of a stand-in's cgroup named as such), carrying what was measured; any other error as
// it came. members: the configs in the servers' order; at: where it died, before "in block N".
async function sideFailure(err, { servers, members, configs, block, at = '' }) {
  if (err instanceof AppStartError) return Object.assign(err, { configs });
  // Whose process died, and why. One that just died may not have reported its exit yet.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const i = servers.findIndex((x) => !x.alive());
  if (i < 0) return err;
  const c = members[i];
  const oom = servers[i].cgroup ? oomOf(servers[i].cgroup) : null;
  const exit = servers[i].exitInfo();
  const tail = servers[i].stderrTail();
  const why = oom ? oomText(oom) : exit?.signal ? `killed by ${exit.signal}` : `exit code ${exit?.code}`;
  c.error = {
    message:
      `${c.name}: \`${c.command}\` ${oom ? 'was ' : 'exited ('}${why}${oom ? '' : ')'} ${at}` +
      `in block ${block + 1}${tail ? `: ${tail}` : ''}`,
    ...(oom && { oom }),
  };
  return Object.assign(new AppStartError(c.error.message), { configs });
}

// One side once more, in a probe process, for its async resources per request.
async function probeSide(side, settings) {
  const dir = makeDir();
  const app = await startApp({
    name: side.name,
    command: side.command,
    health: settings.health,
    timeoutMs: settings.startupTimeout * 1000,
    env: { ...side.env, ...probeEnv(dir) },
  });
  try {
    const counted = await countResources({
      url: `${app.url}${settings.paths[0]}`,
      dir,
      requests: PROBE.requests,
      concurrency: settings.connections,
      warmup: PROBE.warmup,
    });
    return { name: side.name, command: side.command, path: settings.paths[0], ...counted };
  } finally {
    await app.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// --probe: each side once more, in a probe process, for its async resources per request.
async function probeSides(sides, settings, progress) {
  const probes = [];
  for (const side of sides) {
    progress.log(
      `probing ${side.name}: async resources per request (${PROBE.requests} requests at ` +
        `${settings.connections} in flight, a probe process)`,
    );
    probes.push(await probeSide(side, settings));
  }
  return { sides: probes };
}

module.exports = { PROBE, withEnv, requestsFor, sideConfigs, loadBoth, sideFailure, probeSide, probeSides };
