'use strict';
// The runner's control requests (/healthz, /__stats, a driver's first probe): never used
// for load. fetch with AbortSignal.timeout, so every probe is bounded; errors are one
// line naming the URL and the socket error code (ECONNREFUSED, …) when there is one.

async function getText(url, { timeoutMs = 5000, headers = {} } = {}) {
  let res;
  try {
    res = await fetch(url, { headers: { connection: 'close', ...headers }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    if (err.name === 'TimeoutError')
      throw new Error(`no answer from ${url} within ${timeoutMs / 1000} s`, { cause: err });
    throw new Error(`${url}: ${err.cause?.code || err.cause?.message || err.message}`, { cause: err });
  }
  const body = await res.text();
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
  return body;
}

async function getJson(url, options) {
  const text = await getText(url, options);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${url} did not answer JSON`);
  }
}

module.exports = { getText, getJson };
