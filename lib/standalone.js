'use strict';
// A helper process ctxbench starts beside its servers (the downstream service, the agents'
// sink), run on its own: listens on PORT (default 0, any free port) and HOST (default
// 127.0.0.1), prints one JSON line {"message": "<what> listening", port, pid} when ready,
// one line and exit 1 when it cannot listen, and exits when its starter is gone: stdin
// closed (the runner's pipe, however the runner went), SIGTERM or SIGINT.
function serveStandalone(server, what, env = process.env) {
  const port = Number(env.PORT || 0);
  const host = env.HOST || '127.0.0.1';
  server.on('error', (err) => {
    process.stderr.write(`ctxbench: ${what} cannot listen on ${host}:${port} (${err.code || err.message})\n`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    process.stdout.write(
      JSON.stringify({ message: `ctxbench ${what} listening`, port: server.address().port, pid: process.pid }) + '\n',
    );
  });
  process.stdin.on('data', () => {});
  process.stdin.on('end', () => process.exit(0));
  process.once('SIGTERM', () => process.exit(0));
  process.once('SIGINT', () => process.exit(0));
}

module.exports = { serveStandalone };
