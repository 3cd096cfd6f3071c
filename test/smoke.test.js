'use strict';
// Tier: quick (one real server echoes the trace id)
const test = require('node:test');
const assert = require('node:assert');
const { startServer, get } = require('./helpers/server');

test('a started server echoes the trace id of the request', async (t) => {
  const server = await startServer({ STRATEGY: 'als', HOP: 'immediate' });
  t.after(() => server.stop());
  const id = '0123456789abcdef0123456789abcdef';
  const res = await get(server.url + '/', { headers: { 'x-cloud-trace-context': `${id}/7;o=1` } });
  assert.strictEqual(res.status, 200);
  assert.strictEqual(res.body, id);
  assert.strictEqual(res.headers['x-trace-id'], id);
});
