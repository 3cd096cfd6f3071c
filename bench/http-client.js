'use strict';
// Small GET helpers for the runner's control requests (/healthz, /__stats): never used
// for load. Works for http and https targets; always bounded by a timeout.
const http = require('node:http');
const https = require('node:https');

function getText(url, { timeoutMs = 5000 } = {}) {
  const lib = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.get(url, { timeout: timeoutMs, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        if (res.statusCode >= 200 && res.statusCode < 300) resolve(body);
        else reject(new Error(`${url} answered HTTP ${res.statusCode}`));
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${timeoutMs / 1000} s`)));
    req.on('error', (err) => reject(new Error(`${url}: ${err.code || err.message}`)));
  });
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
