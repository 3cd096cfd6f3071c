'use strict';
// Tier: quick (every framework's routes on real servers, and the global control caught leaking on each)
// Every framework (servers/*.js) answers the same routes the same way, and the context
// integrity check means the same thing on each: als keeps every id, global leaks.
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const { startServer, get, fireConcurrent } = require('./helpers/server');

const FRAMEWORKS = ['express', 'http', 'fastify'];
const ID = '0123456789abcdef0123456789abcdef';

// The requests compared across frameworks, and the response fields that must agree.
const REQUESTS = [
  { path: '/', headers: { 'x-cloud-trace-context': `${ID}/7;o=1` } },
  { path: '/depth/1', headers: { traceparent: `00-${ID}-0123456789abcdef-01` } },
  { path: '/depth/5', headers: { 'x-request-id': 'req-42' } },
  { path: '/depth/1024', headers: { 'x-cloud-trace-context': `${ID}/7;o=1` } },
  { path: '/depth/0', headers: {} },
  { path: '/depth/1025', headers: {} },
  { path: '/depth/abc', headers: {} },
  { path: '/depth/-3', headers: {} },
  { path: '/healthz', headers: {} },
  // The integrity scenarios' routes (handlers/scenarios), mirrored on every framework.
  { path: '/scenario/chain-immediate', headers: { 'x-cloud-trace-context': `${ID}/7;o=1` } },
  { path: '/scenario/no-such-scenario', headers: {} },
];

// POST with a body sent in two pieces, read by the scenario from the raw request.
function post(url, headers, pieces) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'text/plain', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.write(pieces[0]);
    setTimeout(() => req.end(pieces[1]), 20);
  });
}

function shape(res) {
  return {
    status: res.status,
    body: res.body,
    'x-trace-id': res.headers['x-trace-id'],
    'content-type': res.headers['content-type'],
  };
}

test(
  'express, http and fastify answer /, ' + '/depth/:n and /healthz identically, and als keeps every id under load',
  async (t) => {
    const answers = {};
    for (const framework of FRAMEWORKS) {
      const server = await startServer({ FRAMEWORK: framework, STRATEGY: 'als', HOP: 'immediate', DEPTH: '4' });
      t.after(() => server.stop());
      answers[framework] = [];
      for (const r of REQUESTS) answers[framework].push(shape(await get(server.url + r.path, { headers: r.headers })));
      const headers = { 'x-cloud-trace-context': `${ID}/7;o=1` };
      answers[framework].push(
        shape(await post(server.url + '/scenario/body-bound', headers, ['piece 1;', 'piece 2;'])),
      );

      const stats = JSON.parse((await get(server.url + '/__stats')).body);
      assert.strictEqual(stats.framework, framework);
      assert.strictEqual(stats.strategy, 'als');

      const counts = await fireConcurrent(server.url + '/', { total: 2000, concurrency: 200 });
      assert.deepStrictEqual(
        counts,
        { kept: 2000, leaked: 0, lost: 0, errors: 0 },
        `${framework}: als must keep every id`,
      );
      await server.stop();
    }

    // The reference answers, spelled out once so a change in all three is still caught.
    const express = answers.express;
    assert.deepStrictEqual(express[0], {
      status: 200,
      body: ID,
      'x-trace-id': ID,
      'content-type': 'text/plain; charset=utf-8',
    });
    assert.deepStrictEqual(express[2], {
      status: 200,
      body: 'req-42',
      'x-trace-id': 'req-42',
      'content-type': 'text/plain; charset=utf-8',
    });
    for (const i of [4, 5, 6, 7]) {
      assert.deepStrictEqual(express[i], {
        status: 400,
        body: 'depth must be an integer from 1 to 1024\n',
        'x-trace-id': undefined,
        'content-type': 'text/plain; charset=utf-8',
      });
    }
    assert.deepStrictEqual(express[8], {
      status: 200,
      body: 'ok',
      'x-trace-id': undefined,
      'content-type': 'text/plain; charset=utf-8',
    });
    assert.deepStrictEqual(express[9], {
      status: 200,
      body: ID,
      'x-trace-id': ID,
      'content-type': 'text/plain; charset=utf-8',
    });
    assert.deepStrictEqual(express[10].status, 404);
    assert.deepStrictEqual(express[11], express[9], 'POST /scenario/body-bound keeps the id');
    const labels = [...REQUESTS.map((r) => `GET ${r.path}`), 'POST /scenario/body-bound'];
    for (const framework of ['http', 'fastify']) {
      labels.forEach((label, i) => assert.deepStrictEqual(answers[framework][i], express[i], `${framework} ${label}`));
    }
  },
);

test('the global control leaks under concurrency on every framework', async (t) => {
  for (const framework of FRAMEWORKS) {
    const server = await startServer({ FRAMEWORK: framework, STRATEGY: 'global', HOP: 'immediate' });
    t.after(() => server.stop());
    const counts = await fireConcurrent(server.url + '/', { total: 2000, concurrency: 200 });
    assert.strictEqual(counts.errors, 0, `${framework}: no request may fail`);
    assert.ok(counts.leaked > 0, `${framework}: global must leak, got ${JSON.stringify(counts)}`);
    await server.stop();
  }
});
