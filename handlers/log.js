'use strict';
// Log sinks. 'stdout' writes one Cloud Logging structured line per level, the shape
// App Engine's agent turns into a LogEntry correlated with the request's trace.

function stdoutSink(project) {
  const tracePrefix = `projects/${project}/traces/`;
  return (id, level) => {
    process.stdout.write(
      JSON.stringify({
        severity: 'INFO',
        message: `level ${level}`,
        // A lost context has no trace to point at: leave the field out (JSON drops it).
        'logging.googleapis.com/trace': id === undefined ? undefined : tracePrefix + id,
        depth: level,
      }) + '\n',
    );
  };
}

const SINKS = {
  none: () => undefined,
  stdout: stdoutSink,
};

const names = Object.keys(SINKS);

function makeLogger(name, project) {
  return SINKS[name](project);
}

module.exports = { names, makeLogger };
