'use strict';
// A real Redis through the two drivers teams use, each client shared by every request as
// a service shares it: ioredis (callbacks, promises, MULTI/EXEC, pub/sub) and node-redis
// (`redis`, promises and MULTI/EXEC). Each request writes its own id under its own key
// and reads it back, reading the context where the driver hands control back; the value
// read must be the request's own id too. Needs REDIS_URL (ctxbench integrity starts a
// redis-server and sets it).
//   ioredis-callback        client.set(key, id, cb), then client.get(key, cb)
//   ioredis-promise         await client.set(), await client.get()
//   ioredis-multi           client.multi().set().get().exec(cb)
//   ioredis-pubsub          a publish, and the reply read in the one 'pmessage' listener
//                           of a subscriber connection opened at start-up
//   redis-promise, redis-multi   the same through node-redis (promises only)
// The -bound twins pass the callbacks (and the per-request pub/sub listener) through the
// strategy's bind.
const { firstWrong, withBound } = require('./reads');

const CHANNELS = 'ctxbench:reply:*';
const missing = () =>
  Promise.reject(
    new Error('REDIS_URL is not set: the Redis scenarios need a Redis server (ctxbench integrity starts one)'),
  );

// The steps below run once, at start-up; each keeps the variables its request closures read
// in its own scope (as create's were), so a request reads them no farther away than before.

// The ioredis connections: a client, a publisher, and a subscriber with its one listener for
// every request, registered once (the usual way): it resolves the request the reply is for,
// reading the context it runs in.
function openIoredis(url, current) {
  const Redis = require('ioredis');
  const options = { maxRetriesPerRequest: 1, enableOfflineQueue: true };
  const client = new Redis(url, options);
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  for (const c of [client, publisher, subscriber]) c.on('error', () => {});
  const waiting = new Map();
  subscriber.setMaxListeners(0);
  const subscribed = subscriber.psubscribe(CHANNELS);
  subscriber.on('pmessage', (_pattern, channel, message) => {
    const w = waiting.get(channel);
    if (!w || w.bound) return;
    waiting.delete(channel);
    w.resolve([
      ['in the pmessage listener', current(w.req)],
      ['the message received', message],
    ]);
  });
  return { client, publisher, subscriber, waiting, subscribed };
}

// ioredis's commands on the shared client: callbacks, promises, MULTI/EXEC.
function ioredisCommands(client, current) {
  const key = (req) => `ctxbench:${req.traceId}`;

  const callbackStyle = (wrap) => (req) =>
    new Promise((resolve, reject) => {
      client.set(
        key(req),
        req.traceId,
        wrap((err) => {
          if (err) return reject(err);
          const reads = [['in the set callback', current(req)]];
          client.get(
            key(req),
            wrap((gerr, value) => {
              if (gerr) return reject(gerr);
              reads.push(['in the get callback', current(req)], ['the value read back', value]);
              resolve(firstWrong(req, reads));
            }),
          );
        }),
      );
    });

  const promiseStyle = async (req) => {
    await client.set(key(req), req.traceId);
    const reads = [['after await set()', current(req)]];
    const value = await client.get(key(req));
    reads.push(['after await get()', current(req)], ['the value read back', value]);
    return firstWrong(req, reads);
  };

  const multiStyle = (wrap) => (req) =>
    new Promise((resolve, reject) => {
      client
        .multi()
        .set(key(req), req.traceId)
        .get(key(req))
        .exec(
          wrap((err, results) => {
            if (err) return reject(err);
            resolve(
              firstWrong(req, [
                ['in the exec callback', current(req)],
                ['the value read back', results[1][1]],
              ]),
            );
          }),
        );
    });
  return { callbackStyle, promiseStyle, multiStyle };
}

// A publish per request, its reply read in the subscriber's shared listener, or (bound) in a
// listener of its own.
function ioredisPubsub({ publisher, subscriber, waiting, subscribed }, current, bind) {
  return (bound) => async (req) => {
    await subscribed;
    const channel = `ctxbench:reply:${req.traceId}`;
    const reads = new Promise((resolve) => {
      if (!bound) return waiting.set(channel, { req, resolve });
      // The remedy: a listener per request, bound to it, removed when its reply came.
      waiting.set(channel, { req, bound: true });
      const listener = bind((_pattern, ch, message) => {
        if (ch !== channel) return;
        subscriber.removeListener('pmessage', listener);
        waiting.delete(channel);
        resolve([
          ['in the bound pmessage listener', current(req)],
          ['the message received', message],
        ]);
      });
      subscriber.on('pmessage', listener);
    });
    await publisher.publish(channel, req.traceId);
    return firstWrong(req, await reads);
  };
}

// node-redis (`redis`): one client, promises and MULTI/EXEC.
function nodeRedis(url, current) {
  const { createClient } = require('redis');
  const node = createClient({ url });
  node.on('error', () => {});
  const nodeReady = node.connect();

  const key = (req) => `ctxbench:${req.traceId}`;

  const nodePromise = async (req) => {
    await nodeReady;
    await node.set(key(req), req.traceId);
    const reads = [['after await set()', current(req)]];
    const value = await node.get(key(req));
    reads.push(['after await get()', current(req)], ['the value read back', value]);
    return firstWrong(req, reads);
  };

  const nodeMulti = async (req) => {
    await nodeReady;
    const results = await node.multi().set(key(req), req.traceId).get(key(req)).exec();
    return firstWrong(req, [
      ['after await multi().exec()', current(req)],
      ['the value read back', results[1]],
    ]);
  };
  return { nodePromise, nodeMulti };
}

function create({ strategy, config = {} }) {
  const { current } = strategy;
  const bind = strategy.bind || ((fn) => fn);
  const same = (fn) => fn;
  // Without REDIS_URL every scenario (SCENARIOS, below) fails with the reason.
  if (!config.redisUrl) return Object.fromEntries(SCENARIOS.map((x) => [x.name, missing]));
  // Opened at start-up, outside any request, as a service opens its clients.
  const io = openIoredis(config.redisUrl, current);
  const { callbackStyle, promiseStyle, multiStyle } = ioredisCommands(io.client, current);
  const pubsub = ioredisPubsub(io, current, bind);
  const { nodePromise, nodeMulti } = nodeRedis(config.redisUrl, current);

  return {
    'ioredis-callback': callbackStyle(same),
    'ioredis-callback-bound': callbackStyle(bind),
    'ioredis-promise': promiseStyle,
    'ioredis-multi': multiStyle(same),
    'ioredis-multi-bound': multiStyle(bind),
    'ioredis-pubsub': pubsub(false),
    'ioredis-pubsub-bound': pubsub(true),
    'redis-promise': nodePromise,
    'redis-multi': nodeMulti,
  };
}

const AFTER_ROUND_TRIP =
  'the callbacks run after the Redis round trip, by which time other requests overwrote the module variable';

const SCENARIOS = [
  ...withBound(
    {
      name: 'ioredis-callback',
      needs: 'redis',
      describe:
        'real Redis, one ioredis client shared by all requests: client.set(key, id, cb) then client.get(key, ' +
        'cb); reads in both callbacks and the value read back',
      control: AFTER_ROUND_TRIP,
      // ioredis calls a callback from the promise of its command, created inside the
      // request: a promise continuation, which every context strategy follows.
      explain: {},
    },
    { describe: "as ioredis-callback, both callbacks wrapped with the strategy's bind", bound: 'the callbacks were' },
  ),
  {
    name: 'ioredis-promise',
    needs: 'redis',
    describe: 'the same client, promise style: await client.set(), await client.get(); reads after each await',
    control: AFTER_ROUND_TRIP,
    explain: {},
  },
  ...withBound(
    {
      name: 'ioredis-multi',
      needs: 'redis',
      describe:
        'the same client, a transaction: client.multi().set(key, id).get(key).exec(cb); reads in the exec ' +
        'callback and the value read back',
      control: AFTER_ROUND_TRIP,
      explain: {},
    },
    {
      describe: "as ioredis-multi, the exec callback wrapped with the strategy's bind",
      bound: 'the exec callback was',
    },
  ),
  ...withBound(
    {
      name: 'ioredis-pubsub',
      needs: 'redis',
      describe:
        'a subscriber connection opened at start-up with one pmessage listener for all requests; each request ' +
        'publishes to its own channel and its reply is read in that listener',
      control:
        "the listener runs when the subscriber's socket delivers the message, long after other requests " +
        'overwrote the module variable',
      explain: {
        '*':
          "the one pmessage listener runs from the subscriber connection's socket, in the context that " +
          "connection was opened in (start-up, no request): no strategy can give it the publishing request's " +
          'id; register a listener per request through bind (ioredis-pubsub-bound)',
      },
    },
    {
      describe: "as ioredis-pubsub, with a listener per request added through the strategy's bind",
      bound: 'the per-request listener was',
    },
  ),
  {
    name: 'redis-promise',
    needs: 'redis',
    describe:
      'one node-redis client (`redis`) shared by all requests: await client.set(), await client.get(); reads ' +
      'after each await',
    control: AFTER_ROUND_TRIP,
    explain: {},
  },
  {
    name: 'redis-multi',
    needs: 'redis',
    describe:
      'the same node-redis client, a transaction: await client.multi().set().get().exec(); reads after it and ' +
      'the value read back',
    control: AFTER_ROUND_TRIP,
    explain: {},
  },
];

module.exports = { create, SCENARIOS };
