'use strict';
// An undici keep-alive Agent shared by every request (2 connections, so requests queue
// for a connection and reuse the sockets other requests opened: nodejs/node#34401,
// #41978), calling the downstream ctxbench service with the callback API
// (agent.request(options, callback)). Reads: in the callback, in the response body's
// 'end' listener, and the id the downstream saw (it answers the traceparent /
// x-request-id it received). undici-bound passes both callbacks through the strategy's
// bind. Needs DOWNSTREAM_URL.
const { firstWrong, withBound } = require('./reads');

const CONNECTIONS = 2;

function create({ strategy, config = {} }) {
  const { current } = strategy;
  const bind = strategy.bind || ((fn) => fn);
  const make = () => {
    if (!config.downstreamUrl) return null;
    const { Agent } = require('undici');
    return new Agent({ connections: CONNECTIONS, keepAliveTimeout: 10000 });
  };
  const call = (agent, wrap) => (req) =>
    new Promise((resolve, reject) => {
      if (!agent)
        return reject(
          new Error(
            'DOWNSTREAM_URL is not set: the undici scenarios need the downstream service (ctxbench integrity ' +
              'starts one)',
          ),
        );
      // Forwarded: the id this request reads from its context, as a service forwards
      // its request id. In the query: the true id, by which the OpenTelemetry span
      // check names the request the client span was made for.
      agent.request(
        {
          origin: config.downstreamUrl,
          path: `/?id=${encodeURIComponent(req.traceId)}`,
          method: 'GET',
          headers: { 'x-request-id': String(current(req)) },
        },
        wrap((err, data) => {
          if (err) return reject(err);
          const reads = [['in the agent.request callback', current(req)]];
          let body = '';
          data.body.setEncoding('utf8');
          data.body.on('data', (c) => (body += c));
          data.body.on('error', reject);
          data.body.on(
            'end',
            wrap(() => {
              reads.push(
                ["in the response body's 'end' listener", current(req)],
                ['the id the downstream service received', body.split(',').pop()],
              );
              resolve(firstWrong(req, reads));
            }),
          );
        }),
      );
    });
  return {
    undici: call(make(), (fn) => fn),
    'undici-bound': call(make(), bind),
  };
}

// Measured with otel-selective, otel-full and otel-sdk-otlp (span check: nearly every client span in
// another request's trace).
const QUEUED =
  "undici's Pool queues a request while both connections are busy and creates it only when a connection frees " +
  'up, inside the request whose response freed it; creating it publishes undici:request:create, where the ' +
  'OpenTelemetry undici instrumentation starts the client span and injects traceparent from the context ' +
  "active there: the span is parented into that other request's trace and the downstream receives that trace";

// The 10% row gets no W3C parent from the client, so a request's trace id is not its id: the
// trace the downstream receives names no request (lost, where the always-on rows read leaked).
const QUEUED_UNNAMED =
  `${QUEUED}; otel-sdk-otlp-10's requests arrive without a W3C parent (it is head-sampled), so their ` +
  'traces are not their ids and the downstream reports a trace that names no request';

const INSIDE = 'binding the callbacks cannot help, the span and its header are made inside undici';

const CONTROL =
  'the answer arrives after a round trip to the downstream service, by which time other requests overwrote ' +
  'the module variable';

const SCENARIOS = [
  ...withBound(
    {
      name: 'undici',
      needs: 'http',
      describe:
        'undici keep-alive Agent (2 connections) shared by all requests, callback API, to the downstream ' +
        "service; reads in the callback, in the body's end listener, and the id the downstream received",
      control: CONTROL,
      explain: {
        'otel-selective': QUEUED,
        'otel-full': QUEUED,
        'otel-sdk-otlp': QUEUED,
        'otel-sdk-otlp-10': QUEUED_UNNAMED,
      },
    },
    {
      describe: "as undici, the request callback and the end listener passed through the strategy's bind",
      explain: {
        'otel-selective': `${QUEUED}; ${INSIDE}`,
        'otel-full': `${QUEUED}; ${INSIDE}`,
        'otel-sdk-otlp': `${QUEUED}; ${INSIDE}`,
        'otel-sdk-otlp-10': `${QUEUED_UNNAMED}; ${INSIDE}`,
      },
      bound: 'the callbacks were',
    },
  ),
];

module.exports = { create, SCENARIOS };
